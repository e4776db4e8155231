// gpu500/graph500/validate.hpp — the Graph500 result validator on the host (OpenMP).
//
// Follows the reference (src/validate.c, spec §Validation) and shares no code with any search
// kernel: it reads only the kernel-1 graph and the result arrays. Checks, in order:
//  1. every parent is -1 or a vertex id; the root is its own parent (and at distance 0);
//  2. BFS: a level map is rebuilt from the parents by propagating from the root along graph edges
//     whose far end names the near end as parent; SSSP: distances are >= 0 exactly where parent != -1;
//  3. every graph edge: both ends reached or neither; triangle rule |d(u) - d(v)| <= w (w = 1 for
//     BFS, the float weight for SSSP, in float arithmetic as the reference);
//  4. every reached vertex other than the root is confirmed by its parent edge: an edge (parent, v)
//     exists with d(v) == d(parent) + w exactly (catches cycles, non-edges and wrong levels);
//  5. the number of input edges in the component (self-loops excluded, duplicates counted) equals
//     the kernel's nedge.
#pragma once

#include <cstdint>
#include <span>

#include "gpu500/graph/csr.hpp"
#include "gpu500/graph500/pipeline.hpp"

namespace gpu500::graph500 {

/// Validate a BFS tree. kernel_nedge < 0 skips the edge-count comparison (the count is still returned).
template <class V>
validation validate_bfs(graph::csr_view<V> g, index_t root, std::span<const std::int64_t> parent,
                        index_t kernel_nedge);

/// Validate an SSSP tree with float distances (unreached: parent -1; their distance is not read).
template <class V>
validation validate_sssp(graph::csr_view<V> g, index_t root, std::span<const std::int64_t> parent,
                         std::span<const float> dist, index_t kernel_nedge);

}  // namespace gpu500::graph500
