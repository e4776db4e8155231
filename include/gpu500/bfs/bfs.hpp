// gpu500/bfs/bfs.hpp — breadth-first search (Graph500 kernel 2), one interface for every backend.
//
// An engine is built once per graph (it allocates all its buffers then) and runs many searches:
// run(root) is the timed region (from before the root is visited until the parent array is in the
// engine's memory); parents() and traversed_edges() are untimed. Parents are int64 with -1 for
// unreached vertices and parent[root] == root.
// traversed_edges() is Graph500's nedge: input edges (self-loops excluded, duplicates counted) with
// both ends in the searched component — computed by the engine from its own result; the validator
// recounts it independently.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "gpu500/core/types.hpp"
#include "gpu500/dist/comm.hpp"
#include "gpu500/dist/partition.hpp"
#include "gpu500/dist/trace.hpp"
#include "gpu500/graph/csr.hpp"

namespace gpu500::bfs {

/// Options of the CPU engine (the CUDA engine has its own technique options, see bfs/cuda.hpp).
struct cpu_options {
  int threads = 0;                   ///< 0: OpenMP default
  bool top_down_only = false;  ///< never switch to bottom-up steps (Beamer's direction optimisation off)
  double alpha = 15.0;         ///< switch to bottom-up when frontier arcs > unexplored arcs / alpha
  double beta = 18.0;          ///< back to top-down when frontier < n / beta
  /// The engine's copy of the rows keeps 64-bit columns even where 32 bits hold every vertex id
  /// (the tests run both widths; graphs of 2^32 vertices or more always take 64 bits).
  bool wide_columns = false;
  /// The graph is directed (graph::build_csr_directed: a row holds a vertex's out-arcs only): the
  /// search follows arcs, every level runs top-down (a bottom-up step looks for a parent among a
  /// row's arcs, which would be the out-arcs, not the in-arcs it needs), and nedge counts the
  /// out-arcs of the reached vertices (each arc once, not halved).
  bool directed = false;
};

/// The host engine, one process or one rank of many (src/bfs/cpu/engine.cpp): direction-
/// optimising BFS (bfs/direction.hpp) over a 1-D block partition. A top-down level claims the
/// frontier's neighbours it owns in place and sends (child, parent) pairs for the others to their
/// owners in one all-to-all; a bottom-up level gathers the frontier bitmap and every unreached
/// owned row looks for a parent in it, walking its own copy of the rows in descending degree
/// class of the far ends (VS-Graph500's order: a row meets the frontier's hubs first), in 32-bit
/// columns where the ids fit. With one rank every exchange is a no-op and nothing is copied.
/// Memory held between searches: 24 bytes per owned vertex (parents, two queues), four bitmaps
/// of the owned vertices (one of the whole graph over several ranks), n bytes while it is built,
/// and its copy of the rows: 4 bytes per arc (8 when the ids do not fit 32 bits).
template <class V>
class cpu_engine {
 public:
  /// One process: `g` is the whole graph.
  explicit cpu_engine(graph::csr_view<V> g, cpu_options o = {});
  /// One rank of `c` (collective): `g` holds the rows `part` gives this rank, with global column
  /// ids. `c` must outlive the engine.
  cpu_engine(const dist::communicator& c, const dist::block_partition& part, graph::csr_view<V> g,
             cpu_options o = {});
  ~cpu_engine();
  cpu_engine(const cpu_engine&) = delete;
  cpu_engine& operator=(const cpu_engine&) = delete;

  /// Untimed reset of the search state (Graph500's clean_pred); run() calls it when the caller did
  /// not.
  void prepare();
  /// The timed search (collective over the ranks).
  void run(index_t root);
  /// The last search's parents of the owned vertices, in global ids (-1: not reached).
  [[nodiscard]] std::span<std::int64_t> parents();
  [[nodiscard]] std::span<const std::int64_t> parents() const;
  /// Hands the last search's parents over without a copy. The engine then holds none (parents()
  /// is empty, traversed_edges() 0) until prepare() makes a new array, first touched by its
  /// threads, before the next search.
  [[nodiscard]] graph::host_vector<std::int64_t> take_parents();
  /// Graph500 nedge of the last search (collective).
  [[nodiscard]] index_t traversed_edges() const;
  /// The last search's levels: direction, frontier, bytes, this rank's compute and exchange time.
  [[nodiscard]] const std::vector<dist::level_record>& levels() const;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

extern template class cpu_engine<std::uint32_t>;
extern template class cpu_engine<std::int64_t>;

/// Convenience: one search, allocating everything (not for timed loops).
template <class V>
std::vector<std::int64_t> run(graph::csr_view<V> g, index_t root, cpu_options o = {});

}  // namespace gpu500::bfs
