// src/bfs/cuda/bottom_up.cuh — bottom-up steps of level L (Beamer's direction optimisation as
// Enterprise runs it, Liu & Huang, SC'15): an unvisited vertex looks for a neighbour of depth L and
// stops at the first.
//
// Unvisited queue classes: a thread per row (< 32 arcs; bu_unroll arcs loaded at once) and a warp
// class (>= 32 arcs) in which each lane first probes the first bu_probe arcs of its own row (rows
// start with their hubs on a degree-sorted graph, so most end there) before the whole warp scans
// the rest row by row; one CTA per vertex without classes (and for BL over the status array).
// VS-Graph500's hub cache: each CTA loads the frontier's key vertices into a direct-mapped
// shared-memory table and checks a neighbour there first. The visited bitmap (a snapshot taken
// before the level, n/8 bytes, L2-resident) answers "is u in the frontier" for an unvisited v.
// Over MPI ranks the rows scanned are this rank's and the bitmap is every rank's slice gathered:
// the one place a rank learns the other ranks' frontier, so there it is always on.
#pragma once

#include <cstdint>

#include "gpu500/core/cuda/launch.cuh"
#include "gpu500/core/types.hpp"
#include "gpu500/graph/csr.hpp"
#include "policy.cuh"

namespace gpu500::bfs::cuda::detail {

using graph::csr_view;

template <class V>
struct bu_params {
  csr_view<V> g;
  std::int32_t* depth;
  V* parent;
  std::int32_t level;  ///< frontier depth; discoveries get level + 1
  const V* hub_list;   ///< frontier hubs (null: no cache)
  const gen_totals* tot;
  const std::uint32_t* visited;  ///< bit v: v was visited before this level (null: read depth)
  /// The hub list's rows are vertices hub_base + row (over MPI ranks: this rank's first vertex;
  /// the neighbours a row meets are vertex ids, the rows it scans are this rank's).
  index_t hub_base = 0;
};

template <class V>
constexpr int cache_slots = bfs_policy::cache_bytes / static_cast<int>(sizeof(V));

/// Fill this CTA's direct-mapped cache of frontier hubs: table[h mod slots] = h (misses fall back to
/// the global status array, so collisions only cost speed).
template <class V>
__device__ __forceinline__ void load_cache(const bu_params<V>& p, V* table) {
  constexpr int S = cache_slots<V>;
  for (int i = threadIdx.x; i < S; i += blockDim.x) table[i] = static_cast<V>(-1);
  __syncthreads();
  if (p.hub_list) {
    const ull n = p.tot->hub_count < static_cast<ull>(S) ? p.tot->hub_count : static_cast<ull>(S);
    for (ull i = threadIdx.x; i < n; i += blockDim.x) {
      const V h = static_cast<V>(p.hub_base + static_cast<index_t>(p.hub_list[i]));
      table[static_cast<index_t>(h) & (S - 1)] = h;
    }
  }
  __syncthreads();
}

template <class V, bool Cache>
__device__ __forceinline__ bool in_frontier(const bu_params<V>& p, const V* table, V u) {
  if constexpr (Cache) {
    if (table[static_cast<index_t>(u) & (cache_slots<V> - 1)] == u) return true;
  }
  // For a vertex still unvisited at this level every visited neighbour has depth == level (a
  // neighbour of smaller depth would have reached it earlier), so the bitmap of the vertices visited
  // before the level -- n/8 bytes, L2-resident where the status array is not -- answers the same.
  if (p.visited) {
    const auto i = static_cast<index_t>(u);
    return (p.visited[i >> 5] >> (i & 31)) & 1u;
  }
  return p.depth[u] == p.level;
}

/// visited[w] bit b = depth[32 w + b] != -1 for the vertices [0, n), 0 beyond. Each lane reads four
/// statuses with one 16-byte load (two loads in flight per step); 8 lanes make a word.
__global__ void visited_bits_kernel(const std::int32_t* depth, index_t n, std::uint32_t* visited) {
  const int lane = gpu::lane_id();
  const index_t words = (n + 31) / 32;
  const index_t warps = gpu::grid_warps();
  constexpr int per_step = 2;  // 4-word groups per warp and step
  for (index_t g = gpu::global_warp_id() * per_step; g * 4 < words; g += warps * per_step) {
    int4 s[per_step];
#pragma unroll
    for (int k = 0; k < per_step; ++k) {
      const index_t v = (g + k) * 128 + 4 * lane;  // first of this lane's four vertices
      if (v + 3 < n) {
        s[k] = *reinterpret_cast<const int4*>(depth + v);
      } else {
        s[k].x = v < n ? depth[v] : -1;
        s[k].y = v + 1 < n ? depth[v + 1] : -1;
        s[k].z = v + 2 < n ? depth[v + 2] : -1;
        s[k].w = -1;
      }
    }
#pragma unroll
    for (int k = 0; k < per_step; ++k) {
      unsigned bits = (s[k].x != -1 ? 1u : 0u) | (s[k].y != -1 ? 2u : 0u) | (s[k].z != -1 ? 4u : 0u) |
                      (s[k].w != -1 ? 8u : 0u);
      bits <<= 4 * (lane & 7);
      bits |= __shfl_xor_sync(0xffffffffu, bits, 1);
      bits |= __shfl_xor_sync(0xffffffffu, bits, 2);
      bits |= __shfl_xor_sync(0xffffffffu, bits, 4);
      const index_t w = (g + k) * 4 + (lane >> 3);
      if ((lane & 7) == 0 && w < words) visited[w] = bits;
    }
  }
}

template <class V, bool Cache>
__device__ __forceinline__ void bu_thread_body(const bu_params<V>& p, const V* table, const V* q, index_t qn,
                                               index_t b, index_t nb) {
  for (index_t i = b * blockDim.x + threadIdx.x; i < qn; i += nb * blockDim.x) {
    const V v = q[i];
    const index_t end = p.g.offsets[static_cast<index_t>(v) + 1];
    // bu_unroll arcs per step, their loads issued together (a row is a chain of dependent loads
    // otherwise); any frontier neighbour is a valid parent, the first of the step is taken.
    for (index_t e = p.g.offsets[v]; e < end; e += bfs_policy::bu_unroll) {
      V u[bfs_policy::bu_unroll];
      bool hit[bfs_policy::bu_unroll];
#pragma unroll
      for (int j = 0; j < bfs_policy::bu_unroll; ++j) u[j] = e + j < end ? p.g.columns[e + j] : V{};
#pragma unroll
      for (int j = 0; j < bfs_policy::bu_unroll; ++j) hit[j] = e + j < end && in_frontier<V, Cache>(p, table, u[j]);
      int f = -1;
#pragma unroll
      for (int j = bfs_policy::bu_unroll - 1; j >= 0; --j) f = hit[j] ? j : f;
      if (f >= 0) {
        V par = u[0];
#pragma unroll
        for (int j = 1; j < bfs_policy::bu_unroll; ++j) par = f == j ? u[j] : par;
        p.depth[v] = p.level + 1;
        p.parent[v] = par;
        break;
      }
    }
  }
}

/// The whole warp on one row from arc `from`: the first 32 arcs, then bu_unroll x 32 arcs per step
/// with their loads issued together; the first lane with a hit records the parent.
template <class V, bool Cache>
__device__ __forceinline__ void bu_warp_row(const bu_params<V>& p, const V* table, V v, index_t from, index_t end,
                                            int lane) {
  for (index_t base = from, width = 32; base < end; base += width, width = 32 * bfs_policy::bu_unroll) {
    V u[bfs_policy::bu_unroll];
    bool hit[bfs_policy::bu_unroll];
#pragma unroll
    for (int j = 0; j < bfs_policy::bu_unroll; ++j) {
      const index_t e = base + j * 32 + lane;
      u[j] = (j * 32 < width && e < end) ? p.g.columns[e] : V{};
    }
#pragma unroll
    for (int j = 0; j < bfs_policy::bu_unroll; ++j) {
      const index_t e = base + j * 32 + lane;
      hit[j] = j * 32 < width && e < end && in_frontier<V, Cache>(p, table, u[j]);
    }
    V par{};
    bool any = false;
#pragma unroll
    for (int j = bfs_policy::bu_unroll - 1; j >= 0; --j) {
      par = hit[j] ? u[j] : par;
      any = any || hit[j];
    }
    const unsigned m = __ballot_sync(0xffffffffu, any);
    if (m) {
      if (lane == __ffs(m) - 1) {
        p.depth[v] = p.level + 1;
        p.parent[v] = par;
      }
      return;
    }
  }
}

/// The bottom-up warp class (rows of >= 32 arcs): each lane first probes its own row's first arcs,
/// then the rows without a hit there are scanned by the whole warp.
template <class V, bool Cache>
__device__ __forceinline__ void bu_warp_body(const bu_params<V>& p, const V* table, const V* q, index_t qn,
                                             index_t b, index_t nb) {
  const int lane = gpu::lane_id();
  const index_t warps = (nb * blockDim.x) >> 5;
  const index_t warp = (b * blockDim.x + threadIdx.x) >> 5;
  // Lane probe: a warp takes 32 rows, each lane tests the first bu_probe arcs of its own row (loads
  // issued together). Rows are in descending degree order, so a row's likeliest parents, the hubs,
  // come first and most rows end here after one round trip for 32 rows instead of one per row.
  // The rows without a hit there are then scanned by the whole warp, one after the other.
  constexpr int P = bfs_policy::bu_probe;
  for (index_t i0 = warp * 32; i0 < qn; i0 += warps * 32) {
    const index_t i = i0 + lane;
    const bool mine = i < qn;
    const V v = mine ? q[i] : V{};
    const index_t begin = mine ? p.g.offsets[v] : 0, end = mine ? p.g.offsets[static_cast<index_t>(v) + 1] : 0;
    V u[P];
    bool hit[P];
#pragma unroll
    for (int j = 0; j < P; ++j) u[j] = begin + j < end ? p.g.columns[begin + j] : V{};
#pragma unroll
    for (int j = 0; j < P; ++j) hit[j] = begin + j < end && in_frontier<V, Cache>(p, table, u[j]);
    int f = -1;
#pragma unroll
    for (int j = P - 1; j >= 0; --j) f = hit[j] ? j : f;
    if (f >= 0) {
      V par = u[0];
#pragma unroll
      for (int j = 1; j < P; ++j) par = f == j ? u[j] : par;
      p.depth[v] = p.level + 1;
      p.parent[v] = par;
    }
    unsigned rest = __ballot_sync(0xffffffffu, f < 0 && begin + P < end);
    while (rest) {
      const int src = __ffs(rest) - 1;
      rest &= rest - 1;
      const V w = __shfl_sync(0xffffffffu, v, src);
      const index_t from = __shfl_sync(0xffffffffu, begin, src) + P, to = __shfl_sync(0xffffffffu, end, src);
      bu_warp_row<V, Cache>(p, table, w, from, to, lane);
    }
  }
}

/// One CTA per vertex: of the queue, or (q == nullptr, BL) of [0, qn) where depth is -1.
template <class V, bool Cache>
__global__ void bu_cta_kernel(bu_params<V> p, const V* q, index_t qn) {
  __shared__ V table[cache_slots<V>];
  __shared__ unsigned first_hit;  // the round's first arc in the frontier, as its thread (32 bits: a native atomic)
  __shared__ int todo;
  if constexpr (Cache) load_cache(p, table);
  for (index_t i = blockIdx.x; i < qn; i += gridDim.x) {
    const V v = q ? q[i] : static_cast<V>(i);
    if (threadIdx.x == 0) {
      todo = q ? 1 : p.depth[v] == -1;
      first_hit = ~0u;
    }
    __syncthreads();
    if (todo) {
      const index_t begin = p.g.offsets[v], end = p.g.offsets[static_cast<index_t>(v) + 1];
      index_t base = begin;  // the round that found one, after the loop
      for (; base < end; base += blockDim.x) {
        const index_t e = base + threadIdx.x;
        if (e < end && in_frontier<V, Cache>(p, table, p.g.columns[e])) atomicMin(&first_hit, threadIdx.x);
        __syncthreads();
        const bool done = first_hit != ~0u;
        __syncthreads();  // every thread has read first_hit before the next round's atomics
        if (done) break;
      }
      if (threadIdx.x == 0 && first_hit != ~0u) {
        p.depth[v] = p.level + 1;
        p.parent[v] = p.g.columns[base + first_hit];
      }
    }
    __syncthreads();
  }
}

template <class V, bool Cache>
__global__ void bu_thread_kernel(bu_params<V> p, const V* q, index_t qn) {
  __shared__ V table[cache_slots<V>];
  if constexpr (Cache) load_cache(p, table);
  bu_thread_body<V, Cache>(p, table, q, qn, blockIdx.x, gridDim.x);
}

template <class V, bool Cache>
__global__ void bu_warp_kernel(bu_params<V> p, const V* q, index_t qn) {
  __shared__ V table[cache_slots<V>];
  if constexpr (Cache) load_cache(p, table);
  bu_warp_body<V, Cache>(p, table, q, qn, blockIdx.x, gridDim.x);
}

}  // namespace gpu500::bfs::cuda::detail
