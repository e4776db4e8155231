// Direction-optimising BFS over a 1-D block partition (internal; Beamer, Asanović & Patterson,
// SC'12, distributed as in the Graph500 MPI codes). Per level, one reduction of global counts
// decides the direction:
//  - top-down: every frontier vertex's arcs become (child, parent) pairs sent to the children's
//    owners (one all-to-all); an owner keeps the first pair for an unvisited child;
//  - bottom-up: the frontier, as a bitmap, is all-gathered; every unvisited owned vertex looks
//    for a neighbour in it.
// Bottom-up when the frontier grows and its arcs > unexplored arcs / alpha; back to top-down when
// the frontier has fewer than n / beta vertices. (Without the growth test a shrinking tail whose
// few arcs still outweigh the nearly explored rest would go bottom-up again and scan every row.) Inside a rank the loops are OpenMP-parallel: the send buffer is
// grouped by rank over threads (group_by_rank), an arriving pair claims its child with a
// compare-and-swap, the bottom-up scan is split over rows. Levels do not depend on the thread
// count; which of several same-level parents a vertex keeps may.
// The engine walks its own copy of the owned rows' columns, each row in descending degree class
// of its far ends (the bit width of the degree: VS-Graph500's order, as the CUDA backend's engine,
// by a counting pass; the classes all-gathered once when the engine is built, inside kernel 1),
// so that a bottom-up row meets the frontier's hubs first, and in 32 bits where the ids fit, so
// that a row that finds no parent streams half the bytes.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "gpu500/dist/comm.hpp"
#include "gpu500/dist/partition.hpp"
#include "gpu500/graph/csr.hpp"
#include "local_graph.hpp"

namespace gpu500::graph500::mpi {

struct bfs_policy {
  bool top_down_only = false;
  double alpha = 15.0, beta = 18.0;
  bool wide_columns = false;  ///< 64-bit columns even where 32 bits hold every id (tests)
};

class bfs_engine {
 public:
  bfs_engine(const dist::communicator& c, const dist::block_partition& part, graph::csr_view<std::int64_t> g,
             bfs_policy pol);

  /// Untimed reset (the reference's clean_pred).
  void prepare();
  /// The timed search (collective); parents in global ids, -1 unreached.
  void run(index_t root);
  /// Input edges with both ends reached, as the one-process engines count them (collective).
  [[nodiscard]] index_t traversed_edges() const;

  [[nodiscard]] std::span<std::int64_t> parents() { return parent_; }
  [[nodiscard]] const std::vector<level_record>& levels() const { return levels_; }

 private:
  /// One top-down level: queue_ -> next_ (returns bytes sent to other ranks).
  index_t top_down();
  /// One bottom-up level: queue_ (as a bitmap) -> next_.
  index_t bottom_up();
  /// The two over the rows' columns `col` (indexed by the graph's offsets), in 32 or 64 bits.
  template <class C>
  index_t top_down(const C* col);
  template <class C>
  index_t bottom_up(const C* col);
  /// Appends rows found by one thread to next_ (thread-safe).
  void append(const std::vector<index_t>& rows);
  /// Copies the owned rows into cols32_ or cols_, each in descending degree class of its far ends
  /// (collective).
  void order_rows_by_degree();
  /// Arcs of the given rows (the degrees summed).
  [[nodiscard]] index_t arcs_of(const std::vector<index_t>& rows) const;

  struct pair {
    std::int64_t child, parent;
  };

  const dist::communicator& c_;
  dist::block_partition part_;
  graph::csr_view<std::int64_t> g_;
  bfs_policy pol_;
  // The owned rows' columns, each row in descending far-end degree class: in 32 bits when every
  // vertex id fits (cols32_), else in 64 (cols_); the other stays empty.
  std::vector<std::uint32_t> cols32_;
  std::vector<std::int64_t> cols_;
  std::vector<std::int64_t> parent_;
  std::vector<index_t> queue_, next_;  // owned rows
  std::vector<std::uint64_t> slice_, bitmap_;  // frontier: own words, all words
  std::vector<index_t> counts_;
  index_t graph_arcs_ = 0;  // over every rank: bounds every count of a level's exchange
  std::vector<pair> send_;
  std::vector<level_record> levels_;
  double comm_seconds_ = 0;  // this level's time in exchanges
};

}  // namespace gpu500::graph500::mpi
