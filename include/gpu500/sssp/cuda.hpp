// gpu500/sssp/cuda.hpp — single-source shortest paths on one GPU (Graph500 kernel 3, CUDA backend).
//
// Algorithm (docs/sssp-gpu.md): delta-stepping with scan-based bucket extraction, relative
// light/heavy edges and an adaptive bucket width, driven by ONE persistent cooperative kernel whose
// bucket loop decides on the device (no host round trip per bucket):
//   * a vertex's state is one 64-bit word (float bits of its distance << 32 | parent id), updated by a
//     compare-and-swap loop that only ever lowers the distance strictly, so the parent always matches
//     the distance, d(v) == d(parent) + w exactly in float, and the parent graph has no cycles even
//     with zero (or absorbed, w < ulp(d)/2) weights;
//   * bucket [lo, hi): a scan of all vertices extracts those with lo <= d < hi (no far pile to
//     overflow); light iterations relax the arcs with d(u) + w < hi of the vertices that improved,
//     until none does; one heavy pass then relaxes every other arc of the bucket's vertices once,
//     or, where those arcs are many, a pull pass lets every unsettled vertex take its best settled
//     neighbour instead; the engine keeps a copy of the rows sorted by weight, so light and heavy
//     arcs are contiguous ranges of a row and a pull leaves a row early;
//   * warps take strided samples of each list, so that runs of high-degree vertices spread out;
//   * rows longer than a threshold are cut into chunks that warps share (hubs of Kronecker graphs).
// Vertex ids must be below 2^32 - 1 (the parent is packed in 32 bits), which one GPU's memory
// implies anyway; V = std::int64_t is accepted for the column type.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "gpu500/core/types.hpp"
#include "gpu500/graph/csr.hpp"

