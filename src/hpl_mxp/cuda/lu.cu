// The CUDA backend's LU without pivoting over the grid (see lu.cuh for the schedule).
#include "lu.cuh"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cmath>

#include "gpu500/core/cuda/check.cuh"

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

device_lu::device_lu(const local_layout& l, const process_grid& g, precision p, bool nccl)
    : l_(l),
      g_(g),
      prec_(p),
      scale_(panel_scale(p, l.n)),
      esize_(gemm_bytes(p)),
      l21_in_place_(p == precision::fp32 && g.row().size() == 1),
      u12_in_place_(p == precision::fp32 && g.col().size() == 1) {
  const bool fp8 = p == precision::fp8;
  if (fp8) {
    require_fp8_device();
    if (l.nb % fp8_nb_multiple != 0)
      throw usage_error("hpl-mxp: --precision fp8 needs -NB a multiple of " + std::to_string(fp8_nb_multiple) +
                        ", got " + std::to_string(l.nb));
    GPU500_EXPECTS(l.lld % 32 == 0 && l.lld >= fp8_rows(l.mp), "the FP8 GEMMs' padding rows lie inside the local part");
  }
  // Copies of width w: L21 of at most mp rows (leading dimension at most lld; fp8: transposed,
  // rows padded to 16, then the scale slot), U12 of at most nq columns (leading dimension w).
  const std::size_t w = static_cast<std::size_t>(std::min(l.nb, std::max<std::int64_t>(l.n, 1)));
  const std::size_t slot = fp8 ? static_cast<std::size_t>(fp8_scale_slot) : 0;
  const std::size_t lbytes = w * static_cast<std::size_t>(fp8 ? fp8_rows(l.mp) : l.lld) * esize_ + slot;
  const std::size_t ubytes = w * static_cast<std::size_t>(l.nq) * esize_ + slot;
  for (int s = 0; s < 2; ++s) {
    if (!l21_in_place_) lcopy_[s] = gpu::device_buffer<char>(std::max<std::size_t>(1, lbytes));
    if (!u12_in_place_) ucopy_[s] = gpu::device_buffer<char>(std::max<std::size_t>(1, ubytes));
  }
  if (g.all().size() > 1) d11_ = gpu::device_buffer<float>(w * w);
  if (fp8) {
    amax_ = gpu::device_buffer<float>(fp8_scratch_floats);
    lt_ = std::make_unique<fp8_gemm>(st_.update);
  }
  // The NCCL communicators, made in the same order on every process: the row's, the column's.
  row_ = std::make_unique<device_bcast>(g.row(), nccl && g.row().size() > 1 ? &g.row_nccl() : nullptr, st_.panel);
  col_ = std::make_unique<device_bcast>(g.col(), nccl && g.col().size() > 1 ? &g.col_nccl() : nullptr, st_.panel);
}

device_lu::~device_lu() = default;

void device_lu::factor(float* a) {
  if (l_.n == 0) return;
  if (prec_ == precision::fp8) zero_fp8_padding(a, l_.lld, l_.mp, l_.nq, st_.panel);
  panel(a, grid_step_at(l_.n, l_.nb, 0, g_), 0);
  GPU500_CUDA_CHECK(cudaEventRecord(st_.panel_done, st_.panel));
  int set = 0;
  for (std::int64_t k = 0; k < l_.n; k += l_.nb, set ^= 1) {
    GPU500_CUDA_CHECK(cudaStreamWaitEvent(st_.update, st_.panel_done, 0));
    update(a, grid_step_at(l_.n, l_.nb, k, g_), set);
    if (k + l_.nb < l_.n) {
      GPU500_CUDA_CHECK(cudaStreamWaitEvent(st_.panel, st_.strips_done, 0));
      panel(a, grid_step_at(l_.n, l_.nb, k + l_.nb, g_), set ^ 1);
      GPU500_CUDA_CHECK(cudaEventRecord(st_.panel_done, st_.panel));
    }
  }
  GPU500_CUDA_CHECK(cudaStreamSynchronize(st_.panel));
  GPU500_CUDA_CHECK(cudaStreamSynchronize(st_.update));
}

