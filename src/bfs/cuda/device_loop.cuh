// src/bfs/cuda/device_loop.cuh — the device loop: top-down levels of a small or middling frontier
// inside one cooperative grid, with no host round trip, so that graphs of many levels (meshes,
// road-like and geometric graphs, paths, the tail of a Kronecker search) cost a few microseconds per
// level instead of the Enterprise passes, their launches and a host synchronisation.
//
// One cooperative launch (every block resident, bfs_policy::loop_blocks_per_sm a SM) runs levels
// until the next frontier is empty or leaves the loop's limits (vertices, arcs, or a vertex of
// more than loop_degree arcs). Its frontier queues hold entries, not bare ids: a vertex with the
// bounds of its row (loop_entry), read by whoever claimed the vertex while the claim was in flight,
// so that expanding it costs no dependent load of the row offsets. A level is run one of two ways,
// chosen from the frontier it starts with:
//  - across the grid: groups of loop_lanes threads take the frontier's entries (grid stride) and
//    stride their rows; a neighbour is claimed by atomicCAS on its depth (no load first: the claim
//    is the one round trip, and the next queue has no duplicates), its parent written by the winner
//    alone, and appended with one atomic per group of discovering lanes; the next frontier's arcs and
//    largest degree are summed on the way. One grid barrier ends the level, then every thread reads
//    the same counters and takes the same decision. The counters rotate over three slots: level i
//    writes slot i % 3 and clears slot (i + 1) % 3, whose last readers passed the barrier of level
//    i - 1 before the clearing thread left it. Queues and counters written by other blocks are read
//    through L2 (__ldcg): a block's L1 may hold the lines of a queue it read two levels ago.
//  - in one block: a frontier of at most loop_cta_vertices vertices and loop_cta_arcs arcs is run by
//    block 0 alone, level after level, with block barriers and shared-memory counters, while the
//    other blocks wait at the next grid barrier; it leaves when the frontier outgrows those limits
//    (or ends), publishing the frontier's size, level and queue before that barrier. A level of a
//    path or of the first and last levels of a mesh then costs the round trips of one claim, not
//    a grid barrier (in one block the queue and counters stay in its L1 and shared memory).
// A frontier of a few thousand vertices runs first in the cluster tier (cluster_loop.cuh), launched
// just before the loop on the same stream; the loop then starts from what the tier left.
// The frontier the loop is given (a list of ids) is measured first (its arcs and largest degree,
// one barrier) while its entries are written: one that exceeds the limits is handed back untouched,
// level unchanged (the host offers a list it has counted only when it fits). The frontier the loop
// stops on is handed back as a list of ids in the buffer it was given. Also the root's
// initialisation, the first kernel of every search.
#pragma once

#include <cooperative_groups.h>

#include <cstdint>

#include "gpu500/core/types.hpp"
#include "gpu500/graph/csr.hpp"
#include "policy.cuh"

