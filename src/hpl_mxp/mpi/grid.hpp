// The P x Q grid of HPL-MxP (internal): gpu500/dist/grid.hpp's grid of ranks (world ranks in
// row-major order, rank = row Q + column, HPL's default PMAP; every process in the grid), the
// check of its size, and one step of the LU without pivoting on it in the index arithmetic of
// HPL's 2-D block-cyclic layout (gpu500/hpl/grid.hpp): grid_step, who holds the diagonal block
// and which local rows and columns the step touches, shared by the CPU and CUDA backends, and
// the CPU's trailing update of a step in the look-ahead's three pieces (grid_pieces).
// Without MPI only the 1 x 1 grid exists.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

#include "gpu500/core/error.hpp"
#include "gpu500/dist/comm.hpp"
#include "gpu500/dist/grid.hpp"
#include "gpu500/hpl/grid.hpp"
#include "schedule.hpp"

namespace gpu500::hpl_mxp::detail {

/// The grid of ranks (gpu500/dist/grid.hpp: row-major, a communicator per process row and column).
using process_grid = dist::process_grid;

/// Throws usage_error unless p, q >= 1 and p q is the number of processes started.
inline void check_grid_size(const dist::communicator& world, int p, int q) {
  if (p < 1 || q < 1 || static_cast<long>(p) * q != world.size())
    throw usage_error("hpl-mxp: a " + std::to_string(p) + " x " + std::to_string(q) + " grid needs " +
                      std::to_string(static_cast<long>(p) * q) + " processes, " + std::to_string(world.size()) +
                      " were started (mpirun -np P*Q)");
}

/// Block column k (a multiple of nb) of the LU on process (g.myrow(), g.mycol()): the diagonal block
/// A11 (jb x jb) lives on process (pr, pc) at local (li0, lj0); this process's rows below it
/// start at li1 (mloc of them), its columns right of it at lj1 (nloc). A process in row pr holds
/// part of U12, one in column pc part of L21.
struct grid_step {
  std::int64_t k = 0, jb = 0, kb = 0;
  int pr = 0, pc = 0;
  std::int64_t li0 = 0, lj0 = 0, li1 = 0, lj1 = 0, mloc = 0, nloc = 0;
  bool in_row = false, in_col = false;
};

inline grid_step grid_step_at(std::int64_t n, std::int64_t nb, std::int64_t k, const process_grid& g) {
  grid_step s;
  s.k = k;
  s.jb = std::min(nb, n - k);
  s.kb = k / nb;
  s.pr = static_cast<int>(s.kb % g.p());
  s.pc = static_cast<int>(s.kb % g.q());
  s.li0 = hpl::local_start(k, nb, g.myrow(), g.p());
  s.lj0 = hpl::local_start(k, nb, g.mycol(), g.q());
  s.li1 = hpl::local_start(k + s.jb, nb, g.myrow(), g.p());
  s.lj1 = hpl::local_start(k + s.jb, nb, g.mycol(), g.q());
  s.mloc = hpl::numroc(n, nb, g.myrow(), g.p()) - s.li1;
  s.nloc = hpl::numroc(n, nb, g.mycol(), g.q()) - s.lj1;
  s.in_row = g.myrow() == s.pr;
  s.in_col = g.mycol() == s.pc;
  return s;
}

/// The trailing update of step st on this process in the look-ahead's three pieces (schedule.hpp's
/// gemm_piece, relative to local (li1, lj1)): the next block column's local columns, the next
/// block row's local rows (on the processes that hold them), the rest. On the 1 x 1 grid these
/// are lu_step_at's pieces.
inline std::array<gemm_piece, 3> grid_pieces(std::int64_t n, std::int64_t nb, const grid_step& st,
                                             const process_grid& g) {
  const std::int64_t next = st.k + st.jb, jn = std::min(nb, n - next);
  const bool more = next < n;
  const std::int64_t cols = more && g.mycol() == (st.kb + 1) % g.q() ? jn : 0;
  const std::int64_t rows = more && g.myrow() == (st.kb + 1) % g.p() ? jn : 0;
  return {gemm_piece{st.mloc, cols, 0, 0}, gemm_piece{rows, st.nloc - cols, 0, cols},
          gemm_piece{st.mloc - rows, st.nloc - cols, rows, cols}};
}

}  // namespace gpu500::hpl_mxp::detail
