// src/bfs/cuda/cluster_loop.cuh — the device loop's middle tier: top-down levels of a frontier of a
// few thousand vertices run by one thread-block cluster (Hopper's clusters: up to 16 blocks on the
// SMs of one GPC, a hardware barrier among them and each block's shared memory readable by the
// others), ahead of the cooperative grid of device_loop.cuh. A mesh or a road-like graph keeps such
// frontiers for thousands of levels; on the grid each of them pays a grid barrier and the round
// trips to L2 of its queue and counters (about 6.5 us a level on a 1024 x 1024 grid). Here:
//  - each block appends the vertices it claims to a queue in its own shared memory (a shared
//    atomic per group of discovering lanes, not an L2 atomic), with their row bounds (loop_entry);
//  - the next level reads the frontier as the concatenation of the blocks' queues: after the
//    cluster barrier warp 0 of every block reads the blocks' counts through distributed shared
//    memory and writes their prefix sums to its own shared memory; each lane group takes entries
//    by a global index, finds the block that holds it (a search of the prefix) and loads the entry
//    from that block's shared memory. So the work stays balanced over the cluster's blocks
//    wherever the vertices were found;
//  - in a search that starts here (from the root) on a graph of at most a few million vertices,
//    a vertex is claimed in a visited bitmap spread over the blocks' shared memory (an atomic or
//    through distributed shared memory, cluster_visited_claim), the winner writing its depth and
//    parent to global memory; otherwise the claim is the device loop's (atomicCAS on the depth);
//  - the level's counts are 32-bit warp sums, and what was spilled is read from the blocks'
//    counts, not from a counter in global memory: a level is a chain of dependent steps, and
//    each of those was one of them.
// A block's queue holds cluster_vertices entries; a vertex claimed beyond that goes to a spill
// list in global memory, and the level's frontier then leaves the tier (it is too large for it).
// The tier runs while the frontier has at most cluster_vertices vertices, cluster_arcs arcs and no
// vertex of more than loop_degree arcs; then (or when it ends) the frontier is written back as ids
// into the list it was given and the grid loop, launched next on the same stream, starts from it.
// A list given to the tier that already exceeds its limits is handed back untouched. Every block
// passes a last cluster barrier before it exits, so no block leaves while another reads its queue.
#pragma once

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "device_loop.cuh"
#include "gpu500/core/types.hpp"
#include "gpu500/graph/csr.hpp"
#include "policy.cuh"

