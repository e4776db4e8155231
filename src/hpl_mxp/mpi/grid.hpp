// The P x Q process grid of HPL-MxP's CPU backend over MPI (internal): world ranks in row-major
// order (rank = row Q + column, HPL's default PMAP), a communicator per process row and per
// process column (MPI_Comm_split, freed with the grid), and the index arithmetic of HPL's 2-D
// block-cyclic layout (gpu500/hpl/grid.hpp). Without MPI only the 1 x 1 grid exists.
#pragma once

#include "gpu500/dist/comm.hpp"

namespace gpu500::hpl_mxp::detail {

class process_grid {
 public:
  /// Collective over the world communicator; throws usage_error unless p q equals its size.
  process_grid(int p, int q);
  ~process_grid();
  process_grid(const process_grid&) = delete;
  process_grid& operator=(const process_grid&) = delete;

  int p = 1, q = 1, myrow = 0, mycol = 0;
  dist::communicator all, row, col;  ///< row: the processes of my row (rank = column), col alike
  /// World rank of process (r, c).
  [[nodiscard]] int rank_of(int r, int c) const { return r * q + c; }

 private:
  void* owned_[2] = {nullptr, nullptr};  // the split MPI_Comms (heap copies)
};

}  // namespace gpu500::hpl_mxp::detail
