// One kernel launch per round (schedules launch and skip): init_kernel, and the three kernels of
// dense Bellman-Ford (Liu et al.: OpenCL, parallel min-reduction): BF_Naive, BF_Reduce and
// BF_Reduce_Coarse (the last with the skip schedule's optional line test).
// Every kernel computes one Jacobi round for its vertices (see bellman_ford.hpp):
//   best = min_j cur[j] + w(j, v) with the smallest j on ties; if best < cur[v] then
//   next[v] = best, pred[v] = j, *changed = 1; else next[v] = cur[v].
// Buffers: cur/next hold ld floats (padding = +inf, never written); the matrix has pitch ld.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "gpu500/core/cuda/launch.cuh"
#include "policies.cuh"
#include "warp_ops.cuh"

namespace gpu500::bellman_ford::cuda {

/// Write vertex v's new distance (and predecessor when it improved); true when it improved.
__device__ __forceinline__ bool commit(int v, float best, int arg, const float* __restrict__ cur,
                                       float* __restrict__ next, int* __restrict__ pred, int* __restrict__ changed) {
  const float old = cur[v];
  if (best < old) {
    next[v] = best;
    pred[v] = arg;
    *changed = 1;  // every writer stores the same value
    return true;
  }
  next[v] = old;
  return false;
}

/// dist = +inf but dist(source) = 0 in both vectors (padding included), pred = -1, the change
/// flag and the resident grid's three flags zero, the skip lines cleared but the source's line,
/// the resident exchange vectors +inf.
__global__ void init_kernel(float* __restrict__ cur, float* __restrict__ next, int* __restrict__ pred,
                            int* __restrict__ changed, int* __restrict__ gflags, unsigned char* __restrict__ lines,
                            float* __restrict__ xchg, int ld, int source) {
  const int i = static_cast<int>(gpu::global_thread_id());
  const float inf = __int_as_float(0x7f800000);
  if (i < ld) {
    cur[i] = next[i] = i == source ? 0.0f : inf;
    pred[i] = -1;
  }
  if (i < 2 * ld) xchg[i] = inf;
  if (i < 3 * (ld >> skip_lines::shift)) lines[i] = i == (source >> skip_lines::shift) ? 1 : 0;
  if (i == 0) *changed = 0;
  if (i < 3) gflags[i] = 0;
}

// ---- kernels ----------------------------------------------------------------------------

/// BF_Naive: thread v loops over column v of the by_source matrix (row j = out-edges of j).
__global__ void naive_kernel(const float* __restrict__ w, std::size_t ld, int n, const float* __restrict__ cur,
                             float* __restrict__ next, int* __restrict__ pred, int* __restrict__ changed) {
  const int v = static_cast<int>(gpu::global_thread_id());
  if (v >= n) return;
  float best = __int_as_float(0x7f800000);
  int arg = n;
  const float* col = w + v;
#pragma unroll 4
  for (int j = 0; j < n; ++j) fold(best, arg, __ldg(cur + j) + __ldg(col + static_cast<std::size_t>(j) * ld), j);
  (void)commit(v, best, arg, cur, next, pred, changed);
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
  if (t == 0) (void)commit(v, best, arg, cur, next, pred, changed);
}

/// BF_Reduce_Coarse: block v reads row v of the by_target matrix (in-edges of v), contiguous:
/// thread t loads float4 number t, t+M, ... (coalesced 16-byte loads; ld is a multiple of 4 and
/// padding is +inf, so no tail), then the tree. Matrix loads are streaming (__ldcs) so that the
/// distance vector, which every block reads, stays in cache. With Skip, quads of lines whose
/// sources did not change in the previous round are not read (see skip_lines); the lines are
/// kept up to date either way.
template <bool Skip>
__global__ void coarse_kernel(const float* __restrict__ wt, std::size_t ld, int n, const float* __restrict__ cur,
                              float* __restrict__ next, int* __restrict__ pred, int* __restrict__ changed,
                              skip_lines lines) {
  extern __shared__ float smem[];
  const int v = blockIdx.x, t = threadIdx.x, m = blockDim.x;
  float best = __int_as_float(0x7f800000);
  int arg = n;
  const float4* row = reinterpret_cast<const float4*>(wt + static_cast<std::size_t>(v) * ld);
  const float4* c4 = reinterpret_cast<const float4*>(cur);
  const int quads = static_cast<int>(ld / 4);
#pragma unroll 4
  for (int q = t; q < quads; q += m) {
    if (Skip && !__ldg(lines.read + (q >> (skip_lines::shift - 2)))) continue;
    const float4 a = __ldcs(row + q);
    const float4 d = __ldg(c4 + q);
    const int j = 4 * q;
    fold(best, arg, d.x + a.x, j);
    fold(best, arg, d.y + a.y, j + 1);
    fold(best, arg, d.z + a.z, j + 2);
    fold(best, arg, d.w + a.w, j + 3);
  }
  block_argmin(best, arg, smem, reinterpret_cast<int*>(smem + m));
  if (t == 0) {
    if (commit(v, best, arg, cur, next, pred, changed)) lines.mark[v >> skip_lines::shift] = 1;
    if (v < lines.count) lines.clear[v] = 0;
  }
}

}  // namespace gpu500::bellman_ford::cuda
