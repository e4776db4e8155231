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

lu_streams::lu_streams() {
  int least = 0, greatest = 0;
  GPU500_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  GPU500_CUDA_CHECK(cudaStreamCreateWithPriority(&update, cudaStreamDefault, least));
  GPU500_CUDA_CHECK(cudaStreamCreateWithPriority(&panel, cudaStreamDefault, greatest));
  GPU500_CUDA_CHECK(cudaEventCreateWithFlags(&panel_done, cudaEventDisableTiming));
  GPU500_CUDA_CHECK(cudaEventCreateWithFlags(&strips_done, cudaEventDisableTiming));
  cublas_check(gpu::dynload::cublasCreate(&h_update), "cublasCreate");
  cublas_check(gpu::dynload::cublasCreate(&h_panel), "cublasCreate");
  cublas_check(gpu::dynload::cublasSetStream(h_update, update), "cublasSetStream");
  cublas_check(gpu::dynload::cublasSetStream(h_panel, panel), "cublasSetStream");
}

lu_streams::~lu_streams() {
  if (h_update) gpu::dynload::cublasDestroy(h_update);
  if (h_panel) gpu::dynload::cublasDestroy(h_panel);
  if (panel_done) cudaEventDestroy(panel_done);
  if (strips_done) cudaEventDestroy(strips_done);
  if (update) cudaStreamDestroy(update);
  if (panel) cudaStreamDestroy(panel);
}

device_lu::device_lu(std::int64_t n, std::int64_t lda, int nb, precision p)
    : n_(n), lda_(lda), nb_(std::max(1, nb)), prec_(p), scale_(panel_scale(p, n)) {
  if (p == precision::fp8) {
    require_fp8_device();
    if (nb_ % fp8_nb_multiple != 0)
      throw usage_error("hpl-mxp: --precision fp8 needs -NB a multiple of " + std::to_string(fp8_nb_multiple) +
                        ", got " + std::to_string(nb_));
    GPU500_EXPECTS(lda % 32 == 0 && lda >= fp8_rows(n), "the FP8 GEMMs' padding rows lie inside the matrix");
  }
  if (p != precision::fp32 && n > 0) {
    // Entries of the L21 (m2 <= lda rows) and U12 (m2 <= lda columns) copies of width w; FP8:
    // 1 byte each, the transposed L21's rows padded (fp8_rows(m2) <= lda), and the scale slot.
    const std::int64_t w = std::min<std::int64_t>(nb_, n);
    const std::size_t bytes = p == precision::fp8 ? static_cast<std::size_t>(lda * w + fp8_scale_slot)
                                                  : gemm_bytes(p) * static_cast<std::size_t>(lda * w);
    for (int s = 0; s < 2; ++s) {
      lcopy_[s] = gpu::device_buffer<char>(bytes);
      ucopy_[s] = gpu::device_buffer<char>(bytes);
    }
  }
  if (p == precision::fp8) {
    amax_ = gpu::device_buffer<float>(fp8_scratch_floats);
    lt_ = std::make_unique<fp8_gemm>(st_.update);
  }
}

device_lu::~device_lu() = default;

// Recursive halving (the left half a multiple of the small block).
void factor_diagonal_block(float* a, std::int64_t lda, std::int64_t m, cublasHandle_t h, cudaStream_t s) {
  if (m <= small_lu_block) {
    small_lu(a, lda, static_cast<int>(m), s);
    return;
  }
  const std::int64_t m1 = (m / 2 + small_lu_block - 1) / small_lu_block * small_lu_block, m2 = m - m1;
  const int im1 = static_cast<int>(m1), im2 = static_cast<int>(m2), ld = static_cast<int>(lda);
  const float one = 1.0f, minus_one = -1.0f;
  factor_diagonal_block(a, lda, m1, h, s);
  cublas_check(gpu::dynload::cublasStrsm(h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N,
                                         CUBLAS_DIAG_NON_UNIT, im2, im1, &one, a, ld, a + m1, ld),
               "cublasStrsm (diagonal block)");
  cublas_check(gpu::dynload::cublasStrsm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
                                         CUBLAS_DIAG_UNIT, im1, im2, &one, a, ld, a + m1 * lda, ld),
               "cublasStrsm (diagonal block)");
  cublas_check(gpu::dynload::cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, im2, im2, im1, &minus_one, a + m1, ld,
                                         a + m1 * lda, ld, &one, a + m1 + m1 * lda, ld),
               "cublasSgemm (diagonal block)");
  factor_diagonal_block(a + m1 + m1 * lda, lda, m2, h, s);
}

void copy_low(const float* src, std::int64_t lds, std::int64_t m, std::int64_t n, void* dst, std::int64_t ldd,
              precision p, float scale, cudaStream_t s) {
  if (m <= 0 || n <= 0) return;
  if (p == precision::bf16)
    convert_block(src, lds, m, n, static_cast<__nv_bfloat16*>(dst), ldd, scale, s);
  else if (p == precision::fp16)
    convert_block(src, lds, m, n, static_cast<__half*>(dst), ldd, scale, s);
  else
    GPU500_CUDA_CHECK(cudaMemcpy2DAsync(dst, sizeof(float) * ldd, src, sizeof(float) * lds, sizeof(float) * m, n,
                                        cudaMemcpyDeviceToDevice, s));
}

cudaDataType_t gemm_type(precision p) {
  switch (p) {
    case precision::bf16: return CUDA_R_16BF;
    case precision::fp16: return CUDA_R_16F;
    case precision::fp8: return CUDA_R_8F_E4M3;
    case precision::fp32: break;
  }
  return CUDA_R_32F;
}
std::size_t gemm_bytes(precision p) { return p == precision::fp32 ? 4 : p == precision::fp8 ? 1 : 2; }

