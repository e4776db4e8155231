// gpu500/sssp/sssp.hpp — single-source shortest paths (Graph500 kernel 3), one interface per backend.
//
// Distances are float32 and every distance is a single float addition d(parent) + w(parent, v) of
// the stored float weight, so the Graph500 validator's exact check d(v) == d(parent) + w holds.
// Unreached vertices have parent -1 and distance -1 (the reference's convention in its output);
// parent[root] == root, d(root) == 0. As for BFS, run(root) is the timed region and the engine
// keeps its buffers across searches.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "gpu500/core/types.hpp"
#include "gpu500/dist/comm.hpp"
#include "gpu500/dist/partition.hpp"
#include "gpu500/dist/trace.hpp"
#include "gpu500/graph/csr.hpp"

namespace gpu500::sssp {

/// Options of the CPU engine: delta-stepping (Meyer & Sanders) with OpenMP.
struct cpu_options {
  int threads = 0;           ///< the team of every parallel region of the engine (0: OpenMP default)
  /// Bucket width. <= 0 (default): adaptive, mean arc weight / mean degree of the non-isolated
  /// vertices (about 0.01 on Graph500 graphs, 1.5-2x faster there than the reference's 0.1).
  float delta = 0.f;
  bool no_light_heavy = false;  ///< relax every edge in the bucket phase (no light/heavy split)
  bool no_relabel = false;      ///< keep the graph's vertex ids inside (default: by decreasing degree)
  /// A bucket whose settled rows hold at least this share of the graph's arcs pulls its heavy arcs
  /// (every row not yet settled looks for the bucket's vertices) instead of pushing them; 0:
  /// every bucket, above 1: none. Below 0 (default): 0.1 over several ranks, none on one process.
  double pull_share = -1.0;
  /// The graph is directed (graph::build_csr_directed: a row holds a vertex's out-arcs only): no
  /// bucket pulls (a pull reads a row's arcs as the arcs into it, which only a symmetric graph
  /// gives), and nedge counts the out-arcs of the reached vertices (each arc once, not halved).
  bool directed = false;
};

/// The host engine, one process or one rank of many (src/sssp/cpu/engine.cpp): delta-stepping
/// over a 1-D block partition. A relaxation of an arc to a vertex owned elsewhere is a request to
/// its owner, sent when no rank of the host has offered that vertex a smaller distance (one table
/// of offers per host); buckets whose settled rows hold many arcs (the hubs') pull their heavy
/// arcs. With one rank no request is made and nothing is copied. Needs non-negative finite
/// weights; the head ids of a rank's rows are 32 bits: fewer than 2^32 vertices on one process,
/// rows + vertices of the graph below 2^32 over ranks (usage_error otherwise). Memory held between
/// searches: 64 + 3 * sizeof(V) bytes per row and 8 bytes per arc (the engine's own rows: light
/// arcs first, internal ids by decreasing degree), plus per-thread bucket lists that keep their
/// capacity; over ranks also the host's table of offers (5 bytes per vertex of the graph, shared
/// by the host's ranks) and, where buckets pull, a bit per row and per vertex of the graph.
/// Construction (kernel-1 work) needs 12 more bytes per arc (its sort's buckets: the `scratch` of
/// build_csr when given), 16 per row and, per thread, 24 bytes per arc of its largest sort block
/// (the radix sort putting a block in head order; blocks hold about 2^15 arcs unless one row is
/// longer) while it runs. On one process any csr_view, symmetric or not, is handled the same way;
/// over ranks the rows must be symmetric (kernel 1's are: a parent on another rank is a neighbour).
template <class V>
class cpu_engine {
 public:
  /// One process: `g` is the whole graph. `scratch` (optional): memory for the construction's
  /// sort, e.g. the one build_csr used.
  cpu_engine(graph::csr_view<V> g, cpu_options o = {}, graph::arc_sort_scratch* scratch = nullptr);
  /// One rank of `c` (collective): `g` holds the rows `part` gives this rank, with global column
  /// ids. `c` must outlive the engine.
  cpu_engine(const dist::communicator& c, const dist::block_partition& part, graph::csr_view<V> g, cpu_options o = {},
             graph::arc_sort_scratch* scratch = nullptr);
  ~cpu_engine();
  cpu_engine(const cpu_engine&) = delete;
  cpu_engine& operator=(const cpu_engine&) = delete;

  /// Untimed reset of the search state (Graph500's clean_shortest); run() calls it when the caller
  /// did not.
  void prepare();
  /// The timed search (collective over the ranks).
  void run(index_t root);
  /// The last search's parents (global ids, -1: not reached) and distances (-1: not reached) of
  /// the owned vertices.
  [[nodiscard]] std::span<std::int64_t> parents();
  [[nodiscard]] std::span<const std::int64_t> parents() const;
  [[nodiscard]] std::span<float> distances();
  [[nodiscard]] std::span<const float> distances() const;
  /// Hands the last search's parents and distances over without a copy. The engine then holds
  /// none (both spans empty, traversed_edges() 0) until prepare() makes new arrays, first touched
  /// by its threads, before the next search.
  [[nodiscard]] std::pair<graph::host_vector<std::int64_t>, graph::host_vector<float>> take_result();
  /// Graph500 nedge of the last search (collective).
  [[nodiscard]] index_t traversed_edges() const;
  /// The bucket width (the adaptive rule's when the options gave none).
  [[nodiscard]] float delta() const;
  /// The last search's phases ("light", "heavy", "pull" or "all"): vertices, bytes sent to other
  /// ranks, compute and exchange time.
  [[nodiscard]] const std::vector<dist::level_record>& levels() const;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

extern template class cpu_engine<std::uint32_t>;
extern template class cpu_engine<std::int64_t>;

}  // namespace gpu500::sssp
