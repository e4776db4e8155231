// Kernel 1 over MPI ranks (internal): the rows of a rank's own vertices, built from its slice of
// the edge list by one all-to-all of arcs, and the per-level record the searches keep.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gpu500/core/json.hpp"
#include "gpu500/dist/comm.hpp"
#include "gpu500/dist/partition.hpp"
#include "gpu500/graph/csr.hpp"
#include "gpu500/graph/edge_list.hpp"

namespace gpu500::graph500::mpi {

/// The owned rows (row l is vertex owned.first + l) with global column ids and float weights.
struct local_graph {
  index_t num_vertices = 0;  ///< global
  dist::vertex_range owned;
  graph::host_vector<index_t> offsets;  ///< owned.count + 1
  graph::host_vector<std::int64_t> columns;
  graph::host_vector<float> weights;  ///< empty when unweighted

  [[nodiscard]] graph::csr_view<std::int64_t> view() const {
    return {num_vertices, owned.first, owned.count, offsets.data(), columns.data(),
            weights.empty() ? nullptr : weights.data()};
  }
};

/// Sends every edge of `slice` (this rank's part of the edge list, self-loops included) to the
/// owners of both endpoints and builds the owned rows: self-loops dropped, duplicates kept, within
/// a row the arcs in global edge order (the one-process CSR's order). Collective.
local_graph build_local_graph(const dist::communicator& c, const dist::block_partition& part,
                              const graph::edge_list& slice);

/// Graph500's nedge of a search: input edges with both ends reached (parent != -1), duplicates
/// counted, self-loops excluded (the rows hold none): the reached vertices' degrees summed over
/// the ranks, halved, as the one-process engines count. Collective; for the engines (the validator
/// counts on its own).
index_t reached_edges(const dist::communicator& c, graph::csr_view<std::int64_t> g,
                      const std::vector<std::int64_t>& parent);

/// One level (BFS) or one phase (SSSP) of a search.
struct level_record {
  int level = 0;
  std::string direction;      ///< "top-down", "bottom-up", "light", "heavy", "pull", "all"
  index_t frontier = 0;       ///< vertices expanded, summed over ranks
  index_t bytes = 0;          ///< bytes sent to other ranks, summed over ranks
  double compute_seconds = 0, comm_seconds = 0;  ///< this rank's
};

/// The trace's entries: frontier and bytes as recorded, compute_seconds and comm_seconds rank 0's,
/// and every rank's seconds in rank order (compute_seconds_by_rank, comm_seconds_by_rank), so
/// that the slowest rank of a level shows. Collective: every rank recorded the same levels (the
/// level loop and the phase loop end on global counts); a rank whose count differs is a
/// logic_error on every rank.
json::value to_json(const dist::communicator& c, const std::vector<level_record>& levels);

/// Appends the record of one SSSP phase with this rank's count and bytes, its communication time
/// comm_seconds and its compute time what is left of `seconds`; sum_over_ranks turns the counts
/// and bytes of a whole search into sums over the ranks with one reduction (collective: every
/// rank recorded the same phases).
void record_phase(std::vector<level_record>& levels, double comm_seconds, int phase, const char* what,
                  index_t local_count, index_t bytes, double seconds);
void sum_over_ranks(const dist::communicator& c, std::vector<level_record>& levels);

}  // namespace gpu500::graph500::mpi
