// What both pipelines over MPI ranks share (internal): a rank's rows on the host, as kernel 1
// over the ranks leaves them (graph::build_csr<V>(comm, part, slice) on the host backend; the
// device rows' copy for the validator on the CUDA backend), and the per-level trace both report
// (report.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gpu500/dist/comm.hpp"
#include "gpu500/dist/partition.hpp"
#include "gpu500/dist/trace.hpp"
#include "gpu500/graph/csr.hpp"

namespace gpu500::graph500::mpi {

/// The owned rows (row l is vertex first_vertex + l) with global column ids and float weights.
using local_graph = graph::csr<std::int64_t>;

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
