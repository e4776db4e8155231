// Small helpers of the HPL CUDA backend (internal): the cuBLAS / cuSOLVER status checks (the
// backend calls both through gpu::dynload, loaded on first use), a ring of reusable events, the --timing spans read from events, and the core toolkit's device and
// pinned buffers under short names.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "gpu500/core/cuda/check.cuh"
#include "gpu500/core/cuda/dynload.hpp"
#include "gpu500/core/cuda/memory.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/hpl/pdgesv.hpp"

#define GPU500_CUBLAS_CHECK(call)                                                                    \
  do {                                                                                               \
    const cublasStatus_t hpl_cublas_st_ = (call);                                                    \
    if (hpl_cublas_st_ != CUBLAS_STATUS_SUCCESS)                                                     \
      throw ::gpu500::error(std::string(__FILE__) + ":" + std::to_string(__LINE__) + ": " #call ": " + \
                            ::gpu500::gpu::dynload::cublasGetStatusString(hpl_cublas_st_));          \
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

// The --timing spans of both solvers: from the (start, end) timing events of each iteration on
// the update stream, all completed, iters[i].update = end_i - start_i and iters[i].gap = the
// stream's idle time start_{i+1} - end_i (seconds).
inline void read_update_spans(const std::vector<std::pair<cudaEvent_t, cudaEvent_t>>& ev, std::vector<iter_time>& iters) {
  for (std::size_t i = 0; i < ev.size() && i < iters.size(); ++i) {
    float ms = 0;
    GPU500_CUDA_CHECK(cudaEventElapsedTime(&ms, ev[i].first, ev[i].second));
    iters[i].update = ms * 1e-3;
    if (i + 1 < ev.size()) {
      GPU500_CUDA_CHECK(cudaEventElapsedTime(&ms, ev[i].second, ev[i + 1].first));
      iters[i].gap = std::max(0.0f, ms) * 1e-3;
    }
  }
}

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
