// src/sssp/cuda/relax.cuh — light and heavy relaxation of a warp's arcs (delta-stepping's inner
// step on the GPU): K arcs per lane with their loads and first compare-and-swaps in flight together,
// then the pushes of improved vertices to the light phase's out queue and to the bucket's list R
// (queue stamps, or queue bitmaps). Used by the list and chunk phases (list_phases.cuh); over MPI
// ranks an arc into another rank's vertex becomes a request to its owner (over_ranks.cuh applies
// what arrives with the same compare-and-swap and pushes).
#pragma once

#include "device_state.cuh"

namespace gpu500::sssp::cuda::detail {

/// A lane's K arcs of one round: arc index, tail u and d(u); `valid` false for padding.
template <int K>
struct lane_arcs {
  index_t a[K];
  bool valid[K];
  std::uint32_t u[K];
  float du[K];
};

/// Over MPI ranks: the relaxations of a lane's K arcs whose heads are other ranks' vertices become
/// requests to their owners, unless the head's distance is known final (settled_all) or this rank
/// offered it as little before (a relaxation only lowers a distance, so the owner has seen no
/// more than that). Every lane calls; send[k] says which of its arcs go, and comes back true for
/// those that went. The K arcs' loads, offers and slot claims are issued together, as the local
/// relaxations' are; a warp claims the slots of each owner's block with one atomic per owner.
template <int K>
__device__ __forceinline__ void send_requests(const rank_ref& rk, const std::int64_t (&h)[K], const float (&nd)[K],
                                              const std::uint32_t (&from)[K], bool (&send)[K]) {
  unsigned seen[K];
#pragma unroll
  for (int k = 0; k < K; ++k) {
    if (send[k] && rk.settled_all != nullptr && dist::cuda::test_bit(rk.settled_all, h[k])) send[k] = false;
    seen[k] = send[k] ? rk.offered[h[k]] : 0u;
  }
#pragma unroll
  for (int k = 0; k < K; ++k) {
    send[k] = send[k] && __float_as_uint(nd[k]) < seen[k];
    seen[k] = send[k] ? atomicMin(rk.offered + h[k], __float_as_uint(nd[k])) : 0u;
  }
  int owner[K];
  unsigned peers[K];
  index_t base[K];
  const unsigned lane = lane_id();
#pragma unroll
  for (int k = 0; k < K; ++k) {
    send[k] = send[k] && __float_as_uint(nd[k]) < seen[k];
    owner[k] = send[k] ? dist::cuda::owner_of(h[k], rk.block) : -1;
    peers[k] = __match_any_sync(full_mask, owner[k]);
    base[k] = 0;
    if (send[k] && lane == static_cast<unsigned>(__ffs(static_cast<int>(peers[k])) - 1))
      base[k] = dist::cuda::atomic_add(rk.cursor + owner[k], static_cast<index_t>(__popc(peers[k])));
  }
#pragma unroll
  for (int k = 0; k < K; ++k) {
    base[k] = __shfl_sync(full_mask, base[k], __ffs(static_cast<int>(peers[k])) - 1);
    if (!send[k]) continue;
    const index_t at = base[k] + __popc(peers[k] & ((1u << lane) - 1u));
    rk.send[at] = request{static_cast<std::uint32_t>(h[k] - static_cast<std::int64_t>(owner[k]) * rk.block), from[k], nd[k]};
  }
}

/// The light phases' pushes of the vertices v[k] that improved[k] (this rank's rows): once per
/// epoch to the out queue, and to R the first time in this bucket (queue stamps, or queue bitmaps).
template <int K>
__device__ __forceinline__ void push_improved(const work_ref& w, const control& s, staged_list& q, staged_list& r,
                                              const std::uint32_t (&v)[K], const bool (&improved)[K]) {
  if (w.qbits[0] != nullptr) {  // queue-bitmap mode: two L2-resident bit exchanges, issued together
    std::uint32_t* out_bits = w.qbits[s.out_list == list_q0 ? 0 : 1];
    std::uint32_t osb[K], oqb[K];
#pragma unroll
    for (int k = 0; k < K; ++k) {
      osb[k] = oqb[k] = 0;
      if (!improved[k]) continue;
      const unsigned bit = 1u << (v[k] & 31u);
      osb[k] = atomicOr(w.settled + (v[k] >> 5), bit) & bit;  // set: already in R (d < hi known)
      oqb[k] = atomicOr(out_bits + (v[k] >> 5), bit) & bit;   // set: already in the out queue
    }
#pragma unroll
    for (int k = 0; k < K; ++k) {
      stage_push(q, improved[k] && oqb[k] == 0, v[k]);
      stage_push(r, improved[k] && osb[k] == 0, v[k]);
    }
    return;
  }
  std::uint32_t ost[K];
#pragma unroll
  for (int k = 0; k < K; ++k) {
    ost[k] = s.epoch;
    if (!improved[k]) continue;
    // d(v) < hi now: v belongs to this bucket (a reduction, nothing waits for it).
    if (w.lean && w.settled != nullptr) atomicOr(w.settled + (v[k] >> 5), 1u << (v[k] & 31u));
    ost[k] = atomicExch(w.stamp + v[k], s.epoch);
  }
#pragma unroll
  for (int k = 0; k < K; ++k) {
    const bool push_q = improved[k] && ost[k] != s.epoch;
    const bool push_r = improved[k] && ost[k] < s.scan_epoch;
    if (!w.lean && push_r && w.settled != nullptr) atomicOr(w.settled + (v[k] >> 5), 1u << (v[k] & 31u));
    stage_push(q, push_q, v[k]);
    stage_push(r, push_r, v[k]);
  }
}

/// K arcs per lane (all lanes call). The K arcs' loads, first
/// compare-and-swaps and stamp exchanges are issued back to back, so a warp has K independent
/// dependency chains in flight instead of one (the phases are bound by memory latency, not
/// bandwidth). Updates only ever lower a distance strictly (see the file comment). Over ranks
/// (Ranks) an arc into another rank's vertex is sent to its owner (send_requests) instead.
template <bool Light, int K, bool Ranks, class V>
__device__ __forceinline__ void visit_arcs(const graph_ref<V>& g, const work_ref& w, const control& s, staged_list& q,
                                           staged_list& r, const lane_arcs<K>& x, warp_scratch& sm,
                                           const rank_ref& rk) {
  const index_t* a = x.a;
  const bool* valid = x.valid;
  const std::uint32_t* u = x.u;
  const float* du = x.du;
  std::uint32_t v[K];
  unsigned nb[K];
  bool take[K];
#pragma unroll
  for (int k = 0; k < K; ++k) {
    take[k] = false;
    v[k] = 0;
    nb[k] = 0;
  }
  if constexpr (Ranks) {
    // Every arc's head and weight first, then the owned heads as below and the others as requests.
    std::int64_t h[K];
    float nd[K];
    bool remote[K];
#pragma unroll
    for (int k = 0; k < K; ++k) {
      h[k] = valid[k] ? static_cast<std::int64_t>(g.cols[a[k]]) : 0;
      nd[k] = valid[k] ? du[k] + g.weights[a[k]] : 0.0f;
    }
#pragma unroll
    for (int k = 0; k < K; ++k) {
      remote[k] = false;
      if (!valid[k] || (Light ? !(nd[k] < s.hi) : nd[k] < s.hi)) continue;
      const std::int64_t l = h[k] - rk.first;
      if (static_cast<std::uint64_t>(l) >= static_cast<std::uint64_t>(g.n)) {
        remote[k] = true;
        continue;
      }
      v[k] = static_cast<std::uint32_t>(l);
      take[k] = Light || w.settled == nullptr || !settled_bit(w.settled, v[k]);
      nb[k] = __float_as_uint(nd[k]);
    }
    send_requests<K>(rk, h, nd, x.u, remote);
  } else {
    // Heavy arcs past a sorted row's cut are all heavy: check the target's settled bit first and
    // read the weight only for the few unsettled targets.
    const bool col_first = !Light && w.lean && g.sorted && w.settled != nullptr;
#pragma unroll
    for (int k = 0; k < K; ++k) {
      if (!valid[k]) continue;
      if (col_first) {
        v[k] = static_cast<std::uint32_t>(g.cols[a[k]]);
        if (settled_bit(w.settled, v[k])) continue;
        const float nd = du[k] + g.weights[a[k]];
        take[k] = !(nd < s.hi);
        nb[k] = __float_as_uint(nd);
      } else {
        const float nd = du[k] + g.weights[a[k]];
        take[k] = Light ? (nd < s.hi) : !(nd < s.hi);
        nb[k] = __float_as_uint(nd);
        if (take[k]) {
          v[k] = static_cast<std::uint32_t>(g.cols[a[k]]);
          if (!Light && w.settled != nullptr && settled_bit(w.settled, v[k])) take[k] = false;
        }
      }
    }
  }
  unsigned long long cur[K], old[K];
  bool tried[K], improved[K];
#pragma unroll
  for (int k = 0; k < K; ++k) cur[k] = take[k] ? __ldcg(w.dp + v[k]) : 0ull;
#pragma unroll
  for (int k = 0; k < K; ++k) {
    tried[k] = take[k] && nb[k] < static_cast<unsigned>(cur[k] >> 32);
    old[k] = tried[k] ? atomicCAS(w.dp + v[k], cur[k], (static_cast<unsigned long long>(nb[k]) << 32) | u[k]) : 0ull;
  }
#pragma unroll
  for (int k = 0; k < K; ++k)
    improved[k] = tried[k] && (old[k] == cur[k] || relax_retry(w.dp, v[k], nb[k], u[k], old[k]));
  if (w.trace != nullptr) {  // warp-uniform: the phase trace's counts
    unsigned a = 0, c = 0, i = 0;
#pragma unroll
    for (int k = 0; k < K; ++k) {
      a += __popc(__ballot_sync(full_mask, valid[k]));
      c += __popc(__ballot_sync(full_mask, take[k]));
      i += __popc(__ballot_sync(full_mask, improved[k]));
    }
    if (lane_id() == 0) {
      sm.arcs += a;
      sm.candidates += c;
      sm.improved += i;
    }
  }
  if constexpr (Light) push_improved<K>(w, s, q, r, v, improved);
}

}  // namespace gpu500::sssp::cuda::detail
