// gpu500/graph500/validate.hpp — the Graph500 result validator on the host (OpenMP), for one
// process and over MPI ranks alike: one process is the one-rank case (src/graph500/validate.cpp).
//
// Follows the reference (src/validate.c, spec §Validation) and shares no code with any search
// kernel: it reads only the kernel-1 rows and the result slices, and no rank holds the graph or
// the whole result. Checks, in order:
//  1. every parent is -1 or a vertex id; the root is its own parent (SSSP: at distance 0, and
//     every reached vertex has a finite distance >= 0);
//  2. BFS: levels rebuilt from the parents, level-synchronously down child lists from the root
//     (a vertex whose parent chain does not reach the root gets none);
//  3. every arc (u, v): both ends reached or neither; triangle rule |d(u) - d(v)| <= w (w = 1 for
//     BFS, the float weight for SSSP, in float arithmetic as the reference); v's reached flag and
//     level or distance come from v's owner (one float per vertex all-gathered when every rank can
//     hold n of them, else asked per arc);
//  4. every reached vertex other than the root is confirmed by its parent arc: an arc (v, parent)
//     with d(v) == d(parent) + w exactly (catches cycles, non-edges and wrong levels);
//  5. the number of input edges in the component (self-loops excluded, duplicates counted) equals
//     the kernel's nedge.
// The answer is the same on every rank: the violation at the smallest vertex id, wherever found.
#pragma once

#include <cstdint>
#include <span>

#include "gpu500/dist/comm.hpp"
#include "gpu500/dist/partition.hpp"
#include "gpu500/graph/csr.hpp"
#include "gpu500/graph500/pipeline.hpp"

namespace gpu500::graph500 {

/// Validate a BFS tree over a whole graph (one process). kernel_nedge < 0 skips the edge-count
/// comparison (the count is still returned).
template <class V>
validation validate_bfs(graph::csr_view<V> g, index_t root, std::span<const std::int64_t> parent,
                        index_t kernel_nedge);

/// Validate an SSSP tree with float distances (unreached: parent -1; their distance is not read).
template <class V>
validation validate_sssp(graph::csr_view<V> g, index_t root, std::span<const std::int64_t> parent,
                         std::span<const float> dist, index_t kernel_nedge);

/// Validate a search on a directed graph (one process; `g` from graph::build_csr_directed, a row
/// holding a vertex's out-arcs): src/graph500/validate_directed.cpp. Its rules follow the arcs: a
/// tree rooted at the root, every arc u -> v out of a reached u has v reached with d(v) <= d(u) + w,
/// every reached vertex confirmed by the arc from its parent at exactly d(parent) + w, and nedge
/// the arcs out of reached vertices.
template <class V>
validation validate_bfs_directed(graph::csr_view<V> g, index_t root, std::span<const std::int64_t> parent,
                                 index_t kernel_nedge);
template <class V>
validation validate_sssp_directed(graph::csr_view<V> g, index_t root, std::span<const std::int64_t> parent,
                                  std::span<const float> dist, index_t kernel_nedge);

/// The same over the ranks of `c` (collective): `g` holds this rank's rows of `part` with global
/// column ids, `parent` and `dist` its owned vertices' results. ask_owners: rule 3 asks per arc
/// even where the gathered floats would fit (the tests check both ways).
template <class V>
validation validate_bfs(const dist::communicator& c, const dist::block_partition& part, graph::csr_view<V> g,
                        index_t root, std::span<const std::int64_t> parent, index_t kernel_nedge,
                        bool ask_owners = false);
template <class V>
validation validate_sssp(const dist::communicator& c, const dist::block_partition& part, graph::csr_view<V> g,
                         index_t root, std::span<const std::int64_t> parent, std::span<const float> dist,
                         index_t kernel_nedge, bool ask_owners = false);

}  // namespace gpu500::graph500
