// CUDA kernels of dense Bellman-Ford (paper 000): BF_Naive, BF_Reduce, BF_Reduce_Coarse.
// Layering: launch policies (one struct per kernel) -> thin __global__ -> device helpers.
// Every kernel computes one Jacobi round for its vertices (see bellman_ford.hpp):
//   best = min_j cur[j] + w(j, v) with the smallest j on ties; if best < cur[v] then
//   next[v] = best, pred[v] = j, *changed = 1; else next[v] = cur[v].
// Buffers: cur/next hold ld floats (padding = +inf, never written); the matrix has pitch ld.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace gpu500::bellman_ford::cuda {

/// Launch policy of BF_Naive: threads per block (one thread per vertex).
struct naive_policy {
  static constexpr int block_threads = 128;
};
/// Launch policy of BF_Reduce and BF_Reduce_Coarse: one block of M threads per vertex, M chosen
/// at run time; shared memory holds M (min, argmin) pairs (the paper's two local buffers).
struct reduce_policy {
  static constexpr int max_group = 1024;
  static std::size_t shared_bytes(int group) { return static_cast<std::size_t>(group) * (sizeof(float) + sizeof(int)); }
};

// ---- device helpers ---------------------------------------------------------------------

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

/// Write vertex v's new distance (and predecessor when it improved).
__device__ __forceinline__ void commit(int v, float best, int arg, const float* __restrict__ cur,
                                       float* __restrict__ next, int* __restrict__ pred, int* __restrict__ changed) {
  const float old = cur[v];
  if (best < old) {
    next[v] = best;
    pred[v] = arg;
    *changed = 1;  // every writer stores the same value
  } else {
    next[v] = old;
  }
}

// ---- kernels ----------------------------------------------------------------------------

/// BF_Naive: thread v loops over column v of the by_source matrix (row j = out-edges of j).
__global__ void naive_kernel(const float* __restrict__ w, std::size_t ld, int n, const float* __restrict__ cur,
                             float* __restrict__ next, int* __restrict__ pred, int* __restrict__ changed) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  float best = __int_as_float(0x7f800000);
  int arg = n;
  const float* col = w + v;
#pragma unroll 4
  for (int j = 0; j < n; ++j) fold(best, arg, __ldg(cur + j) + __ldg(col + static_cast<std::size_t>(j) * ld), j);
  commit(v, best, arg, cur, next, pred, changed);
}

/// BF_Reduce: block v; thread t folds j = t, t+M, ... of column v (strided loads), then the tree.
__global__ void reduce_kernel(const float* __restrict__ w, std::size_t ld, int n, const float* __restrict__ cur,
                              float* __restrict__ next, int* __restrict__ pred, int* __restrict__ changed) {
  extern __shared__ float smem[];
  const int v = blockIdx.x, t = threadIdx.x, m = blockDim.x;
  float best = __int_as_float(0x7f800000);
  int arg = n;
  const float* col = w + v;
  for (int j = t; j < n; j += m) fold(best, arg, __ldg(cur + j) + __ldg(col + static_cast<std::size_t>(j) * ld), j);
  block_argmin(best, arg, smem, reinterpret_cast<int*>(smem + m));
  if (t == 0) commit(v, best, arg, cur, next, pred, changed);
}

/// BF_Reduce_Coarse: block v reads row v of the by_target matrix (in-edges of v), contiguous:
/// thread t loads float4 number t, t+M, ... (coalesced 16-byte loads; ld is a multiple of 4 and
/// padding is +inf, so no tail), then the tree. Matrix loads are streaming (__ldcs) so that the
/// distance vector, which every block reads, stays in cache.
__global__ void coarse_kernel(const float* __restrict__ wt, std::size_t ld, int n, const float* __restrict__ cur,
                              float* __restrict__ next, int* __restrict__ pred, int* __restrict__ changed) {
  extern __shared__ float smem[];
  const int v = blockIdx.x, t = threadIdx.x, m = blockDim.x;
  float best = __int_as_float(0x7f800000);
  int arg = n;
  const float4* row = reinterpret_cast<const float4*>(wt + static_cast<std::size_t>(v) * ld);
  const float4* c4 = reinterpret_cast<const float4*>(cur);
  const int quads = static_cast<int>(ld / 4);
#pragma unroll 4
  for (int q = t; q < quads; q += m) {
    const float4 a = __ldcs(row + q);
    const float4 d = __ldg(c4 + q);
    const int j = 4 * q;
    fold(best, arg, d.x + a.x, j);
    fold(best, arg, d.y + a.y, j + 1);
    fold(best, arg, d.z + a.z, j + 2);
    fold(best, arg, d.w + a.w, j + 3);
  }
  block_argmin(best, arg, smem, reinterpret_cast<int*>(smem + m));
  if (t == 0) commit(v, best, arg, cur, next, pred, changed);
}

}  // namespace gpu500::bellman_ford::cuda
