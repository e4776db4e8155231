// The CPU backend's pieces (internal, also used by the tests): the reference matrix in FP32 on
// one process's part of a P x Q grid (cpu/matrix.hpp) with its FP64 diagonal, the part's FP64
// product with A regenerated, and the FP32 blocked right-looking LU without pivoting over the
// grid (OpenBLAS strsm / sgemm, the diagonal blocks unblocked). generate_f32, matvec_regen and
// getrf_nopiv are the same code on the 1 x 1 grid over a caller's n x n matrix.
#pragma once

#include <cstdint>
#include <vector>

#include "cpu/matrix.hpp"
#include "gpu500/hpl_mxp/matgen.hpp"
#include "mpi/grid.hpp"

namespace gpu500::hpl_mxp::detail {

/// The diagonal of A and the row sums of |A| (FP64), computed in the reference's order (j from
/// 0 to n-1, the drawn diagonal entry added, then subtracted).
struct row_sums {
  std::vector<double> diag;  ///< A(i, i)
  double norm_inf = 0;       ///< ||A||_oo
};

/// This process's part of A in FP32 (collective over g: the row sums are summed over the grid);
/// returns the whole diagonal and ||A||_oo, the same on every process.
row_sums generate_local(local_matrix& m, diagonal d, const process_grid& g);
/// acc[li] = sum over the part's columns gj of A(grow[li], gj) v[gj] (FP64, A regenerated: the
/// drawn entries and the diagonal from `diag`), for the part's rows li.
void local_product(const local_matrix& m, const std::vector<double>& diag, const double* v, double* acc);
/// LU without pivoting of the grid's matrix (collective over g; see cpu/lu.cpp).
void factor_local(local_matrix& m, const process_grid& g);

/// A in FP32 into a (column-major, lda >= n); returns the FP64 diagonal and ||A||_oo.
row_sums generate_f32(std::int64_t n, diagonal d, float* a, std::int64_t lda);
/// b of the reference (FP64).
std::vector<double> generate_b(std::int64_t n);
/// y = alpha A v + beta y in FP64, A regenerated (entries as drawn, diagonal from `diag`).
void matvec_regen(std::int64_t n, const std::vector<double>& diag, const double* v, double* y, double alpha,
                  double beta);

/// Unblocked in-place LU without pivoting of the jb x jb block at a (leading dimension lda).
void factor_block(float* a, std::int64_t jb, std::int64_t lda);
/// In-place LU without pivoting of the n x n FP32 matrix a (unit-lower L, upper U), blocks of nb.
void getrf_nopiv(float* a, std::int64_t n, std::int64_t lda, int nb);

}  // namespace gpu500::hpl_mxp::detail
