// The CUDA backend's LU without pivoting (see lu.cuh for the schedule).
#include "lu.cuh"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cmath>

#include "gpu500/core/cuda/check.cuh"
#include "kernels.cuh"
#include "schedule.hpp"

namespace gpu500::hpl_mxp::detail::cuda {

float panel_scale(precision p, std::int64_t n) {
  if (p != precision::fp16 || n < 8) return 1.0f;
  return std::ldexp(1.0f, static_cast<int>(std::floor(std::log2(static_cast<double>(n) / 4.0))));
}

device_lu::device_lu(std::int64_t n, std::int64_t lda, int nb, precision p)
    : n_(n), lda_(lda), nb_(std::max(1, nb)), prec_(p), scale_(panel_scale(p, n)) {
  if (p != precision::fp32 && n > 0) {
    const std::int64_t w = std::min<std::int64_t>(nb_, n);
    for (int s = 0; s < 2; ++s) {
      lcopy_[s] = gpu::device_buffer<std::uint16_t>(static_cast<std::size_t>(lda * w));
      ucopy_[s] = gpu::device_buffer<std::uint16_t>(static_cast<std::size_t>(w * lda));
    }
  }
  // The panel stream at the highest priority: its small kernels take SMs as the update's GEMM
  // tiles finish, rather than queueing behind the whole GEMM.
  int least = 0, greatest = 0;
  GPU500_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  GPU500_CUDA_CHECK(cudaStreamCreateWithPriority(&s_update_, cudaStreamDefault, least));
  GPU500_CUDA_CHECK(cudaStreamCreateWithPriority(&s_panel_, cudaStreamDefault, greatest));
  GPU500_CUDA_CHECK(cudaEventCreateWithFlags(&panel_done_, cudaEventDisableTiming));
  GPU500_CUDA_CHECK(cudaEventCreateWithFlags(&strips_done_, cudaEventDisableTiming));
  cublas_check(cublasCreate(&h_update_), "cublasCreate");
  cublas_check(cublasCreate(&h_panel_), "cublasCreate");
  cublas_check(cublasSetStream(h_update_, s_update_), "cublasSetStream");
  cublas_check(cublasSetStream(h_panel_, s_panel_), "cublasSetStream");
}

device_lu::~device_lu() {
  if (h_update_) cublasDestroy(h_update_);
  if (h_panel_) cublasDestroy(h_panel_);
  if (panel_done_) cudaEventDestroy(panel_done_);
  if (strips_done_) cudaEventDestroy(strips_done_);
  if (s_update_) cudaStreamDestroy(s_update_);
  if (s_panel_) cudaStreamDestroy(s_panel_);
}

// Recursive halving (the left half a multiple of the small block) on the panel stream.
void device_lu::factor_diagonal(float* a, std::int64_t m) {
  if (m <= small_lu_block) {
    small_lu(a, lda_, static_cast<int>(m), s_panel_);
    return;
  }
  const std::int64_t m1 = (m / 2 + small_lu_block - 1) / small_lu_block * small_lu_block, m2 = m - m1;
  const int im1 = static_cast<int>(m1), im2 = static_cast<int>(m2), ld = static_cast<int>(lda_);
  const float one = 1.0f, minus_one = -1.0f;
  factor_diagonal(a, m1);
  cublas_check(cublasStrsm(h_panel_, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, im2,
                           im1, &one, a, ld, a + m1, ld),
               "cublasStrsm (diagonal block)");
  cublas_check(cublasStrsm(h_panel_, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT, im1, im2,
                           &one, a, ld, a + m1 * lda_, ld),
               "cublasStrsm (diagonal block)");
  cublas_check(cublasSgemm(h_panel_, CUBLAS_OP_N, CUBLAS_OP_N, im2, im2, im1, &minus_one, a + m1, ld, a + m1 * lda_,
                           ld, &one, a + m1 + m1 * lda_, ld),
               "cublasSgemm (diagonal block)");
  factor_diagonal(a + m1 + m1 * lda_, m2);
}

// Block column k: the diagonal block, L21, U12 and their low-precision copies into `set`.
void device_lu::panel(float* a, std::int64_t k, int set) {
  const std::int64_t jb = std::min<std::int64_t>(nb_, n_ - k), m2 = n_ - k - jb;
  float* a11 = a + k + k * lda_;
  factor_diagonal(a11, jb);
  if (m2 == 0) return;
  const int ijb = static_cast<int>(jb), im2 = static_cast<int>(m2), ld = static_cast<int>(lda_);
  const float one = 1.0f;
  cublas_check(cublasStrsm(h_panel_, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, im2,
                           ijb, &one, a11, ld, a11 + jb, ld),
               "cublasStrsm (L21)");
  cublas_check(cublasStrsm(h_panel_, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT, ijb, im2,
                           &one, a11, ld, a11 + jb * lda_, ld),
               "cublasStrsm (U12)");
  if (prec_ == precision::bf16) {
    convert_block(a11 + jb, lda_, m2, jb, reinterpret_cast<__nv_bfloat16*>(lcopy_[set].data()), lda_, scale_, s_panel_);
    convert_block(a11 + jb * lda_, lda_, jb, m2, reinterpret_cast<__nv_bfloat16*>(ucopy_[set].data()), nb_, 1.0f,
                  s_panel_);
  } else if (prec_ == precision::fp16) {
    convert_block(a11 + jb, lda_, m2, jb, reinterpret_cast<__half*>(lcopy_[set].data()), lda_, scale_, s_panel_);
    convert_block(a11 + jb * lda_, lda_, jb, m2, reinterpret_cast<__half*>(ucopy_[set].data()), nb_, 1.0f, s_panel_);
  }
}

// C(m x ncols, lda) -= L(m x kdim) U(kdim x ncols) / scale on the update stream.
void device_lu::gemm(std::int64_t m, std::int64_t ncols, std::int64_t kdim, const void* l, std::int64_t ldl,
                     const void* u, std::int64_t ldu, float* c) {
  if (m <= 0 || ncols <= 0) return;
  const float alpha = -1.0f / scale_, beta = 1.0f;
  const cudaDataType_t t = prec_ == precision::bf16 ? CUDA_R_16BF : prec_ == precision::fp16 ? CUDA_R_16F : CUDA_R_32F;
  cublas_check(cublasGemmEx(h_update_, CUBLAS_OP_N, CUBLAS_OP_N, static_cast<int>(m), static_cast<int>(ncols),
                            static_cast<int>(kdim), &alpha, l, t, static_cast<int>(ldl), u, t, static_cast<int>(ldu),
                            &beta, c, CUDA_R_32F, static_cast<int>(lda_), CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
               "cublasGemmEx (trailing update)");
}

// The trailing update of block column k (schedule.hpp): next block column, next block row,
// event, the rest.
void device_lu::update(float* a, std::int64_t k, int set) {
  const lu_step st = lu_step_at(n_, nb_, k);
  if (st.m2 <= 0) return;
  const bool low = prec_ != precision::fp32;
  const std::size_t esize = low ? 2 : 4;
  const char* lbase = low ? reinterpret_cast<const char*>(lcopy_[set].data())
                          : reinterpret_cast<const char*>(a + st.off + k * lda_);
  const char* ubase = low ? reinterpret_cast<const char*>(ucopy_[set].data())
                          : reinterpret_cast<const char*>(a + k + st.off * lda_);
  const std::int64_t ldl = lda_, ldu = low ? nb_ : lda_;
  float* corner = a + st.off + st.off * lda_;
  auto run = [&](const gemm_piece& g) {
    gemm(g.rows, g.cols, st.jb, lbase + static_cast<std::size_t>(g.row0) * esize, ldl,
         ubase + static_cast<std::size_t>(g.col0 * ldu) * esize, ldu, corner + g.row0 + g.col0 * lda_);
  };
  run(st.next_column);
  run(st.next_row);
  GPU500_CUDA_CHECK(cudaEventRecord(strips_done_, s_update_));
  run(st.rest);
}

void device_lu::factor(float* a) {
  if (n_ == 0) return;
  panel(a, 0, 0);
  GPU500_CUDA_CHECK(cudaEventRecord(panel_done_, s_panel_));
  int set = 0;
  for (std::int64_t k = 0; k < n_; k += nb_, set ^= 1) {
    GPU500_CUDA_CHECK(cudaStreamWaitEvent(s_update_, panel_done_, 0));
    update(a, k, set);
    if (k + nb_ < n_) {
      GPU500_CUDA_CHECK(cudaStreamWaitEvent(s_panel_, strips_done_, 0));
      panel(a, k + nb_, set ^ 1);
      GPU500_CUDA_CHECK(cudaEventRecord(panel_done_, s_panel_));
    }
  }
  GPU500_CUDA_CHECK(cudaStreamSynchronize(s_panel_));
  GPU500_CUDA_CHECK(cudaStreamSynchronize(s_update_));
}

}  // namespace gpu500::hpl_mxp::detail::cuda
