// The P x Q grid of HPL-MxP's CPU backend (mpi/grid.hpp): row and column communicators split
// from the world communicator.
#include "mpi/grid.hpp"

#include <string>

#include "gpu500/config.hpp"
#include "gpu500/core/error.hpp"

#if GPU500_HAVE_MPI
#include <mpi.h>
#endif

namespace gpu500::hpl_mxp::detail {

process_grid::process_grid(int p_, int q_) : p(p_), q(q_), all(dist::communicator::world()) {
  if (p < 1 || q < 1 || static_cast<long>(p) * q != all.size())
    throw usage_error("hpl-mxp: a " + std::to_string(p) + " x " + std::to_string(q) + " grid needs " +
                      std::to_string(static_cast<long>(p) * q) + " processes, " + std::to_string(all.size()) +
                      " were started (mpirun -np P*Q)");
  myrow = all.rank() / q;
  mycol = all.rank() % q;
#if GPU500_HAVE_MPI
  if (all.is_mpi()) {
    auto* rowc = new MPI_Comm;
    auto* colc = new MPI_Comm;
    owned_[0] = rowc;
    owned_[1] = colc;
    MPI_Comm_split(MPI_COMM_WORLD, myrow, mycol, rowc);
    MPI_Comm_split(MPI_COMM_WORLD, mycol, myrow, colc);
    row = dist::communicator::from_native(rowc);
    col = dist::communicator::from_native(colc);
  }
#endif
}

process_grid::~process_grid() {
#if GPU500_HAVE_MPI
  for (void* c : owned_)
    if (c) {
      int finalized = 0;
      MPI_Finalized(&finalized);
      if (!finalized) MPI_Comm_free(static_cast<MPI_Comm*>(c));
      delete static_cast<MPI_Comm*>(c);
    }
#endif
}

}  // namespace gpu500::hpl_mxp::detail
