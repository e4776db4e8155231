// src/sssp/cuda/search_kernels.cuh — the GPU SSSP's search kernels: the dispatch of one phase
// (scan, light, light chunks, heavy, heavy chunks, pull), the persistent cooperative kernel that runs
// the whole bucket loop on the device (phase, grid barrier, the same decision in every thread), the
// host-loop baseline's step and decide kernels, and the output of the packed words in Graph500 form.
#pragma once

#include <cooperative_groups.h>

#include "list_phases.cuh"
#include "pull.cuh"
#include "scan.cuh"

namespace gpu500::sssp::cuda::detail {

template <int K, bool Ranks, class V>
__device__ __forceinline__ void run_phase(const graph_ref<V>& g, const work_ref& w, const control& s, counters* c,
                                          warp_scratch& sm, const rank_ref& rk) {
  switch (s.phase) {
    case phase_scan: scan_phase(g.n, w, s, c, sm); break;
    case phase_light: list_phase<true, K, Ranks>(g, w, s, c, sm, rk); break;
    case phase_light_big: chunk_phase<true, K, Ranks>(g, w, s, c, sm, rk); break;
    case phase_heavy: list_phase<false, K, Ranks>(g, w, s, c, sm, rk); break;
    case phase_heavy_big: chunk_phase<false, K, Ranks>(g, w, s, c, sm, rk); break;
    case phase_pull: pull_phase<Ranks>(g, w, s, rk); break;
    default: break;
  }
}

/// Packed words -> Graph500 output (parent -1 and distance -1 when unreached). With an id map,
/// output entry o is vertex old2new[o]'s word with its parent mapped by new2old: one coalesced
/// read of old2new and one random read of a word per vertex with arcs (those without are
/// unreached unless they are the root).
__device__ __forceinline__ index_t mapped_id(const void* map, int wide, index_t i) {
  return wide ? static_cast<index_t>(static_cast<const long long*>(map)[i])
              : static_cast<index_t>(static_cast<const unsigned*>(map)[i]);
}

__device__ __forceinline__ void finalize_range(index_t n, const work_ref& w, index_t first, index_t stride) {
  for (index_t o = first; o < n; o += stride) {
    const index_t v = w.old2new ? mapped_id(w.old2new, w.map_wide, o) : o;
    const unsigned long long x =
        w.old2new && v >= w.non_isolated && v != w.root ? ~0ull : __ldcg(w.dp + v);
    if (static_cast<unsigned>(x >> 32) == inf_bits) {
      w.parents[o] = -1;
      w.dist[o] = -1.0f;
    } else {
      const index_t p = v == w.root ? w.root : static_cast<index_t>(x & 0xFFFFFFFFull);
      w.parents[o] = w.new2old ? mapped_id(w.new2old, w.map_wide, p) : p;
      w.dist[o] = dist_of(x);
    }
  }
}

__device__ __forceinline__ counters load_counters(const counters* c) {
  counters r;
  r.out = __ldcg(&c->out);
  r.r_append = __ldcg(&c->r_append);
  r.chunks = __ldcg(&c->chunks);
  r.cursor = __ldcg(&c->cursor);
  r.heavy_est = __ldcg(&c->heavy_est);
  r.min_next = __ldcg(&c->min_next);
  r.pad = 0;
  return r;
}

// ---- kernels (thin) -------------------------------------------------------------------------

/// The whole search in one cooperative launch: phase, barrier, the same decision in every thread.
/// MinBlocks > 1 asks the compiler for fewer registers (more resident warps to hide memory latency);
/// K arcs per lane per round (visit_arcs).
template <class V, int MinBlocks, int K>
static __global__ void __launch_bounds__(search_policy::block, MinBlocks) persistent_search_kernel(graph_ref<V> g, work_ref w) {
  __shared__ warp_scratch scratch[search_policy::block / 32];
  warp_scratch& sm = scratch[threadIdx.x >> 5];
  cooperative_groups::grid_group grid = cooperative_groups::this_grid();
  control s = *w.ctrl;
  long long step = 0;
  if ((threadIdx.x & 31u) == 0) sm.arcs = sm.candidates = sm.improved = sm.max_step = 0;
  for (; s.phase != phase_done; ++step) {
    trace_step(w, step, s, g.n);
    counters* c = w.cnt + step % 3;
    run_phase<K, false>(g, w, s, c, sm, rank_ref{});
    trace_counts(w, step, sm);
    // The block after next reuses this slot; everyone has read it (two barriers ago).
    if (blockIdx.x == 0 && threadIdx.x == 0) reset(w.cnt[(step + 1) % 3]);
    __threadfence();
    grid.sync();
    decide(s, load_counters(c));
  }
  trace_step(w, step, s, g.n);  // the end time (phase_done)
  finalize_range(g.n, w, gpu::global_thread_id(), gpu::grid_threads());
  if (blockIdx.x == 0 && threadIdx.x == 0) *w.ctrl = s;
}

/// Host loop: one phase per launch; the state is read from memory (written by decide_kernel, or
/// over MPI ranks by the host: over_ranks.cuh). Over ranks, registers for as many resident blocks
/// as the persistent kernel has (the requests' state took 110 registers otherwise: two blocks of
/// an SM, and every phase, scans included, ran at about half the one-process rate).
template <class V, int K, bool Ranks>
static __global__ void __launch_bounds__(search_policy::block, Ranks ? search_policy::min_blocks : 1)
    step_kernel(graph_ref<V> g, work_ref w, long long step, rank_ref rk) {
  __shared__ warp_scratch scratch[search_policy::block / 32];
  const control s = *w.ctrl;
  if (s.phase == phase_done) return;
  run_phase<K, Ranks>(g, w, s, w.cnt + step % 3, scratch[threadIdx.x >> 5], rk);
  if (blockIdx.x == 0 && threadIdx.x == 0) reset(w.cnt[(step + 1) % 3]);
}

static __global__ void decide_kernel(work_ref w, long long step) {
  control s = *w.ctrl;
  if (s.phase == phase_done) return;
  decide(s, w.cnt[step % 3]);
  *w.ctrl = s;
}

static __global__ void finalize_kernel(index_t n, work_ref w) {
  finalize_range(n, w, gpu::global_thread_id(), gpu::grid_threads());
}

/// Start of a search: the root's word (root < 0: another rank's vertex), the state, three fresh
/// counter blocks.
static __global__ void init_search_kernel(work_ref w, control initial) {
  if (threadIdx.x == 0) {
    if (w.root >= 0) w.dp[w.root] = static_cast<unsigned long long>(static_cast<std::uint32_t>(w.root));  // distance 0, parent root
    *w.ctrl = initial;
  }
  if (threadIdx.x < 3) reset(w.cnt[threadIdx.x]);
}

}  // namespace gpu500::sssp::cuda::detail