namespace gpu500::cli {
class parser;
}

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
  algorithm algo = algorithm::delta_stepping;
  /// Bucket width. <= 0: adaptive: delta_scale * 8 * mean weight / mean degree to start, doubled after the
  /// busiest bucket each time a bucket settles fewer than grow_below vertices (the sparse tail).
  float delta = 0.0f;
  /// Adaptive width only: the start width is this times the policy's (8 * mean weight / mean degree).
  /// Default 0.7: with the pull-first pass, on an H100 (2026-11-22, bench, relabelled, pull-first
  /// 0.05) SCALE 24 went from 20.02 to 20.97 GTEPS and SCALE 26 from 25.92 to 27.49.
  float delta_scale = 0.7f;
  std::int64_t grow_below = 16384;
  loop_kind loop = loop_kind::persistent;
  /// Persistent kernel: blocks per SM; 0 = as many as fit (at most the policy's cap) of the kernel
  /// compiled for 4 blocks (64 registers); 1-3: the kernel compiled for 2 (128 registers, no spills);
  /// 6 and more: the kernel compiled for 6.
  int blocks_per_sm = 0;
  /// Host loop with a synchronisation and two events around every phase, summing the kernel time
  /// per phase kind into run_stats::phase_ms (slow; for finding where the time goes).
  bool profile = false;
  /// By default the engine keeps a copy of the graph with every row sorted by weight (built once in
  /// the constructor, 8 bytes per arc with 32-bit ids), so that a light iteration reads only its
  /// light arcs and the heavy pass only the rest. true: filter every arc of the caller's rows.
  bool unsorted_rows = false;
  /// true: no bitmap of settled vertices (by default a heavy arc into a vertex already in the
  /// current or an earlier bucket is skipped without reading the vertex's word).
  bool no_settled_filter = false;
  /// How a weight-sorted row's light/heavy cut is found: galloping from the row's start (default;
  /// 1-3 probes for the short light prefixes) or binary search over the row (the first version).
  cut_search cut = cut_search::gallop;
  /// Arcs per lane per round (1, 2 or 4): the loads and first atomics of that many arcs are in
  /// flight together (the phases are latency-bound). 1 is the first version.
  int arcs_per_lane = 4;
  /// Vertices per lane (1, 2 or 4): a warp's scan step or list-phase step takes this many 32-vertex
  /// groups with their loads in flight together, and spreads the arcs of all their rows over its
  /// lanes at once. 1 is the first version.
  int vertices_per_lane = 4;
  /// Arcs per chunk of a long (hub) row; one warp takes a chunk. The first version used 2048.
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
  /// the phase's last. 0: batch b is entries [b * 32 * grab, (b + 1) * 32 * grab). Default 1: on an
  /// H100 (2026-11-22) `gpu500 graph500 24 --backend cuda` SSSP went from 13.7 to 17.5 GTEPS.
  int interleave = 1;
  /// true: the first version's scan and heavy pass (every vertex word read by every scan; a heavy
  /// arc's weight read before the target's settled bit). By default (lean) a scan skips vertices
  /// that are settled or have no arcs, and the heavy pass reads the weight only for unsettled targets.
  bool no_lean = false;
  /// true (needs the settled bitmap): queue membership is one bitmap per queue and R membership
  /// the settled bit, L2-resident bit exchanges instead of the 4-byte queue stamp per vertex
  /// exchanged on every light improvement (the default). Measured on an H100: no gain (within
  /// +-1%), so not the default.
  bool queue_bitmaps = false;
  /// true: no per-vertex row records (by default, with sorted rows, a 16-byte {start, length, first
  /// weight} record per vertex replaces the reads of offsets and of the row's first weight).
  bool no_row_records = false;
  /// > 0 (sorted rows and the settled bitmap needed): when a bucket's heavy pass would push more
  /// than this fraction of all arcs in hub chunks, a pull (bottom-up) pass replaces those pushes:
  /// every unsettled vertex scans its weight-sorted row for settled neighbours (control.hpp).
  /// Needs a symmetric graph (Graph500's is). 0: off. Default 0.02: on an H100 (2026-11-22) the
  /// pull took SCALE 24 from 10.27 to 11.64 GTEPS and SCALE 26 from 13.57 to 16.55 (bench, generator's
  /// ids), and `gpu500 graph500 26 --backend cuda` SSSP from 15.74 to 19.77 (0.01 and 0.05: the same).
  double pull_above = 0.02;
  /// > 0 (sorted rows and the settled bitmap needed): when a bucket's light phases estimate at
  /// least this fraction of all arcs as the bucket's heavy arcs (the rows past the light cut of
  /// every light-phase entry, summed), a pull replaces the whole heavy pass of the bucket: the
  /// push would read every one of those arcs, the pull stops early in each unsettled row. 0: off.
  /// Default 0.05: on an H100 (2026-11-22) `gpu500 graph500 24 --backend cuda` SSSP went from
  /// 17.6 to 20.4 GTEPS, and the bench at SCALE 26 (relabelled) from 21.45 to 25.92.
  double pull_first = 0.05;
  /// Record the start time, kind and input size of every phase of the persistent kernel (one
  /// store per phase by one thread); read with engine::last_trace().
  bool trace = false;
  /// Arcs per batch of the constructor's weight sort (whole rows; a batch holds at most this plus
  /// the longest row). The sort's scratch grows with the batch, not with the graph, so the sorted
  /// copy fits beside a SCALE 27 CSR on an 80 GB GPU. Tests use small batches.
  std::int64_t sort_batch = std::int64_t{1} << 28;
};

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

/// Flags: --sssp-gpu delta|bellman-ford, --sssp-gpu-delta X, --sssp-gpu-grow N,
/// --sssp-gpu-loop persistent|host, --sssp-gpu-blocks N, --sssp-gpu-profile, --sssp-gpu-unsorted, --sssp-gpu-no-filter,
/// --sssp-gpu-cut gallop|binary, --sssp-gpu-ilp 1|2|4, --sssp-gpu-vpl 1|2|4, --sssp-gpu-chunk N, --sssp-gpu-no-lean,
/// --sssp-gpu-queue-bitmaps, --sssp-gpu-no-rows, --sssp-gpu-pull F, --sssp-gpu-pull-first F, --sssp-gpu-light-row N,
/// --sssp-gpu-grab N, --sssp-gpu-interleave N, --sssp-gpu-delta-scale F, --sssp-gpu-trace (the last only for the
/// benchmark's reports).
void add_options(cli::parser& p, options& o);
/// The engine as first measured (docs/sssp-gpu.md, first round): binary cut, one arc and one
/// vertex per lane, 2048-arc chunks, full scans, no row records, contiguous batches, no pull, the
/// original start width, set on `base` (its other fields are kept). The benchmark's `first`
/// variant and the tests' baseline.
options first_version_options(options base = {});
const char* algorithm_name(algorithm a);
const char* loop_name(loop_kind l);
const char* cut_name(cut_search c);

