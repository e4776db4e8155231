// src/sssp/cuda/near_far.cuh — the GPU SSSP's device loop for small frontiers: a near-far search
// (Davidson, Baxter, Garland & Owens, IPDPS'14) inside one cooperative grid, run from the root before
// the bucket loop, so that graphs whose frontiers stay small (meshes, road-like and geometric graphs,
// paths) pay one grid barrier per iteration and no scan of the vertices per bucket.
//
// State: a threshold T (a multiple of its width past 0, or the next far distance; the width is
// near_far_policy::width_factor bucket widths), a
// near queue (vertices improved below T whose rows are not yet relaxed since) and a far pile (those
// improved to T or above). An iteration relaxes every arc of the near queue's rows (groups of
// `lanes` threads share a row); an improved vertex goes to the next near queue if its new distance
// is below T, to the far pile otherwise. When an iteration leaves the near queue empty, a split
// raises T by delta and moves the far vertices now below it to the near queue, drops those already
// below the old T (they were relaxed at their present distance, as near vertices) and keeps the rest;
// where nothing moves, the next split starts from the smallest distance kept. The search ends with
// both empty. One bitmap per near queue and one for the far pile keep each vertex at most once in
// each (a vertex is cleared from its near bitmap as its row is taken, from the far one as it leaves
// the pile), so every list fits its capacity only while the frontier is small; the word updates are
// the bucket loop's (relax_retry: a distance only ever falls, the parent written with it).
//
// Leaving early: a near queue or far pile past its capacity, or a near vertex of more than
// max_degree arcs (a Kronecker hub), ends the loop at the next barrier with the words as they are
// and every bitmap cleared. The bucket loop then runs from the root's bucket as usual: each word is
// a path's length (an upper bound of the distance), which delta-stepping lowers to the distances
// wherever it starts from, so the search is correct either way and the loop's work is not lost.
// A search that ends inside the loop marks the state done (control::phase), so the bucket loop's
// launch only writes the output.
// A step of at most cta_near near vertices (or a split of at most cta_far far ones), with a far
// pile of at most cta_far, is run by block 0 alone, step after step, with block barriers and
// counters in shared memory, while the other blocks wait at the next grid barrier (as the BFS
// device loop does): a path, and the first and last steps of a mesh search, then cost a chain of
// round trips per step, not a grid barrier. Block 0 leaves the state in `pub` before that barrier.
// A larger step, of at most cluster_near near vertices (or a split of at most cluster_far), is run
// by the blocks of the grid's first thread-block cluster alone (Hopper's clusters: up to 16 blocks
// on one GPC, the grid launched in clusters), step after step, with the cluster's hardware barrier
// instead of the grid's: a mesh keeps such steps for most of its search (near_far_cluster_steps).
// Such tiers may follow each other with no grid step between (the cluster's steps end where the
// next fits one block, and the block's where it needs the cluster), so they leave their states in
// two slots in turn: a tier's writer never overwrites the state that a slower block has yet to
// read after the barrier before it (one slot was a race that could split the grid's decisions and
// leave blocks waiting at a barrier that the others had passed).
// The counters rotate over three slots as in the BFS device loop (src/bfs/cuda/device_loop.cuh):
// step k writes slot k % 3 and clears slot (k + 1) % 3, read last before the barrier of step k - 1;
// the grid's steps and the cluster's each have their three slots.
#pragma once

#include <cooperative_groups.h>

#include <cstdint>

#include "device_state.cuh"

