// FP32 blocked right-looking LU without pivoting of the grid's matrix (cpu/lu.hpp), as the
// reference's sgetrf_nopiv over HPL's 2-D block-cyclic layout (mpi/grid.hpp's grid_step). For
// each block column k of nb columns:
//   A11 = L11 U11   the owner of the diagonal block, unblocked, in place (NB x NB is small);
//                   it goes along the owner's process column and row;
//   L21 = A21 U11^-1  the process column, cblas_strsm (right, upper, non-unit), in place;
//   U12 = L11^-1 A12  the process row, cblas_strsm (left, lower, unit), in place;
//                   L21 goes along the process rows, U12 along the process columns;
//   A22 -= L21 U12  every process on its part: cblas_sgemm in the CUDA look-ahead's three pieces
//                   (grid_pieces), one after the other (the CPU has no look-ahead).
// What a process computed it uses where it lies; only what travels is packed into a buffer, so
// on the 1 x 1 grid (and along a one-process row or column) nothing is copied.
// A zero pivot gives inf / NaN factors; the refinement then reports the run as FAILED.
#include <cblas.h>

#include <algorithm>

#include "cpu/lu.hpp"

namespace gpu500::hpl_mxp::detail {

namespace {

// rows x cols at a (leading dimension lda) into buf, contiguous (leading dimension rows).
void pack(const float* a, std::int64_t lda, std::int64_t rows, std::int64_t cols, std::vector<float>& buf) {
  buf.resize(static_cast<std::size_t>(rows * cols));
  for (std::int64_t j = 0; j < cols; ++j) std::copy_n(a + j * lda, rows, buf.data() + j * rows);
}

// A panel where the next step reads it: in the matrix, or in the buffer it arrived in.
struct panel {
  const float* p = nullptr;
  std::int64_t ld = 1;
};

// The panel computed at `here` (leading dimension lda) by the processes of `c` at `root` (mine
// when `computed`), rows x cols: sent to the others of `c` when there are any.
panel share(const dist::communicator& c, int root, bool computed, float* here, std::int64_t lda, std::int64_t rows,
            std::int64_t cols, std::vector<float>& buf) {
  if (rows <= 0 || cols <= 0) return {};
  if (c.size() > 1) {
    if (computed) pack(here, lda, rows, cols, buf);
    buf.resize(static_cast<std::size_t>(rows * cols));
    c.bcast_bytes(buf.data(), sizeof(float) * buf.size(), root);
    if (!computed) return {buf.data(), rows};
  }
  return {here, lda};
}

}  // namespace

void factor_block(float* a, std::int64_t jb, std::int64_t lda) {
  for (std::int64_t c = 0; c < jb; ++c) {
    float* col = a + c * lda;
    const float piv = col[c];
    for (std::int64_t i = c + 1; i < jb; ++i) col[i] /= piv;
    for (std::int64_t j = c + 1; j < jb; ++j) {
      float* cj = a + j * lda;
      const float u = cj[c];
      for (std::int64_t i = c + 1; i < jb; ++i) cj[i] -= col[i] * u;
    }
  }
}

void factor_local(local_matrix& m, const process_grid& g) {
  const int ld = static_cast<int>(m.lld);
  std::vector<float> dcol, drow, lbuf, ubuf;  // what travels; untouched on the 1 x 1 grid
  for (std::int64_t k = 0; k < m.n; k += m.nb) {
    const grid_step st = grid_step_at(m.n, m.nb, k, g);
    const int ijb = static_cast<int>(st.jb);
    const bool owner = st.in_row && st.in_col;
    if (owner) factor_block(m.at(st.li0, st.lj0), st.jb, m.lld);
    // U11 for L21 (the process column), L11 for U12 (the process row).
    float* a11 = owner ? m.at(st.li0, st.lj0) : nullptr;
    const panel dc = st.in_col ? share(g.col(), st.pr, owner, a11, m.lld, st.jb, st.jb, dcol) : panel{};
    const panel dr = st.in_row ? share(g.row(), st.pc, owner, a11, m.lld, st.jb, st.jb, drow) : panel{};
    float* a21 = st.in_col ? m.at(st.li1, st.lj0) : nullptr;
    float* a12 = st.in_row ? m.at(st.li0, st.lj1) : nullptr;
    if (st.in_col && st.mloc > 0)
      cblas_strsm(CblasColMajor, CblasRight, CblasUpper, CblasNoTrans, CblasNonUnit, static_cast<int>(st.mloc), ijb,
                  1.0f, dc.p, static_cast<int>(dc.ld), a21, ld);
    if (st.in_row && st.nloc > 0)
      cblas_strsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasUnit, ijb, static_cast<int>(st.nloc), 1.0f,
                  dr.p, static_cast<int>(dr.ld), a12, ld);
    // A process row shares its local rows (the same mloc), a process column its columns.
    const panel l21 = share(g.row(), st.pc, st.in_col, a21, m.lld, st.mloc, st.jb, lbuf);
    const panel u12 = share(g.col(), st.pr, st.in_row, a12, m.lld, st.jb, st.nloc, ubuf);
    for (const gemm_piece& pc : grid_pieces(m.n, m.nb, st, g)) {
      if (pc.rows <= 0 || pc.cols <= 0) continue;
      cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(pc.rows), static_cast<int>(pc.cols), ijb,
                  -1.0f, l21.p + pc.row0, static_cast<int>(l21.ld), u12.p + pc.col0 * u12.ld,
                  static_cast<int>(u12.ld), 1.0f, m.at(st.li1 + pc.row0, st.lj1 + pc.col0), ld);
    }
  }
}

void getrf_nopiv(float* a, std::int64_t n, std::int64_t lda, int nb) {
  local_matrix m(n, std::max(1, nb), a, lda);
  factor_local(m, process_grid(dist::communicator(), 1, 1));
}

}  // namespace gpu500::hpl_mxp::detail
