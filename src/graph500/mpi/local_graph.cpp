// Kernel 1 over MPI ranks on the host: the owned rows of the one host kernel 1
// (graph::build_csr over the ranks). See local_graph.hpp.
#include "local_graph.hpp"

#include <utility>

namespace gpu500::graph500::mpi {

local_graph build_local_graph(const dist::communicator& c, const dist::block_partition& part,
                              const graph::edge_list& slice) {
  graph::csr<std::int64_t> rows = graph::build_csr<std::int64_t>(c, part, slice);
  local_graph g;
  g.num_vertices = rows.num_vertices;
  g.owned = part.range(c.rank());
  g.offsets = std::move(rows.offsets);
  g.columns = std::move(rows.columns);
  g.weights = std::move(rows.weights);
  return g;
}

}  // namespace gpu500::graph500::mpi