namespace gpu500::sssp::cuda::detail {

struct near_far_policy {
  static constexpr int block = 1024;               ///< one block of this many threads per SM
  static constexpr int lanes = 8;                  ///< threads sharing a near vertex's row
  static constexpr index_t near_vertices = 65536;  ///< capacity of each near queue
  static constexpr index_t far_vertices = 262144;  ///< capacity of each far pile
  static constexpr index_t max_degree = 256;       ///< a near vertex with more arcs ends the loop
  static constexpr index_t cta_near = 256;         ///< a relaxation of at most this many near vertices
  static constexpr index_t cta_far = 4096;         ///< and a far pile of at most this many: one block
  static constexpr index_t cluster_near = 4096;    ///< a relaxation of at most this many near vertices
  static constexpr index_t cluster_far = 32768;    ///< and a far pile of at most this many: one cluster
  static constexpr unsigned cluster_max_blocks = 16;  ///< the cluster's blocks (fewer where it cannot place them)
  /// T advances by this many bucket widths (the engine's start width): a mesh search's cost is its
  /// steps, so a wider band of near vertices per step pays while the re-relaxations it brings stay
  /// cheaper than the barriers it saves (on an H200, 1024 x 1024 grid: 0.078 GTEPS at 1x the
  /// adaptive start width 0.7, 0.127 at width 4, 0.140 at 16; one infinite band, 0.054).
  static constexpr float width_factor = 16.0f;
};

/// One step's counts (device atomics).
struct near_far_counters {
  unsigned long long near;  ///< appends to the next near queue (all of them, past the capacity too)
  unsigned long long far;   ///< appends to the far pile (relaxation) or to the next pile (split)
  unsigned int min_far;     ///< split: float bits of the smallest distance kept in the pile
  unsigned int overflow;    ///< a list was full or a near row too long: leave the loop
};

/// One block's step counts in shared memory (near_far_block_steps): 32 bits, whose atomics are
/// native there (a 64-bit one is a compare-and-swap loop, retried under contention, on every
/// step's chain). A step in one block appends at most cta_near x max_degree vertices.
struct near_far_counters_shared {
  unsigned int near, far, min_far, overflow;
};

template <class Counters>
GPU500_HD GPU500_FORCEINLINE void reset(Counters& c) {
  c.near = 0;
  c.far = 0;
  c.min_far = inf_bits;
  c.overflow = 0;
}

/// The loop's lists: two near queues, two far piles, three bitmaps of n bits (near 0, near 1, far)
/// that are all zero between searches, and six counter slots (the grid's three, the cluster's three).
struct near_far_work {
  std::uint32_t* near[2];
  std::uint32_t* far[2];
  std::uint32_t* bits[3];
  near_far_counters* cnt;
};

/// Sets v's bit in `bits`; true when it was clear (v is appended by this thread).
__device__ __forceinline__ bool take_bit(std::uint32_t* bits, std::uint32_t v) {
  const std::uint32_t b = 1u << (v & 31u);
  return (atomicOr(bits + (v >> 5), b) & b) == 0;
}
__device__ __forceinline__ void clear_bit(std::uint32_t* bits, std::uint32_t v) {
  atomicAnd(bits + (v >> 5), ~(1u << (v & 31u)));
}

/// A place in a list for every calling thread, one atomic per coalesced group (a 64-bit counter in
/// global memory, a 32-bit one in shared memory).
template <class T>
__device__ __forceinline__ unsigned long long aggregated_slot(T* counter) {
  namespace cg = cooperative_groups;
  const auto found = cg::coalesced_threads();
  unsigned long long at = 0;
  if (found.thread_rank() == 0) at = atomicAdd(counter, static_cast<T>(found.num_threads()));
  return found.shfl(at, 0) + found.thread_rank();
}

template <class V>
__device__ __forceinline__ void row_bounds(const graph_ref<V>& g, std::uint32_t u, index_t& b, index_t& e) {
  if (g.rows != nullptr) {
    const row_rec r = g.rows[u];
    b = r.begin;
    e = r.begin + r.len;
  } else {
    b = g.offsets[u];
    e = g.offsets[static_cast<index_t>(u) + 1];
  }
}

/// Appends v to `list` behind `base` entries (capacity cap) with its bit in `bits` set; past the
/// capacity the bit is given back and the loop told to leave.
template <class T>
__device__ __forceinline__ void append_once(std::uint32_t* list, std::uint32_t* bits, T* counter,
                                            unsigned long long base, index_t cap, unsigned* overflow, std::uint32_t v) {
  if (!take_bit(bits, v)) return;
  const unsigned long long at = base + aggregated_slot(counter);
  if (at < static_cast<unsigned long long>(cap)) {
    list[at] = v;
  } else {
    clear_bit(bits, v);
    atomicOr(overflow, 1u);
  }
}

enum near_far_action : int { near_far_go = 0, near_far_done, near_far_leave };

/// Where the loop stands; every thread holds the same copy and takes the same decisions.
struct near_far_state {
  unsigned long long n_near;  ///< entries of the near queue near[side] (the root alone when `first`)
  unsigned long long n_far;   ///< entries of the far pile far[pile]
  float lo;                   ///< split: far vertices below this were relaxed as near vertices
  float t;                    ///< the threshold T
  float next_t;               ///< split: T after it
  float delta;
  int side, pile;
  int relax;   ///< 1: the next step relaxes the near queue; 0: it splits the far pile
  int first;   ///< 1: the near queue is the root, in no list
  int action;  ///< near_far_action
  long long relax_steps, splits;
};

__device__ __forceinline__ near_far_state start_state(float delta) {
  near_far_state s{};
  s.n_near = 1;
  s.t = s.next_t = bucket_end(0.0f, delta);
  s.delta = delta;
  s.relax = 1;
  s.first = 1;
  s.action = near_far_go;
  return s;
}

__device__ __forceinline__ near_far_state load_state(const near_far_state* p) {
  near_far_state s;
  s.n_near = __ldcg(&p->n_near);
  s.n_far = __ldcg(&p->n_far);
  s.lo = __ldcg(&p->lo);
  s.t = __ldcg(&p->t);
  s.next_t = __ldcg(&p->next_t);
  s.delta = __ldcg(&p->delta);
  s.side = __ldcg(&p->side);
  s.pile = __ldcg(&p->pile);
  s.relax = __ldcg(&p->relax);
  s.first = __ldcg(&p->first);
  s.action = __ldcg(&p->action);
  s.relax_steps = __ldcg(&p->relax_steps);
  s.splits = __ldcg(&p->splits);
  return s;
}

/// A step's counts as they are in L2 after its barrier.
__device__ __forceinline__ near_far_counters load_counts(const near_far_counters* c) {
  return {__ldcg(&c->near), __ldcg(&c->far), __ldcg(&c->min_far), __ldcg(&c->overflow)};
}

/// Before each search: the grid's three counter slots, and the state at the root in pub[0] (the
/// loop starts from it; the cluster's slots are cleared as its steps begin).
static __global__ void near_far_reset_kernel(near_far_counters* cnt, near_far_state* pub, float delta) {
  if (threadIdx.x < 3) reset(cnt[threadIdx.x]);
  if (threadIdx.x == 0) *pub = start_state(delta);
}

/// A step within `near` near vertices (in a relaxation) and a far pile of at most `far`.
__device__ __forceinline__ bool step_within(const near_far_state& s, index_t near, index_t far) {
  return (!s.relax || s.n_near <= static_cast<unsigned long long>(near)) && s.n_far <= static_cast<unsigned long long>(far);
}
/// A step small enough for one block (near_far_policy::cta_*).
__device__ __forceinline__ bool fits_block(const near_far_state& s) {
  return step_within(s, near_far_policy::cta_near, near_far_policy::cta_far);
}

/// One step's work by the calling thread: `at` its index among `count` threads (lane groups of
/// near_far_policy::lanes in a relaxation), appending to the counters c.
template <class V, class Counters>
__device__ __forceinline__ void near_far_step(const graph_ref<V>& g, const work_ref& w, const near_far_work& f,
                                              const near_far_state& s, Counters* c, unsigned long long at,
                                              unsigned long long count) {
  using P = near_far_policy;
  std::uint32_t* const far_bits = f.bits[2];
  if (s.relax) {
    const unsigned lane = static_cast<unsigned>(at % P::lanes);
    const unsigned long long groups = count / P::lanes;
    const std::uint32_t* cur = f.near[s.side];
    std::uint32_t* nxt = f.near[s.side ^ 1];
    std::uint32_t* const nxt_bits = f.bits[s.side ^ 1];
    for (unsigned long long j = at / P::lanes; j < s.n_near; j += groups) {
      const std::uint32_t u = s.first ? static_cast<std::uint32_t>(w.root) : __ldcg(cur + j);
      if (!s.first && lane == 0) clear_bit(f.bits[s.side], u);
      const float du = dist_of(__ldcg(w.dp + u));
      index_t b, e;
      row_bounds(g, u, b, e);
      if (e - b > P::max_degree) {
        if (lane == 0) atomicOr(&c->overflow, 1u);
        continue;
      }
      for (index_t a = b + lane; a < e; a += P::lanes) {
        const auto v = static_cast<std::uint32_t>(g.cols[a]);
        const float nd = du + g.weights[a];
        const unsigned nb = __float_as_uint(nd);
        const unsigned long long old = __ldcg(w.dp + v);
        if (nb >= static_cast<unsigned>(old >> 32) || !relax_retry(w.dp, v, nb, u, old)) continue;
        if (nd < s.t)
          append_once(nxt, nxt_bits, &c->near, 0, P::near_vertices, &c->overflow, v);
        else
          append_once(f.far[s.pile], far_bits, &c->far, s.n_far, P::far_vertices, &c->overflow, v);
      }
    }
  } else {  // split the far pile at next_t
    const std::uint32_t* in = f.far[s.pile];
    std::uint32_t* out = f.far[s.pile ^ 1];
    for (unsigned long long j = at; j < s.n_far; j += count) {
      const std::uint32_t v = __ldcg(in + j);
      const float d = dist_of(__ldcg(w.dp + v));
      if (d < s.lo) {  // relaxed at this distance as a near vertex
        clear_bit(far_bits, v);
      } else if (d < s.next_t) {
        clear_bit(far_bits, v);
        append_once(f.near[s.side], f.bits[s.side], &c->near, 0, P::near_vertices, &c->overflow, v);
      } else {  // stays: the bit stays set
        out[aggregated_slot(&c->far)] = v;  // at most n_far entries
        atomicMin(&c->min_far, __float_as_uint(d));
      }
    }
  }
}

/// Leaving after a step that overflowed (state s from before the step, c its counts): clears the
/// bits of every list entry (the near queue read, the one written, the far pile and, after a split,
/// the pile written), so that the next search starts with them all clear.
__device__ __forceinline__ void near_far_clear(const near_far_work& f, const near_far_state& s,
                                               const near_far_counters& c, unsigned long long at,
                                               unsigned long long count) {
  using P = near_far_policy;
  const auto cap_near = static_cast<unsigned long long>(P::near_vertices);
  const auto cap_far = static_cast<unsigned long long>(P::far_vertices);
  const unsigned long long written_near = c.near < cap_near ? c.near : cap_near;
  std::uint32_t* const far_bits = f.bits[2];
  if (s.relax) {
    const unsigned long long far_end = s.n_far + c.far < cap_far ? s.n_far + c.far : cap_far;
    for (unsigned long long j = at; j < (s.first ? 0 : s.n_near); j += count)
      clear_bit(f.bits[s.side], __ldcg(f.near[s.side] + j));
    for (unsigned long long j = at; j < written_near; j += count)
      clear_bit(f.bits[s.side ^ 1], __ldcg(f.near[s.side ^ 1] + j));
    for (unsigned long long j = at; j < far_end; j += count) clear_bit(far_bits, __ldcg(f.far[s.pile] + j));
  } else {
    for (unsigned long long j = at; j < written_near; j += count) clear_bit(f.bits[s.side], __ldcg(f.near[s.side] + j));
    for (unsigned long long j = at; j < c.far; j += count) clear_bit(far_bits, __ldcg(f.far[s.pile ^ 1] + j));
  }
}

/// The state after a step, from its counts (the same in every thread).
__device__ __forceinline__ void near_far_decide(near_far_state& s, const near_far_counters& c) {
  if (c.overflow != 0) {
    s.action = near_far_leave;
    return;
  }
  if (s.relax) {
    ++s.relax_steps;
    s.n_far += c.far;
    s.n_near = c.near;
    s.side ^= 1;
    s.first = 0;
    if (s.n_near > 0) return;
    if (s.n_far == 0) {
      s.action = near_far_done;
      return;
    }
    s.lo = s.t;  // the near queue is empty below t: split at the next threshold
    s.next_t = bucket_end(s.t, s.delta);
    s.relax = 0;
  } else {
    ++s.splits;
    s.pile ^= 1;
    s.n_far = c.far;
    s.n_near = c.near;
    s.t = s.next_t;
    if (s.n_near > 0) {
      s.relax = 1;
      return;
    }
    if (s.n_far == 0) {
      s.action = near_far_done;
      return;
    }
    s.lo = s.t;  // nothing below t: the next split starts at the smallest distance kept
    const float m = __uint_as_float(c.min_far);
    s.next_t = bucket_end(m > s.t ? m : s.t, s.delta);
  }
}

/// Block 0's steps while they fit one block: block barriers and counters in shared memory; the
/// lists written by other blocks before are read through L2 (as every list read is).
template <class V>
__device__ void near_far_block_steps(const graph_ref<V>& g, const work_ref& w, const near_far_work& f,
                                     near_far_state& s) {
  __shared__ near_far_counters_shared counts[3];
  if (threadIdx.x < 3) reset(counts[threadIdx.x]);
  __syncthreads();
  for (unsigned k = 0;; ++k) {
    near_far_counters_shared* c = counts + k % 3;
    near_far_step(g, w, f, s, c, threadIdx.x, blockDim.x);
    if (threadIdx.x == 0) reset(counts[(k + 1) % 3]);
    __syncthreads();
    const near_far_counters got{c->near, c->far, c->min_far, c->overflow};
    if (got.overflow != 0) {
      near_far_clear(f, s, got, threadIdx.x, blockDim.x);
      s.action = near_far_leave;
      return;
    }
    near_far_decide(s, got);
    if (s.action != near_far_go || !fits_block(s)) return;
  }
}

/// One step of a group of blocks (the grid, or a cluster) with its counters in slots[0..3), k its
/// index among the group's steps, at / count the thread's place in the group; then the group's
/// barrier (a full one: the lists, words and counters written to global memory are read after it
/// by other SMs) and the state after the step.
template <class V, class Group>
__device__ __forceinline__ void near_far_group_step(Group& group, const graph_ref<V>& g, const work_ref& w,
                                                    const near_far_work& f, near_far_state& s,
                                                    near_far_counters* slots, unsigned long long k,
                                                    unsigned long long at, unsigned long long count) {
  near_far_counters* c = slots + k % 3;
  near_far_step(g, w, f, s, c, at, count);
  if (at == 0) reset(slots[(k + 1) % 3]);
  group.sync();
  const near_far_counters got = load_counts(c);
  if (got.overflow != 0) near_far_clear(f, s, got, at, count);
  near_far_decide(s, got);
}

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
/// The first cluster's steps while they fit it and not one block: the grid's steps over the
/// cluster's threads, with the cluster's barrier and its own counter slots (f.cnt[3..6)).
/// Counters in the first block's shared memory, added to through distributed shared memory, ran
/// no faster on an H200, and one search of the tests never ended with them
/// (docs/log/2026-12-01-sssp-near-far-cluster.md).
template <class V>
__device__ void near_far_cluster_steps(const graph_ref<V>& g, const work_ref& w, const near_far_work& f,
                                       near_far_state& s) {
  namespace cg = cooperative_groups;
  cg::cluster_group cluster = cg::this_cluster();
  near_far_counters* const slots = f.cnt + 3;
  const unsigned long long at = cluster.thread_rank(), count = cluster.num_threads();
  if (at < 3) reset(slots[at]);
  cluster.sync();
  for (unsigned long long k = 0;; ++k) {
    near_far_group_step(cluster, g, w, f, s, slots, k, at, count);
    if (s.action != near_far_go || fits_block(s) ||
        !step_within(s, near_far_policy::cluster_near, near_far_policy::cluster_far))
      return;
  }
}
#endif

/// The loop from the state in pub[0] (near_far_reset_kernel's: the root, whose word
/// init_search_kernel wrote). On leaving early the words stay as they are and the bucket loop
/// runs; on finishing, *w.ctrl is marked done with the loop's counts. Launched as a cooperative
/// grid, in clusters of `cluster` blocks (or none: 0), whose first cluster runs the steps that fit
/// it; pub[1], pub[0], pub[1], ... take the states after the tiers of steps run by one block or
/// that cluster alone (two slots: the file's head says why).
template <class V>
__global__ void __launch_bounds__(near_far_policy::block, 1)
    near_far_kernel(graph_ref<V> g, work_ref w, near_far_work f, near_far_state* pub, unsigned cluster) {
  namespace cg = cooperative_groups;
  cg::grid_group grid = cg::this_grid();
  const unsigned long long threads = grid.num_threads();
  const unsigned long long rank = grid.thread_rank();
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
  cluster = 0;  // code for GPUs without clusters, run on one that has them
#endif
  near_far_state s = load_state(pub);
  for (unsigned long long k = 0, tier = 0; s.action == near_far_go;) {
    const bool one_block = fits_block(s);
    if (one_block ||
        (cluster > 0 && step_within(s, near_far_policy::cluster_near, near_far_policy::cluster_far))) {
      near_far_state* const out = pub + (++tier & 1);
      if (one_block && blockIdx.x == 0) {
        near_far_block_steps(g, w, f, s);
        if (threadIdx.x == 0) *out = s;
      }
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
      if (!one_block && blockIdx.x < cluster) {
        near_far_cluster_steps(g, w, f, s);
        if (blockIdx.x == 0 && threadIdx.x == 0) *out = s;
      }
#endif
      grid.sync();
      s = load_state(out);
      continue;
    }
    near_far_group_step(grid, g, w, f, s, f.cnt, k++, rank, threads);
  }
  if (rank == 0) {
    control st = *w.ctrl;
    st.loop_steps = s.relax_steps + s.splits + (s.action == near_far_leave ? 1 : 0);
    st.loop_finished = s.action == near_far_done ? 1 : 0;
    if (s.action == near_far_done) {  // the bucket loop has nothing to do but write the output
      st.phase = phase_done;
      st.steps = s.relax_steps + s.splits;
      st.light_steps = s.relax_steps;
      st.buckets = s.splits + 1;
    }
    *w.ctrl = st;
  }
}

}  // namespace gpu500::sssp::cuda::detail