namespace gpu500::bfs::cuda::detail {

/// What one level of the device loop found: the next frontier's vertices, arcs and largest degree.
struct loop_counters {
  ull vertices, arcs, max_degree;
};
/// The same in shared memory (one block's levels, the cluster tier): 32 bits, whose atomics are
/// native there (a 64-bit one is a compare-and-swap loop, retried under contention, on the level's
/// chain). The arcs are saturated (add_loop_counts), the vertices exact (a level finds at most one
/// vertex per arc of its frontier, which the loops bound far below 2^32).
struct loop_counters_shared {
  unsigned vertices, arcs, max_degree;
};

/// A frontier entry of the device loop: .x the row's first arc (low loop_row_bits bits) and its
/// degree (the bits above, saturated), .y the vertex.
using loop_entry = ulonglong2;
inline constexpr int loop_row_bits = 48;
inline constexpr ull loop_row_mask = (1ull << loop_row_bits) - 1;

__device__ __forceinline__ loop_entry make_loop_entry(ull v, index_t begin, index_t end) {
  const ull d = static_cast<ull>(end - begin);
  const ull saturated = d < (1ull << (64 - loop_row_bits)) ? d : (1ull << (64 - loop_row_bits)) - 1;
  return {static_cast<ull>(begin) | (saturated << loop_row_bits), v};
}

/// Writes the entry of vertex u of a given frontier list to *out (its row bounds read) and adds
/// its degree into this thread's arcs and max_degree: how the loop and the cluster tier measure the
/// list they are given.
template <class V>
__device__ __forceinline__ void measure_loop_entry(const csr_view<V>& g, V u, loop_entry* out, ull& arcs,
                                                   ull& max_degree) {
  const index_t b = g.offsets[u], e = g.offsets[static_cast<index_t>(u) + 1];
  *out = make_loop_entry(u, b, e);
  const ull d = static_cast<ull>(e - b);
  arcs += d;
  max_degree = d > max_degree ? d : max_degree;
}

/// A count as a 32-bit term of a warp sum: saturated at 2^26, so that 32 of them fit 32 bits. The
/// loops compare the frontier's arcs and largest degree with limits far below that (and hand back
/// only the vertex count, which is exact), so a saturated count takes the same decisions.
__device__ __forceinline__ unsigned saturated_count(ull x) {
  return x < (1ull << 26) ? static_cast<unsigned>(x) : 1u << 26;
}
/// The sum and the largest of a value over the full warp (one instruction from sm_80 on).
__device__ __forceinline__ unsigned warp_sum(unsigned x) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  return __reduce_add_sync(0xffffffffu, x);
#else
  for (int d = 16; d > 0; d >>= 1) x += __shfl_xor_sync(0xffffffffu, x, d);
  return x;
#endif
}
__device__ __forceinline__ unsigned warp_max(unsigned x) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  return __reduce_max_sync(0xffffffffu, x);
#else
  for (int d = 16; d > 0; d >>= 1) x = max(x, __shfl_xor_sync(0xffffffffu, x, d));
  return x;
#endif
}

/// Adds a thread's arcs and largest degree into c, one atomic per warp (loop_counters in global
/// memory, loop_counters_shared; the whole warp calls it). The warp's sums are 32-bit
/// (saturated_count; a warp adds at most 2^20 to 32-bit counters, so that a block's or a cluster's
/// sum still fits): a level's chain of dependent steps is what bounds a small frontier, and 64-bit
/// shuffle trees were two of them.
template <class Counters>
__device__ __forceinline__ void add_loop_counts(Counters* c, ull arcs, ull max_degree) {
  using count = decltype(c->arcs);
  unsigned a = warp_sum(saturated_count(arcs));
  const unsigned m = warp_max(saturated_count(max_degree));
  if constexpr (sizeof(count) == 4) a = a < (1u << 20) ? a : 1u << 20;
  if ((threadIdx.x & 31) == 0 && a > 0) {
    atomicAdd(&c->arcs, static_cast<count>(a));
    atomicMax(&c->max_degree, static_cast<count>(m));
  }
}

/// The device loop's claim of a vertex: a compare-and-swap of its depth from -1 (no load first: the
/// claim is the one round trip, and the next queue has no duplicates); true for the one winner.
struct depth_claim {
  std::int32_t* depth;
  template <class V>
  __device__ __forceinline__ bool operator()(V v, std::int32_t next_depth) const {
    return atomicCAS(depth + v, -1, next_depth) == -1;
  }
};

