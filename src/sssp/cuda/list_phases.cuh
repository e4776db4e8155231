// src/sssp/cuda/list_phases.cuh — the light and heavy phases of the GPU SSSP over a vertex list
// (control.hpp): warps take batches of the list from a cursor (strided samples when interleaved),
// find each row's light or heavy range (weight-sorted rows: a galloping cut), spread the arcs of
// the batch's rows over their lanes, and cut long (hub) rows into chunks that the following chunk
// phase shares out one chunk per warp.
#pragma once

#include "relax.cuh"

namespace gpu500::sssp::cuda::detail {

/// Light or heavy phase over a vertex list: warps take batches of 32 x grab entries; inside a
/// step the arcs of its 32 x vpl rows are spread evenly over the lanes (warp prefix sum + search);
/// rows longer than big_row (light: work_ref::light_row) are cut into chunks for the *_big phase.
/// Interleaved: batch b takes runs b, B + b, 2B + b, ... of the list (B batches), a strided sample.
template <bool Light, int K, bool Ranks, class V>
__device__ void list_phase(const graph_ref<V>& g, const work_ref& w, const control& s, counters* c,
                           warp_scratch& sm, const rank_ref& rk) {
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
        visit_arcs<Light, K, Ranks>(g, w, s, q, r, x, sm, rk);
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
template <bool Light, int K, bool Ranks, class V>
__device__ void chunk_phase(const graph_ref<V>& g, const work_ref& w, const control& s, counters* c,
                            warp_scratch& sm, const rank_ref& rk) {
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
      visit_arcs<Light, K, Ranks>(g, w, s, q, r, x, sm, rk);
    }
  }
  stage_flush(q);
  stage_flush(r);
}

}  // namespace gpu500::sssp::cuda::detail
