// src/sssp/cuda/control.hpp — the bucket loop of the GPU SSSP as a state machine, plain C++ usable on
// host and device (the persistent kernel runs it in every thread; the host-loop variant in a one-
// thread kernel; the unit test drives a serial model of the phases with it).
//
// One search is a sequence of phases; each phase reads the state (read-only while it runs) and
// accumulates into a fresh `counters` block; after a grid-wide barrier every thread calls decide()
// with the same state and the same counters and therefore takes the same decision.
//   scan       R := { v : lo <= d(v) < hi }, stamp[v] := scan_epoch; min_next := min d(v) >= hi
//   light      for u in the input list: relax arcs with d(u) + w < hi; an improved v is pushed once per
//              epoch to the output queue, and appended to R the first time in this bucket
//              (stamp[v] < scan_epoch); rows longer than the policy's threshold become chunks
//   light_big  the chunks of the light phase before it (same epoch, same output queue)
//   heavy      for u in R (all settled now): relax arcs with d(u) + w >= hi, once; no pushes (the next
//              scan finds the improved vertices)
//   heavy_big  the chunks of the heavy phase
//   pull       instead of heavy_big when its chunks are many (options::pull_min_chunks), or instead of
//              heavy and heavy_big when the bucket's light phases estimate many heavy arcs
//              (control::pull_first_arcs): every vertex whose settled bit is clear scans its
//              weight-sorted row for settled neighbours u and takes the best d(u) + w, stopping once
//              lo + w reaches the best so far (a bottom-up heavy pass; needs a symmetric graph, as
//              Graph500's)
// Lists: R (the bucket's vertices) and two queues Q0/Q1 alternating as light input and output.
// Over MPI ranks (over_ranks.cuh) each rank runs the phases on its own rows and decide() takes
// two counter blocks: this rank's, which size its lists, and their sums over the ranks (minimum
// for min_next), which take every branch, so that all ranks walk the same phases.
// Invariants: every vertex is in R of exactly one bucket (the one its final distance falls in); a
// queue holds a vertex at most once (stamp epochs are unique and increase), so every list fits in n.
#pragma once

#include <cstdint>
#include <cstring>

#include "gpu500/core/types.hpp"
#include "gpu500/sssp/delta.hpp"

