// src/sssp/cuda/scan.cuh — the scan phase of the GPU SSSP (control.hpp): a pass over every vertex
// that extracts the bucket [lo, hi) into the list R and finds the smallest distance >= hi (so that
// empty buckets are skipped). Scan-based extraction needs no far pile that could overflow.
#pragma once

#include "device_state.cuh"

namespace gpu500::sssp::cuda::detail {

/// Scan phase: extract the bucket [lo, hi) into R, find the smallest distance >= hi.
__device__ __forceinline__ void scan_phase(index_t n, const work_ref& w, const control& s, counters* c,
                                           warp_scratch& sm) {
  staged_list r{sm.rbuf, 0, &c->out, w.lists[list_r]};
  const unsigned lo_b = __float_as_uint(s.lo), hi_b = __float_as_uint(s.hi);
  unsigned best = inf_bits;
  const index_t warp = gpu::global_warp_id();
  const index_t warps = gpu::grid_warps();
  constexpr int MaxB = warp_scratch::max_groups;
  const int groups = w.vpl;
  const index_t lane = lane_id();
  for (index_t base0 = warp * 32 * groups; base0 < n; base0 += warps * 32 * groups) {
    // Lean: a vertex whose settled bit is set has d < lo (it was set in an earlier bucket) and one
    // without arcs never needs a bucket: neither is read. Words are warp-uniform.
    unsigned sw[MaxB], skip[MaxB], b[MaxB];
#pragma unroll
    for (int j = 0; j < MaxB; ++j) {
      const index_t base = base0 + 32 * j;
      sw[j] = 0;
      skip[j] = j < groups && base < n ? 0u : full_mask;
      if (skip[j] == 0 && w.lean) {
        sw[j] = w.settled != nullptr ? __ldcg(w.settled + (base >> 5)) : 0u;
        skip[j] = sw[j] | w.nodeg[base >> 5];
      }
    }
#pragma unroll
    for (int j = 0; j < MaxB; ++j) {
      const index_t v = base0 + 32 * j + lane;
      b[j] = v < n && ((skip[j] >> lane) & 1u) == 0 ? static_cast<unsigned>(__ldcg(w.dp + v) >> 32) : inf_bits;
    }
#pragma unroll
    for (int j = 0; j < MaxB; ++j) {
      const index_t base = base0 + 32 * j;
      if (j >= groups || base >= n) break;  // warp-uniform
      const index_t v = base + lane;
      const bool in = b[j] >= lo_b && b[j] < hi_b;
      if (!in && b[j] >= hi_b && b[j] != inf_bits && b[j] < best) best = b[j];
      stage_push(r, in, static_cast<std::uint32_t>(v));
      if (in && w.stamp != nullptr) w.stamp[v] = s.scan_epoch;
      if (w.settled != nullptr) {  // this warp alone owns the word of these 32 vertices in a scan
        const unsigned m = __ballot_sync(full_mask, in);
        if (m != 0 && lane == 0) w.settled[base >> 5] = (w.lean ? sw[j] : __ldcg(w.settled + (base >> 5))) | m;
      }
    }
  }
  stage_flush(r);
  for (int off = 16; off > 0; off >>= 1) best = min(best, __shfl_xor_sync(full_mask, best, off));
  if (lane_id() == 0 && best != inf_bits) atomicMin(&c->min_next, best);
}

}  // namespace gpu500::sssp::cuda::detail
