// The Graph500 validator over MPI ranks (internal): the reference's rules (src/validate.c,
// spec §Validation) checked with no rank holding the graph or the whole result. It reads only the
// owned rows and the result slices, and shares no search code with the kernels (only the
// exchanges and group_by_rank, which builds every send buffer):
//  1. every parent is -1 or a vertex; the root is its own parent (SSSP: at distance 0, and every
//     reached vertex has a finite distance >= 0);
//  2. BFS: levels rebuilt from the parents, level-synchronously: each rank asks the owners of its
//     vertices' parents for their levels until no level is added anywhere;
//  3. for every owned arc (u, v), v's reached flag and level/distance come from v's owner (one
//     float per vertex all-gathered when every rank can hold n of them, else asked per arc):
//     both ends reached or neither; |d(u) - d(v)| <= w (w = 1 for BFS);
//  4. every reached vertex but the root is confirmed by an arc to its parent p with
//     d(v) == d(p) + w exactly (catches cycles, non-edges and wrong levels);
//  5. nedge: the arcs (u, v) with u < v and both ends reached, summed over ranks, must equal the
//     kernel's count.
// The answer is the same on every rank: the violation at the smallest vertex id, wherever found.
#pragma once

#include <cstdint>
#include <span>

#include "gpu500/dist/comm.hpp"
#include "gpu500/dist/partition.hpp"
#include "gpu500/graph/csr.hpp"
#include "gpu500/graph500/pipeline.hpp"

namespace gpu500::graph500::mpi {

/// kernel_nedge < 0 skips the count comparison; ask_owners: rule 3 asks per arc even where the
/// gathered floats would fit. Collective.
validation validate_bfs(const dist::communicator& c, const dist::block_partition& part,
                        graph::csr_view<std::int64_t> g, index_t root, std::span<const std::int64_t> parent,
                        index_t kernel_nedge, bool ask_owners = false);

validation validate_sssp(const dist::communicator& c, const dist::block_partition& part,
                         graph::csr_view<std::int64_t> g, index_t root, std::span<const std::int64_t> parent,
                         std::span<const float> dist, index_t kernel_nedge, bool ask_owners = false);

}  // namespace gpu500::graph500::mpi