/// This lane's share of one frontier row (loop_lanes lanes a row): each neighbour it claims
/// (claim(v, next_depth): depth_claim, or the cluster tier's) gets parent u and is stored by
/// store(place, entry) at a place taken from c->vertices (one atomic per group of discovering
/// lanes) with its row bounds, loaded beside the claim; arcs and max_degree sum the claimed rows.
template <class V, class Claim, class Store, class Counters>
__device__ __forceinline__ void expand_loop_entry(const csr_view<V>& g, Claim claim, V* parent, loop_entry e,
                                                  unsigned lane, std::int32_t next_depth, Store store,
                                                  Counters* c, ull& arcs, ull& max_degree) {
  namespace cg = cooperative_groups;
  const index_t begin = static_cast<index_t>(e.x & loop_row_mask);
  const index_t end = begin + static_cast<index_t>(e.x >> loop_row_bits);
  const V u = static_cast<V>(e.y);
  for (index_t a = begin + lane; a < end; a += bfs_policy::loop_lanes) {
    const V v = g.columns[a];
    const index_t vb = g.offsets[v];
    const index_t ve = g.offsets[static_cast<index_t>(v) + 1];
    if (claim(v, next_depth)) {
      parent[v] = u;
      const auto found = cg::coalesced_threads();
      ull at = 0;
      if (found.thread_rank() == 0)
        at = atomicAdd(&c->vertices, static_cast<decltype(c->vertices)>(found.num_threads()));
      store(found.shfl(at, 0) + found.thread_rank(), make_loop_entry(v, vb, ve));
      const ull d = static_cast<ull>(ve - vb);
      arcs += d;
      max_degree = d > max_degree ? d : max_degree;
    }
  }
}

/// Where a running device loop stands; every thread of the grid holds the same copy.
struct loop_state {
  ull n, arcs, max_degree;  ///< the frontier's vertices, arcs and largest degree
  std::int32_t level;       ///< its depth
  int side;                 ///< the entry queue it is in
};

__device__ __forceinline__ bool fits_loop_cta(const loop_state& s) {
  return s.n <= static_cast<ull>(bfs_policy::loop_cta_vertices) && s.arcs <= static_cast<ull>(bfs_policy::loop_cta_arcs);
}
__device__ __forceinline__ bool leaves_loop(const loop_state& s) {
  return s.n == 0 || s.n > static_cast<ull>(bfs_policy::loop_vertices) || s.arcs > static_cast<ull>(bfs_policy::loop_arcs) ||
         s.max_degree > static_cast<ull>(bfs_policy::loop_degree);
}

/// Block 0's levels while the frontier fits one block (see the file's comment); s is updated in
/// every thread of the block. The frontier's entries were written by other blocks: the first level
/// reads them through L2, later ones read what this block wrote.
template <class V>
__device__ void loop_levels_in_one_block(const csr_view<V>& g, std::int32_t* depth, V* parent, loop_entry* const* queue,
                                         loop_state& s) {
  namespace cg = cooperative_groups;
  __shared__ loop_counters_shared counts[3];
  const auto group = cg::tiled_partition<bfs_policy::loop_lanes>(cg::this_thread_block());
  const unsigned groups = bfs_policy::loop_block / bfs_policy::loop_lanes;
  const unsigned group_id = threadIdx.x / bfs_policy::loop_lanes;
  if (threadIdx.x < 3) counts[threadIdx.x] = {0, 0, 0};
  __syncthreads();
  for (unsigned k = 0;; ++k) {
    loop_counters_shared* c = counts + k % 3;
    const loop_entry* cur = queue[s.side];
    loop_entry* nxt = queue[s.side ^ 1];
    ull arcs = 0, max_degree = 0;
    const auto store = [nxt](ull place, loop_entry x) { nxt[place] = x; };
    for (ull j = group_id; j < s.n; j += groups)
      expand_loop_entry(g, depth_claim{depth}, parent, k == 0 ? __ldcg(cur + j) : cur[j], group.thread_rank(),
                        s.level + 1, store, c, arcs, max_degree);
    add_loop_counts(c, arcs, max_degree);
    if (threadIdx.x == 0) counts[(k + 1) % 3] = {0, 0, 0};
    __syncthreads();
    s = {c->vertices, c->arcs, c->max_degree, s.level + 1, s.side ^ 1};
    if (!fits_loop_cta(s) || leaves_loop(s)) return;
  }
}

