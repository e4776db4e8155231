// The reference matrix on the CPU (cpu/lu.hpp): each process generates its part of the grid's
// matrix with cpu/matrix.hpp's row walk, so a run of 64 rows writes one contiguous run of each
// local column and sums its rows in the reference's order (column by column: on the 1 x 1 grid
// the diagonal is bit for bit the reference's); the row sums are added over the grid for the
// diagonal. The same walk regenerates A for the FP64 products of the refinement. On the 1 x 1
// grid (generate_f32, matvec_regen) every sum over the grid is a no-op.
#include <algorithm>
#include <cmath>

#include "cpu/lu.hpp"
#include "grid_space.hpp"

namespace gpu500::hpl_mxp::detail {

row_sums generate_local(local_matrix& m, diagonal d, const process_grid& g) {
  // This process's part of each row's sum of |A| and the drawn diagonal entries it holds.
  std::vector<double> sums(static_cast<std::size_t>(m.n), 0.0), own(static_cast<std::size_t>(m.n), 0.0);
  walk_local(m, [&](std::int64_t li0, std::int64_t rows, std::int64_t lj, const double* vals) {
    float* col = m.at(li0, lj);
    const std::int64_t gj = m.gcol[lj];
    for (std::int64_t r = 0; r < rows; ++r) {
      const std::int64_t gi = m.grow[li0 + r];
      col[r] = static_cast<float>(vals[r]);
      sums[gi] += std::fabs(vals[r]);
      if (gi == gj) own[gj] = vals[r];
    }
  });
  const row_sums s = grid_row_sums(sums, own, d, g);
  for (std::int64_t li = 0; li < m.mp; ++li) {
    const std::int64_t gi = m.grow[li];
    if (hpl::owner_of(gi, m.nb, g.q()) == g.mycol()) *m.at(li, hpl::local_of(gi, m.nb, g.q())) = static_cast<float>(s.diag[gi]);
  }
  return s;
}

void local_product(const local_matrix& m, const std::vector<double>& diag, const double* v, double* acc) {
  std::fill_n(acc, m.mp, 0.0);
  walk_local(m, [&](std::int64_t li0, std::int64_t rows, std::int64_t lj, const double* vals) {
    const std::int64_t gj = m.gcol[lj];
    const std::int64_t* gi = m.grow.data() + li0;
    const double vj = v[gj];
    double* out = acc + li0;
    for (std::int64_t r = 0; r < rows; ++r) out[r] += (gi[r] == gj ? diag[gj] : vals[r]) * vj;
  });
}

row_sums generate_f32(std::int64_t n, diagonal d, float* a, std::int64_t lda) {
  local_matrix m(n, std::max<std::int64_t>(1, n), a, lda);
  return generate_local(m, d, process_grid(dist::communicator(), 1, 1));
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
  const local_matrix m(n, std::max<std::int64_t>(1, n), nullptr, std::max<std::int64_t>(1, n));
  std::vector<double> acc(static_cast<std::size_t>(n));
  local_product(m, diag, v, acc.data());
  for (std::int64_t i = 0; i < n; ++i) y[i] = alpha * acc[i] + (beta == 0.0 ? 0.0 : beta * y[i]);
}

}  // namespace gpu500::hpl_mxp::detail