namespace gpu500::bfs::cuda::detail {

/// Dynamic shared memory of one block of the tier: its two entry queues, then its words of the
/// visited bitmap (cluster_visited_claim).
inline constexpr std::size_t cluster_queue_bytes = 2 * sizeof(loop_entry) * bfs_policy::cluster_vertices;
inline constexpr std::size_t cluster_smem_bytes =
    cluster_queue_bytes + sizeof(unsigned) * bfs_policy::cluster_bitmap_words;

/// What one block of the tier keeps beside its queues (static shared memory).
struct cluster_block_state {
  loop_counters_shared counts[3];              ///< the levels' counts, rotating as in the grid loop
  ull prefix[bfs_policy::cluster_max_blocks + 1];  ///< the blocks' counts of this level's frontier, summed
  ull n, arcs, max_degree, spilled;            ///< the frontier's totals as warp 0 read them
};

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
/// Warp 0 of every block: the blocks' counts of `slot` (through distributed shared memory) into
/// st.prefix, and the frontier's totals; the caller synchronises the block afterwards. A block's
/// count is exact (at most its queue plus the spill list's room); the arcs are saturated
/// (add_loop_counts). What was spilled is each block's count past its queue:
/// the spill list's counter in global memory is not read again, one round trip less a level.
__device__ __forceinline__ void read_cluster_counts(cooperative_groups::cluster_group& cluster, cluster_block_state& st,
                                                    int slot) {
  if (threadIdx.x >= 32) return;
  const unsigned lane = threadIdx.x;
  const unsigned blocks = cluster.num_blocks();
  unsigned n = 0, arcs = 0, max_degree = 0;
  if (lane < blocks) {
    const loop_counters_shared* c = cluster.map_shared_rank(&st.counts[slot], lane);
    n = c->vertices;
    arcs = c->arcs;
    max_degree = c->max_degree;
  }
  const auto queue = static_cast<unsigned>(bfs_policy::cluster_vertices);
  const unsigned spilled = warp_sum(n > queue ? n - queue : 0u);
  arcs = warp_sum(arcs);
  max_degree = warp_max(max_degree);
  unsigned sum = n;  // inclusive scan over the lanes
  for (unsigned d = 1; d < 32; d <<= 1) {
    const unsigned x = __shfl_up_sync(0xffffffffu, sum, d);
    if (lane >= d) sum += x;
  }
  if (lane < blocks) st.prefix[lane + 1] = sum;
  if (lane == 31) {
    st.prefix[0] = 0;
    st.n = sum;
    st.arcs = arcs;
    st.max_degree = max_degree;
    st.spilled = spilled;
  }
}

#endif

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
/// The barrier that ends a level of the tier. Across it the blocks read each other's shared memory
/// only (the queues and counts; a claim is an atomic, which needs no ordering to be unique, and the
/// depths, parents and spill list written to global memory are read after the tier or after a
/// full cluster barrier): so the arrival releases the block's shared-memory writes alone, not
/// every write to global memory (cluster.sync()'s release fences the whole GPU's memory, a round
/// trip to L2 on every level's chain).
__device__ __forceinline__ void level_barrier() {
  asm volatile("fence.release.sync_restrict::shared::cta.cluster;" ::: "memory");
  asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
  asm volatile("barrier.cluster.wait.aligned;" ::: "memory");  // acquire
}
#endif

/// The block of the tier that holds frontier entry j (prefix[b] <= j < prefix[b + 1]).
__device__ __forceinline__ unsigned cluster_block_of(const ull* prefix, unsigned blocks, ull j) {
  unsigned lo = 0, hi = blocks;  // prefix[lo] <= j < prefix[hi]
  while (hi - lo > 1) {
    const unsigned mid = (lo + hi) / 2;
    if (prefix[mid] <= j) lo = mid; else hi = mid;
  }
  return lo;
}

__device__ __forceinline__ bool leaves_cluster_tier(ull n, ull arcs, ull max_degree) {
  return n == 0 || n > static_cast<ull>(bfs_policy::cluster_vertices) ||
         arcs > static_cast<ull>(bfs_policy::cluster_arcs) || max_degree > static_cast<ull>(bfs_policy::loop_degree);
}

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
/// The tier's claim of a vertex in a search it starts at the root: a bit of a visited bitmap held in
/// the cluster's shared memory (word w of the graph's in block w mod blocks, at w / blocks: the
/// words of nearby ids spread over the blocks), set by an atomic or through distributed shared
/// memory, so that the claim is a round trip to a neighbouring SM instead of to L2; the winner
/// then writes the depth (the grid loop and the host read it), with no round trip. Where the search
/// did not start here, or the graph has more vertices than the bitmap has bits, the depth's
/// compare-and-swap (depth_claim). blocks is a power of two (shift = its log2).
struct cluster_visited_claim {
  cooperative_groups::cluster_group* cluster;
  unsigned* words;  ///< this block's words of the bitmap (the same place in every block)
  std::int32_t* depth;
  unsigned blocks_mask, shift;
  bool on;
  template <class V>
  __device__ __forceinline__ bool operator()(V v, std::int32_t next_depth) const {
    if (!on) return atomicCAS(depth + v, -1, next_depth) == -1;
    const auto w = static_cast<unsigned>(static_cast<ull>(v) >> 5);
    const unsigned bit = 1u << (static_cast<unsigned>(v) & 31u);
    if (atomicOr(cluster->map_shared_rank(words + (w >> shift), w & blocks_mask), bit) & bit) return false;
    depth[v] = next_depth;
    return true;
  }
};
#endif

/// The tier on the frontier list q[0, n0) of depth `level` (n0 <= cluster_vertices); launched as one
/// cluster of bfs_policy::loop_block-thread blocks with cluster_smem_bytes of dynamic shared memory.
/// spill: room for cluster_arcs entries in global memory; spill_count: its counter (set to 0 here).
/// Leaves the frontier it stopped on as ids in q and its depth and size in *res.
template <class V>
__global__ void __launch_bounds__(bfs_policy::loop_block)
    cluster_loop_kernel(csr_view<V> g, std::int32_t* depth, V* parent, V* q, index_t n0, std::int32_t level,
                        loop_entry* spill, ull* spill_count, loop_result* res) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
  // Built without Hopper code and run on a GPU with clusters: hand the list back untouched.
  if (blockIdx.x == 0 && threadIdx.x == 0) *res = {level, static_cast<ull>(n0)};
#else
  namespace cg = cooperative_groups;
  cg::cluster_group cluster = cg::this_cluster();
  const auto group = cg::tiled_partition<bfs_policy::loop_lanes>(cg::this_thread_block());
  extern __shared__ loop_entry cluster_queues[];  // [2][cluster_vertices], then the bitmap's words
  __shared__ cluster_block_state st;
  const unsigned blocks = cluster.num_blocks();
  const unsigned me = cluster.block_rank();
  const unsigned groups_per_block = bfs_policy::loop_block / bfs_policy::loop_lanes;
  const ull groups = static_cast<ull>(groups_per_block) * blocks;
  const ull group_id = static_cast<ull>(me) * groups_per_block + threadIdx.x / bfs_policy::loop_lanes;
  loop_entry* const queue[2] = {cluster_queues, cluster_queues + bfs_policy::cluster_vertices};
  // The visited bitmap, where the search starts here (only the root visited) and the graph fits it.
  const unsigned shift = static_cast<unsigned>(__ffs(static_cast<int>(blocks)) - 1);
  auto* const words = reinterpret_cast<unsigned*>(cluster_queues + 2 * bfs_policy::cluster_vertices);
  const bool fits = static_cast<ull>(g.num_vertices) <= 32ull * bfs_policy::cluster_bitmap_words * blocks;
  const cluster_visited_claim claim{&cluster, words, depth, blocks - 1, shift, level == 0 && n0 == 1 && fits};
  if (claim.on) {
    for (unsigned i = threadIdx.x; i < bfs_policy::cluster_bitmap_words; i += blockDim.x) claim.words[i] = 0;
    __syncthreads();
    const auto root = static_cast<ull>(__ldcg(q));
    const auto w = static_cast<unsigned>(root >> 5);
    if (threadIdx.x == 0 && (w & (blocks - 1)) == me) claim.words[w >> shift] |= 1u << (root & 31u);
  }
  if (threadIdx.x < 3) st.counts[threadIdx.x] = {0, 0, 0};
  if (me == 0 && threadIdx.x == 0) *spill_count = 0;
  __syncthreads();
  {  // the list as given: block b takes its share into queue 0 (counts in slot 2, as level -1's)
    const ull per = (static_cast<ull>(n0) + blocks - 1) / blocks;
    const ull lo = per * me, hi = lo + per < static_cast<ull>(n0) ? lo + per : static_cast<ull>(n0);
    ull arcs = 0, max_degree = 0;
    for (ull i = lo + threadIdx.x; i < hi; i += blockDim.x)
      measure_loop_entry(g, __ldcg(q + i), queue[0] + (i - lo), arcs, max_degree);
    if (threadIdx.x == 0) st.counts[2].vertices = hi > lo ? static_cast<unsigned>(hi - lo) : 0u;
    add_loop_counts(&st.counts[2], arcs, max_degree);
  }
  cluster.sync();
  read_cluster_counts(cluster, st, 2);
  __syncthreads();
  if (leaves_cluster_tier(st.n, st.arcs, st.max_degree)) {  // handed back untouched
    cluster.sync();
    if (me == 0 && threadIdx.x == 0) *res = {level, static_cast<ull>(n0)};
    return;
  }
  std::int32_t lvl = level;  // depth of the frontier in queue[side] of every block
  int side = 0;
  for (unsigned k = 0;; ++k) {
    const int out = k % 3;  // this level's counts; (k + 2) % 3 holds its frontier's, (k + 1) % 3 is cleared
    const ull n = st.n;
    const loop_entry* cur = queue[side];
    loop_entry* nxt = queue[side ^ 1];
    loop_counters_shared* c = &st.counts[out];
    ull arcs = 0, max_degree = 0;
    // A block keeps what it claims in its own queue; past the queue's room, in the spill list.
    const auto store = [nxt, spill, spill_count](ull place, loop_entry x) {
      if (place < static_cast<ull>(bfs_policy::cluster_vertices))
        nxt[place] = x;
      else
        spill[atomicAdd(spill_count, 1ull)] = x;
    };
    for (ull j = group_id; j < n; j += groups) {
      const unsigned b = cluster_block_of(st.prefix, blocks, j);
      expand_loop_entry(g, claim, parent, *cluster.map_shared_rank(cur + (j - st.prefix[b]), b), group.thread_rank(),
                        lvl + 1, store, c, arcs, max_degree);
    }
    add_loop_counts(c, arcs, max_degree);
    if (threadIdx.x == 0) st.counts[(k + 1) % 3] = {0, 0, 0};
    level_barrier();
    read_cluster_counts(cluster, st, out);
    __syncthreads();
    ++lvl;
    side ^= 1;
    if (st.spilled > 0 || leaves_cluster_tier(st.n, st.arcs, st.max_degree)) break;
  }
  // The frontier it stopped on, as ids into q: each block's queue at its place, then the spill
  // (written to global memory by any block: a full barrier first).
  if (st.spilled > 0) cluster.sync();
  const ull kept = st.spilled > 0 ? st.n - st.spilled : st.n;  // entries in the blocks' queues
  {
    ull mine = st.prefix[me + 1] - st.prefix[me];
    if (mine > static_cast<ull>(bfs_policy::cluster_vertices)) mine = bfs_policy::cluster_vertices;
    ull before = 0;  // the queued entries of the blocks before this one (each at most a queue)
    for (unsigned b = 0; b < me; ++b) {
      const ull x = st.prefix[b + 1] - st.prefix[b];
      before += x < static_cast<ull>(bfs_policy::cluster_vertices) ? x : bfs_policy::cluster_vertices;
    }
    const loop_entry* fin = queue[side];
    for (ull i = threadIdx.x; i < mine; i += blockDim.x) q[before + i] = static_cast<V>(fin[i].y);
    for (ull i = static_cast<ull>(me) * blockDim.x + threadIdx.x; i < st.spilled;
         i += static_cast<ull>(blocks) * blockDim.x)
      q[kept + i] = static_cast<V>(__ldcg(&spill[i].y));
  }
  cluster.sync();
  if (me == 0 && threadIdx.x == 0) *res = {lvl, st.n};
#endif
}

}  // namespace gpu500::bfs::cuda::detail
