// Recursive panel factorisation of HPL (internal; used by the CPU solver and, on host memory,
// by the CUDA backend's panel step).
//
// A process of the panel's process column sees the panel as a virtual matrix [T; O]: T is the
// jb x jb top block (global rows k .. k+jb-1), replicated on every process of the column, O are
// the process's own other panel rows (global rows >= k+jb). Every column does a max-loc search
// over T and all O's of the column (one MAXLOC all-reduce and a broadcast of the pivot row, as
// HPL_pdmxswp), then swaps whole panel rows. The variants follow HPL_pdfact:
//   RFACT (recursive): split into NDIV parts until the width is <= NBMIN; left-looking,
//   Crout or right-looking order of the parts' updates (DTRSM on T, DGEMM below).
//   PFACT (base case): left-looking (DTRSV + DGEMV), Crout (DGEMV on column and row), or
//   right-looking (DSCAL + DGER) column by column.
// ipiv receives, for every panel column j, the global position swapped with position k + j
// (LAPACK's sequential convention, global 0-based).
#pragma once

#include <cstdint>
#include <vector>

#include "gpu500/hpl/dat.hpp"
#include "../mpi/comm.hpp"

namespace gpu500::hpl::detail {

struct panel_view {
  int jb = 0;
  std::int64_t k = 0;             ///< global position of T's row 0
  double* t = nullptr;            ///< jb x jb, leading dimension jb
  double* o = nullptr;            ///< mo x jb, leading dimension ldo
  std::int64_t ldo = 1, mo = 0;
  // Global position of O row i: global_of(o_first + i, nb, myrow, nprow).
  std::int64_t o_first = 0;
  int nb = 1, myrow = 0, nprow = 1;
  const comm* col = nullptr;      ///< the process column (size 1 on one process)
};

struct panel_opts {
  fact pfact = fact::right, rfact = fact::crout;
  int nbmin = 4, ndiv = 2;
  /// 0: OpenMP threads over the O rows with BLAS single-threaded inside the panel (the CUDA
  /// backend: the cores are free while the GPU updates); 1: serial loops, BLAS as configured
  /// (the CPU backend: its threaded BLAS and spinning OpenMP threads would fight).
  int threads = 1;
};

/// Factor the panel in place; returns the pivots (global positions). Zero pivots are counted
/// in `zero_pivots` (the factorisation goes on, as HPL's does).
std::vector<std::int64_t> factor_panel(const panel_view& pv, const panel_opts& po, int* zero_pivots = nullptr);

/// The net row movement of the swaps ipiv[0..jb) applied to positions k.. : for every U row t
/// (position k + t) the original position it comes from, and for every other position that
/// changes the original (block) position of its new content.
struct swap_plan {
  std::vector<std::int64_t> u_src;                          ///< jb entries
  std::vector<std::pair<std::int64_t, std::int64_t>> moved;  ///< (dest outside block, src in block)
};
swap_plan plan_swaps(std::int64_t k, int jb, const std::int64_t* ipiv);

}  // namespace gpu500::hpl::detail