// Block column k: the diagonal block, L21, U12 and their low-precision copies into `set`.
void device_lu::panel(float* a, std::int64_t k, int set) {
  const std::int64_t jb = std::min<std::int64_t>(nb_, n_ - k), m2 = n_ - k - jb;
  float* a11 = a + k + k * lda_;
  factor_diagonal_block(a11, lda_, jb, st_.h_panel, st_.panel);
  if (m2 == 0) return;
  const int ijb = static_cast<int>(jb), im2 = static_cast<int>(m2), ld = static_cast<int>(lda_);
  const float one = 1.0f;
  cublas_check(gpu::dynload::cublasStrsm(st_.h_panel, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N,
                                         CUBLAS_DIAG_NON_UNIT, im2, ijb, &one, a11, ld, a11 + jb, ld),
               "cublasStrsm (L21)");
  cublas_check(gpu::dynload::cublasStrsm(st_.h_panel, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
                                         CUBLAS_DIAG_UNIT, ijb, im2, &one, a11, ld, a11 + jb * lda_, ld),
               "cublasStrsm (U12)");
  if (prec_ == precision::fp8) {
    // L21 transposed (jb x fp8_rows(m2), leading dimension jb), U12 as it is (leading dimension jb).
    copy_fp8(a11 + jb, lda_, m2, jb, true, lcopy_[set].data(), amax_.data(), st_.panel);
    copy_fp8(a11 + jb * lda_, lda_, jb, m2, false, ucopy_[set].data(), amax_.data(), st_.panel);
  } else if (prec_ != precision::fp32) {
    copy_low(a11 + jb, lda_, m2, jb, lcopy_[set].data(), lda_, prec_, scale_, st_.panel);
    copy_low(a11 + jb * lda_, lda_, jb, m2, ucopy_[set].data(), nb_, prec_, 1.0f, st_.panel);
  }
}

// C(m x ncols, lda) -= L(m x kdim) U(kdim x ncols) / scale on the update stream.
void device_lu::gemm(std::int64_t m, std::int64_t ncols, std::int64_t kdim, const void* l, std::int64_t ldl,
                     const void* u, std::int64_t ldu, float* c) {
  if (m <= 0 || ncols <= 0) return;
  const float alpha = -1.0f / scale_, beta = 1.0f;
  const cudaDataType_t t = gemm_type(prec_);
  cublas_check(gpu::dynload::cublasGemmEx(
                   st_.h_update, CUBLAS_OP_N, CUBLAS_OP_N, static_cast<int>(m), static_cast<int>(ncols),
                   static_cast<int>(kdim), &alpha, l, t, static_cast<int>(ldl), u, t, static_cast<int>(ldu),
                   &beta, c, CUDA_R_32F, static_cast<int>(lda_), CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
               "cublasGemmEx (trailing update)");
}

// The trailing update of block column k (schedule.hpp): next block column, next block row,
// event, the rest.
void device_lu::update(float* a, std::int64_t k, int set) {
  const lu_step st = lu_step_at(n_, nb_, k);
  if (st.m2 <= 0) return;
  if (prec_ == precision::fp8) {
    update_fp8(a, st, set);
    return;
  }
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
  GPU500_CUDA_CHECK(cudaEventRecord(st_.strips_done, st_.update));
  run(st.rest);
}

// The same with cuBLASLt's FP8 GEMM: a piece's rows (from row0, a multiple of 16) padded to 16
// reach at most fp8_rows(m2), which the L21 copy holds (zeros past m2) and the matrix's padding
// rows below row N hold in C (off + fp8_rows(m2) = fp8_rows(N) <= lda).
void device_lu::update_fp8(float* a, const lu_step& st, int set) {
  const char* l = lcopy_[set].data();
  const char* u = ucopy_[set].data();
  const float* sl = fp8_scale_in(l, fp8_data_bytes(st.m2, st.jb, true));
  const float* su = fp8_scale_in(u, fp8_data_bytes(st.jb, st.m2, false));
  float* corner = a + st.off + st.off * lda_;
  auto run = [&](const gemm_piece& g) {
    if (g.rows <= 0 || g.cols <= 0) return;
    lt_->run(fp8_rows(g.rows), g.cols, st.jb, l + g.row0 * st.jb, st.jb, sl, u + g.col0 * st.jb, st.jb, su,
             corner + g.row0 + g.col0 * lda_, lda_);
  };
  run(st.next_column);
  run(st.next_row);
  GPU500_CUDA_CHECK(cudaEventRecord(st_.strips_done, st_.update));
  run(st.rest);
}

void device_lu::factor(float* a) {
  if (n_ == 0) return;
  if (prec_ == precision::fp8) zero_fp8_padding(a, lda_, n_, n_, st_.panel);
  panel(a, 0, 0);
  GPU500_CUDA_CHECK(cudaEventRecord(st_.panel_done, st_.panel));
  int set = 0;
  for (std::int64_t k = 0; k < n_; k += nb_, set ^= 1) {
    GPU500_CUDA_CHECK(cudaStreamWaitEvent(st_.update, st_.panel_done, 0));
    update(a, k, set);
    if (k + nb_ < n_) {
      GPU500_CUDA_CHECK(cudaStreamWaitEvent(st_.panel, st_.strips_done, 0));
      panel(a, k + nb_, set ^ 1);
      GPU500_CUDA_CHECK(cudaEventRecord(st_.panel_done, st_.panel));
    }
  }
  GPU500_CUDA_CHECK(cudaStreamSynchronize(st_.panel));
  GPU500_CUDA_CHECK(cudaStreamSynchronize(st_.update));
}

}  // namespace gpu500::hpl_mxp::detail::cuda
