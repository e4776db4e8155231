// gpu500/bfs/cuda.hpp — Enterprise BFS on one GPU (Liu & Huang, SC'15) with VS-Graph500's hub
// priority cache; every technique can be switched off to measure what it buys.
//
// State: depth[v] (int32, -1 = unvisited: Enterprise's status array, 32-bit so that long-diameter
// graphs never wrap) and parent[v], both in the ids of the device graph (relabelled by kernel 1
// when VS-Graph500's sort is on). Per level L (frontier = depth L, discoveries get L + 1):
//  - BL (every technique off): no queues; one CTA per vertex scans the whole status array.
//  - TS: queues built without atomics (a count pass per warp tile, a prefix sum, a write pass), so
//    every queue comes out sorted; after a bottom-up level the source is the previous unvisited
//    queue, which shrinks (Enterprise's third workflow).
//  - WB: frontier queues by degree (thread / warp / CTA / the whole grid), the unvisited queue of
//    bottom-up split at 32 arcs (thread / warp, whose lanes first probe their own row's first arcs).
//  - HC: direction by gamma = hubs in the frontier / all hubs (with Beamer's arc test as a safety
//    net); without HC Beamer's alpha/beta rule alone.
//  - hub cache: the frontier's key vertices in a shared-memory table checked before the status array.
//  - device loop: small frontiers run level after level inside one CTA, with no host round trip.
//  - bitmap: bottom-up tests neighbours in a bitmap of the visited vertices (n/8 bytes, L2-resident).
// Over MPI ranks (the second constructor) the engine holds one rank's rows of a 1-D block
// partition and runs the same level loop with three exchanges added: each level's counts are
// summed over the ranks (one reduction: the direction is decided on the whole frontier), a
// top-down level sends the arcs to other ranks' vertices as (child, parent) pairs to their owners
// (one all-to-all, each child at most once per rank and search), and a bottom-up level first
// all-gathers the visited bitmap (always on there). The device loop stays on one process: it runs
// levels with no exchange between them. One process is the one-rank case: no exchange, no copy.
// The kernels, launch policy and host level loop are in src/bfs/cuda/ (docs/bfs-gpu.md,
// docs/distributed.md).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gpu500/core/types.hpp"
#include "gpu500/dist/partition.hpp"
#include "gpu500/dist/trace.hpp"
#include "gpu500/graph/csr.hpp"

namespace gpu500::dist {
class device_exchange;
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
  int hub_threshold = 100;      ///< gamma's hub degree
  int priority_degree = 100;    ///< degree of the vertices put in the shared-memory cache
  double gamma = 0.30;  ///< top-down -> bottom-up when hubs in frontier / all hubs > gamma
  double alpha = 60.0;  ///< Beamer: top-down -> bottom-up when frontier arcs > unexplored arcs / alpha
  double beta = 24.0;   ///< bottom-up -> top-down when the frontier shrinks below active / beta
  /// The search's grids are sized for this share of the device's SMs, in (0, 1]: below 1 fewer
  /// warps are in flight, which lowers the board's power more than the search's speed near 0.75
  /// (energy per edge, docs/energy.md).
  double grid_sm_share = 1.0;
  /// The graph is directed (kernel 1's build_options::directed: a row holds the out-arcs only,
  /// and the graph is not relabelled): every level runs top-down (a bottom-up level would need
  /// the in-arcs), and nedge counts the reached vertices' out-arcs, not halved.
  bool directed = false;

  [[nodiscard]] bool ts() const { return !no_ts; }
  [[nodiscard]] bool wb() const { return ts() && !no_wb; }
  [[nodiscard]] bool hc() const { return !no_hc; }
  [[nodiscard]] bool hub_cache() const { return !no_hc && !no_hub_cache; }
  [[nodiscard]] bool device_loop() const { return ts() && !no_device_loop; }
  [[nodiscard]] bool bitmap() const { return ts() && !no_bitmap; }
  /// BL: every technique off.
  void baseline() { no_ts = no_wb = no_hc = no_hub_cache = no_device_loop = true; }
};

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
  /// Over the ranks of x (collective): g holds this rank's rows of `part` (row l is vertex
  /// part's first + l; columns are vertex ids, ideally each row in descending degree of its far
  /// ends). degree_sorted: the ids are in descending degree order within each rank's block (the
  /// relabelling kept inside the partition), the rows without arcs last. With one rank this is the
  /// constructor above. Throws usage_error when a rank's block exceeds 2^32 vertices (a pair's halves).
  engine(dist::device_exchange& x, const dist::block_partition& part, graph::csr_view<V> g, bool degree_sorted,
         options o = {});
  ~engine();
  engine(const engine&) = delete;
  engine& operator=(const engine&) = delete;

  /// Report the output in the original ids of `ids` (kernel 1's relabelling; device pointers,
  /// kept by the caller): from then on run() ends by mapping the parents through it, inside the
  /// timed search. An empty map turns that off. Over ranks new2old holds every vertex and old2new
  /// this rank's original rows (their new ids).
  void report_original_ids(graph::id_map<V> ids);
  /// Untimed reset of the status array and the parents (Graph500's clean_pred; run() calls it
  /// when the caller did not).
  void prepare();
  /// The timed search; returns with the result in device memory (synchronised).
  void run(index_t root);
  /// The parents of the last search in original ids: all ones (-1 for int64) where unreached,
  /// parent[root] = root. The mapped copy after report_original_ids, else parents_device().
  [[nodiscard]] const V* parents_original() const;
  /// The levels of the last search in original ids, -1 where unreached, by the rule of
  /// parents_original() (depth_device() without an id map). Untimed: it maps them on each call,
  /// into a buffer the engine keeps; over ranks, this rank's original rows.
  [[nodiscard]] const std::int32_t* levels_original();
  /// Device arrays of the last search in the graph's ids: parent (all ones where unreached) and
  /// depth (-1: unreached); over ranks, per row, the parents being vertex ids.
  [[nodiscard]] const V* parents_device() const;
  [[nodiscard]] const std::int32_t* depth_device() const;
  /// Graph500 nedge of the last search: sum of the reached vertices' degrees / 2 (not halved for a
  /// directed graph; untimed; collective over ranks).
  [[nodiscard]] index_t traversed_edges();
  [[nodiscard]] const std::vector<level_info>& levels() const;
  /// Over ranks, the last search's levels with the bytes sent to other ranks and this rank's time
  /// in exchanges (empty on one rank).
  [[nodiscard]] const std::vector<dist::level_record>& rank_levels() const;
  /// Device bytes of an engine for `rows` rows with `arcs` arcs in a graph of n vertices over
  /// `ranks` ranks (an estimate for memory checks).
  [[nodiscard]] static std::size_t device_bytes(index_t rows, index_t arcs, index_t n, int ranks);
  [[nodiscard]] const options& opts() const;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

extern template class engine<std::uint32_t>;
extern template class engine<std::int64_t>;

}  // namespace gpu500::bfs::cuda