namespace gpu500::sssp::cuda::detail {

enum phase_id : int { phase_scan = 0, phase_light, phase_light_big, phase_heavy, phase_heavy_big, phase_pull, phase_done };
inline constexpr int phase_kinds = 6;  ///< phases before phase_done
enum list_id : int { list_r = 0, list_q0 = 1, list_q1 = 2 };

/// Float bits of "unreached" (and of an unreached vertex's packed word's upper half).
inline constexpr std::uint32_t inf_bits = 0xFFFFFFFFu;
inline constexpr std::uint32_t pos_inf_float_bits = 0x7F800000u;

GPU500_HD GPU500_FORCEINLINE std::uint32_t float_bits(float f) {
  std::uint32_t b;
  std::memcpy(&b, &f, sizeof b);
  return b;
}
GPU500_HD GPU500_FORCEINLINE float bits_float(std::uint32_t b) {
  float f;
  std::memcpy(&f, &b, sizeof f);
  return f;
}

/// Per-phase accumulators (device atomics). min_next is the float bits of the smallest distance
/// >= hi seen by a scan.
struct counters {
  unsigned long long out;       ///< pushes to the output list (R for a scan, the out queue for light)
  unsigned long long r_append;  ///< appends to R in light phases
  unsigned long long chunks;    ///< chunk descriptors appended
  unsigned long long cursor;    ///< work-grabbing cursor
  /// Light phases with pull_first_arcs: the heavy arcs (row length past the light cut) of the
  /// entries, summed (an entry queued twice counts twice: an estimate of the heavy pass's arcs).
  unsigned long long heavy_est;
  unsigned int min_next;
  unsigned int pad;
};

GPU500_HD GPU500_FORCEINLINE void reset(counters& c) {
  c.out = 0;
  c.r_append = 0;
  c.chunks = 0;
  c.cursor = 0;
  c.heavy_est = 0;
  c.min_next = inf_bits;
  c.pad = 0;
}

struct control {
  int phase;
  int in_list, out_list;
  int adaptive;  ///< 1: grow delta in the sparse tail
  int peaked;    ///< 1 once a bucket settled >= grow_below vertices
  float lo, hi, delta, delta_max;
  std::uint32_t epoch, scan_epoch;
  std::int64_t in_size, out_size, r_size, n_chunks;
  /// out_size and r_size summed over the ranks (the same as those on one process): the branches
  /// and the sparse tail's rule read these.
  std::int64_t out_all, r_all;
  std::int64_t grow_below;
  std::int64_t buckets, light_steps, steps;
  std::int64_t pull_min_chunks;  ///< > 0: a heavy phase with at least this many chunks is followed by a pull
  std::int64_t pulls;            ///< pull phases run
  /// > 0: when the light phases of a bucket estimate at least this many heavy arcs (heavy_est), a
  /// pull replaces the bucket's heavy pass altogether (a push would read every one of them).
  std::int64_t pull_first_arcs;
  std::int64_t heavy_est;  ///< this bucket's estimate so far (counters::heavy_est summed)
  /// The near-far device loop run before the bucket loop (near_far.cuh): its steps, and 1 when the
  /// search ended there (phase is then done before the bucket loop starts).
  std::int64_t loop_steps, loop_finished;
};

/// hi for a bucket starting at lo: lo + delta, at least the next float above lo.
GPU500_HD GPU500_FORCEINLINE float bucket_end(float lo, float delta) {
  const float h = lo + delta;
  if (h > lo) return h;
  return bits_float(float_bits(lo) + 1u);  // lo is finite and >= 0 here
}

/// The state of a new search: first bucket [0, delta) (the root has distance 0).
GPU500_HD inline control initial_control(float delta, bool adaptive, float delta_max, std::int64_t grow_below) {
  control s{};
  s.phase = phase_scan;
  s.in_list = list_r;
  s.out_list = list_q0;
  s.adaptive = adaptive ? 1 : 0;
  s.peaked = 0;
  s.delta = delta;
  s.delta_max = delta_max;
  s.lo = 0.0f;
  s.hi = bucket_end(0.0f, delta);
  s.epoch = 1;
  s.scan_epoch = 1;
  s.grow_below = grow_below;
  return s;
}

GPU500_HD GPU500_FORCEINLINE void start_light(control& s, int list, std::int64_t size) {
  s.phase = phase_light;
  s.in_list = list;
  s.in_size = size;
  s.out_list = list == list_q0 ? list_q1 : list_q0;
  s.out_size = 0;
  s.out_all = 0;
  ++s.epoch;
}

GPU500_HD GPU500_FORCEINLINE void end_bucket(control& s) {
  ++s.buckets;
  if (s.adaptive) widen_in_sparse_tail(s.delta, s.delta_max, s.r_all, s.grow_below, s.peaked);
  if (float_bits(s.hi) >= pos_inf_float_bits) {  // an infinite bucket settled everything
    s.phase = phase_done;
    return;
  }
  s.lo = s.hi;
  s.hi = bucket_end(s.lo, s.delta);
  s.phase = phase_scan;
  s.r_size = 0;
  s.r_all = 0;
  s.heavy_est = 0;
  s.scan_epoch = ++s.epoch;
}

/// The decision after a phase, from this rank's counters of the phase (`c`: the lists' sizes) and
/// their sums over the ranks (`all`: every branch).
GPU500_HD inline void decide(control& s, const counters& c, const counters& all) {
  ++s.steps;
  switch (s.phase) {
    case phase_scan:
      s.r_size = static_cast<std::int64_t>(c.out);
      s.r_all = static_cast<std::int64_t>(all.out);
      if (all.out == 0) {
        if (all.min_next == inf_bits) {
          s.phase = phase_done;
          return;
        }
        // Skip the empty buckets: the next one starts at the smallest unsettled distance.
        s.lo = bits_float(all.min_next);
        s.hi = bucket_end(s.lo, s.delta);
        s.scan_epoch = ++s.epoch;
        return;
      }
      start_light(s, list_r, s.r_size);
      return;
    case phase_light:
    case phase_light_big:
      s.out_size += static_cast<std::int64_t>(c.out);
      s.out_all += static_cast<std::int64_t>(all.out);
      s.r_size += static_cast<std::int64_t>(c.r_append);
      s.r_all += static_cast<std::int64_t>(all.r_append);
      s.heavy_est += static_cast<std::int64_t>(all.heavy_est);
      if (s.phase == phase_light && all.chunks > 0) {
        s.phase = phase_light_big;
        s.n_chunks = static_cast<std::int64_t>(c.chunks);
        return;
      }
      ++s.light_steps;
      if (s.out_all > 0) {
        start_light(s, s.out_list, s.out_size);
        return;
      }
      if (s.pull_first_arcs > 0 && s.heavy_est >= s.pull_first_arcs) {  // pull the bucket's heavy arcs
        s.phase = phase_pull;
        ++s.pulls;
        return;
      }
      s.phase = phase_heavy;
      s.in_list = list_r;
      s.in_size = s.r_size;
      return;
    case phase_heavy:
      if (all.chunks > 0) {
        s.n_chunks = static_cast<std::int64_t>(c.chunks);
        if (s.pull_min_chunks > 0 && static_cast<std::int64_t>(all.chunks) >= s.pull_min_chunks) {
          // The chunks' arcs are not pushed: the pull reads them from the other side.
          s.phase = phase_pull;
          ++s.pulls;
          return;
        }
        s.phase = phase_heavy_big;
        return;
      }
      end_bucket(s);
      return;
    case phase_heavy_big:
    case phase_pull:
      end_bucket(s);
      return;
    default:
      s.phase = phase_done;
      return;
  }
}
/// One process: its counters are the sums.
GPU500_HD inline void decide(control& s, const counters& c) { decide(s, c, c); }

/// Launch policy of the search kernels (one place for every launch constant).
struct search_policy {
  static constexpr int block = 256;
  static constexpr int max_blocks_per_sm = 8;
  static constexpr int min_blocks = 4;        ///< persistent kernel: registers for 4 resident blocks per SM
  static constexpr int dense_min_blocks = 6;  ///< register-capped persistent kernel (blocks_per_sm >= this)
  /// Persistent kernel with up to 128 registers (blocks_per_sm 1-3: fewer warps, no spills).
  static constexpr int wide_min_blocks = 2;
  static constexpr int big_row = 512;   ///< rows with more arcs (in the phase's range) become chunks
  static constexpr int host_batch = 4;  ///< host loop: phases launched between state read-backs
  static constexpr float auto_delta_warps = 8.0f;  ///< adaptive start: this * mean w / mean degree
  static constexpr float auto_delta_growth = 256.0f;  ///< adaptive: delta grows at most this factor
};

/// The list entry behind slot t (< per_batch) of batch `batch` of a list phase's cursor range.
/// Warps take batches of `per_batch` slots. Not interleaved (run_log < 0) it is entry
/// batch * per_batch + t. Interleaved with runs of run = 2^run_log entries (t = r * run + o), it
/// is entry o of the list's run r * batches + batch: a batch takes a strided sample of the list
/// (run divides per_batch). Over all slots of batches = ceil(n / per_batch) batches this is a
/// bijection onto [0, batches * per_batch) that covers [0, n); within a batch it increases with
/// t, so the first slot of a step past n means the batch's later slots are past n too. No
/// division: the list phases call it for every entry.
GPU500_HD GPU500_FORCEINLINE unsigned long long list_slot_entry(unsigned long long batch, unsigned t,
                                                                unsigned long long per_batch,
                                                                unsigned long long batches, int run_log) {
  if (run_log < 0) return batch * per_batch + t;
  return ((static_cast<unsigned long long>(t >> run_log) * batches + batch) << run_log) + (t & ((1u << run_log) - 1u));
}

/// Chunk descriptors needed at most by one phase over m arcs with `chunk` arcs per chunk (each
/// vertex at most once per list; a row cut into chunks has more than `big` arcs).
GPU500_HD GPU500_FORCEINLINE std::int64_t chunk_capacity(std::int64_t arcs, std::int64_t chunk,
                                                         std::int64_t big = search_policy::big_row) {
  return arcs / chunk + arcs / big + 16;
}

/// First index k in [b, e) of a weight-sorted row with du + w[k] >= hi (float addition is monotone
/// in w, so the predicate flips once): the arcs before it are light in the bucket, the rest heavy.
/// Plain binary search over the whole row.
template <class W>
GPU500_HD GPU500_FORCEINLINE std::int64_t light_cut_binary(const W* weights, std::int64_t b, std::int64_t e, float du,
                                                           float hi) {
  while (b < e) {
    const std::int64_t mid = b + ((e - b) >> 1);
    if (du + weights[mid] < hi) b = mid + 1;
    else e = mid;
  }
  return b;
}

/// The same cut by exponential (galloping) search from the row's start: probes b, b+2, b+6, ...
/// then a binary search in the last gap. A light prefix is short for most rows (about
/// delta * degree arcs), so this takes 1-3 probes in one or two cache lines instead of log2(degree)
/// dependent loads spread over the row.
template <class W>
GPU500_HD GPU500_FORCEINLINE std::int64_t light_cut_gallop(const W* weights, std::int64_t b, std::int64_t e, float du,
                                                           float hi) {
  std::int64_t span = 1;
  while (b < e) {
    const std::int64_t p = b + span - 1 < e - 1 ? b + span - 1 : e - 1;
    if (du + weights[p] < hi) {
      b = p + 1;
      span <<= 1;
    } else {
      e = p;  // p is heavy: the cut is in [b, p]
      break;
    }
  }
  return light_cut_binary(weights, b, e, du, hi);
}

/// The adaptive start width: auto_delta_warps x the rule of every engine (sssp/delta.hpp).
inline float auto_delta(double weight_sum, std::int64_t arcs, std::int64_t nonisolated) {
  return static_cast<float>(search_policy::auto_delta_warps *
                            mean_weight_per_degree(weight_sum, static_cast<double>(arcs),
                                                   static_cast<double>(nonisolated)));
}

}  // namespace gpu500::sssp::cuda::detail
