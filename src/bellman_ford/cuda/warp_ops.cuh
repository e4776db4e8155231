// The (min, argmin) folds and reductions every dense Bellman-Ford kernel shares (CUDA): the
// per-thread fold with its tie rule (smallest index among equal candidates), the four-wide fold,
// the block tree reduction of BF_Reduce / BF_Reduce_Coarse, and the warp-wide redux.sync
// reductions on order-preserving float keys used by the resident schedule.
#pragma once

#include <cuda_runtime.h>

namespace gpu500::bellman_ford::cuda {

/// Fold candidate (c, j) into (best, arg). Callers visit j in ascending order, so the strict '<'
/// keeps the smallest j among equal candidates.
__device__ __forceinline__ void fold(float& best, int& arg, float c, int j) {
  if (c < best) {
    best = c;
    arg = j;
  }
}

/// The tie rule between two partial results: smaller value, then smaller index.
__device__ __forceinline__ bool better(float od, int oj, float bd, int bj) { return od < bd || (od == bd && oj < bj); }

/// Fold the four candidates d + w of sources j .. j + 3 into (best, arg): a two-level tree
/// (lower index first on ties), then one fold, so the dependency chain is 3 steps, not 4.
__device__ __forceinline__ void fold4(float& best, int& arg, float4 d, float4 w, int j) {
  const float c0 = d.x + w.x, c1 = d.y + w.y, c2 = d.z + w.z, c3 = d.w + w.w;
  const bool h1 = c1 < c0, h3 = c3 < c2;
  const float m01 = h1 ? c1 : c0, m23 = h3 ? c3 : c2;
  const int a01 = h1 ? j + 1 : j, a23 = h3 ? j + 3 : j + 2;
  const bool h = m23 < m01;
  fold(best, arg, h ? m23 : m01, h ? a23 : a01);
}

/// Tree reduction of the block's (best, arg) pairs in shared memory: log2(M) halving steps.
/// The result is valid in thread 0. M = blockDim.x, a power of two.
__device__ __forceinline__ void block_argmin(float& best, int& arg, float* sd, int* sj) {
  const int t = threadIdx.x;
  sd[t] = best;
  sj[t] = arg;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s && better(sd[t + s], sj[t + s], sd[t], sj[t])) {
      sd[t] = sd[t + s];
      sj[t] = sj[t + s];
    }
    __syncthreads();
  }
  best = sd[0];
  arg = sj[0];
}

/// Floats as unsigned integers in the same order (no NaN here), and back: what redux.sync
/// compares.
__device__ __forceinline__ unsigned ordered_key(float x) {
  const unsigned bits = __float_as_uint(x);
  return (bits & 0x80000000u) ? ~bits : (bits | 0x80000000u);
}
__device__ __forceinline__ float from_ordered_key(unsigned key) {
  return __uint_as_float((key & 0x80000000u) ? (key & 0x7fffffffu) : ~key);
}

/// Warp-wide (min, argmin) by two redux.sync reductions: the smallest value, then the smallest
/// index among the lanes holding it: the tie rule of `better`. Every lane ends with the result.
/// -0 counts as +0 (they are equal values, and the fold keeps the first of equals).
__device__ __forceinline__ void warp_argmin(float& best, int& arg) {
  const unsigned key = ordered_key(best == 0.0f ? 0.0f : best);
  const unsigned low = __reduce_min_sync(0xffffffffu, key);
  arg = static_cast<int>(__reduce_min_sync(0xffffffffu, key == low ? static_cast<unsigned>(arg) : 0xffffffffu));
  best = from_ordered_key(low);
}

/// The warp-wide minimum by one redux.sync on order-preserving keys (no NaN here); every lane
/// gets it. -0 and +0 are equal values (a later comparison cannot tell them apart).
__device__ __forceinline__ float warp_min(float x) {
  return from_ordered_key(__reduce_min_sync(0xffffffffu, ordered_key(x)));
}

}  // namespace gpu500::bellman_ford::cuda
