// Small helpers of the HPL CUDA backend (internal): the cuBLAS / cuSOLVER status checks, a ring
// of reusable events, and the core toolkit's device and pinned buffers under short names.
#pragma once

#include <cublas_v2.h>
#include <cusolverDn.h>
#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "gpu500/core/cuda/check.cuh"
#include "gpu500/core/cuda/memory.hpp"
#include "gpu500/core/error.hpp"

#define GPU500_CUBLAS_CHECK(call)                                                                    \
  do {                                                                                               \
    const cublasStatus_t hpl_cublas_st_ = (call);                                                    \
    if (hpl_cublas_st_ != CUBLAS_STATUS_SUCCESS)                                                     \
      throw ::gpu500::error(std::string(__FILE__) + ":" + std::to_string(__LINE__) + ": " #call ": " + \
                            cublasGetStatusString(hpl_cublas_st_));                                  \
  } while (0)

#define GPU500_CUSOLVER_CHECK(call)                                                                  \
  do {                                                                                               \
    const cusolverStatus_t hpl_cusolver_st_ = (call);                                                \
    if (hpl_cusolver_st_ != CUSOLVER_STATUS_SUCCESS)                                                 \
      throw ::gpu500::error(std::string(__FILE__) + ":" + std::to_string(__LINE__) + ": " #call      \
                            ": cuSOLVER status " + std::to_string(static_cast<int>(hpl_cusolver_st_))); \
  } while (0)

namespace gpu500::hpl::detail {

using ::gpu500::gpu::device_buffer;
using ::gpu500::gpu::pinned_buffer;

// A ring of reusable events (cudaStreamWaitEvent captures the state at call time, so an event
// can be recorded again once the wait has been enqueued).
struct event_pool {
  std::vector<cudaEvent_t> ev;
  std::size_t next = 0;
  explicit event_pool(int n, bool timing = false) : ev(n) {
    for (auto& e : ev) GPU500_CUDA_CHECK(cudaEventCreateWithFlags(&e, timing ? cudaEventDefault : cudaEventDisableTiming));
  }
  ~event_pool() { for (auto e : ev) cudaEventDestroy(e); }
  event_pool(const event_pool&) = delete;
  event_pool& operator=(const event_pool&) = delete;
  cudaEvent_t record(cudaStream_t s) {
    cudaEvent_t e = ev[next++ % ev.size()];
    GPU500_CUDA_CHECK(cudaEventRecord(e, s));
    return e;
  }
};

}  // namespace gpu500::hpl::detail
