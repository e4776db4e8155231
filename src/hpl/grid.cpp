// HPL's P x Q grid (gpu500/hpl/grid.hpp) over the grid of ranks of gpu500/dist/grid.hpp: the
// check that enough processes run, and this process's place in the grid and on its host.
#include "gpu500/hpl/grid.hpp"

#include <string>

#include "gpu500/core/error.hpp"
#include "mpi/comm.hpp"

namespace gpu500::hpl {

grid grid::create(int p, int q, bool col_major) {
  GPU500_EXPECTS(p >= 1 && q >= 1, "HPL grid dimensions must be >= 1");
  const dist::communicator world = dist::communicator::world();
  grid g;
  g.p = p;
  g.q = q;
  g.world_rank = world.rank();
  g.world_size = world.size();
  g.local_rank = world.node_rank();
  if (static_cast<long>(p) * q > g.world_size)
    throw usage_error("HPL grid " + std::to_string(p) + " x " + std::to_string(q) + " needs " +
                      std::to_string(static_cast<long>(p) * q) + " processes, only " +
                      std::to_string(g.world_size) + " running (use mpirun -np)");
  g.comms = std::make_shared<detail::grid_comms>(world, p, q, col_major);
  g.in_grid = g.comms->ranks.in_grid();
  g.myrow = g.comms->ranks.myrow();
  g.mycol = g.comms->ranks.mycol();
  return g;
}

}  // namespace gpu500::hpl
