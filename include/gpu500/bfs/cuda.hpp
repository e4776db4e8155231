// gpu500/bfs/cuda.hpp — Enterprise BFS on one GPU (Liu & Huang, SC'15) with VS-Graph500's hub
// priority cache; every technique can be switched off to measure what it buys.
//
// State: depth[v] (int32, -1 = unvisited: Enterprise's status array, 32-bit so that long-diameter
// graphs never wrap) and parent[v], both in the ids of the device graph (relabelled by kernel 1
// when VS-Graph500's sort is on). Per level L (frontier = depth L, discoveries get L + 1):
//  - BL (all flags off): no queues; one CTA per vertex scans the whole status array each level.
//  - TS: queues are built WITHOUT atomics: a count pass where each warp counts, per class, the items
//    of its contiguous tile (coalesced reads, ballot + popc), a CUB prefix sum over the per-warp
//    counts, and a write pass that puts each item at its warp's offset. Tiles are contiguous, so
//    every queue comes out sorted (what Enterprise's contiguous-chunk scan buys at the switch level)
//    while the reads stay coalesced (what its interleaved scan buys). After a top-down level the
//    source is the status array; after a bottom-up level it is the previous unvisited queue, which
//    shrinks (Enterprise's third workflow). Without WB one CTA serves each queued vertex.
//  - WB: frontier queues by degree, < 32: a thread, 32..255: a warp, 256..extreme: a CTA, > extreme:
//    the whole grid, edge-balanced over the concatenated lists of the grid queue (extreme = 4096 by
//    default: one CTA on a 65,536-arc list is a level's critical path on a 132-SM GPU; the paper's
//    65536 is --extreme-degree 65536); the unvisited queue of bottom-up splits at 32 (a thread / a
//    warp). The class kernels run concurrently on their own streams. Bottom-up's warp class first
//    lets each lane probe the first 4 arcs of its own row (32 rows per warp round trip; the rows
//    start with their hubs, so most end there) and scans the rest with the whole warp, row by row
//    (--no-lane-probe: a warp per row from its first arc; not in the paper).
//  - HC: direction by gamma = hubs in the frontier / all hubs (hub: degree >= hub_threshold):
//    top-down -> bottom-up when gamma > 30% (or, unless --gamma-only, when Beamer's arc test already
//    says so); back to top-down for the tail when the frontier shrinks below active/beta.
//    Without HC: Beamer's rule alone (frontier arcs > unexplored arcs / alpha, frontier growing).
//  - hub cache: the frontier's vertices of degree >= priority_degree (VS-Graph500's key vertices)
//    are collected during queue generation; each bottom-up CTA loads them into a shared-memory
//    direct-mapped table and checks a neighbour there before reading the global status array.
//    With the degree-sorted graph the hubs are the smallest ids and come first in every
//    neighbour list, so the search usually ends at the first neighbour, inside shared memory.
//  - device loop: while the frontier is small (<= loop_vertices, <= loop_arcs), top-down levels run
//    inside one single-CTA kernel (edge-balanced: a block scan of the frontier's degrees, each
//    thread finds the owner of its arcs by binary search) with no host round trip, so
//    long-diameter graphs cost a few microseconds per level instead of launches and a sync.
//  - launch shape (not a technique of the papers; --no-fused to compare): the top-down class kernels
//    0..2 of a level run as one launch whose blocks are dealt round-robin to the classes (one launch
//    instead of three plus stream fork/join events); the grid queue, which needs its own prefix
//    sum, runs beside it on a second stream, and the two bottom-up classes keep a kernel each on two
//    streams. The frontier hubs of the cache are counted as a seventh class and written by the write
//    pass at scanned positions (--hub-list-atomic: the count pass appends them with an atomic per
//    warp step, as before); the count pass sums its totals per block before the global atomics.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gpu500/core/types.hpp"
#include "gpu500/graph/csr.hpp"

namespace gpu500::cli {
class parser;
}

