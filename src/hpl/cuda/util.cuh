// Small RAII helpers of the HPL CUDA backend (internal): device and pinned host buffers, a ring
// of reusable events, and the cuBLAS status check.
#pragma once

#include <cublas_v2.h>
#include <cusolverDn.h>
#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "gpu500/core/cuda/check.cuh"
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

template <class T>
struct dev_ptr {
  T* p = nullptr;
  explicit dev_ptr(std::size_t n) {
    if (n) {
      const cudaError_t e = cudaMalloc(&p, n * sizeof(T));
      if (e == cudaErrorMemoryAllocation) {
        cudaGetLastError();
        throw resource_error("HPL: cannot allocate " + std::to_string(n * sizeof(T) / 1048576) +
                             " MiB on the GPU (lower N)");
      }
      GPU500_CUDA_CHECK(e);
    }
  }
  ~dev_ptr() { if (p) cudaFree(p); }
  dev_ptr(const dev_ptr&) = delete;
  dev_ptr& operator=(const dev_ptr&) = delete;
};
template <class T>
struct host_pinned {
  T* p = nullptr;
  explicit host_pinned(std::size_t n) { if (n) GPU500_CUDA_CHECK(cudaMallocHost(&p, n * sizeof(T))); }
  ~host_pinned() { if (p) cudaFreeHost(p); }
  host_pinned(const host_pinned&) = delete;
  host_pinned& operator=(const host_pinned&) = delete;
};

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
