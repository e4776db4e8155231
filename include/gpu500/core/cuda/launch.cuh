// gpu500/core/cuda/launch.cuh — device-side indexing for kernels (include from .cu files only).
//
// global_thread_id(), grid_threads(), the warp and lane of a thread, and grid_stride(n): a range
// for `for (index_t i : grid_stride(n))` that visits i = id, id + T, id + 2T, ... < n for the
// calling thread (T = every thread of the grid). warp_stride(n) does the same with one warp per
// item; block_stride(n) steps a whole block over a block's worth of items at a time. All ids are
// 64-bit: a grid of 2^31 threads or a range past 2^32 needs no care.
// launch(kernel, grid, block, shared_bytes, stream, args...) launches and checks the launch.
#pragma once

#include <cuda_runtime.h>

#include "gpu500/core/cuda/check.cuh"
#include "gpu500/core/cuda/launch.hpp"
#include "gpu500/core/types.hpp"

namespace gpu500::gpu {

inline constexpr int warp_size = 32;

__device__ __forceinline__ index_t global_thread_id() {
  return static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}
__device__ __forceinline__ index_t grid_threads() { return static_cast<index_t>(gridDim.x) * blockDim.x; }
__device__ __forceinline__ int lane_id() { return static_cast<int>(threadIdx.x) & (warp_size - 1); }
__device__ __forceinline__ int warp_in_block() { return static_cast<int>(threadIdx.x) / warp_size; }
__device__ __forceinline__ index_t global_warp_id() { return global_thread_id() / warp_size; }
__device__ __forceinline__ index_t grid_warps() { return grid_threads() / warp_size; }

/// The indices first, first + step, ... below last (an input range for range-for).
class stride_range {
 public:
  class iterator {
   public:
    __device__ __forceinline__ iterator(index_t i, index_t step) : i_(i), step_(step) {}
    __device__ __forceinline__ index_t operator*() const { return i_; }
    __device__ __forceinline__ iterator& operator++() {
      i_ += step_;
      return *this;
    }
    // Compared only against end(): "not past the end".
    __device__ __forceinline__ bool operator!=(const iterator& end) const { return i_ < end.i_; }

   private:
    index_t i_, step_;
  };
  __device__ __forceinline__ stride_range(index_t first, index_t last, index_t step)
      : first_(first), last_(last), step_(step) {}
  __device__ __forceinline__ iterator begin() const { return {first_, step_}; }
  __device__ __forceinline__ iterator end() const { return {last_, step_}; }

 private:
  index_t first_, last_, step_;
};

/// This thread's items of [0, n) in a grid-stride loop.
__device__ __forceinline__ stride_range grid_stride(index_t n) {
  return {global_thread_id(), n, grid_threads()};
}
/// This warp's items of [0, n), one warp per item.
__device__ __forceinline__ stride_range warp_stride(index_t n) { return {global_warp_id(), n, grid_warps()}; }
/// The first item of each of this block's steps over [0, n), blockDim.x items a step (item
/// first + threadIdx.x is the thread's, when below n): every thread of a block runs the same
/// iterations, so the loop body may hold block-wide collectives (__syncthreads).
__device__ __forceinline__ stride_range block_stride(index_t n) {
  return {static_cast<index_t>(blockIdx.x) * blockDim.x, n, grid_threads()};
}

/// Launches kernel<<<grid, block, shared_bytes, stream>>>(args...) and checks the launch.
template <class... Params, class... Args>
void launch(void (*kernel)(Params...), unsigned grid, unsigned block, std::size_t shared_bytes,
            cudaStream_t stream, Args&&... args) {
  kernel<<<grid, block, shared_bytes, stream>>>(static_cast<Params>(args)...);
  GPU500_CUDA_CHECK_LAUNCH();
}

}  // namespace gpu500::gpu
