// The CPU backend's pieces (internal, also used by the tests): the reference matrix in FP32 with
// its FP64 diagonal, a row-block walk of A for products in FP64, and the FP32 blocked
// right-looking LU without pivoting (OpenBLAS strsm / sgemm, the diagonal blocks unblocked).
#pragma once

#include <cstdint>
#include <vector>

#include "gpu500/hpl_mxp/matgen.hpp"

namespace gpu500::hpl_mxp::detail {

/// The diagonal of A and the row sums of |A| (FP64), computed in the reference's order (j from
/// 0 to n-1, the drawn diagonal entry added, then subtracted).
struct row_sums {
  std::vector<double> diag;  ///< A(i, i)
  double norm_inf = 0;       ///< ||A||_oo
};

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
