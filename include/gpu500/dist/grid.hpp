// gpu500/dist/grid.hpp — the P x Q grid of ranks of the dense solvers (HPL, HPL-MxP).
//
// Ranks 0 .. P*Q-1 of the world communicator form the grid, in row-major order (rank = row Q +
// column, HPL's default PMAP) or column-major order (rank = column P + row); further ranks sit
// idle (in_grid() false), as in netlib HPL. The grid holds a communicator over its ranks and one
// per process row (ranks in column order) and per process column (ranks in row order), split
// once and freed with the grid, and, for the CUDA solvers, NCCL communicators over the process
// row and column, made on first use and kept for the grid's lifetime (making one costs a
// collective and tens of milliseconds). With one rank (or without MPI) only the 1 x 1 grid
// exists and every communicator is a one-rank one: nothing of MPI is needed.
#pragma once

#include <array>
#include <memory>

#include "gpu500/dist/comm.hpp"

namespace gpu500::dist {

class nccl_comm;  // gpu500/dist/nccl.hpp (CUDA code only)

class process_grid {
 public:
  /// Collective over `world` (the ranks started: communicator::world()). Expects p, q >= 1 and
  /// p q <= its size (callers check these first, with their own messages).
  process_grid(const communicator& world, int p, int q, bool col_major = false);
  ~process_grid();
  process_grid(const process_grid&) = delete;
  process_grid& operator=(const process_grid&) = delete;

  [[nodiscard]] int p() const { return p_; }
  [[nodiscard]] int q() const { return q_; }
  [[nodiscard]] int myrow() const { return myrow_; }
  [[nodiscard]] int mycol() const { return mycol_; }
  [[nodiscard]] bool in_grid() const { return in_grid_; }
  [[nodiscard]] bool col_major() const { return col_major_; }
  /// Rank (in all() and in the world) of process (r, c).
  [[nodiscard]] int rank_of(int r, int c) const { return col_major_ ? c * p_ + r : r * q_ + c; }

  /// Every rank started (node_rank(): this rank's place on its host, which picks its GPU).
  [[nodiscard]] const communicator& world() const { return world_; }
  /// The grid's ranks; the ranks of my process row (rank = column); of my process column (rank
  /// = row). One-rank communicators on an idle rank.
  [[nodiscard]] const communicator& all() const { return all_; }
  [[nodiscard]] const communicator& row() const { return row_; }
  [[nodiscard]] const communicator& col() const { return col_; }

  /// NCCL over my process row / column, number `slot` of each (0 or 1: a communicator per
  /// stream, so that two streams' operations never interleave on one). Made on first use:
  /// collective over that row or column, and every rank of it must ask in the same order. Each
  /// rank's current CUDA device is its GPU. Defined in CUDA builds only (src/dist/nccl.cpp).
  [[nodiscard]] const nccl_comm& row_nccl(int slot = 0) const;
  [[nodiscard]] const nccl_comm& col_nccl(int slot = 0) const;

 private:
  int p_ = 1, q_ = 1, myrow_ = 0, mycol_ = 0;
  bool in_grid_ = true, col_major_ = false;
  communicator world_, all_, row_, col_;
  std::array<std::uint64_t, 3> owned_{};  // the split MPI_Comms' bits (all, row, col); 0: none
  mutable std::array<std::shared_ptr<nccl_comm>, 2> row_nccl_, col_nccl_;
};

}  // namespace gpu500::dist
