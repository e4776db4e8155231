// src/hash/cuda/launch.cuh — launch machinery shared by the CUDA tables of the hash component
// (GLHT and its baselines): the launch policy of every hash-table kernel, the first operation and
// grid-stride step of a tile of G lanes, and block-aggregated result counters. Private to src/hash;
// memory comes from gpu500/core/cuda/memory.hpp, thread ids from gpu500/core/cuda/launch.cuh.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>

#include "gpu500/core/cuda/check.cuh"
#include "gpu500/core/cuda/launch.cuh"
#include "gpu500/core/types.hpp"

namespace gpu500::hash::detail {

/// Launch policy of every hash-table kernel: 256-thread blocks, grid-stride loops, at most four
/// waves of fully occupied SMs.
struct launch_policy {
  int block = 256;
  int max_blocks = 132 * 32;
  static launch_policy for_device() {
    launch_policy p;
    p.max_blocks = static_cast<int>(gpu::resident_blocks(p.block)) * 4;
    return p;
  }
  /// Blocks for `threads` threads (at least 1, at most max_blocks).
  [[nodiscard]] unsigned grid(index_t threads) const {
    return gpu::grid_blocks(threads, block, 1, static_cast<unsigned>(max_blocks));
  }
};

/// First operation of this thread's tile and the grid-stride step, in operations.
template <int G>
__device__ __forceinline__ index_t first_op() {
  return gpu::global_thread_id() / G;
}
template <int G>
__device__ __forceinline__ index_t op_stride() {
  return gpu::grid_threads() / G;
}

/// counters[0] += sum of a, counters[1] += sum of b over the block (every thread must call).
__device__ __forceinline__ void block_add(unsigned long long* counters, unsigned long long a, unsigned long long b) {
  __shared__ unsigned long long s[2];
  if (threadIdx.x == 0) s[0] = s[1] = 0;
  __syncthreads();
  if (a) atomicAdd(&s[0], a);
  if (b) atomicAdd(&s[1], b);
  __syncthreads();
  if (threadIdx.x == 0) {
    if (s[0]) atomicAdd(&counters[0], s[0]);
    if (s[1]) atomicAdd(&counters[1], s[1]);
  }
}

}  // namespace gpu500::hash::detail
