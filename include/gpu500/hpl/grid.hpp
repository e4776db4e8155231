// gpu500/hpl/grid.hpp — the P x Q process grid and the 2-D block-cyclic index arithmetic.
//
// Ranks 0 .. P*Q-1 of MPI_COMM_WORLD form the grid (row-major PMAP: rank = row*Q + col;
// column-major: rank = col*P + row); extra ranks sit idle as in netlib. The ranks and their
// communicators are gpu500/dist/grid.hpp's; this is HPL's view of them. Without MPI (or with
// one process) only the 1 x 1 grid exists. Row r of the global matrix lives on process row
// (r / nb) % P at local row (r / (nb P)) nb + r % nb; columns alike over Q.
#pragma once

#include <cstdint>
#include <memory>

#include "gpu500/core/types.hpp"

namespace gpu500::hpl {

namespace detail {
struct grid_comms;  // the grid's ranks and HPL's communication over them (src/hpl/mpi)
}

struct grid {
  int p = 1, q = 1;
  int myrow = 0, mycol = 0;
  int world_rank = 0, world_size = 1;
  int local_rank = 0;   ///< rank among the processes of this node (communicator::node_rank)
  bool in_grid = true;  ///< false on idle ranks
  std::shared_ptr<detail::grid_comms> comms;

  /// Build the grid over MPI_COMM_WORLD (collective over all ranks when MPI is initialised).
  /// Throws usage_error when P*Q exceeds the number of processes.
  static grid create(int p, int q, bool col_major);
};

/// Number of rows (or columns) of an n-long dimension owned by process iproc of nprocs, block nb
/// (ScaLAPACK numroc with source process 0).
inline std::int64_t numroc(std::int64_t n, std::int64_t nb, int iproc, int nprocs) {
  const std::int64_t nblocks = n / nb;
  std::int64_t r = (nblocks / nprocs) * nb;
  const std::int64_t extra = nblocks % nprocs;
  if (iproc < extra) r += nb;
  else if (iproc == extra) r += n % nb;
  return r;
}
/// Leading dimension of a local matrix of `rows` rows, as HPL sizes it: rounded up to a multiple of
/// align, at least min_ld, and never a power of two (power-of-two strides alias in the caches).
inline std::int64_t leading_dimension(std::int64_t rows, std::int64_t align, std::int64_t min_ld) {
  const std::int64_t up = (rows + align - 1) / align * align;
  std::int64_t ld = up > min_ld ? up : min_ld;
  if (ld > 1 && (ld & (ld - 1)) == 0) ld += align;
  return ld;
}
/// Owner process of global index g (these three also on the device).
GPU500_HD inline int owner_of(std::int64_t g, std::int64_t nb, int nprocs) { return static_cast<int>((g / nb) % nprocs); }
/// Local index of global index g on its owner.
GPU500_HD inline std::int64_t local_of(std::int64_t g, std::int64_t nb, int nprocs) {
  return (g / (nb * nprocs)) * nb + g % nb;
}
/// Global index of local index l on process iproc.
GPU500_HD inline std::int64_t global_of(std::int64_t l, std::int64_t nb, int iproc, int nprocs) {
  return ((l / nb) * nprocs + iproc) * nb + l % nb;
}
/// First local index whose global index is >= g, on process iproc.
inline std::int64_t local_start(std::int64_t g, std::int64_t nb, int iproc, int nprocs) {
  return numroc(g, nb, iproc, nprocs);
}

/// The local part of an n x (n+1) [A | b] on process (myrow, mycol) of a P x Q grid, block nb: mp
/// local rows, nq local columns (of the n+1), column-major with leading dimension lda.
struct local_layout {
  std::int64_t n = 0;
  int nb = 1, p = 1, q = 1, myrow = 0, mycol = 0;
  std::int64_t mp = 0, nq = 0, lda = 1;
};
/// Process (g.myrow, g.mycol)'s layout; lda: its rows as leading_dimension(mp, align, min_ld).
inline local_layout layout_of(std::int64_t n, int nb, const grid& g, std::int64_t align, std::int64_t min_ld) {
  local_layout l;
  l.n = n;
  l.nb = nb;
  l.p = g.p;
  l.q = g.q;
  l.myrow = g.myrow;
  l.mycol = g.mycol;
  l.mp = numroc(n, nb, g.myrow, g.p);
  l.nq = numroc(n + 1, nb, g.mycol, g.q);
  l.lda = leading_dimension(l.mp, align, min_ld);
  return l;
}

}  // namespace gpu500::hpl
