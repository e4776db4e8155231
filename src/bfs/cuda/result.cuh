// src/bfs/cuda/result.cuh — kernels around a search rather than inside it: the parents mapped
// back to the original ids (part of the timed search: Graph500 times a search until its output is
// in memory) and the levels by the same rule (on request, untimed), Graph500's nedge from the
// reached vertices' degrees, and degree counts of the graph (hubs for gamma, the degree-32 prefix
// of a degree-sorted graph).
#pragma once

#include <cstdint>

#include "gpu500/core/cuda/launch.cuh"
#include "gpu500/core/types.hpp"
#include "gpu500/graph/csr.hpp"
#include "policy.cuh"

namespace gpu500::bfs::cuda::detail {

/// The row of original vertex o whose new id is x: x - first when a search can reach it through an
/// arc, else -1 (a vertex without arcs, new id past the non-isolated prefix, is reached only as the
/// root; and over ranks a padding lane's root row may lie on another rank). One rule for every
/// output mapped back to the original ids.
template <class V>
__device__ __forceinline__ index_t searched_row(const graph::id_map<V>& ids, V x, index_t first) {
  const index_t row = static_cast<index_t>(x) - first;
  return row >= 0 && row < ids.non_isolated ? row : -1;
}

/// The search's parents in original ids: out[o] = new2old[parent[old2new[o] - first]], all ones where
/// unreached (parent holds all ones there: prepare()); o runs over the rows in their original order,
/// `first` is this rank's first vertex (0 on one process) and old2new gives new vertex ids. A vertex
/// without arcs (no searched_row) is reached only as the root and costs no read of parent;
/// the others cost one random read of parent (new2old of a parent is mostly a hub's: cached). Each
/// thread maps map_ilp vertices a block apart, their loads issued together.
template <class V>
__global__ void original_parents_kernel(graph::id_map<V> ids, const V* parent, index_t first, V root, index_t n,
                                        V* out) {
  constexpr int ilp = bfs_policy::map_ilp;
  const V none = static_cast<V>(~V{0});
  const index_t span = static_cast<index_t>(blockDim.x) * ilp;
  for (index_t base = static_cast<index_t>(blockIdx.x) * span + threadIdx.x; base < n;
       base += static_cast<index_t>(gridDim.x) * span) {
    V x[ilp], p[ilp];
#pragma unroll
    for (int i = 0; i < ilp; ++i) {
      const index_t o = base + static_cast<index_t>(i) * blockDim.x;
      x[i] = o < n ? __ldcs(ids.old2new + o) : root;
    }
#pragma unroll
    for (int i = 0; i < ilp; ++i) {
      const index_t row = searched_row(ids, x[i], first);
      p[i] = row >= 0 ? parent[row] : x[i] == root ? root : none;
    }
#pragma unroll
    for (int i = 0; i < ilp; ++i) {
      const index_t o = base + static_cast<index_t>(i) * blockDim.x;
      if (o < n) __stcs(out + o, p[i] == none ? none : ids.new2old[p[i]]);
    }
  }
}

/// The search's levels in original ids by the same rule: out[o] = depth[old2new[o] - first], 0 for
/// the root without arcs, -1 where unreached (untimed: only a caller asking for the levels runs it).
template <class V>
__global__ void original_levels_kernel(graph::id_map<V> ids, const std::int32_t* depth, index_t first, V root,
                                       index_t n, std::int32_t* out) {
  for (index_t o : gpu::grid_stride(n)) {
    const V x = ids.old2new[o];
    const index_t row = searched_row(ids, x, first);
    out[o] = row >= 0 ? depth[row] : x == root ? 0 : -1;
  }
}

template <class V>
__global__ void reached_arcs_kernel(const index_t* offsets, const std::int32_t* depth, index_t n, ull* sum) {
  ull s = 0;
  for (index_t v : gpu::grid_stride(n))
    if (depth[v] >= 0) s += static_cast<ull>(offsets[v + 1] - offsets[v]);
  for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
  if (gpu::lane_id() == 0 && s) atomicAdd(sum, s);
}

/// Vertices with degree >= t (one pass; used for hub counts and the degree-32 prefix).
__global__ void count_degree_at_least_kernel(const index_t* offsets, index_t n, index_t t, ull* out) {
  ull s = 0;
  for (index_t v : gpu::grid_stride(n)) s += (offsets[v + 1] - offsets[v]) >= t;
  for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
  if (gpu::lane_id() == 0 && s) atomicAdd(out, s);
}

}  // namespace gpu500::bfs::cuda::detail
