// src/sssp/cuda/near_far.cuh — the GPU SSSP's device loop for small frontiers: a near-far search
// (Davidson, Baxter, Garland & Owens, IPDPS'14) inside one cooperative grid, run from the root before
// the bucket loop, so that graphs whose frontiers stay small (meshes, road-like and geometric graphs,
// paths) pay one grid barrier per iteration and no scan of the vertices per bucket.
//
// State: a threshold T (a multiple of the bucket width delta past 0, or the next far distance), a
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
// The counters rotate over three slots as in the BFS device loop (src/bfs/cuda/device_loop.cuh):
// step k writes slot k % 3 and clears slot (k + 1) % 3, read last before the barrier of step k - 1.
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
};

/// One step's counts (device atomics).
struct near_far_counters {
  unsigned long long near;  ///< appends to the next near queue (all of them, past the capacity too)
  unsigned long long far;   ///< appends to the far pile (relaxation) or to the next pile (split)
  unsigned int min_far;     ///< split: float bits of the smallest distance kept in the pile
  unsigned int overflow;    ///< a list was full or a near row too long: leave the loop
};

GPU500_HD GPU500_FORCEINLINE void reset(near_far_counters& c) {
  c.near = 0;
  c.far = 0;
  c.min_far = inf_bits;
  c.overflow = 0;
}

/// The loop's lists: two near queues, two far piles, three bitmaps of n bits (near 0, near 1, far)
/// that are all zero between searches, and three counter slots.
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

