// src/sssp/cuda/device_state.cuh — the GPU SSSP's device-side state and warp-level helpers: the
// graph and work references the kernels take, chunk descriptors, the phase trace, per-warp scratch
// and the staged list appends, the settled bitmap and the compare-and-swap retry of a relaxation.
//
// Packed vertex word: (float bits of the distance) << 32 | parent. Unreached: all ones. Non-negative
// float bits order like unsigned integers, so "smaller distance" is an unsigned compare of the upper
// halves (the all-ones pattern is larger than every finite distance). Updates only ever lower the
// distance strictly (relax.cuh), so the first thread to write a vertex's final distance fixes its
// parent: the parent's own final word was written before (it was read to form the candidate), so
// parent pointers follow a strict order of final writes and cannot cycle, even on 0-weight arcs.
//
// Memory model: within the persistent kernel, data written in one phase by other SMs is read in a
// later phase after a grid barrier. Such reads (distances, lists, chunk descriptors, counters) use
// ld.global.cg (__ldcg) so that no stale L1 line is seen; the graph itself is read-only.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "control.hpp"
#include "gpu500/core/cuda/launch.cuh"
#include "gpu500/core/types.hpp"
#include "gpu500/dist/device_pairs.cuh"

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

/// A relaxation sent to the owner of its head over MPI ranks (12 bytes): the head's row at its
/// owner, the tail's row at the sender (the receiver knows the sender from the block it arrived
/// in) and the distance offered.
struct request {
  std::uint32_t row;
  std::uint32_t from;
  float dist;
};
static_assert(sizeof(request) == 12);

/// Over MPI ranks the low half of a packed word is the parent's row on this rank, or, with this bit
/// set, says that the parent is another rank's vertex, held in rank_ref::parent_far (written by
/// the arrival that won, whose index the rest of the half is, or by a pull: pulled_parent).
inline constexpr std::uint32_t remote_parent = 0x80000000u;
inline constexpr std::uint32_t pulled_parent = 0xFFFFFFFFu;

/// Over MPI ranks (over_ranks.cuh), what the phases need beyond this rank's rows (graph_ref::n
/// of them, row l being vertex first + l; columns are vertex ids of the whole graph). Unused on
/// one process (the kernels' Ranks = false).
struct rank_ref {
  index_t first = 0;  ///< the vertex of row 0
  index_t block = 0;  ///< the partition's block: vertex v belongs to rank v / block
  /// Per vertex of the graph: the smallest distance this rank has offered it in this search
  /// (float bits; a pull's bucket distances too: final, below anything offered).
  unsigned* offered = nullptr;
  /// The settled bitmaps of every rank gathered after a bucket (whole graph; 64-bit words): a
  /// vertex set there has its final distance, below the current bucket. Null: not gathered yet.
  const std::uint64_t* settled_all = nullptr;
  index_t* cursor = nullptr;  ///< per rank: the next slot of its block in `send`
  request* send = nullptr;
  const std::uint64_t* bucket_bits = nullptr;  ///< the pull: the bucket's vertices of every rank
  std::int64_t* parent_far = nullptr;          ///< per row: the parent named by remote_parent
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

__device__ __forceinline__ unsigned lane_id() { return static_cast<unsigned>(gpu::lane_id()); }

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

}  // namespace gpu500::sssp::cuda::detail
