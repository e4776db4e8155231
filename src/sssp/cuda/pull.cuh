// src/sssp/cuda/pull.cuh — the pull phase of the GPU SSSP (control.hpp): a bottom-up heavy pass in
// which every unsettled vertex scans its weight-sorted row for settled neighbours and takes the best
// d(u) + w, leaving the row early; it replaces a bucket's heavy pushes when they are many. Over MPI
// ranks the settled neighbours are the bucket's vertices of every rank, gathered with their
// distances before the phase (over_ranks.cuh).
#pragma once

#include "device_state.cuh"

namespace gpu500::sssp::cuda::detail {

/// Pull phase (control.hpp): a bottom-up heavy pass. A warp step takes 32 vertices; a lane scans
/// the first few arcs of its vertex's weight-sorted row, the warp then finishes the rows still open
/// 32 arcs at a time. Candidates come from settled neighbours only (d(u) < hi: final), so the best
/// d(u) + w equals what pushing the bucket's heavy arcs gives (earlier buckets' candidates were
/// pushed in their own heavy passes and cannot beat d(v)); a row is left once lo + w reaches the
/// best so far (d(u) >= lo for the bucket's vertices, float addition is monotone). Only v's lane
/// writes v's word, once, with a strictly smaller distance: a plain store. Settled bits and words
/// written by other SMs are read with ld.global.cg: a stale bit here would lose a candidate.
template <bool Ranks, class V>
__device__ void pull_phase(const graph_ref<V>& g, const work_ref& w, const control& s, const rank_ref& rk) {
  constexpr int lane_first = 4;  ///< arcs a lane scans alone before the warp takes over
  const index_t n = g.n;
  const unsigned lane = lane_id();
  const index_t warp = gpu::global_warp_id();
  const index_t warps = gpu::grid_warps();
  const float lo = s.lo;
  // Arc x of a row starting at `row`: its candidate word (distance bits << 32 | the parent: the
  // neighbour's id on one process, over ranks the arc's place in the row), all ones when the
  // neighbour is not settled (over ranks: not in the gathered bucket).
  const auto candidate = [&](index_t x, index_t row, float wt) -> unsigned long long {
    const V col = g.cols[x];
    if constexpr (Ranks) {
      if (!dist::cuda::test_bit(rk.bucket_bits, static_cast<std::int64_t>(col))) return ~0ull;
      const float du = __uint_as_float(rk.offered[col]);
      return (static_cast<unsigned long long>(__float_as_uint(du + wt)) << 32) | static_cast<std::uint32_t>(x - row);
    } else {
      const auto u = static_cast<std::uint32_t>(col);
      if (((__ldcg(w.settled + (u >> 5)) >> (u & 31u)) & 1u) == 0) return ~0ull;
      return (static_cast<unsigned long long>(__float_as_uint(dist_of(__ldcg(w.dp + u)) + wt)) << 32) | u;
    }
  };
  for (index_t base = warp * 32; base < n; base += warps * 32) {
    const index_t v = base + lane;
    const unsigned sw = __ldcg(w.settled + (base >> 5));
    if (sw == full_mask) continue;  // warp-uniform
    bool open = v < n && ((sw >> lane) & 1u) == 0;
    index_t a = 0, end = 0;
    if (open) {
      if (g.rows != nullptr) {
        const row_rec rr = g.rows[v];
        a = rr.begin;
        end = a + rr.len;
      } else {
        a = g.offsets[v];
        end = g.offsets[v + 1];
      }
      open = end > a;
    }
    const index_t row = a;
    const unsigned long long best0 = open ? __ldcg(w.dp + v) : 0ull;
    unsigned long long best = best0;
    for (int i = 0; i < lane_first && open; ++i, ++a) {
      if (a >= end) {
        open = false;
        break;
      }
      const float wt = g.weights[a];
      if (__float_as_uint(lo + wt) >= static_cast<unsigned>(best >> 32)) {  // bits: unreached is all ones
        open = false;
        break;
      }
      const unsigned long long cand = candidate(a, row, wt);
      if (static_cast<unsigned>(cand >> 32) < static_cast<unsigned>(best >> 32)) best = cand;
    }
    if (open && a >= end) open = false;
    for (unsigned pending = __ballot_sync(full_mask, open); pending != 0; pending &= pending - 1) {
      const int src = __ffs(static_cast<int>(pending)) - 1;
      const index_t pa = __shfl_sync(full_mask, a, src), pend = __shfl_sync(full_mask, end, src);
      const index_t prow = __shfl_sync(full_mask, row, src);
      unsigned long long pbest = __shfl_sync(full_mask, best, src);
      for (index_t a0 = pa; a0 < pend; a0 += 32) {
        const index_t x = a0 + lane;
        unsigned long long cand = ~0ull;
        bool stop = false;
        if (x < pend) {
          const float wt = g.weights[x];
          if (__float_as_uint(lo + wt) >= static_cast<unsigned>(pbest >> 32)) stop = true;  // and every later arc
          else cand = candidate(x, prow, wt);
        }
        for (int off = 16; off > 0; off >>= 1) {
          const unsigned long long o = __shfl_xor_sync(full_mask, cand, off);
          cand = o < cand ? o : cand;
        }
        if (static_cast<unsigned>(cand >> 32) < static_cast<unsigned>(pbest >> 32)) pbest = cand;
        if (__any_sync(full_mask, stop)) break;
      }
      if (static_cast<int>(lane) == src) best = pbest;
    }
    if (static_cast<unsigned>(best >> 32) < static_cast<unsigned>(best0 >> 32)) {
      if constexpr (Ranks) {
        rk.parent_far[v] = static_cast<std::int64_t>(g.cols[row + static_cast<std::uint32_t>(best)]);
        w.dp[v] = (best & 0xFFFFFFFF00000000ull) | pulled_parent;
      } else {
        w.dp[v] = best;
      }
    }
  }
}

}  // namespace gpu500::sssp::cuda::detail
