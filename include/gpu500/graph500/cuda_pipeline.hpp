// gpu500/graph500/cuda_pipeline.hpp — the CUDA backend of the Graph500 pipeline.
//
// generate: the Kronecker generator on the GPU (bit-identical to the host one); construct: kernel 1
// on the GPU (graph/cuda.hpp), with VS-Graph500's degree-sorted relabelling unless no_sort, then
// the Enterprise BFS engine (bfs/cuda.hpp) allocates its buffers; bfs: one timed search that
// ends with the parents in device memory in the ORIGINAL ids (the mapping back from the
// relabelled ids is timed, as Graph500 times a search until its output is in memory; so is
// sssp's); validate_bfs: the parents are checked on the GPU by a validator that shares no code
// with the search kernels (graph500/cuda_validate in src/graph500/cuda). Before anything is allocated the
// free device memory is checked against the pipeline's peak; a SCALE that will not fit stops with
// one line naming SCALE, the bytes needed and the bytes free (resource_error).
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "gpu500/bfs/cuda.hpp"
#include "gpu500/graph/csr.hpp"
#include "gpu500/graph/cuda.hpp"
#include "gpu500/graph/edge_list.hpp"
#include "gpu500/graph/kronecker.hpp"
#include "gpu500/graph500/pipeline.hpp"
#include "gpu500/sssp/cuda.hpp"

namespace gpu500::dist {
class device_exchange;
}

namespace gpu500::graph500 {

struct cuda_options {
  bfs::cuda::options bfs;  ///< technique flags of the Enterprise engine
  sssp::cuda::options sssp;  ///< options of the GPU SSSP engine (kernel 3)
  bool no_sort = false;    ///< no VS-Graph500 degree-sorted relabelling / sorted neighbour lists
  int vertex_bits = 0;     ///< 32 or 64; 0: 32 when the vertex count fits, else 64
  int device = 0;          ///< CUDA device ordinal
  /// A given edge list's edges are arcs (src -> dst): kernel 1 keeps each in its tail's row only
  /// and does not relabel (as no_sort), the engines follow arcs (their `directed` options: BFS
  /// top-down at every level, SSSP without pull passes), and each search is validated on the
  /// host by the directed validator (graph500/validate.hpp) over a host copy of the device rows.
  /// A Kronecker graph is always undirected.
  bool directed = false;
};

/// The CUDA pipeline for a Kronecker graph.
std::unique_ptr<pipeline> make_cuda_pipeline(const graph::kronecker_params& p, const cuda_options& o);

/// The CUDA pipeline over a given host edge list (tests and benchmarks of non-Kronecker graphs):
/// generate() uploads it; everything else is as for a Kronecker graph.
std::unique_ptr<pipeline> make_cuda_pipeline(graph::edge_list edges, const cuda_options& o);

/// The CUDA pipeline over edge arrays in the caller's device memory (graph/cuda.hpp): generate()
/// copies them on the device into the pipeline's own list (ids narrowed and checked there), so
/// they must stay valid until then and are not read after; no host copy is made. The device
/// given must be the one the arrays live on.
std::unique_ptr<pipeline> make_cuda_pipeline(const graph::cuda::device_edge_arrays& edges, const cuda_options& o);

namespace cuda {
/// The GPU validator (src/graph500/cuda/validate.cu; shares no code with the search kernels), on
/// one process or over the ranks of `ranks` (collective there; null or one rank: one process).
/// g: the device rows: on one process every vertex's (possibly relabelled; new2old: the new ->
/// original id map, null: identity); over ranks this rank's block of the partition in original
/// ids (row r is vertex g.first_vertex + r, the ranks' blocks in rank order; new2old null).
/// parent (and dist) are DEVICE arrays holding original ids (-1: unreached): on one process
/// indexed by original id, over ranks this rank's slice (entry r for row r), all-gathered inside.
/// Checks as the reference (graph500/validate.hpp): parents in range, the root its own parent, the
/// tree acyclic and rooted (depth rebuilt by pointer jumping over the parents), every edge with both
/// ends reached or neither, the triangle rule (|d(u)-d(v)| <= 1, or <= w in float for SSSP), every
/// reached vertex confirmed by an edge to its parent at the exact level/distance, and the edge
/// count of the component (self-loops excluded, duplicates counted) equal to kernel_nedge (< 0: not
/// compared). The rows must hold both directions of every edge (an undirected graph). Over ranks
/// every rank returns the same verdict.
template <class V>
validation validate_bfs(graph::csr_view<V> g, const V* new2old, index_t root, const std::int64_t* parent,
                        index_t kernel_nedge, dist::device_exchange* ranks = nullptr);
template <class V>
validation validate_sssp(graph::csr_view<V> g, const V* new2old, index_t root, const std::int64_t* parent,
                         const float* dist, index_t kernel_nedge, dist::device_exchange* ranks = nullptr);
/// Device bytes the validator holds at its peak over ranks for a graph of n vertices and a rank
/// of `rows` rows: the whole parent and distance arrays, and the pointer jumping's four arrays.
std::size_t validator_device_bytes(index_t n, index_t rows);
}  // namespace cuda

/// The levels of the last BFS of a CUDA pipeline ("T0:1 L1:12 B3:401234 ..." = direction, level,
/// frontier vertices; L = device loop); empty for another pipeline.
std::string cuda_level_trace(const pipeline& p);

/// One line naming the techniques that are on ("enterprise ts+wb+hc+cache+sort+loop, 32-bit ids").
std::string describe(const cuda_options& o);

}  // namespace gpu500::graph500
