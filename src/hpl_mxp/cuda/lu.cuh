// The CUDA backend's LU without pivoting (internal): FP32 matrix in device memory, blocked
// right-looking with look-ahead on two streams.
//   panel stream: the NB x NB diagonal block (recursive halving: cuBLAS strsm / sgemm in FP32
//                 down to 64 x 64 blocks factored in shared memory), L21 = A21 U11^-1 and
//                 U12 = L11^-1 A12 (cublasStrsm, FP32), then the BF16 / FP16 copies of L21
//                 (scaled by a power of two for FP16, whose normal range ends at 6e-5) and U12,
//                 or their FP8 E4M3 copies (below);
//   update stream: A22 -= L21 U12 by cublasGemmEx, low-precision inputs, FP32 accumulation and
//                 output (CUBLAS_COMPUTE_32F), in three parts: the next block column and block
//                 row first (an event lets the panel stream factor the next panel), then the
//                 rest, which runs while the next panel is factored.
// Two sets of panel copies alternate, so a panel is written only after the GEMMs reading the
// set's previous contents are done (they precede the event the panel stream waits for).
// FP8 (fp8.cuh): cuBLASLt's E4M3 GEMM, the L21 copy transposed, a scale per copy computed on
// the panel stream.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <memory>
#include <string>

#include "../backend.hpp"
#include "fp8.cuh"
#include "gpu500/core/cuda/dynload.hpp"
#include "gpu500/core/cuda/memory.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/hpl_mxp/mxp.hpp"

namespace gpu500::hpl_mxp::detail {
struct lu_step;  // schedule.hpp
}

namespace gpu500::hpl_mxp::detail::cuda {

inline void cublas_check(cublasStatus_t st, const char* what) {
  if (st != CUBLAS_STATUS_SUCCESS)
    throw error(std::string("hpl-mxp: ") + what + ": " + gpu::dynload::cublasGetStatusString(st));
}

/// The power of two the FP16 copies of L21 are multiplied by (L21 is about 2/N in size; the
/// GEMM's alpha divides it out exactly); 1 for BF16 and FP32.
float panel_scale(precision p, std::int64_t n);

/// In-place LU without pivoting of the m x m block at a (leading dimension lda) on stream s with
/// handle h (bound to s): recursive halving, cuBLAS strsm / sgemm in FP32 down to blocks of
/// small_lu_block factored in shared memory.
void factor_diagonal_block(float* a, std::int64_t lda, std::int64_t m, cublasHandle_t h, cudaStream_t s);

/// Rounds the m x n FP32 block src (lds) into dst (ldd) in precision p, times scale: BF16 or FP16
/// bits, or an FP32 copy (scale 1) for fp32.
void copy_low(const float* src, std::int64_t lds, std::int64_t m, std::int64_t n, void* dst, std::int64_t ldd,
              precision p, float scale, cudaStream_t s);
/// The cudaDataType of precision p's GEMM inputs, and their size in bytes.
cudaDataType_t gemm_type(precision p);
std::size_t gemm_bytes(precision p);

/// The LU's two streams — update at the lowest priority, panel at the highest, so that the
/// panel's small kernels take SMs as the update's GEMM tiles finish rather than queueing behind
/// the whole GEMM — a cuBLAS handle on each, and the two events between them.
struct lu_streams {
  lu_streams();
  ~lu_streams();
  lu_streams(const lu_streams&) = delete;
  lu_streams& operator=(const lu_streams&) = delete;
  cudaStream_t update = nullptr, panel = nullptr;
  cublasHandle_t h_update = nullptr, h_panel = nullptr;
  cudaEvent_t panel_done = nullptr, strips_done = nullptr;
};

class device_lu {
 public:
  /// Buffers for order n, block nb, leading dimension lda of the matrix to factor.
  device_lu(std::int64_t n, std::int64_t lda, int nb, precision p);
  ~device_lu();
  device_lu(const device_lu&) = delete;
  device_lu& operator=(const device_lu&) = delete;

  /// Factors a (n x n, lda) in place; returns when both streams are done.
  void factor(float* a);
  /// The stream and handle of the update stream (the refinement's, after factor()).
  cudaStream_t stream() const { return st_.update; }
  cublasHandle_t handle() const { return st_.h_update; }

 private:
  void panel(float* a, std::int64_t k, int set);
  void update(float* a, std::int64_t k, int set);
  void update_fp8(float* a, const lu_step& st, int set);
  void gemm(std::int64_t m, std::int64_t ncols, std::int64_t kdim, const void* l, std::int64_t ldl, const void* u,
            std::int64_t ldu, float* c);

  std::int64_t n_, lda_;
  int nb_;
  precision prec_;
  float scale_;
  gpu::device_buffer<char> lcopy_[2], ucopy_[2];  // BF16 / FP16 bits, or FP8 copies with their scales
  gpu::device_buffer<float> amax_;                // fp8: the amax reduction's scratch
  lu_streams st_;
  std::unique_ptr<fp8_gemm> lt_;                  // fp8: cuBLASLt on the update stream
};

}  // namespace gpu500::hpl_mxp::detail::cuda
