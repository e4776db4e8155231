// Kernel 1 over MPI ranks (internal): the rows of a rank's own vertices, built from its slice of
// the edge list by the host kernel 1 (graph::build_csr over the ranks), as the pipelines keep them;
// and the per-level trace both pipelines report (report.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gpu500/dist/comm.hpp"
#include "gpu500/dist/partition.hpp"
#include "gpu500/dist/trace.hpp"
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

/// The JSON "trace" of a run over ranks, either backend: the last BFS's and SSSP's levels (an
/// empty list for a search that has not run: a null pointer) and the SSSP's first bucket width.
/// Collective.
json::value search_trace(const dist::communicator& c, const std::vector<dist::level_record>* bfs,
                         const std::vector<dist::level_record>* sssp, float sssp_delta);

using dist::level_record;
using dist::record_phase;
using dist::sum_over_ranks;
using dist::to_json;

}  // namespace gpu500::graph500::mpi