namespace gpu500::bfs::cuda {

struct options {
  // Switches are stored negatively (the command line's --no-... flags set them); ask the methods.
  bool no_ts = false;           ///< BL status-array scan instead of prefix-sum queues
  bool no_wb = false;           ///< one CTA per vertex instead of the four degree classes
  bool no_hc = false;           ///< Beamer alpha/beta instead of gamma; also turns the hub cache off
  bool no_hub_cache = false;    ///< no shared-memory cache of frontier hubs in bottom-up
  bool no_device_loop = false;  ///< every level from the host
  bool no_bitmap = false;       ///< bottom-up tests neighbours in the status array, not a visited bitmap
  bool gamma_only = false;      ///< HC switches on gamma alone (default: gamma or Beamer's arc test)
  bool no_fused = false;        ///< top-down: each degree class its own kernel and stream (default: one launch)
  bool hub_list_atomic = false; ///< hub list appended by the count pass (default: written by the write pass)
  bool no_lane_probe = false;   ///< bottom-up warp class: a warp per row from its first arc (no lane probe)
  int hub_threshold = 100;      ///< gamma's hub degree
  int priority_degree = 100;    ///< degree of the vertices put in the shared-memory cache
  double gamma = 0.30;  ///< top-down -> bottom-up when hubs in frontier / all hubs > gamma
  double alpha = 14.0;  ///< Beamer: top-down -> bottom-up when frontier arcs > unexplored arcs / alpha
  double beta = 24.0;   ///< bottom-up -> top-down when the frontier shrinks below active / beta
  int extreme_degree = 4096;  ///< above: the grid queue (the paper: 65536; see docs/bfs-gpu.md)
  int loop_vertices = 1024;   ///< device loop: largest frontier it handles (<= 1024, one per thread)
  int loop_arcs = 16384;      ///< device loop: largest frontier arc count it handles

  [[nodiscard]] bool ts() const { return !no_ts; }
  [[nodiscard]] bool wb() const { return ts() && !no_wb; }
  [[nodiscard]] bool hc() const { return !no_hc; }
  [[nodiscard]] bool hub_cache() const { return !no_hc && !no_hub_cache; }
  [[nodiscard]] bool device_loop() const { return ts() && !no_device_loop; }
  [[nodiscard]] bool bitmap() const { return ts() && !no_bitmap; }
};

/// Registers --bfs=enterprise|baseline, --no-ts, --no-wb, --no-hc, --no-hub-cache, --no-device-loop, --no-bitmap,
/// --hub-threshold, --priority-degree, --extreme-degree, --gamma, --alpha, --beta. --bfs=baseline also sets
/// *also_off (the caller's other techniques, e.g. the sort of kernel 1) when given.
void add_options(cli::parser& p, options& o, bool* also_off = nullptr);
/// "ts+wb+hc+cache+loop" (the techniques that are on) or "bl".
std::string describe(const options& o);

/// One level of the last search (for benchmarks and tests).
struct level_info {
  int level;
  char direction;  ///< 'T' top-down, 'B' bottom-up, 'L' device loop (possibly many levels)
  std::int64_t frontier;
  double seconds = 0;  ///< host wall time of the level: its queue passes, expansion and round trip
};

template <class V>
class engine {
 public:
  /// g: a device graph. degree_sorted: ids are in descending degree order (kernel 1's relabelling);
  /// then vertices >= g's non-isolated count have no edges and are never scanned.
  engine(graph::csr_view<V> g, bool degree_sorted, options o = {});
  ~engine();
  engine(const engine&) = delete;
  engine& operator=(const engine&) = delete;

  /// Report the output in the original ids of `ids` (kernel 1's relabelling; device pointers,
  /// kept by the caller): from then on run() ends by mapping the parents through it, inside the
  /// timed search. An empty map turns that off.
  void report_original_ids(graph::id_map<V> ids);
  /// Untimed reset of the status array and the parents (Graph500's clean_pred; run() calls it
  /// when the caller did not).
  void prepare();
  /// The timed search; returns with the result in device memory (synchronised).
  void run(index_t root);
  /// The parents of the last search in original ids: all ones (-1 for int64) where unreached,
  /// parent[root] = root. The mapped copy after report_original_ids, else parents_device().
  [[nodiscard]] const V* parents_original() const;
  /// Device arrays of the last search in the graph's ids: parent (all ones where unreached) and
  /// depth (-1: unreached).
  [[nodiscard]] const V* parents_device() const;
  [[nodiscard]] const std::int32_t* depth_device() const;
  /// Graph500 nedge of the last search: sum of the reached vertices' degrees / 2 (untimed).
  [[nodiscard]] index_t traversed_edges();
  [[nodiscard]] const std::vector<level_info>& levels() const;
  [[nodiscard]] const options& opts() const;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

extern template class engine<std::uint32_t>;
extern template class engine<std::int64_t>;

}  // namespace gpu500::bfs::cuda
