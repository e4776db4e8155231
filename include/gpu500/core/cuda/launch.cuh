// gpu500/core/cuda/launch.cuh — device-side indexing for kernels (include from .cu files only).
//
// global_thread_id(), grid_threads(), the warp and lane of a thread, and grid_stride(n): a range
// for `for (index_t i : grid_stride(n))` that visits i = id, id + T, id + 2T, ... < n for the
// calling thread (T = every thread of the grid). warp_stride(n) does the same with one warp per
// item; block_stride(n) steps a whole block over a block's worth of items at a time. All ids are
// 64-bit: a grid of 2^31 threads or a range past 2^32 needs no care.
// launch(kernel, grid, block, shared_bytes, stream, args...) launches and checks the launch;
// largest_cluster(...) sizes a thread-block cluster launch for the device and cluster_launch(...)
// configures one.
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

/// The attributes of a launch in clusters (cluster_launch).
struct cluster_attributes {
  cudaLaunchAttribute at[2]{};
};

/// The configuration of a launch of `grid` blocks of `block` threads with `shared_bytes` of dynamic
/// shared memory on `stream`, in clusters of `cluster` blocks, as one cooperative grid where
/// `cooperative`; the configuration points to `attrs`, which must outlive the launch call.
inline cudaLaunchConfig_t cluster_launch(unsigned grid, unsigned block, std::size_t shared_bytes, cudaStream_t stream,
                                         unsigned cluster, bool cooperative, cluster_attributes& attrs) {
  attrs = {};
  attrs.at[0].id = cudaLaunchAttributeClusterDimension;
  attrs.at[0].val.clusterDim.x = cluster;
  attrs.at[0].val.clusterDim.y = attrs.at[0].val.clusterDim.z = 1;
  attrs.at[1].id = cudaLaunchAttributeCooperative;
  attrs.at[1].val.cooperative = 1;
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3(grid);
  cfg.blockDim = dim3(block);
  cfg.dynamicSmemBytes = shared_bytes;
  cfg.stream = stream;
  cfg.attrs = attrs.at;
  cfg.numAttrs = cooperative ? 2 : 1;
  return cfg;
}

/// A cluster launch's shape on the current device: `blocks` blocks a cluster (0: no clusters here)
/// and how many such clusters it holds at once.
struct cluster_shape {
  unsigned blocks = 0;
  int placeable = 0;
};

/// The largest cluster of max_blocks, max_blocks / 2, ... down to 2 blocks, at most `sms` blocks,
/// of `kernel` in blocks of `block` threads with `shared_bytes` of dynamic shared memory, of which
/// the current device can place at least one (Hopper's clusters: up to 16 blocks with the
/// non-portable size allowed); blocks 0 where the device has no clusters (before Hopper), refuses
/// the shared memory or the size, or fits none.
template <class... Params>
cluster_shape largest_cluster(void (*kernel)(Params...), unsigned block, std::size_t shared_bytes,
                              unsigned max_blocks, unsigned sms) {
  int device = 0, clusters = 0;
  GPU500_CUDA_CHECK(cudaGetDevice(&device));
  GPU500_CUDA_CHECK(cudaDeviceGetAttribute(&clusters, cudaDevAttrClusterLaunch, device));
  if (!clusters) return {};
  if (cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared_bytes)) !=
          cudaSuccess ||
      cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1) != cudaSuccess) {
    (void)cudaGetLastError();
    return {};
  }
  for (unsigned blocks = max_blocks; blocks >= 2; blocks /= 2) {
    if (blocks > sms) continue;
    cluster_attributes attrs;
    const cudaLaunchConfig_t cfg = cluster_launch(blocks, block, shared_bytes, nullptr, blocks, false, attrs);
    int placeable = 0;
    if (cudaOccupancyMaxActiveClusters(&placeable, kernel, &cfg) == cudaSuccess && placeable > 0)
      return {blocks, placeable};
    (void)cudaGetLastError();
  }
  return {};
}

}  // namespace gpu500::gpu
