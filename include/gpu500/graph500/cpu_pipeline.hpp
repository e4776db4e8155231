// gpu500/graph500/cpu_pipeline.hpp — the Graph500 pipeline on the host: OpenMP generator,
// kernel 1, the OpenMP BFS and SSSP engines, and the host validator. One pipeline at every rank
// count: one process is its one-rank case (over the ranks of a communicator: mpi_pipeline.hpp).
#pragma once

#include <memory>

#include "gpu500/bfs/bfs.hpp"
#include "gpu500/graph/kronecker.hpp"
#include "gpu500/graph500/pipeline.hpp"
#include "gpu500/sssp/sssp.hpp"

namespace gpu500::graph500 {

struct cpu_pipeline_options {
  int vertex_bits = 64;  ///< 64 (Graph500's >= 48-bit rule) or 32 (a stated speed choice)
  bfs::cpu_options bfs;
  sssp::cpu_options sssp;
  /// A given edge list's edges are arcs (src -> dst): kernel 1 keeps each in its tail's row only
  /// (graph::build_csr_directed), the engines follow arcs (their `directed` options, set by the
  /// pipeline) and the directed validator checks them. A Kronecker graph is always undirected.
  bool directed = false;
  /// Over several ranks: the validator asks each arc's far end of its owner even where every rank
  /// could hold one float per vertex (by default it all-gathers those when they fit; the tests
  /// check both ways).
  bool validator_asks_owners = false;
};

/// Throws resource_error (one line: SCALE, bytes needed and available, in human units) when the
/// run will not fit in host memory, usage_error for bad parameters.
std::unique_ptr<pipeline> make_cpu_pipeline(const graph::kronecker_params& p, const cpu_pipeline_options& o);

/// The CPU pipeline over a given edge list (a graph read from a file): generate() hands it over.
/// Throws resource_error when the CSR and the engines will not fit beside the edge list.
std::unique_ptr<pipeline> make_cpu_pipeline(graph::edge_list el, const cpu_pipeline_options& o);

/// Host bytes a CPU run holds at its peak, at least: the CSR with its sort buckets, plus the edge
/// list during kernel 1 or the engines' arrays after it, whichever is larger (n vertices, m edges).
std::size_t cpu_pipeline_bytes(index_t n, index_t m, bool weights, int vertex_bits);
std::size_t cpu_pipeline_bytes(const graph::kronecker_params& p, int vertex_bits);

}  // namespace gpu500::graph500
