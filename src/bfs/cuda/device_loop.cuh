// src/bfs/cuda/device_loop.cuh — the device loop: top-down levels of a small frontier inside one
// CTA, with no host round trip, so that long-diameter graphs cost a few microseconds per level
// instead of launches and a sync.
//
// Edge-balanced: a block scan of the frontier's degrees, each thread finds the owner of its arcs by
// binary search (owner_of). Claims use atomicCAS so that the next queue has no duplicates (the
// frontier is small; atomics are cheap here). The loop stops when the next frontier is empty or
// too big for one CTA (loop_vertices, loop_arcs), and hands a frontier it was given with too many
// arcs back untouched. Also the root's initialisation, the first kernel of every search.
#pragma once

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include <cstdint>
#include <cub/block/block_scan.cuh>

#include "gpu500/core/types.hpp"
#include "gpu500/graph/csr.hpp"
#include "policy.cuh"
#include "top_down.cuh"

namespace gpu500::bfs::cuda::detail {

template <class V>
__global__ void __launch_bounds__(bfs_policy::loop_block)
    td_loop_kernel(csr_view<V> g, std::int32_t* depth, V* parent, V* qa, V* qb, index_t n0, std::int32_t level,
                   index_t max_n, index_t max_m, loop_result* res) {
  using block_scan = cub::BlockScan<ull, bfs_policy::loop_block>;
  __shared__ typename block_scan::TempStorage scan_tmp;
  __shared__ ull pref[bfs_policy::loop_block];
  __shared__ index_t start[bfs_policy::loop_block];
  __shared__ V from[bfs_policy::loop_block];
  __shared__ ull next_n, next_m;
  V* cur = qa;
  V* nxt = qb;
  index_t n = n0;  // <= loop_block (the host checks), so one frontier vertex per thread
  const std::int32_t level0 = level;
  int side = 0;
  const int t = threadIdx.x;
  for (;;) {
    ull d = 0;
    if (t < n) {
      const V u = cur[t];
      from[t] = u;
      start[t] = g.offsets[u];
      d = static_cast<ull>(g.offsets[static_cast<index_t>(u) + 1] - start[t]);
    }
    ull excl = 0, total = 0;
    block_scan(scan_tmp).ExclusiveSum(d, excl, total);
    if (level == level0 && static_cast<index_t>(total) > max_m) break;  // entered unchecked: hand back untouched
    pref[t] = excl;
    if (t == 0) next_n = next_m = 0;
    __syncthreads();
    // Edge-balanced: thread t takes arcs t, t + blockDim, ... of the frontier's concatenated lists.
    for (ull k = t; k < total; k += blockDim.x) {
      const index_t j = owner_of(pref, n, static_cast<index_t>(k));
      const V v = g.columns[start[j] + static_cast<index_t>(k - pref[j])];
      if (depth[v] == -1 && atomicCAS(depth + v, -1, level + 1) == -1) {
        parent[v] = from[j];
        // One shared atomic per group of discovering lanes, not per discovery: a level that finds
        // thousands of vertices serialised on next_n / next_m for hundreds of microseconds.
        const auto grp = cooperative_groups::coalesced_threads();
        ull at = 0;
        if (grp.thread_rank() == 0) at = atomicAdd(&next_n, static_cast<ull>(grp.size()));
        nxt[grp.shfl(at, 0) + grp.thread_rank()] = v;
        const ull dm = cooperative_groups::reduce(
            grp, static_cast<ull>(g.offsets[static_cast<index_t>(v) + 1] - g.offsets[v]), cooperative_groups::plus<ull>());
        if (grp.thread_rank() == 0) atomicAdd(&next_m, dm);
      }
    }
    __syncthreads();
    n = static_cast<index_t>(next_n);
    const index_t m = static_cast<index_t>(next_m);
    ++level;
    V* tmp = cur;
    cur = nxt;
    nxt = tmp;
    side ^= 1;
    if (n == 0 || n > max_n || m > max_m) break;
    __syncthreads();  // everyone has read next_n / pref before they are rewritten
  }
  if (t == 0) {
    res->level = level;
    res->side = side;
    res->count = static_cast<ull>(n);
  }
}

template <class V>
__global__ void init_root_kernel(std::int32_t* depth, V* parent, V* q, V root) {
  depth[root] = 0;
  parent[root] = root;
  q[0] = root;
}

}  // namespace gpu500::bfs::cuda::detail