/// The loop on the frontier list q[0, n0) of depth `level` (or, where `start` is given, of the size
/// and depth it holds: what the cluster tier before it left in q); e0, e1: its two entry queues (room
/// for loop_arcs entries, or the graph's vertices where fewer); cnt: three zeroed loop_counters;
/// pub: where block 0 leaves the state after its levels alone. Writes the frontier it stopped on
/// back to q and what it hands back to *res.
template <class V>
__global__ void __launch_bounds__(bfs_policy::loop_block)
    td_loop_kernel(csr_view<V> g, std::int32_t* depth, V* parent, V* q, loop_entry* e0, loop_entry* e1, index_t n0,
                   std::int32_t level, const loop_result* start, loop_counters* cnt, loop_state* pub,
                   loop_result* res) {
  namespace cg = cooperative_groups;
  if (start) {
    level = __ldcg(&start->level);
    n0 = static_cast<index_t>(__ldcg(&start->count));
  }
  if (n0 == 0) {  // the search ended before the loop (every thread returns: no barrier is waited at)
    if (blockIdx.x == 0 && threadIdx.x == 0) *res = {level, 0};
    return;
  }
  const cg::grid_group grid = cg::this_grid();
  const auto group = cg::tiled_partition<bfs_policy::loop_lanes>(cg::this_thread_block());
  const ull threads = grid.num_threads();
  const ull rank = grid.thread_rank();
  const ull groups = threads / bfs_policy::loop_lanes;
  const ull group_id = rank / bfs_policy::loop_lanes;
  loop_entry* const queue[2] = {e0, e1};
  loop_state s{static_cast<ull>(n0), 0, 0, level, 0};
  {  // the frontier as given: its entries, arcs and largest degree (in slot 2, cleared by level 1)
    ull arcs = 0, max_degree = 0;
    for (ull i = rank; i < s.n; i += threads) measure_loop_entry(g, __ldcg(q + i), e0 + i, arcs, max_degree);
    add_loop_counts(cnt + 2, arcs, max_degree);
    grid.sync();
    s.arcs = __ldcg(&cnt[2].arcs);
    s.max_degree = __ldcg(&cnt[2].max_degree);
    if (s.arcs > static_cast<ull>(bfs_policy::loop_arcs) || s.max_degree > static_cast<ull>(bfs_policy::loop_degree)) {
      if (rank == 0) *res = {level, s.n};
      return;
    }
  }
  for (unsigned i = 0;; ++i) {
    if (fits_loop_cta(s)) {
      if (blockIdx.x == 0) {
        loop_levels_in_one_block(g, depth, parent, queue, s);
        if (threadIdx.x == 0) *pub = s;
      }
      grid.sync();
      s = {__ldcg(&pub->n), __ldcg(&pub->arcs), __ldcg(&pub->max_degree), __ldcg(&pub->level), __ldcg(&pub->side)};
      if (leaves_loop(s)) break;
    }
    loop_counters* c = cnt + i % 3;
    const loop_entry* cur = queue[s.side];
    ull arcs = 0, max_degree = 0;
    loop_entry* const nxt = queue[s.side ^ 1];
    const auto store = [nxt](ull place, loop_entry x) { nxt[place] = x; };
    for (ull j = group_id; j < s.n; j += groups)
      expand_loop_entry(g, depth_claim{depth}, parent, __ldcg(cur + j), group.thread_rank(), s.level + 1, store, c, arcs,
                        max_degree);
    add_loop_counts(c, arcs, max_degree);
    if (rank == 0) cnt[(i + 1) % 3] = {0, 0, 0};
    grid.sync();
    s = {__ldcg(&c->vertices), __ldcg(&c->arcs), __ldcg(&c->max_degree), s.level + 1, s.side ^ 1};
    if (leaves_loop(s)) break;
  }
  // The frontier it stopped on goes back as ids into q (whose ids the first level has read).
  const loop_entry* fin = queue[s.side];
  for (ull j = rank; j < s.n; j += threads) q[j] = static_cast<V>(__ldcg(&fin[j].y));
  if (rank == 0) *res = {s.level, s.n};
}

/// The root's row: depth 0, its own vertex id as parent, the first frontier list.
template <class V>
__global__ void init_root_kernel(std::int32_t* depth, V* parent, V* q, V row, V id) {
  depth[row] = 0;
  parent[row] = id;
  q[0] = row;
}

}  // namespace gpu500::bfs::cuda::detail