/// A place in a list for every calling thread, one atomic per coalesced group.
__device__ __forceinline__ unsigned long long aggregated_slot(unsigned long long* counter) {
  namespace cg = cooperative_groups;
  const auto found = cg::coalesced_threads();
  unsigned long long at = 0;
  if (found.thread_rank() == 0) at = atomicAdd(counter, static_cast<unsigned long long>(found.num_threads()));
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
__device__ __forceinline__ void append_once(std::uint32_t* list, std::uint32_t* bits, unsigned long long* counter,
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

/// Before each search: the three counter slots.
static __global__ void near_far_reset_kernel(near_far_counters* cnt) {
  if (threadIdx.x < 3) reset(cnt[threadIdx.x]);
}

/// The loop from the root (its word written by init_search_kernel). On leaving early the words stay
/// as they are and the bucket loop runs; on finishing, *w.ctrl is marked done with the loop's counts.
template <class V>
__global__ void __launch_bounds__(near_far_policy::block, 1)
    near_far_kernel(graph_ref<V> g, work_ref w, near_far_work f, float delta) {
  namespace cg = cooperative_groups;
  using P = near_far_policy;
  const cg::grid_group grid = cg::this_grid();
  const unsigned long long threads = grid.num_threads();
  const unsigned long long rank = grid.thread_rank();
  const unsigned long long groups = threads / P::lanes;
  const unsigned long long group_id = rank / P::lanes;
  const unsigned lane = static_cast<unsigned>(rank % P::lanes);
  const auto root = static_cast<std::uint32_t>(w.root);
  std::uint32_t* const far_bits = f.bits[2];
  float lo = 0.0f;                   // the threshold before the last split
  float t = bucket_end(0.0f, delta);  // the threshold T
  float next_t = t;                  // T of the next split
  unsigned long long n_near = 1, n_far = 0;  // the root is the first near queue (no bit: never appended)
  int side = 0, pile = 0;
  bool relax = true;  // this step relaxes the near queue (else it splits the far pile)
  long long relax_steps = 0, splits = 0;
  for (long long k = 0;; ++k) {
    near_far_counters* c = f.cnt + k % 3;
    if (relax) {
      const std::uint32_t* cur = f.near[side];
      std::uint32_t* nxt = f.near[side ^ 1];
      std::uint32_t* const cur_bits = f.bits[side];
      std::uint32_t* const nxt_bits = f.bits[side ^ 1];
      for (unsigned long long j = group_id; j < n_near; j += groups) {
        const std::uint32_t u = k == 0 ? root : __ldcg(cur + j);
        if (k != 0 && lane == 0) clear_bit(cur_bits, u);
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
          if (nd < t)
            append_once(nxt, nxt_bits, &c->near, 0, P::near_vertices, &c->overflow, v);
          else
            append_once(f.far[pile], far_bits, &c->far, n_far, P::far_vertices, &c->overflow, v);
        }
      }
    } else {  // split the far pile at next_t
      const std::uint32_t* in = f.far[pile];
      std::uint32_t* out = f.far[pile ^ 1];
      std::uint32_t* const near_bits = f.bits[side];
      for (unsigned long long j = rank; j < n_far; j += threads) {
        const std::uint32_t v = __ldcg(in + j);
        const float d = dist_of(__ldcg(w.dp + v));
        if (d < lo) {  // relaxed at this distance as a near vertex
          clear_bit(far_bits, v);
        } else if (d < next_t) {
          clear_bit(far_bits, v);
          append_once(f.near[side], near_bits, &c->near, 0, P::near_vertices, &c->overflow, v);
        } else {  // stays: the bit stays set
          out[aggregated_slot(&c->far)] = v;  // at most n_far entries
          atomicMin(&c->min_far, __float_as_uint(d));
        }
      }
    }
    if (rank == 0) reset(f.cnt[(k + 1) % 3]);
    grid.sync();
    const unsigned long long got_near = __ldcg(&c->near), got_far = __ldcg(&c->far);
    const unsigned overflow = __ldcg(&c->overflow);
    const unsigned min_far = __ldcg(&c->min_far);
    if (overflow != 0) {
      // Leave: clear the bits of every list entry (the near queue just read, the one just
      // written, the far pile and, after a split, the pile just written), then the bucket loop runs.
      const unsigned long long cap_near = static_cast<unsigned long long>(P::near_vertices);
      const unsigned long long cap_far = static_cast<unsigned long long>(P::far_vertices);
      const unsigned long long written_near = got_near < cap_near ? got_near : cap_near;
      if (relax) {
        const unsigned long long far_end = n_far + got_far < cap_far ? n_far + got_far : cap_far;
        for (unsigned long long j = rank; j < (k == 0 ? 0 : n_near); j += threads)
          clear_bit(f.bits[side], __ldcg(f.near[side] + j));
        for (unsigned long long j = rank; j < written_near; j += threads)
          clear_bit(f.bits[side ^ 1], __ldcg(f.near[side ^ 1] + j));
        for (unsigned long long j = rank; j < far_end; j += threads) clear_bit(far_bits, __ldcg(f.far[pile] + j));
      } else {
        for (unsigned long long j = rank; j < written_near; j += threads)
          clear_bit(f.bits[side], __ldcg(f.near[side] + j));
        for (unsigned long long j = rank; j < got_far; j += threads) clear_bit(far_bits, __ldcg(f.far[pile ^ 1] + j));
      }
      if (rank == 0) {
        w.ctrl->loop_steps = k + 1;
        w.ctrl->loop_finished = 0;
      }
      return;
    }
    if (relax) {
      ++relax_steps;
      n_far += got_far;
      n_near = got_near;
      side ^= 1;
      if (n_near > 0) continue;
      if (n_far == 0) break;
      lo = t;  // the near queue is empty below t: split at the next threshold
      next_t = bucket_end(t, delta);
      relax = false;
    } else {
      ++splits;
      pile ^= 1;
      n_far = got_far;
      n_near = got_near;
      t = next_t;
      if (n_near > 0) {
        relax = true;
      } else {
        if (n_far == 0) break;
        lo = t;  // nothing below t: the next split starts at the smallest distance kept
        const float m = __uint_as_float(min_far);
        next_t = bucket_end(m > t ? m : t, delta);
      }
    }
  }
  if (rank == 0) {  // finished: the bucket loop has nothing to do but write the output
    control s = *w.ctrl;
    s.phase = phase_done;
    s.loop_steps = relax_steps + splits;
    s.loop_finished = 1;
    s.steps = relax_steps + splits;
    s.light_steps = relax_steps;
    s.buckets = splits + 1;
    *w.ctrl = s;
  }
}

}  // namespace gpu500::sssp::cuda::detail
