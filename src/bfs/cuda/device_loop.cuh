// src/bfs/cuda/device_loop.cuh — the device loop: top-down levels of a small or middling frontier
// inside one cooperative grid, with no host round trip, so that graphs of many levels (meshes,
// road-like and geometric graphs, the tail of a Kronecker search) cost a few microseconds per level
// instead of the Enterprise passes, their launches and a host synchronisation.
//
// One cooperative launch (every block resident, bfs_policy::loop_blocks_per_sm a SM) runs levels
// until the next frontier is empty or leaves the loop's limits (vertices, arcs, or a vertex of
// more than loop_degree arcs). A level: groups of loop_lanes threads take the frontier's vertices
// (grid stride) and stride their rows; a neighbour is claimed by atomicCAS on its depth (so the
// next queue has no duplicates), its parent written by the winner alone, and appended with one
// atomic per group of discovering lanes; the next frontier's arcs and largest degree are summed
// on the way. One grid barrier ends the level, then every thread reads the same counters and takes
// the same decision. The counters rotate over three slots: level i writes slot i % 3 and clears
// slot (i + 1) % 3, whose last readers passed the barrier of level i - 1 before the clearing
// thread left it. Queues and counters written by other blocks are read through L2 (__ldcg): a
// block's L1 may hold the lines of a queue it read two levels ago.
// The frontier the loop is given is measured first (its arcs and largest degree, one barrier):
// one that exceeds the limits is handed back untouched, level unchanged (the host offers a list
// it has counted only when it fits). Also the root's initialisation, the first kernel of every
// search.
#pragma once

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include <cstdint>

#include "gpu500/core/types.hpp"
#include "gpu500/graph/csr.hpp"
#include "policy.cuh"

namespace gpu500::bfs::cuda::detail {

/// What one level of the device loop found: the next frontier's vertices, arcs and largest degree.
struct loop_counters {
  ull vertices, arcs, max_degree;
};

/// Adds a thread's arcs and largest degree into c, one atomic per warp.
__device__ __forceinline__ void add_loop_counts(loop_counters* c, ull arcs, ull max_degree) {
  const auto warp = cooperative_groups::tiled_partition<32>(cooperative_groups::this_thread_block());
  arcs = cooperative_groups::reduce(warp, arcs, cooperative_groups::plus<ull>());
  max_degree = cooperative_groups::reduce(warp, max_degree, cooperative_groups::greater<ull>());
  if (warp.thread_rank() == 0 && arcs > 0) {
    atomicAdd(&c->arcs, arcs);
    atomicMax(&c->max_degree, max_degree);
  }
}

/// The loop on the frontier qa[0, n0) of depth `level`, qb the other queue; cnt: three zeroed
/// loop_counters. Writes what it hands back to *res (the level and queue of the frontier it
/// stopped on, and its size).
template <class V>
__global__ void __launch_bounds__(bfs_policy::loop_block)
    td_loop_kernel(csr_view<V> g, std::int32_t* depth, V* parent, V* qa, V* qb, index_t n0, std::int32_t level,
                   loop_counters* cnt, loop_result* res) {
  namespace cg = cooperative_groups;
  const cg::grid_group grid = cg::this_grid();
  const auto group = cg::tiled_partition<bfs_policy::loop_lanes>(cg::this_thread_block());
  const ull threads = grid.num_threads();
  const ull rank = grid.thread_rank();
  const ull groups = threads / bfs_policy::loop_lanes;
  const ull group_id = rank / bfs_policy::loop_lanes;
  V* cur = qa;
  V* nxt = qb;
  ull n = static_cast<ull>(n0);
  int side = 0;
  {  // the frontier as given: its arcs and largest degree (in slot 2, cleared by level 1)
    ull arcs = 0, max_degree = 0;
    for (ull i = rank; i < n; i += threads) {
      const V u = __ldcg(cur + i);
      const ull d = static_cast<ull>(g.offsets[static_cast<index_t>(u) + 1] - g.offsets[u]);
      arcs += d;
      max_degree = d > max_degree ? d : max_degree;
    }
    add_loop_counts(cnt + 2, arcs, max_degree);
    grid.sync();
    if (__ldcg(&cnt[2].arcs) > static_cast<ull>(bfs_policy::loop_arcs) ||
        __ldcg(&cnt[2].max_degree) > static_cast<ull>(bfs_policy::loop_degree)) {
      if (rank == 0) *res = {level, 0, n};
      return;
    }
  }
  for (unsigned i = 0;; ++i) {
    loop_counters* c = cnt + i % 3;
    ull arcs = 0, max_degree = 0;
    for (ull j = group_id; j < n; j += groups) {
      const V u = __ldcg(cur + j);
      const index_t end = g.offsets[static_cast<index_t>(u) + 1];
      for (index_t a = g.offsets[u] + group.thread_rank(); a < end; a += bfs_policy::loop_lanes) {
        const V v = g.columns[a];
        if (depth[v] == -1 && atomicCAS(depth + v, -1, level + 1) == -1) {
          parent[v] = u;
          const auto found = cg::coalesced_threads();
          ull at = 0;
          if (found.thread_rank() == 0) at = atomicAdd(&c->vertices, static_cast<ull>(found.num_threads()));
          nxt[found.shfl(at, 0) + found.thread_rank()] = v;
          const ull d = static_cast<ull>(g.offsets[static_cast<index_t>(v) + 1] - g.offsets[v]);
          arcs += d;
          max_degree = d > max_degree ? d : max_degree;
        }
      }
    }
    add_loop_counts(c, arcs, max_degree);
    if (rank == 0) cnt[(i + 1) % 3] = {0, 0, 0};
    grid.sync();
    n = __ldcg(&c->vertices);
    const ull next_arcs = __ldcg(&c->arcs), next_max = __ldcg(&c->max_degree);
    ++level;
    V* tmp = cur;
    cur = nxt;
    nxt = tmp;
    side ^= 1;
    if (n == 0 || n > static_cast<ull>(bfs_policy::loop_vertices) || next_arcs > static_cast<ull>(bfs_policy::loop_arcs) ||
        next_max > static_cast<ull>(bfs_policy::loop_degree))
      break;
  }
  if (rank == 0) *res = {level, side, n};
}

template <class V>
__global__ void init_root_kernel(std::int32_t* depth, V* parent, V* q, V root) {
  depth[root] = 0;
  parent[root] = root;
  q[0] = root;
}

}  // namespace gpu500::bfs::cuda::detail
