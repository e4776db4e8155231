// One process's part of HPL-MxP's FP32 matrix on the CPU (internal), in HPL's 2-D block-cyclic
// layout over a P x Q grid (gpu500/hpl/grid.hpp's index arithmetic); on the 1 x 1 grid the part is
// the whole matrix. Also the row walk over the part that generates it and regenerates it for the
// FP64 products: runs of 64 local rows in parallel, each row walked with one LCG jump per run of
// consecutive global columns (all of them on a 1 x 1 grid or a P x 1 one, one per block column
// otherwise) and one multiply-add per entry.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "gpu500/hpl/grid.hpp"
#include "gpu500/hpl_mxp/matgen.hpp"

namespace gpu500::hpl_mxp::detail {

/// Process (myrow, mycol)'s part: mp x nq FP32 at a (column-major, leading dimension lld), the
/// global index of each local row (grow) and column (gcol). It owns its storage, or views a
/// caller's n x n matrix as the 1 x 1 grid's part.
struct local_matrix {
  std::int64_t n = 0, nb = 1, mp = 0, nq = 0, lld = 1;
  std::vector<float> storage;
  float* a = nullptr;
  std::vector<std::int64_t> grow, gcol;

  local_matrix(std::int64_t n_, std::int64_t nb_, int myrow, int mycol, int p, int q)
      : n(n_), nb(nb_), mp(hpl::numroc(n_, nb_, myrow, p)), nq(hpl::numroc(n_, nb_, mycol, q)),
        lld(std::max<std::int64_t>(1, mp)), storage(static_cast<std::size_t>(lld * nq)), a(storage.data()),
        grow(static_cast<std::size_t>(mp)), gcol(static_cast<std::size_t>(nq)) {
    for (std::int64_t i = 0; i < mp; ++i) grow[i] = hpl::global_of(i, nb, myrow, p);
    for (std::int64_t j = 0; j < nq; ++j) gcol[j] = hpl::global_of(j, nb, mycol, q);
  }
  /// The 1 x 1 grid's part over a caller's matrix (lda >= n), blocks of nb.
  local_matrix(std::int64_t n_, std::int64_t nb_, float* a_, std::int64_t lda)
      : n(n_), nb(nb_), mp(n_), nq(n_), lld(lda), a(a_), grow(static_cast<std::size_t>(n_)),
        gcol(static_cast<std::size_t>(n_)) {
    for (std::int64_t i = 0; i < n; ++i) grow[i] = gcol[i] = i;
  }
  local_matrix(const local_matrix&) = delete;
  local_matrix& operator=(const local_matrix&) = delete;

  float* at(std::int64_t li, std::int64_t lj) const { return a + lj * lld + li; }
};

/// Calls f(li0, rows, lj, vals) for every local column lj of every run of up to 64 local rows,
/// vals the drawn entries of local rows li0 .. li0 + rows - 1 in global column gcol[lj]; runs of
/// rows in parallel, each run's columns in order.
template <class F>
void walk_local(const local_matrix& m, F&& f) {
  constexpr std::int64_t run = 64;
  const hpl::lcg_jump by_n = hpl::lcg_jump_by(static_cast<std::uint64_t>(m.n));
  const std::int64_t runs = (m.mp + run - 1) / run;
#pragma omp parallel for schedule(dynamic, 1)
  for (std::int64_t t = 0; t < runs; ++t) {
    const std::int64_t li0 = t * run, rows = std::min(run, m.mp - li0);
    std::uint64_t x[run];
    double vals[run];
    for (std::int64_t lj0 = 0, lj1 = 0; lj0 < m.nq; lj0 = lj1) {
      // Local columns lj0 .. lj1 - 1 are consecutive global columns: one jump per row.
      for (lj1 = lj0 + 1; lj1 < m.nq && m.gcol[lj1] == m.gcol[lj1 - 1] + 1; ++lj1) {
      }
      for (std::int64_t r = 0; r < rows; ++r) x[r] = row_walk(m.n, m.grow[li0 + r], m.gcol[lj0], by_n).x;
      for (std::int64_t lj = lj0; lj < lj1; ++lj) {
        for (std::int64_t r = 0; r < rows; ++r) {
          vals[r] = mxp_value(x[r]);
          x[r] = by_n.apply(x[r]);
        }
        f(li0, rows, lj, vals);
      }
    }
  }
}

}  // namespace gpu500::hpl_mxp::detail