// Block column st.k: the diagonal block, L21 and U12, their copies into `set`, the broadcasts.
void device_lu::panel(float* a, const grid_step& st, int set) {
  const std::int64_t jb = st.jb;
  const int ijb = static_cast<int>(jb), ld = static_cast<int>(l_.lld);
  const bool owner = st.in_row && st.in_col;
  float* a11 = at(a, st.li0, st.lj0);
  if (owner) factor_diagonal_block(a11, l_.lld, jb, st_.h_panel, st_.panel);
  if (st.k + jb >= l_.n) return;  // the last block column: nothing below it or right of it
  // The diagonal block where this process reads it: in the matrix on its owner (which copies it
  // only to send it), as received elsewhere.
  if (owner && g_.all().size() > 1)
    GPU500_CUDA_CHECK(cudaMemcpy2DAsync(d11_.data(), sizeof(float) * jb, a11, sizeof(float) * l_.lld,
                                        sizeof(float) * jb, jb, cudaMemcpyDeviceToDevice, st_.panel));
  const std::size_t d11_bytes = sizeof(float) * static_cast<std::size_t>(jb * jb);
  if (st.in_col) (*col_)(d11_.data(), d11_bytes, st.pr);
  if (st.in_row) (*row_)(d11_.data(), d11_bytes, st.pc);
  const float* d11 = owner ? a11 : d11_.data();
  const int ld11 = owner ? ld : ijb;
  const float one = 1.0f;
  float* a21 = at(a, st.li1, st.lj0);
  float* a12 = at(a, st.li0, st.lj1);
  const bool l21 = st.in_col && st.mloc > 0, u12 = st.in_row && st.nloc > 0;
  if (l21)
    cublas_check(gpu::dynload::cublasStrsm(st_.h_panel, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N,
                                           CUBLAS_DIAG_NON_UNIT, static_cast<int>(st.mloc), ijb, &one, d11, ld11,
                                           a21, ld),
                 "cublasStrsm (L21)");
  if (u12)
    cublas_check(gpu::dynload::cublasStrsm(st_.h_panel, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
                                           CUBLAS_DIAG_UNIT, ijb, static_cast<int>(st.nloc), &one, d11, ld11, a12,
                                           ld),
                 "cublasStrsm (U12)");
  const bool fp8 = prec_ == precision::fp8;
  if (fp8) {
    // L21 transposed (jb x fp8_rows(mloc), leading dimension jb), U12 as it is (leading dimension jb).
    if (l21) copy_fp8(a21, l_.lld, st.mloc, jb, true, lcopy_[set].data(), amax_.data(), st_.panel);
    if (u12) copy_fp8(a12, l_.lld, jb, st.nloc, false, ucopy_[set].data(), amax_.data(), st_.panel);
  } else {
    if (l21 && !l21_in_place_)
      copy_low(a21, l_.lld, st.mloc, jb, lcopy_[set].data(), l21_ld(st.mloc), prec_, scale_, st_.panel);
    if (u12 && !u12_in_place_) copy_low(a12, l_.lld, jb, st.nloc, ucopy_[set].data(), jb, prec_, 1.0f, st_.panel);
  }
  // A process row shares its local rows (the same mloc), a process column its columns; an FP8
  // part travels with its padding and scale.
  (*row_)(lcopy_[set].data(),
          fp8 ? fp8_copy_bytes(st.mloc, jb, true) : esize_ * static_cast<std::size_t>(l21_ld(st.mloc) * jb), st.pc);
  (*col_)(ucopy_[set].data(),
          fp8 ? fp8_copy_bytes(jb, st.nloc, false) : esize_ * static_cast<std::size_t>(st.nloc * jb), st.pr);
}

// A22 -= L21 U12 on this process's part (grid_pieces): the next block column's local columns,
// the next block row's local rows, the event, the rest.
void device_lu::update(float* a, const grid_step& st, int set) {
  const std::array<gemm_piece, 3> pieces = grid_pieces(l_.n, l_.nb, st, g_);
  gemm(a, st, set, pieces[0]);
  gemm(a, st, set, pieces[1]);
  GPU500_CUDA_CHECK(cudaEventRecord(st_.strips_done, st_.update));
  gemm(a, st, set, pieces[2]);
}

// One piece: rows row0.. of L21 times columns col0.. of U12 into the part at (li1 + row0,
// lj1 + col0), on the update stream.
void device_lu::gemm(float* a, const grid_step& st, int set, const gemm_piece& pc) {
  if (pc.rows <= 0 || pc.cols <= 0) return;
  float* c = at(a, st.li1 + pc.row0, st.lj1 + pc.col0);
  if (prec_ == precision::fp8) {
    // row0 is 0 or a whole block (a multiple of 16), so rows padded to 16 end at most at
    // fp8_rows(mloc): inside the L21 copy's zero padding and the part's padding rows.
    const char* l = lcopy_[set].data();
    const char* u = ucopy_[set].data();
    const float* sl = fp8_scale_in(l, fp8_data_bytes(st.mloc, st.jb, true));
    const float* su = fp8_scale_in(u, fp8_data_bytes(st.jb, st.nloc, false));
    lt_->run(fp8_rows(pc.rows), pc.cols, st.jb, l + pc.row0 * st.jb, st.jb, sl, u + pc.col0 * st.jb, st.jb, su, c,
             l_.lld);
    return;
  }
  const char* l = l21_in_place_ ? reinterpret_cast<const char*>(at(a, st.li1, st.lj0)) : lcopy_[set].data();
  const char* u = u12_in_place_ ? reinterpret_cast<const char*>(at(a, st.li0, st.lj1)) : ucopy_[set].data();
  const std::int64_t ldl = l21_ld(st.mloc), ldu = u12_in_place_ ? l_.lld : st.jb;
  const float alpha = -1.0f / scale_, beta = 1.0f;
  const cudaDataType_t t = gemm_type(prec_);
  cublas_check(gpu::dynload::cublasGemmEx(st_.h_update, CUBLAS_OP_N, CUBLAS_OP_N, static_cast<int>(pc.rows),
                                          static_cast<int>(pc.cols), static_cast<int>(st.jb), &alpha,
                                          l + esize_ * static_cast<std::size_t>(pc.row0), t, static_cast<int>(ldl),
                                          u + esize_ * static_cast<std::size_t>(pc.col0 * ldu), t,
                                          static_cast<int>(ldu), &beta, c, CUDA_R_32F, static_cast<int>(l_.lld),
                                          CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
               "cublasGemmEx (trailing update)");
}

}  // namespace gpu500::hpl_mxp::detail::cuda
