// src/sssp/cuda/search_kernels.cuh — device side of the GPU SSSP: warp-level helpers, the phases of
// control.hpp, and the thin kernels (persistent cooperative search, host-loop step/decide,
// finalize, statistics).
//
// Packed vertex word: (float bits of the distance) << 32 | parent. Unreached: all ones. Non-negative
// float bits order like unsigned integers, so "smaller distance" is an unsigned compare of the upper
// halves (the all-ones pattern is larger than every finite distance). Updates only ever lower the
// distance strictly (relax()), so the first thread to write a vertex's final distance fixes its
// parent: the parent's own final word was written before (it was read to form the candidate), so
// parent pointers follow a strict order of final writes and cannot cycle, even on 0-weight arcs.
//
// Memory model: within the persistent kernel, data written in one phase by other SMs is read in a
// later phase after a grid barrier. Such reads (distances, lists, chunk descriptors, counters) use
// ld.global.cg (__ldcg) so that no stale L1 line is seen; the graph itself is read-only.
#pragma once

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "control.hpp"
#include "gpu500/core/types.hpp"

namespace gpu500::sssp::cuda::detail {

/// A row's start, length and smallest weight in one 16-byte record: a list phase reads one
/// sector per vertex where offsets and the row's first weight took two.
struct row_rec {
  index_t begin;
  std::uint32_t len;
  float w0;  ///< weights[begin] (0 for an empty row)
};

template <class V>
struct graph_ref {
  index_t n;
  const index_t* offsets;
  const V* cols;
  const float* weights;
  int sorted;  ///< 1: every row is sorted by weight (the engine's copy), so a phase's arcs are a range
  const row_rec* rows;  ///< sorted rows only, null: off
};

struct chunk_desc {
  index_t begin, end;
  std::uint32_t u, pad;
};

struct work_ref {
  unsigned long long* dp;  ///< packed words, n
  std::uint32_t* stamp;    ///< queue epochs, n (null in queue-bitmap mode)
  /// Queue-bitmap mode (null: stamps): one bitmap per queue Q0/Q1, bit v set <=> v is in that
  /// queue. A push is an atomicOr whose old bit says whether v was there; the light phase that
  /// reads a queue clears its entries' bits, so both are zero again when a bucket ends. R
  /// membership is the settled bitmap's bit (set <=> d < hi is known: v is in R of this or an
  /// earlier bucket). The bitmaps (n bits) stay in L2 where the stamps (4n bytes) went to DRAM.
  std::uint32_t* qbits[2];
  /// Bitmap (n bits) of vertices known to have d < hi of the current bucket (set by the scan and by
  /// first appends to R); a heavy arc into such a vertex cannot improve it and is skipped without
  /// reading its word. Bits only go 0 -> 1 within a search, so a stale (L1) read is merely
  /// conservative. Null: no filter.
  std::uint32_t* settled;
  std::uint32_t* lists[3]; ///< R, Q0, Q1 (n each)
  chunk_desc* chunks;      ///< chunk_capacity(arcs)
  control* ctrl;           ///< the state: initial in, final out
  counters* cnt;           ///< 3 rotating counter blocks
  std::int64_t* parents;   ///< output, n
  float* dist;             ///< output, n
  /// Output in these original ids (engine::report_original_ids; null pointers: the graph's ids):
  /// arrays of 32-bit ids, or of 64-bit ids when map_wide.
  const void* new2old;
  const void* old2new;
  int map_wide;
  index_t non_isolated;    ///< with a map: new ids >= this have no arcs
  index_t root;
  /// Lean variant: bitmap of vertices without arcs (padding bits >= n set too); null otherwise.
  const std::uint32_t* nodeg;
  index_t chunk;  ///< arcs per chunk descriptor of a long row
  /// Light phases: rows with a longer light range become chunks of light_chunk arcs
  /// (options::light_row; heavy phases use search_policy::big_row and chunk).
  index_t light_row, light_chunk;
  int grab;        ///< 32-vertex groups a warp takes from a list phase's cursor (a multiple of vpl)
  int interleave;  ///< > 0: a warp's batch is a strided sample of the list in runs of this many (options::interleave)
  int gallop;     ///< 1: galloping cut search from the row start; 0: binary search over the row
  /// 1: the scan reads only the words of vertices whose settled / no-arc bit is clear; the heavy
  /// pass reads a target's column and settled bit before its weight; light improvements set the
  /// settled bit without waiting for the stamp exchange.
  int lean;
  /// Vertices per lane (1, 2 or 4): a scan step or a list-phase step of a warp takes that many
  /// 32-vertex groups, their loads issued together, and a list phase spreads the arcs of all
  /// 32 * vpl rows over the lanes at once.
  int vpl;
  /// Phase trace (persistent kernel; null: off): record k = {globaltimer at the start of step k,
  /// phase, its input size, arcs visited, candidates, improvements, the most arcs of one warp step}
  /// (trace_words words; the counts summed and the maximum taken over the warps, zeroed before
  /// each search); the record after the last step holds the end time.
  unsigned long long* trace;
  long long trace_cap;  ///< records that fit, the end record included
};

__device__ __forceinline__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

/// Words per trace record (work_ref::trace).
inline constexpr int trace_words = 7;

/// One trace record (block 0, thread 0 only).
__device__ __forceinline__ void trace_step(const work_ref& w, long long step, const control& s, index_t n) {
  if (w.trace == nullptr || blockIdx.x != 0 || threadIdx.x != 0 || step >= w.trace_cap) return;
  unsigned long long* r = w.trace + trace_words * step;
  r[0] = global_ns();
  r[1] = static_cast<unsigned long long>(s.phase);
  r[2] = static_cast<unsigned long long>(s.phase == phase_scan || s.phase == phase_pull ? n
                                         : s.phase == phase_light_big || s.phase == phase_heavy_big ? s.n_chunks
                                                                                                     : s.in_size);
}

constexpr unsigned full_mask = 0xFFFFFFFFu;

/// Per-warp shared memory: the batch's rows for the arc-to-lane search, and staging buffers that
/// collect pushed vertices so that a warp takes list slots with one atomic per `stage` pushes.
struct warp_scratch {
  static constexpr int stage = 128;
  static constexpr int max_groups = 4;  ///< 32-vertex groups a warp takes in one step (work_ref::vpl)
  int incl[32 * max_groups];
  index_t begin[32 * max_groups];
  std::uint32_t u[32 * max_groups];
  float du[32 * max_groups];
  std::uint32_t qbuf[stage];
  std::uint32_t rbuf[stage];
  unsigned long long arcs, candidates, improved;  ///< this phase's counts (trace only; lane 0 writes)
  unsigned long long max_step;  ///< the most arcs one step of this warp took in this phase (trace only)
};

/// The warp's counts of this phase into its trace record, then zero them (lane 0; trace only).
__device__ __forceinline__ void trace_counts(const work_ref& w, long long step, warp_scratch& sm) {
  if (w.trace == nullptr || (threadIdx.x & 31u) != 0) return;
  if (step < w.trace_cap && (sm.arcs | sm.candidates | sm.improved | sm.max_step) != 0) {
    unsigned long long* r = w.trace + trace_words * step;
    atomicAdd(r + 3, sm.arcs);
    atomicAdd(r + 4, sm.candidates);
    atomicAdd(r + 5, sm.improved);
    atomicMax(r + 6, sm.max_step);
  }
  sm.arcs = sm.candidates = sm.improved = sm.max_step = 0;
}

/// A warp's staged appends to one list (count is warp-uniform).
struct staged_list {
  std::uint32_t* buf;
  int count;
  unsigned long long* counter;  ///< the phase's counter of appends to this list
  std::uint32_t* dst;           ///< list + the offset of this phase's first append
};

__device__ __forceinline__ unsigned lane_id() { return threadIdx.x & 31u; }

__device__ __forceinline__ float dist_of(unsigned long long word) { return __uint_as_float(static_cast<unsigned>(word >> 32)); }

__device__ __forceinline__ void stage_flush(staged_list& l) {
  __syncwarp();
  if (l.count == 0) return;
  unsigned long long base = 0;
  if (lane_id() == 0) base = atomicAdd(l.counter, static_cast<unsigned long long>(l.count));
  base = __shfl_sync(full_mask, base, 0);
  for (int i = static_cast<int>(lane_id()); i < l.count; i += 32) l.dst[base + i] = l.buf[i];
  l.count = 0;
  __syncwarp();
}

/// Append v for every lane with pred (all lanes call).
__device__ __forceinline__ void stage_push(staged_list& l, bool pred, std::uint32_t v) {
  const unsigned mask = __ballot_sync(full_mask, pred);
  if (mask == 0) return;
  const int k = __popc(mask);
  if (l.count + k > warp_scratch::stage) stage_flush(l);
  if (pred) l.buf[l.count + __popc(mask & ((1u << lane_id()) - 1u))] = v;
  l.count += k;
  __syncwarp();
}

/// The light/heavy cut of a weight-sorted row (control.hpp: galloping or binary search).
__device__ __forceinline__ index_t light_end(const work_ref& w, const float* weights, index_t b, index_t e, float du,
                                             float hi) {
  return w.gallop ? light_cut_gallop(weights, b, e, du, hi) : light_cut_binary(weights, b, e, du, hi);
}

__device__ __forceinline__ bool settled_bit(const std::uint32_t* bits, std::uint32_t v) {
  return ((bits[v >> 5] >> (v & 31u)) & 1u) != 0;
}

/// The compare-and-swap retry loop after a first attempt failed (cur: the word that attempt saw):
/// lower v's distance to nb (parent u) while nb is strictly smaller; true when this call did it.
__device__ __forceinline__ bool relax_retry(unsigned long long* dp, std::uint32_t v, unsigned nb, std::uint32_t u,
                                            unsigned long long cur) {
  const unsigned long long want = (static_cast<unsigned long long>(nb) << 32) | u;
  while (nb < static_cast<unsigned>(cur >> 32)) {
    const unsigned long long old = atomicCAS(dp + v, cur, want);
    if (old == cur) return true;
    cur = old;
  }
  return false;
}

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

/// Scan phase: extract the bucket [lo, hi) into R, find the smallest distance >= hi.
__device__ __forceinline__ void scan_phase(index_t n, const work_ref& w, const control& s, counters* c,
                                           warp_scratch& sm) {
  staged_list r{sm.rbuf, 0, &c->out, w.lists[list_r]};
  const unsigned lo_b = __float_as_uint(s.lo), hi_b = __float_as_uint(s.hi);
  unsigned best = inf_bits;
  const index_t warp = (static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  const index_t warps = (static_cast<index_t>(gridDim.x) * blockDim.x) >> 5;
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

/// Light or heavy phase over a vertex list: warps take batches of 32 x grab entries; inside a
/// step the arcs of its 32 x vpl rows are spread evenly over the lanes (warp prefix sum + search);
/// rows longer than big_row (light: work_ref::light_row) are cut into chunks for the *_big phase.
/// Interleaved: batch b takes runs b, B + b, 2B + b, ... of the list (B batches), a strided sample.
template <bool Light, int K, class V>
__device__ void list_phase(const graph_ref<V>& g, const work_ref& w, const control& s, counters* c,
                           warp_scratch& sm) {
  using P = search_policy;
  const std::uint32_t* list = w.lists[s.in_list];
  const unsigned long long n_in = static_cast<unsigned long long>(s.in_size);
  const unsigned lane = lane_id();
  constexpr int MaxB = warp_scratch::max_groups;
  const int grab = w.grab;
  const unsigned long long per_batch = 32ull * static_cast<unsigned>(grab);
  const unsigned long long batches = (n_in + per_batch - 1) / per_batch;
  const unsigned long long slots = w.interleave ? batches * per_batch : n_in;
  // Runs of 2^run_log entries (w.interleave: 0, or a power of two dividing per_batch); -1: none.
  const int run_log = w.interleave ? __ffs(w.interleave) - 1 : -1;
  const index_t big = Light ? w.light_row : static_cast<index_t>(P::big_row);
  const index_t chunk = Light ? w.light_chunk : w.chunk;
  // Slot t of batch `batch` of the cursor's range -> list index (n_in or more: no entry); control.hpp.
  const auto entry = [&](unsigned long long batch, unsigned t) {
    return list_slot_entry(batch, t, per_batch, batches, run_log);
  };
  std::uint32_t* const in_bits =
      w.qbits[0] == nullptr || s.in_list == list_r ? nullptr : w.qbits[s.in_list == list_q0 ? 0 : 1];
  staged_list q{sm.qbuf, 0, &c->out, w.lists[s.out_list] + s.out_size};
  staged_list r{sm.rbuf, 0, &c->r_append, w.lists[list_r] + s.r_size};
  // Light phases before a possible pull-first decision: this lane's heavy arcs (control.hpp).
  const bool estimate = Light && g.sorted && s.pull_first_arcs > 0;
  unsigned long long heavy_est = 0;
  for (;;) {
    unsigned long long base = 0;
    if (lane == 0) base = atomicAdd(&c->cursor, per_batch);
    base = __shfl_sync(full_mask, base, 0);
    if (base >= slots) break;
    const unsigned long long batch = base / per_batch;  // base is a multiple of per_batch
    for (int b = 0; b < grab; b += w.vpl) {
      if (entry(batch, 32u * b) >= n_in) break;  // interleaved too: slot rows fill in order
      const int groups = w.vpl < grab - b ? w.vpl : grab - b;
      // Entry j * 32 + lane of this step: the row behind slot 32 (b + j) + lane of the batch. All
      // loads of the groups are issued before any is used.
      std::uint32_t u[MaxB];
      float du[MaxB];
      index_t begin[MaxB], len[MaxB];
      bool have[MaxB];
#pragma unroll
      for (int j = 0; j < MaxB; ++j) {
        const unsigned long long idx = entry(batch, 32u * (b + j) + lane);
        have[j] = j < groups && idx < n_in;
        u[j] = have[j] ? __ldcg(list + idx) : 0u;
      }
      if (Light && in_bits != nullptr) {  // taken off its queue: clear its bit (nothing waits)
#pragma unroll
        for (int j = 0; j < MaxB; ++j)
          if (have[j]) atomicAnd(in_bits + (u[j] >> 5), ~(1u << (u[j] & 31u)));
      }
      float w0[MaxB];  // the row's first weight (sorted rows): most light prefixes are empty or short
#pragma unroll
      for (int j = 0; j < MaxB; ++j) {
        du[j] = 0.0f;
        begin[j] = 0;
        len[j] = 0;
        w0[j] = 0.0f;
        if (have[j]) {
          du[j] = dist_of(__ldcg(w.dp + u[j]));
          if (g.rows != nullptr) {
            const row_rec rr = g.rows[u[j]];
            begin[j] = rr.begin;
            len[j] = rr.len;
            w0[j] = rr.w0;
          } else {
            begin[j] = g.offsets[u[j]];
            len[j] = g.offsets[u[j] + 1] - begin[j];
          }
        }
      }
      if (g.sorted) {  // only this phase's part of the row: [begin, cut) light, [cut, end) heavy
        if (g.rows == nullptr) {  // first probe of every row together
#pragma unroll
          for (int j = 0; j < MaxB; ++j) w0[j] = len[j] > 0 ? g.weights[begin[j]] : 0.0f;
        }
#pragma unroll
        for (int j = 0; j < MaxB; ++j) {
          if (len[j] == 0) continue;
          const index_t end = begin[j] + len[j];
          const index_t cut = !(du[j] + w0[j] < s.hi) ? begin[j] : light_end(w, g.weights, begin[j] + 1, end, du[j], s.hi);
          if (estimate) heavy_est += static_cast<unsigned long long>(end - cut);
          if (Light) len[j] = cut - begin[j];
          else {
            len[j] = end - cut;
            begin[j] = cut;
          }
        }
      }
#pragma unroll
      for (int j = 0; j < MaxB; ++j) {
        if (len[j] <= big) continue;
        const index_t nch = (len[j] + chunk - 1) / chunk;
        const unsigned long long at = atomicAdd(&c->chunks, static_cast<unsigned long long>(nch));
        for (index_t k = 0; k < nch; ++k) {
          chunk_desc d;
          d.begin = begin[j] + k * chunk;
          d.end = d.begin + chunk < begin[j] + len[j] ? d.begin + chunk : begin[j] + len[j];
          d.u = u[j];
          d.pad = 0;
          w.chunks[at + k] = d;
        }
        len[j] = 0;
      }
      int total = 0;
#pragma unroll
      for (int j = 0; j < MaxB; ++j) {
        if (j >= groups) break;  // warp-uniform
        int incl = static_cast<int>(len[j]);
        for (int off = 1; off < 32; off <<= 1) {
          const int t = __shfl_up_sync(full_mask, incl, off);
          if (static_cast<int>(lane) >= off) incl += t;
        }
        sm.incl[32 * j + lane] = total + incl;
        sm.begin[32 * j + lane] = begin[j];
        sm.u[32 * j + lane] = u[j];
        sm.du[32 * j + lane] = du[j];
        total += __shfl_sync(full_mask, incl, 31);
      }
      const int last = 32 * groups - 1;
      if (w.trace != nullptr && lane == 0 && static_cast<unsigned long long>(total) > sm.max_step) sm.max_step = total;
      __syncwarp();
      for (int e0 = 0; e0 < total; e0 += 32 * K) {
        lane_arcs<K> x;
#pragma unroll
        for (int k = 0; k < K; ++k) {
          const int e = e0 + 32 * k + static_cast<int>(lane);
          int lo = 0, hi = last;  // the first entry whose inclusive prefix exceeds e
          while (lo < hi) {
            const int mid = (lo + hi) >> 1;
            if (sm.incl[mid] > e) hi = mid;
            else lo = mid + 1;
          }
          const int start = lo == 0 ? 0 : sm.incl[lo - 1];
          x.a[k] = sm.begin[lo] + (e - start);
          x.valid[k] = e < total;
          x.u[k] = sm.u[lo];
          x.du[k] = sm.du[lo];
        }
        visit_arcs<Light, K>(g, w, s, q, r, x, sm);
      }
      __syncwarp();
    }
  }
  stage_flush(q);
  stage_flush(r);
  if (estimate) {
    for (int off = 16; off > 0; off >>= 1) heavy_est += __shfl_xor_sync(full_mask, heavy_est, off);
    if (lane == 0 && heavy_est != 0) atomicAdd(&c->heavy_est, heavy_est);
  }
}

/// The chunks of long rows: one warp per chunk, taken from a cursor.
template <bool Light, int K, class V>
__device__ void chunk_phase(const graph_ref<V>& g, const work_ref& w, const control& s, counters* c,
                            warp_scratch& sm) {
  const unsigned long long n_chunks = static_cast<unsigned long long>(s.n_chunks);
  const unsigned lane = lane_id();
  staged_list q{sm.qbuf, 0, &c->out, w.lists[s.out_list] + s.out_size};
  staged_list r{sm.rbuf, 0, &c->r_append, w.lists[list_r] + s.r_size};
  for (;;) {
    unsigned long long k = 0;
    if (lane == 0) k = atomicAdd(&c->cursor, 1ull);
    k = __shfl_sync(full_mask, k, 0);
    if (k >= n_chunks) break;
    const chunk_desc* d = w.chunks + k;
    const index_t begin = __ldcg(&d->begin), end = __ldcg(&d->end);
    const std::uint32_t u = __ldcg(&d->u);
    const float du = dist_of(__ldcg(w.dp + u));
    if (w.trace != nullptr && lane == 0 && static_cast<unsigned long long>(end - begin) > sm.max_step)
      sm.max_step = static_cast<unsigned long long>(end - begin);
    for (index_t a0 = begin; a0 < end; a0 += 32 * K) {
      lane_arcs<K> x;
#pragma unroll
      for (int k = 0; k < K; ++k) {
        x.a[k] = a0 + 32 * k + lane;
        x.valid[k] = x.a[k] < end;
        x.u[k] = u;
        x.du[k] = du;
      }
      visit_arcs<Light, K>(g, w, s, q, r, x, sm);
    }
  }
  stage_flush(q);
  stage_flush(r);
}

/// Pull phase (control.hpp): a bottom-up heavy pass. A warp step takes 32 vertices; a lane scans
/// the first few arcs of its vertex's weight-sorted row, the warp then finishes the rows still open
/// 32 arcs at a time. Candidates come from settled neighbours only (d(u) < hi: final), so the best
/// d(u) + w equals what pushing the bucket's heavy arcs gives (earlier buckets' candidates were
/// pushed in their own heavy passes and cannot beat d(v)); a row is left once lo + w reaches the
/// best so far (d(u) >= lo for the bucket's vertices, float addition is monotone). Only v's lane
/// writes v's word, once, with a strictly smaller distance: a plain store. Settled bits and words
/// written by other SMs are read with ld.global.cg: a stale bit here would lose a candidate.
template <class V>
__device__ void pull_phase(const graph_ref<V>& g, const work_ref& w, const control& s) {
  constexpr int lane_first = 4;  ///< arcs a lane scans alone before the warp takes over
  const index_t n = g.n;
  const unsigned lane = lane_id();
  const index_t warp = (static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  const index_t warps = (static_cast<index_t>(gridDim.x) * blockDim.x) >> 5;
  const float lo = s.lo;
  const auto settled = [&](std::uint32_t u) { return ((__ldcg(w.settled + (u >> 5)) >> (u & 31u)) & 1u) != 0; };
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
      const auto u = static_cast<std::uint32_t>(g.cols[a]);
      if (!settled(u)) continue;
      const unsigned nb = __float_as_uint(dist_of(__ldcg(w.dp + u)) + wt);
      if (nb < static_cast<unsigned>(best >> 32)) best = (static_cast<unsigned long long>(nb) << 32) | u;
    }
    if (open && a >= end) open = false;
    for (unsigned pending = __ballot_sync(full_mask, open); pending != 0; pending &= pending - 1) {
      const int src = __ffs(static_cast<int>(pending)) - 1;
      const index_t pa = __shfl_sync(full_mask, a, src), pend = __shfl_sync(full_mask, end, src);
      unsigned long long pbest = __shfl_sync(full_mask, best, src);
      for (index_t a0 = pa; a0 < pend; a0 += 32) {
        const index_t x = a0 + lane;
        unsigned long long cand = ~0ull;
        bool stop = false;
        if (x < pend) {
          const float wt = g.weights[x];
          if (__float_as_uint(lo + wt) >= static_cast<unsigned>(pbest >> 32)) stop = true;  // and every later arc
          else {
            const auto u = static_cast<std::uint32_t>(g.cols[x]);
            if (settled(u))
              cand = (static_cast<unsigned long long>(__float_as_uint(dist_of(__ldcg(w.dp + u)) + wt)) << 32) | u;
          }
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
    if (static_cast<unsigned>(best >> 32) < static_cast<unsigned>(best0 >> 32)) w.dp[v] = best;
  }
}

template <int K, class V>
__device__ __forceinline__ void run_phase(const graph_ref<V>& g, const work_ref& w, const control& s, counters* c,
                                          warp_scratch& sm) {
  switch (s.phase) {
    case phase_scan: scan_phase(g.n, w, s, c, sm); break;
    case phase_light: list_phase<true, K>(g, w, s, c, sm); break;
    case phase_light_big: chunk_phase<true, K>(g, w, s, c, sm); break;
    case phase_heavy: list_phase<false, K>(g, w, s, c, sm); break;
    case phase_heavy_big: chunk_phase<false, K>(g, w, s, c, sm); break;
    case phase_pull: pull_phase(g, w, s); break;
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
    run_phase<K>(g, w, s, c, sm);
    trace_counts(w, step, sm);
    // The block after next reuses this slot; everyone has read it (two barriers ago).
    if (blockIdx.x == 0 && threadIdx.x == 0) reset(w.cnt[(step + 1) % 3]);
    __threadfence();
    grid.sync();
    decide(s, load_counters(c));
  }
  trace_step(w, step, s, g.n);  // the end time (phase_done)
  finalize_range(g.n, w, static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x,
                 static_cast<index_t>(gridDim.x) * blockDim.x);
  if (blockIdx.x == 0 && threadIdx.x == 0) *w.ctrl = s;
}

/// Host loop: one phase per launch; the state is read from memory (written by decide_kernel).
template <class V, int K>
static __global__ void __launch_bounds__(search_policy::block) step_kernel(graph_ref<V> g, work_ref w, long long step) {
  __shared__ warp_scratch scratch[search_policy::block / 32];
  const control s = *w.ctrl;
  if (s.phase == phase_done) return;
  run_phase<K>(g, w, s, w.cnt + step % 3, scratch[threadIdx.x >> 5]);
  if (blockIdx.x == 0 && threadIdx.x == 0) reset(w.cnt[(step + 1) % 3]);
}

static __global__ void decide_kernel(work_ref w, long long step) {
  control s = *w.ctrl;
  if (s.phase == phase_done) return;
  decide(s, w.cnt[step % 3]);
  *w.ctrl = s;
}

static __global__ void finalize_kernel(index_t n, work_ref w) {
  finalize_range(n, w, static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x,
                 static_cast<index_t>(gridDim.x) * blockDim.x);
}

/// Start of a search: the root's word, the state, three fresh counter blocks.
static __global__ void init_search_kernel(work_ref w, control initial) {
  if (threadIdx.x == 0) {
    w.dp[w.root] = static_cast<unsigned long long>(static_cast<std::uint32_t>(w.root));  // distance 0, parent root
    *w.ctrl = initial;
  }
  if (threadIdx.x < 3) reset(w.cnt[threadIdx.x]);
}

/// sum of degrees of reached vertices (nedge * 2), from the packed words (the graph's ids).
template <class V>
static __global__ void reached_degree_kernel(graph_ref<V> g, const unsigned long long* dp, unsigned long long* sum) {
  unsigned long long local = 0;
  for (index_t v = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; v < g.n;
       v += static_cast<index_t>(gridDim.x) * blockDim.x)
    if (static_cast<unsigned>(dp[v] >> 32) != inf_bits)
      local += static_cast<unsigned long long>(g.offsets[v + 1] - g.offsets[v]);
  for (int off = 16; off > 0; off >>= 1) local += __shfl_xor_sync(full_mask, local, off);
  if (lane_id() == 0 && local) atomicAdd(sum, local);
}

/// The row records of the weight-sorted copy.
static __global__ void row_records_kernel(index_t n, const index_t* offsets, const float* weights, row_rec* rows) {
  for (index_t v = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; v < n;
       v += static_cast<index_t>(gridDim.x) * blockDim.x) {
    const index_t b = offsets[v], e = offsets[v + 1];
    rows[v] = {b, static_cast<std::uint32_t>(e - b), e > b ? weights[b] : 0.0f};
  }
}

/// Bitmap of vertices without arcs (lean scan); bits of the padding beyond n are set.
static __global__ void no_arc_bits_kernel(index_t n, const index_t* offsets, std::uint32_t* bits) {
  const index_t words = (n + 31) / 32;
  for (index_t i = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < words;
       i += static_cast<index_t>(gridDim.x) * blockDim.x) {
    std::uint32_t m = 0;
    for (int b = 0; b < 32; ++b) {
      const index_t v = i * 32 + b;
      if (v >= n || offsets[v + 1] == offsets[v]) m |= 1u << b;
    }
    bits[i] = m;
  }
}

/// Graph checks and the adaptive width's inputs: weight sum, bad weights, ids out of range,
/// non-isolated vertices.
struct graph_summary {
  double weight_sum;
  unsigned long long bad_weights, bad_columns, nonisolated;
};

template <class V>
static __global__ void graph_summary_kernel(graph_ref<V> g, graph_summary* out) {
  double wsum = 0;
  unsigned long long bad_w = 0, bad_c = 0, noniso = 0;
  const index_t stride = static_cast<index_t>(gridDim.x) * blockDim.x;
  const index_t first = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const index_t arcs = g.offsets[g.n];
  for (index_t a = first; a < arcs; a += stride) {
    const float x = g.weights[a];
    if (!(x >= 0.0f) || !(x <= 3.0e38f)) ++bad_w;
    else wsum += x;
    const V col = g.cols[a];
    if (!(static_cast<index_t>(col) >= 0 && static_cast<index_t>(col) < g.n)) ++bad_c;
  }
  for (index_t v = first; v < g.n; v += stride) noniso += g.offsets[v + 1] > g.offsets[v] ? 1 : 0;
  for (int off = 16; off > 0; off >>= 1) {
    wsum += __shfl_xor_sync(full_mask, wsum, off);
    bad_w += __shfl_xor_sync(full_mask, bad_w, off);
    bad_c += __shfl_xor_sync(full_mask, bad_c, off);
    noniso += __shfl_xor_sync(full_mask, noniso, off);
  }
  if (lane_id() == 0) {
    atomicAdd(&out->weight_sum, wsum);
    atomicAdd(&out->bad_weights, bad_w);
    atomicAdd(&out->bad_columns, bad_c);
    atomicAdd(&out->nonisolated, noniso);
  }
}

}  // namespace gpu500::sssp::cuda::detail