/// Counters of the last search (untimed, for reports).
struct run_stats {
  std::int64_t buckets = 0;      ///< non-empty buckets processed
  std::int64_t light_steps = 0;  ///< light iterations over all buckets
  std::int64_t steps = 0;        ///< device phases (each ends with a grid-wide barrier)
  std::int64_t pulls = 0;        ///< pull passes (options::pull_above)
  float last_delta = 0;          ///< bucket width at the end (adaptive width grows in the tail)
  /// With options::profile: kernel milliseconds per phase kind (scan, light, light chunks, heavy,
  /// heavy chunks, pull); zero otherwise.
  double phase_ms[6] = {0, 0, 0, 0, 0, 0};
};

template <class V>
class engine {
 public:
  /// Allocates every buffer (no allocation in run()). device_graph holds DEVICE pointers, must be
  /// weighted (non-negative finite weights: checked here), symmetric as Graph500's kernel 1 builds it.
  ///
  /// `sorted_copy_ready`, when given, is called once inside the constructor, right after the
  /// engine's weight-sorted copy of the rows exists and before it allocates its search state. From
  /// then on the engine reads only the input's offsets, so the caller may free the input's weights
  /// (and columns) to make room: at SCALE 27 on an 80 GB GPU the Graph500 pipeline frees its CSR
  /// weights there. It is not called when the rows stay unsorted (options::unsorted_rows, or no
  /// memory for the copy).
  engine(graph::csr_view<V> device_graph, options o = {}, std::function<void()> sorted_copy_ready = {});
  ~engine();
  engine(const engine&) = delete;
  engine& operator=(const engine&) = delete;

  /// Report the output in the original ids of `ids` (kernel 1's relabelling of this graph; device
  /// pointers, kept by the caller): from then on run() writes parents and distances indexed by
  /// and holding original ids, inside the timed search. run()'s root stays a graph id. An empty map
  /// turns that off.
  void report_original_ids(graph::id_map<V> ids);
  /// Untimed reset of the search state (Graph500's clean_shortest); run() calls it when the caller
  /// did not.
  void prepare();
  /// The timed search; returns with parents and distances in device memory (synchronised).
  void run(index_t root);
  [[nodiscard]] const std::int64_t* parents_device() const;  ///< n entries, -1 unreached, parent[root] = root
  [[nodiscard]] const float* distances_device() const;       ///< n entries, -1 unreached
  /// Graph500 nedge of the last run (untimed): (sum of CSR degrees of reached vertices) / 2.
  index_t traversed_edges();
  void copy_parents(std::span<std::int64_t> host) const;
  void copy_distances(std::span<float> host) const;

  [[nodiscard]] run_stats last_stats() const;
  /// With options::trace and the persistent loop: the phases of the last search (else empty).
  [[nodiscard]] std::vector<phase_record> last_trace() const;
  [[nodiscard]] float initial_delta() const;  ///< the bucket width a run starts with
  /// The rows the engine searches (device pointers): its weight-sorted copy (the input's offsets,
  /// its own columns and weights), or the input itself when unsorted. Valid while the engine lives;
  /// a validator may read it in place of the input.
  [[nodiscard]] graph::csr_view<V> graph_view() const;
  [[nodiscard]] bool rows_sorted() const;  ///< whether graph_view() is the weight-sorted copy
  [[nodiscard]] std::string description() const;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

extern template class engine<std::uint32_t>;
extern template class engine<std::int64_t>;

/// A host CSR copied to the device (for tests and benchmarks; the Graph500 pipeline has its own
/// device graph). Owns the device arrays; view() has device pointers.
template <class V>
class device_csr {
 public:
  explicit device_csr(const graph::csr<V>& host);
  ~device_csr();
  device_csr(const device_csr&) = delete;
  device_csr& operator=(const device_csr&) = delete;
  [[nodiscard]] graph::csr_view<V> view() const { return view_; }

 private:
  graph::csr_view<V> view_{};
};

extern template class device_csr<std::uint32_t>;
extern template class device_csr<std::int64_t>;

}  // namespace gpu500::sssp::cuda
