// src/bfs/cuda/top_down.cuh — Enterprise's top-down expansion (Liu & Huang, SC'15) of frontier
// level L: unvisited neighbours get depth L + 1 and a parent. Racing writers all write L + 1 and a
// frontier parent, so no atomics are needed (benign races).
//
// Workload balancing by degree class: a thread (< 32 arcs), a warp (32..255), a CTA
// (256..extreme_degree) per frontier vertex, the three classes in ONE launch whose blocks are dealt
// round-robin to the classes (td_fused_kernel; one launch instead of three plus stream fork/join);
// above extreme_degree the grid queue: the whole grid, edge-balanced over the concatenated lists
// (td_grid_kernel, after a prefix sum of the queue's degrees). td_cta_kernel alone serves the
// runs without degree classes (and BL, over the whole status array).
#pragma once

#include <cstdint>

#include "gpu500/core/cuda/launch.cuh"
#include "gpu500/core/types.hpp"
#include "gpu500/dist/device_pairs.cuh"
#include "gpu500/graph/csr.hpp"
#include "policy.cuh"

namespace gpu500::bfs::cuda::detail {

using graph::csr_view;

/// Where a top-down level's arcs to other ranks' vertices go (over MPI ranks; unused on one
/// process): a (child, parent) pair of 32-bit halves, the child's index on its owner and the
/// parent's row here, written at the next free place of the owner's block of `send` (blocks as
/// long as the owned arcs whose far end that rank owns: nothing overflows). A child goes out at
/// most once per search from a rank: its bit in `seen` (every vertex; also set for the vertices
/// known visited everywhere once a bottom-up level has gathered them). An owned child is claimed
/// by a compare-and-swap of its depth and listed in `next` (the next frontier: no status scan).
template <class V>
struct rank_sink {
  index_t first = 0;  ///< this rank's first vertex: row l is vertex first + l
  index_t block = 1;  ///< vertices per rank (dist::block_partition)
  int me = 0;
  std::uint64_t* seen = nullptr;
  index_t* cursor = nullptr;  ///< per rank: the next free place of its block
  std::uint64_t* send = nullptr;
  V* next = nullptr;              ///< the rows this level found
  index_t* next_count = nullptr;  ///< their number
};

/// Over ranks: row l found at depth `next` with parent p, once (the depth's compare-and-swap
/// decides), and listed.
template <class V>
__device__ __forceinline__ void claim_row(std::int32_t* depth, V* parent, index_t l, std::int32_t next, V p,
                                          const rank_sink<V>& r) {
  if (depth[l] != -1 || atomicCAS(depth + l, -1, next) != -1) return;
  parent[l] = p;
  r.next[dist::cuda::aggregated_take(r.next_count, 0)] = static_cast<V>(l);
}

/// Arc e of frontier row u: an unvisited child gets depth `next` and u as its parent. Over ranks
/// (Ranks) a child owned elsewhere becomes a pair for its owner instead, and an owned child is
/// row v - first, its parent the vertex first + u.
template <bool Ranks, class V>
__device__ __forceinline__ void visit(const csr_view<V>& g, std::int32_t* depth, V* parent, V u, index_t e,
                                      std::int32_t next, const rank_sink<V>& r) {
  const V v = g.columns[e];
  if constexpr (Ranks) {
    const auto w = static_cast<index_t>(v);
    const int owner = static_cast<int>(w / r.block);
    if (owner != r.me) {
      const std::uint64_t bit = std::uint64_t{1} << (w & 63);
      auto* word = reinterpret_cast<unsigned long long*>(r.seen + (w >> 6));
      if ((*word & bit) || (atomicOr(word, bit) & bit)) return;  // a stale 0 only costs the atomic
      r.send[dist::cuda::aggregated_take(r.cursor, owner)] =
          (static_cast<std::uint64_t>(w - static_cast<index_t>(owner) * r.block) << 32) | static_cast<std::uint64_t>(u);
      return;
    }
    claim_row(depth, parent, w - r.first, next, static_cast<V>(r.first + static_cast<index_t>(u)), r);
  } else if (depth[v] == -1) {
    depth[v] = next;
    parent[v] = u;
  }
}

// Each class has a body over its share of the launch (block b of nb): the fused top-down kernel
// runs classes 0..2 in one launch with its blocks dealt by class, and the CTA body alone is also
// the kernel of the runs without degree classes. Bottom-up keeps a kernel per class on two streams: one kernel holding both bodies took
// 117-147 us (ncu, SCALE 22, level 2, H100), more than the two kernels' 44 + 79 us back to back.

template <class V, bool Ranks>
__device__ __forceinline__ void td_thread_body(const csr_view<V>& g, const V* q, index_t qn, std::int32_t* depth,
                                               V* parent, std::int32_t next, const rank_sink<V>& r,
                                               index_t b, index_t nb) {
  for (index_t i = b * blockDim.x + threadIdx.x; i < qn; i += nb * blockDim.x) {
    const V u = q[i];
    for (index_t e = g.offsets[u], end = g.offsets[static_cast<index_t>(u) + 1]; e < end; ++e)
      visit<Ranks>(g, depth, parent, u, e, next, r);
  }
}

template <class V, bool Ranks>
__device__ __forceinline__ void td_warp_body(const csr_view<V>& g, const V* q, index_t qn, std::int32_t* depth,
                                             V* parent, std::int32_t next, const rank_sink<V>& r,
                                             index_t b, index_t nb) {
  const int lane = gpu::lane_id();
  const index_t warps = (nb * blockDim.x) >> 5;
  for (index_t i = (b * blockDim.x + threadIdx.x) >> 5; i < qn; i += warps) {
    const V u = q[i];
    for (index_t e = g.offsets[u] + lane, end = g.offsets[static_cast<index_t>(u) + 1]; e < end; e += 32)
      visit<Ranks>(g, depth, parent, u, e, next, r);
  }
}

/// One CTA per queued vertex (q == nullptr: BL, every vertex of [0, n) whose depth is L).
template <class V, bool Ranks>
__device__ __forceinline__ void td_cta_body(const csr_view<V>& g, const V* q, index_t qn, std::int32_t* depth,
                                            V* parent, std::int32_t next, const rank_sink<V>& r,
                                            index_t b, index_t nb) {
  for (index_t i = b; i < qn; i += nb) {
    const V u = q ? q[i] : static_cast<V>(i);
    if (!q && depth[u] != next - 1) continue;  // uniform: a frontier vertex's depth does not change
    for (index_t e = g.offsets[u] + threadIdx.x, end = g.offsets[static_cast<index_t>(u) + 1]; e < end;
         e += blockDim.x)
      visit<Ranks>(g, depth, parent, u, e, next, r);
  }
}

template <class V, bool Ranks>
__global__ void td_cta_kernel(csr_view<V> g, const V* q, index_t qn, std::int32_t* depth, V* parent,
                              std::int32_t next, rank_sink<V> r) {
  td_cta_body<V, Ranks>(g, q, qn, depth, parent, next, r, blockIdx.x, gridDim.x);
}

/// Blocks of each class in a fused class launch. Blocks are dealt round-robin over the classes that
/// still have blocks, so every class runs from the first wave on (as on separate streams); a class
/// given blocks in sequence would wait for the one before it whenever their grids fill the GPU.
struct class_blocks {
  unsigned b[3] = {0, 0, 0};
  [[nodiscard]] unsigned total() const { return b[0] + b[1] + b[2]; }
};

/// Class of launch block `blk` and its index `idx` among that class's blocks.
__device__ __forceinline__ int class_of_block(const class_blocks& cb, index_t blk, index_t& idx) {
  index_t left[3] = {cb.b[0], cb.b[1], cb.b[2]};
  index_t base = 0;  // blocks each remaining class received in earlier rounds
  for (int round = 0; round < 3; ++round) {
    int k = 0;
    index_t m = 0;
    for (int c = 0; c < 3; ++c)
      if (left[c] > 0) {
        ++k;
        m = (m == 0 || left[c] < m) ? left[c] : m;
      }
    if (k == 0) break;
    if (blk < k * m) {
      int j = static_cast<int>(blk % k);
      idx = base + blk / k;
      for (int c = 0; c < 3; ++c)
        if (left[c] > 0 && j-- == 0) return c;
    }
    blk -= k * m;
    base += m;
    for (int c = 0; c < 3; ++c) left[c] = left[c] > 0 ? left[c] - m : 0;
  }
  idx = 0;
  return -1;  // not reached: blk < total()
}

/// Top-down classes 0..2 (queue q = thread class, then warp class, then CTA class) in one launch.
template <class V, bool Ranks>
__global__ void td_fused_kernel(csr_view<V> g, const V* q, index_t n0, index_t n1, index_t n2, class_blocks cb,
                                std::int32_t* depth, V* parent, std::int32_t next, rank_sink<V> r) {
  index_t b = 0;
  const int c = class_of_block(cb, blockIdx.x, b);
  if (c == 0)
    td_thread_body<V, Ranks>(g, q, n0, depth, parent, next, r, b, cb.b[0]);
  else if (c == 1)
    td_warp_body<V, Ranks>(g, q + n0, n1, depth, parent, next, r, b, cb.b[1]);
  else if (c == 2)
    td_cta_body<V, Ranks>(g, q + n0 + n1, n2, depth, parent, next, r, b, cb.b[2]);
}

/// The grid queue: pref[i] = arcs of the queue's vertices before i (pref[0] = 0).
template <class V>
__global__ void queue_degrees_kernel(const index_t* offsets, const V* q, index_t qn, index_t* pref) {
  for (index_t i : gpu::grid_stride(qn)) pref[i + 1] = offsets[static_cast<index_t>(q[i]) + 1] - offsets[q[i]];
  if (gpu::global_thread_id() == 0) pref[0] = 0;
}

/// Largest j in [0, n) with pref[j] <= k (the queue entry that owns arc k of the concatenation).
template <class P>
__device__ __forceinline__ index_t owner_of(const P* pref, index_t n, index_t k) {
  index_t lo = 0, hi = n - 1;
  while (lo < hi) {
    const index_t mid = lo + (hi - lo + 1) / 2;
    if (static_cast<index_t>(pref[mid]) <= k)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

/// The whole grid on the concatenated neighbour lists of the grid queue: thread k takes arcs
/// k, k + G, ... and finds its vertex by binary search in pref (edge-balanced, no vertex serialised).
template <class V, bool Ranks>
__global__ void td_grid_kernel(csr_view<V> g, const V* q, index_t qn, const index_t* pref, std::int32_t* depth,
                               V* parent, std::int32_t next, rank_sink<V> r) {
  const index_t total = pref[qn];
  for (index_t k : gpu::grid_stride(total)) {
    const index_t j = owner_of(pref, qn, k);
    const V u = q[j];
    visit<Ranks>(g, depth, parent, u, g.offsets[u] + (k - pref[j]), next, r);
  }
}

}  // namespace gpu500::bfs::cuda::detail
