// gpu500/core/cuda/check.cuh — CUDA error checks (include from .cu files only).
//
// GPU500_CUDA_CHECK(call) throws gpu500::error with file:line and the CUDA error name.
// GPU500_CUDA_CHECK_LAUNCH() after every kernel launch checks cudaGetLastError(); Debug builds
// (GPU500_SYNC_AFTER_LAUNCH) also synchronise so that a faulting kernel is named where it ran.
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "gpu500/core/error.hpp"

namespace gpu500::detail {
[[noreturn]] inline void throw_cuda(cudaError_t e, const char* what, const char* file, int line) {
  throw ::gpu500::error(std::string(file) + ":" + std::to_string(line) + ": " + what + ": " +
                        cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")");
}
}  // namespace gpu500::detail

#define GPU500_CUDA_CHECK(call)                                                     \
  do {                                                                              \
    cudaError_t gpu500_err_ = (call);                                               \
    if (gpu500_err_ != cudaSuccess)                                                 \
      ::gpu500::detail::throw_cuda(gpu500_err_, #call, __FILE__, __LINE__);         \
  } while (0)

#if defined(GPU500_SYNC_AFTER_LAUNCH)
#define GPU500_CUDA_CHECK_LAUNCH()                 \
  do {                                             \
    GPU500_CUDA_CHECK(cudaGetLastError());         \
    GPU500_CUDA_CHECK(cudaDeviceSynchronize());    \
  } while (0)
#else
#define GPU500_CUDA_CHECK_LAUNCH() GPU500_CUDA_CHECK(cudaGetLastError())
#endif
