// gpu500/sssp/detail/cuda_options.hpp — the GPU SSSP engine's options and its per-search reports.
//
// `options` holds the algorithm, the bucket width and the technique switches that the command line
// offers (weight-sorted rows, the persistent loop, the pull passes), plus the engine's tuning knobs
// (per-lane unrolling, chunk sizes, work grabbing, ...). The tuning knobs are not on the command
// line: their defaults are the engine's policy; tests and the benchmark set them to cover and
// compare the kernel variants. Included by gpu500/sssp/cuda.hpp.
#pragma once

#include <cstdint>

namespace gpu500::sssp::cuda {

enum class algorithm {
  delta_stepping,  ///< buckets of width delta (default)
  bellman_ford,    ///< one bucket of infinite width: frontier Bellman-Ford (a baseline)
};

enum class cut_search {
  gallop,  ///< exponential search from the row start (default)
  binary,  ///< binary search over the whole row
};

enum class loop_kind {
  persistent,  ///< one cooperative kernel, bucket decisions on the device, grid-wide barriers
  host,        ///< one launch per phase, a state read back every few phases (the baseline)
};

struct options {
  // ---- algorithm and technique switches (command line: pipeline flags --sssp*) ----
  algorithm algo = algorithm::delta_stepping;
  /// Bucket width. <= 0: adaptive: delta_scale * 8 * mean weight / mean degree to start, doubled after
  /// the busiest bucket each time a bucket settles fewer than grow_below vertices (the sparse tail).
  float delta = 0.0f;
  loop_kind loop = loop_kind::persistent;
  /// By default the engine keeps a copy of the graph with every row sorted by weight (built once in
  /// the constructor, 8 bytes per arc with 32-bit ids), so that a light iteration reads only its
  /// light arcs and the heavy pass only the rest. true: filter every arc of the caller's rows.
  bool unsorted_rows = false;
  /// > 0 (sorted rows and the settled bitmap needed): when a bucket's heavy pass would push more
  /// than this fraction of all arcs in hub chunks, a pull (bottom-up) pass replaces those pushes:
  /// every unsettled vertex scans its weight-sorted row for settled neighbours (control.hpp).
  /// Needs a symmetric graph (Graph500's is). 0: off.
  double pull_above = 0.02;
  /// > 0 (sorted rows and the settled bitmap needed): when a bucket's light phases estimate at
  /// least this fraction of all arcs as the bucket's heavy arcs (the rows past the light cut of
  /// every light-phase entry, summed), a pull replaces the whole heavy pass of the bucket: the
  /// push would read every one of those arcs, the pull stops early in each unsettled row. 0: off.
  double pull_first = 0.05;
  /// The graph is directed (a row holds a vertex's out-arcs only): no pull passes whatever
  /// pull_above and pull_first say (a pull reads a row's arcs as the arcs into it), and nedge
  /// counts the reached vertices' out-arcs, not halved. The graph must not be relabelled by
  /// kernel 1 (report_original_ids takes ids past non_isolated as unreachable).
  bool directed = false;
  /// true: no near-far device loop before the bucket loop. By default (with the persistent loop
  /// and a cooperative launch, and without `trace`) a search starts as a near-far search inside
  /// one cooperative grid, one barrier per step (a block's while the step is small) and no scan of
  /// the vertices, and goes on in it while its frontiers stay small (meshes, road-like and
  /// geometric graphs, paths); a large frontier or a hub hands the search to the bucket loop
  /// (src/sssp/cuda/near_far.cuh).
  bool no_device_loop = false;

