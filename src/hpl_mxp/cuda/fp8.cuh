// FP8 E4M3 trailing updates of the CUDA LU (internal): E4M3 has 3 mantissa bits (unit roundoff
// 2^-4) and 448 as its largest value; FP8 tensor cores need compute capability 8.9+.
// cuBLASLt's FP8 GEMM takes only op(A) transposed and op(B) not ("TN"), 16-byte aligned pointers
// and leading dimensions, k a multiple of 16. So the L21 copy is stored transposed (jb x m2, m2
// padded to a multiple of 16 with zeros, leading dimension jb = NB, a multiple of 16), the U12
// copy as it is (leading dimension jb), and each GEMM's C rows are padded to 16 too: the rows
// past N of the matrix (inside its leading dimension, zeroed before the LU), which the zero rows
// of the L21 copy leave unchanged. Each copy carries its scale: on the panel stream an amax
// reduction of the FP32 block gives a power of two s with amax / s <= 448, stored in device
// memory right after the copy's data (so a broadcast carries both), a conversion divides by s
// and saturates (__NV_SATFINITE), and the GEMM multiplies by both copies' scales
// (CUBLASLT_MATMUL_DESC_A_SCALE_POINTER / B_SCALE_POINTER): no host synchronisation, the
// look-ahead unchanged.
#pragma once

#include <cublasLt.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "../backend.hpp"
#include "gpu500/core/cuda/dynload.hpp"
#include "gpu500/core/cuda/memory.hpp"

namespace gpu500::hpl_mxp::detail::cuda {

/// Throws usage_error unless the current device has FP8 tensor cores (compute capability 8.9+).
void require_fp8_device();

/// The FP8 copy of the m x n FP32 block src (lds) (see the file comment): transposed, n x
/// fp8_rows(m) with leading dimension n; else m x n with leading dimension m. The data, then the
/// scale (a float) at fp8_data_bytes. fp8_copy_bytes: the bytes of both (0 for an empty block),
/// what a broadcast of the copy sends.
inline std::size_t fp8_data_bytes(std::int64_t m, std::int64_t n, bool transpose) {
  return static_cast<std::size_t>((transpose ? fp8_rows(m) : m) * n);
}
inline std::size_t fp8_copy_bytes(std::int64_t m, std::int64_t n, bool transpose) {
  return m <= 0 || n <= 0 ? 0 : fp8_data_bytes(m, n, transpose) + fp8_scale_slot;
}
inline const float* fp8_scale_in(const void* copy, std::size_t data_bytes) {
  return reinterpret_cast<const float*>(static_cast<const char*>(copy) + data_bytes);
}
/// Makes the FP8 copy of src into dst on stream s; scratch: fp8_scratch_floats floats.
void copy_fp8(const float* src, std::int64_t lds, std::int64_t m, std::int64_t n, bool transpose, void* dst,
              float* scratch, cudaStream_t s);

/// cuBLASLt's FP8 GEMM on one stream, with its workspace (fp8_workspace_bytes):
/// C(m x n, FP32, ldc) -= (*sa)(*sb) A^T B, A (k x m, E4M3, lda), B (k x n, E4M3, ldb), FP32
/// accumulation (CUBLAS_COMPUTE_32F); sa and sb device floats. m, k, lda, ldb multiples of 16,
/// ldc of 4, every pointer 16-byte aligned, the scales' too (checked).
class fp8_gemm {
 public:
  explicit fp8_gemm(cudaStream_t s);
  ~fp8_gemm();
  fp8_gemm(const fp8_gemm&) = delete;
  fp8_gemm& operator=(const fp8_gemm&) = delete;
  void run(std::int64_t m, std::int64_t n, std::int64_t k, const void* a, std::int64_t lda, const float* sa,
           const void* b, std::int64_t ldb, const float* sb, float* c, std::int64_t ldc);

 private:
  cublasLtHandle_t h_ = nullptr;
  cudaStream_t s_;
  gpu::device_buffer<char> workspace_;
};

/// Zeroes rows m..fp8_rows(m) of the cols columns of a (lda) on stream s: the padding rows an
/// FP8 GEMM's C covers (read as C, so never left uninitialised).
void zero_fp8_padding(float* a, std::int64_t lda, std::int64_t m, std::int64_t cols, cudaStream_t s);

}  // namespace gpu500::hpl_mxp::detail::cuda
