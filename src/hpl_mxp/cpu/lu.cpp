// FP32 blocked right-looking LU without pivoting (cpu/lu.hpp), as the reference's
// sgetrf_nopiv: for each block column k of nb columns,
//   A11 = L11 U11            unblocked, in place (serial: NB x NB is small);
//   A21 = A21 U11^-1         cblas_strsm (right, upper, non-unit);
//   A12 = L11^-1 A12         cblas_strsm (left, lower, unit);
//   A22 = A22 - A21 A12      cblas_sgemm, in the look-ahead's three pieces (schedule.hpp).
// A zero pivot gives inf / NaN factors; the refinement then reports the run as FAILED.
#include <cblas.h>

#include <algorithm>

#include "cpu/lu.hpp"
#include "schedule.hpp"

namespace gpu500::hpl_mxp::detail {

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

void getrf_nopiv(float* a, std::int64_t n, std::int64_t lda, int nb) {
  const std::int64_t step = std::max(1, nb);
  const int ilda = static_cast<int>(lda);
  for (std::int64_t k = 0; k < n; k += step) {
    const lu_step st = lu_step_at(n, step, k);
    float* a11 = a + k + k * lda;
    factor_block(a11, st.jb, lda);
    if (st.m2 == 0) break;
    float* a21 = a11 + st.jb;
    float* a12 = a11 + st.jb * lda;
    const int im2 = static_cast<int>(st.m2), ijb = static_cast<int>(st.jb);
    cblas_strsm(CblasColMajor, CblasRight, CblasUpper, CblasNoTrans, CblasNonUnit, im2, ijb, 1.0f, a11, ilda, a21, ilda);
    cblas_strsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasUnit, ijb, im2, 1.0f, a11, ilda, a12, ilda);
    // The CUDA backend's three pieces (schedule.hpp), here one after the other.
    for (const gemm_piece& g : {st.next_column, st.next_row, st.rest}) {
      if (g.rows == 0 || g.cols == 0) continue;
      cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(g.rows), static_cast<int>(g.cols), ijb,
                  -1.0f, a21 + g.row0, ilda, a12 + g.col0 * lda, ilda, 1.0f, a12 + st.jb + g.row0 + g.col0 * lda, ilda);
    }
  }
}

}  // namespace gpu500::hpl_mxp::detail
