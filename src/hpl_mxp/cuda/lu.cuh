// The CUDA backend's LU without pivoting (internal): FP32 matrix in device memory, blocked
// right-looking with look-ahead on two streams.
//   panel stream: the NB x NB diagonal block (recursive halving: cuBLAS strsm / sgemm in FP32
//                 down to 64 x 64 blocks factored in shared memory), L21 = A21 U11^-1 and
//                 U12 = L11^-1 A12 (cublasStrsm, FP32), then the BF16 / FP16 copies of L21
//                 (scaled by a power of two for FP16, whose normal range ends at 6e-5) and U12;
//   update stream: A22 -= L21 U12 by cublasGemmEx, low-precision inputs, FP32 accumulation and
//                 output (CUBLAS_COMPUTE_32F), in three parts: the next block column and block
//                 row first (an event lets the panel stream factor the next panel), then the
//                 rest, which runs while the next panel is factored.
// Two sets of panel copies alternate, so a panel is written only after the GEMMs reading the
// set's previous contents are done (they precede the event the panel stream waits for).
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "gpu500/core/cuda/memory.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/hpl_mxp/mxp.hpp"

namespace gpu500::hpl_mxp::detail::cuda {

inline void cublas_check(cublasStatus_t st, const char* what) {
  if (st != CUBLAS_STATUS_SUCCESS) throw error(std::string("hpl-mxp: ") + what + ": " + cublasGetStatusString(st));
}

/// The power of two the FP16 copies of L21 are multiplied by (L21 is about 2/N in size; the
/// GEMM's alpha divides it out exactly); 1 for BF16 and FP32.
float panel_scale(precision p, std::int64_t n);

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
  cudaStream_t stream() const { return s_update_; }
  cublasHandle_t handle() const { return h_update_; }

 private:
  void factor_diagonal(float* a, std::int64_t m);
  void panel(float* a, std::int64_t k, int set);
  void update(float* a, std::int64_t k, int set);
  void gemm(std::int64_t m, std::int64_t ncols, std::int64_t kdim, const void* l, std::int64_t ldl, const void* u,
            std::int64_t ldu, float* c);

  std::int64_t n_, lda_;
  int nb_;
  precision prec_;
  float scale_;
  gpu::device_buffer<std::uint16_t> lcopy_[2], ucopy_[2];  // BF16 / FP16 bits
  cudaStream_t s_update_ = nullptr, s_panel_ = nullptr;
  cublasHandle_t h_update_ = nullptr, h_panel_ = nullptr;
  cudaEvent_t panel_done_ = nullptr, strips_done_ = nullptr;
};

}  // namespace gpu500::hpl_mxp::detail::cuda
