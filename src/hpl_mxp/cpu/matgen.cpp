// The reference matrix on the host (cpu/lu.hpp): blocks of 64 consecutive rows, each walked
// along its columns (one LCG jump per row, then one multiply-add per entry), so a block writes
// one contiguous run of each column and sums its rows in the reference's order. OpenMP over the
// row blocks. The same walk regenerates A for the FP64 products of the refinement.
#include <omp.h>

#include <algorithm>
#include <cmath>

#include "cpu/lu.hpp"

namespace gpu500::hpl_mxp::detail {

namespace {

constexpr std::int64_t rows_per_block = 64;

// Calls f(i0, rows, j, vals) for every column j of every block of rows [i0, i0 + rows), vals the
// drawn entries (i0 .. i0 + rows - 1, j); blocks run in parallel, columns in order.
template <class F>
void walk_blocks(std::int64_t n, F&& f) {
  const hpl::lcg_jump by_n = hpl::lcg_jump_by(static_cast<std::uint64_t>(n));
  const std::int64_t blocks = (n + rows_per_block - 1) / rows_per_block;
#pragma omp parallel for schedule(dynamic, 1)
  for (std::int64_t blk = 0; blk < blocks; ++blk) {
    const std::int64_t i0 = blk * rows_per_block, rows = std::min(rows_per_block, n - i0);
    std::uint64_t x[rows_per_block];
    double vals[rows_per_block];
    for (std::int64_t r = 0; r < rows; ++r) x[r] = row_walk(n, i0 + r, 0, by_n).x;
    for (std::int64_t j = 0; j < n; ++j) {
      for (std::int64_t r = 0; r < rows; ++r) {
        vals[r] = mxp_value(x[r]);
        x[r] = by_n.apply(x[r]);
      }
      f(i0, rows, j, vals);
    }
  }
}

}  // namespace

row_sums generate_f32(std::int64_t n, diagonal d, float* a, std::int64_t lda) {
  row_sums s;
  s.diag.assign(static_cast<std::size_t>(n), 0.0);
  std::vector<double> own(static_cast<std::size_t>(n), 0.0);  // the drawn diagonal entries
  walk_blocks(n, [&](std::int64_t i0, std::int64_t rows, std::int64_t j, const double* vals) {
    float* col = a + j * lda + i0;
    for (std::int64_t r = 0; r < rows; ++r) {
      col[r] = static_cast<float>(vals[r]);
      s.diag[i0 + r] += std::fabs(vals[r]);
      if (i0 + r == j) own[j] = vals[r];
    }
  });
  for (std::int64_t i = 0; i < n; ++i) {
    const double off = s.diag[i] - std::fabs(own[i]);
    s.diag[i] = d == diagonal::reference ? off : 0.0;
    a[i * lda + i] = static_cast<float>(s.diag[i]);
    s.norm_inf = std::max(s.norm_inf, off + std::fabs(s.diag[i]));
  }
  return s;
}

std::vector<double> generate_b(std::int64_t n) {
  std::vector<double> b(static_cast<std::size_t>(n));
  std::uint64_t x = seed_b;
  for (auto& v : b) {
    x = hpl::lcg_a * x + hpl::lcg_c;
    v = mxp_value(x);
  }
  return b;
}

void matvec_regen(std::int64_t n, const std::vector<double>& diag, const double* v, double* y, double alpha,
                  double beta) {
  std::vector<double> acc_all(static_cast<std::size_t>(n), 0.0);
  walk_blocks(n, [&](std::int64_t i0, std::int64_t rows, std::int64_t j, const double* vals) {
    double* acc = acc_all.data() + i0;
    const double vj = v[j];
    for (std::int64_t r = 0; r < rows; ++r) acc[r] += (i0 + r == j ? diag[j] : vals[r]) * vj;
  });
  for (std::int64_t i = 0; i < n; ++i) y[i] = alpha * acc_all[i] + (beta == 0.0 ? 0.0 : beta * y[i]);
}

}  // namespace gpu500::hpl_mxp::detail