  // ---- tuning knobs (not on the command line; defaults are the engine's policy) ----
  /// Adaptive width only: the start width is this times 8 * mean weight / mean degree.
  float delta_scale = 0.7f;
  std::int64_t grow_below = 16384;
  /// Persistent kernel: blocks per SM; 0 = as many as fit (at most the policy's cap) of the kernel
  /// compiled for 4 blocks (64 registers); 1-3: the kernel compiled for 2 (128 registers, no spills);
  /// 6 and more: the kernel compiled for 6.
  int blocks_per_sm = 0;
  /// Host loop with a synchronisation and two events around every phase, summing the kernel time
  /// per phase kind into run_stats::phase_ms (slow; for finding where the time goes).
  bool profile = false;
  /// true: no bitmap of settled vertices (by default a heavy arc into a vertex already in the
  /// current or an earlier bucket is skipped without reading the vertex's word).
  bool no_settled_filter = false;
  /// How a weight-sorted row's light/heavy cut is found: galloping from the row's start (default;
  /// 1-3 probes for the short light prefixes) or binary search over the row.
  cut_search cut = cut_search::gallop;
  /// Arcs per lane per round (1, 2 or 4): the loads and first atomics of that many arcs are in
  /// flight together (the phases are latency-bound).
  int arcs_per_lane = 4;
  /// Vertices per lane (1, 2 or 4): a warp's scan step or list-phase step takes this many 32-vertex
  /// groups with their loads in flight together, and spreads the arcs of all their rows over its
  /// lanes at once.
  int vertices_per_lane = 4;
  /// Arcs per chunk of a long (hub) row; one warp takes a chunk.
  int chunk = 256;
  /// Light phases: a row whose light range exceeds this many arcs is cut into chunks of at most
  /// min(chunk, light_row) arcs for the following chunk phase (heavy phases keep the policy's 512).
  /// A warp takes 32 x grab list entries at once, so its step can hold up to 32 x grab x light_row
  /// arcs: the phase waits for the busiest warp.
  int light_row = 512;
  /// 32-vertex groups a warp takes from a list phase's cursor at once (1-8; rounded up to a
  /// multiple of vertices_per_lane, at most 8).
  int grab = 4;
  /// > 0: a warp's batch is a strided sample of the list, in runs of this many consecutive entries
  /// (1, 2, 4, 8, 16 or 32): run r of batch b is the list's run r * B + b (B batches). The rows of a
  /// run of high-degree vertices (a scan of the degree-relabelled layout lists them together, and
  /// a hub's targets are pushed together) then spread over many warps instead of making one warp
  /// the phase's last. 0: batch b is entries [b * 32 * grab, (b + 1) * 32 * grab).
  int interleave = 1;
  /// true: full scans and weight-first heavy arcs (every vertex word read by every scan; a heavy
  /// arc's weight read before the target's settled bit). By default (lean) a scan skips vertices
  /// that are settled or have no arcs, and the heavy pass reads the weight only for unsettled targets.
  bool no_lean = false;
  /// true (needs the settled bitmap): queue membership is one bitmap per queue and R membership
  /// the settled bit, L2-resident bit exchanges instead of the 4-byte queue stamp per vertex
  /// exchanged on every light improvement (the default; measured on an H100: no gain).
  bool queue_bitmaps = false;
  /// true: no per-vertex row records (by default, with sorted rows, a 16-byte {start, length, first
  /// weight} record per vertex replaces the reads of offsets and of the row's first weight).
  bool no_row_records = false;
  /// Record the start time, kind and input size of every phase of the persistent kernel (one
  /// store per phase by one thread); read with engine::last_trace().
  bool trace = false;
  /// Arcs per batch of the constructor's weight sort (whole rows; a batch holds at most this plus
  /// the longest row). The sort's scratch grows with the batch, not with the graph, so the sorted
  /// copy fits beside a SCALE 27 CSR on an 80 GB GPU. Tests use small batches.
  std::int64_t sort_batch = std::int64_t{1} << 28;
};

/// The unoptimised baseline engine: binary cut, one arc and one vertex per lane, 2048-arc chunks,
/// full scans, no row records, contiguous batches, no pull, no device loop, start width scale 1, set on `base`
/// (its other fields are kept). The benchmark's `baseline` variant and the tests' baseline.
options baseline_options(options base = {});
const char* algorithm_name(algorithm a);
const char* loop_name(loop_kind l);
const char* cut_name(cut_search c);

/// One phase of a traced search.
struct phase_record {
  int phase;          ///< 0 scan, 1 light, 2 light chunks, 3 heavy, 4 heavy chunks, 5 pull
  std::int64_t size;  ///< input: vertices scanned, list entries, or chunks
  double us;          ///< wall time from its start to the next phase's start (barrier included)
  /// Light and heavy phases (0 in the others): arcs visited, those that passed the phase's
  /// light/heavy and settled filters (their target's word was read), and those that lowered it.
  std::int64_t arcs = 0, candidates = 0, improved = 0;
  /// Light and heavy phases: the most arcs one warp step took (a list step's rows, or a chunk):
  /// the phase lasts at least as long as that step.
  std::int64_t max_step_arcs = 0;
};

/// Counters of the last search (untimed, for reports).
struct run_stats {
  std::int64_t buckets = 0;      ///< non-empty buckets processed
  std::int64_t light_steps = 0;  ///< light iterations over all buckets
  std::int64_t steps = 0;        ///< device phases (each ends with a grid-wide barrier)
  std::int64_t pulls = 0;        ///< pull passes (options::pull_above)
  std::int64_t loop_steps = 0;   ///< steps of the near-far device loop (in the grid or in one block)
  bool loop_finished = false;    ///< the search ended in the device loop (the bucket loop did nothing)
  float last_delta = 0;          ///< bucket width at the end (adaptive width grows in the tail)
  /// With options::profile: kernel milliseconds per phase kind (scan, light, light chunks, heavy,
  /// heavy chunks, pull); zero otherwise.
  double phase_ms[6] = {0, 0, 0, 0, 0, 0};
};

}  // namespace gpu500::sssp::cuda
