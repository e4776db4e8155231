// src/sssp/cuda/relax.cuh — light and heavy relaxation of a warp's arcs (delta-stepping's inner
// step on the GPU): K arcs per lane with their loads and first compare-and-swaps in flight together,
// then the pushes of improved vertices to the light phase's out queue and to the bucket's list R
// (queue stamps, or queue bitmaps). Used by the list and chunk phases (list_phases.cuh).
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

/// K arcs per lane (all lanes call). The K arcs' loads, first
/// compare-and-swaps and stamp exchanges are issued back to back, so a warp has K independent
/// dependency chains in flight instead of one (the phases are bound by memory latency, not
/// bandwidth). Updates only ever lower a distance strictly (see the file comment).
template <bool Light, int K, class V>
__device__ __forceinline__ void visit_arcs(const graph_ref<V>& g, const work_ref& w, const control& s, staged_list& q,
                                           staged_list& r, const lane_arcs<K>& x, warp_scratch& sm) {
  const index_t* a = x.a;
  const bool* valid = x.valid;
  const std::uint32_t* u = x.u;
  const float* du = x.du;
  std::uint32_t v[K];
  unsigned nb[K];
  bool take[K];
  // Heavy arcs past a sorted row's cut are all heavy: check the target's settled bit first and read
  // the weight only for the few unsettled targets.
  const bool col_first = !Light && w.lean && g.sorted && w.settled != nullptr;
#pragma unroll
  for (int k = 0; k < K; ++k) {
    take[k] = false;
    v[k] = 0;
    nb[k] = 0;
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
  if constexpr (Light) {
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
}

}  // namespace gpu500::sssp::cuda::detail
