// The residual check of HPL_pdtest, written independently of the solver: the local part of
// [A | b] is generated again, r = A x - b and the norms are computed with plain loops (no BLAS),
// reduced over the grid (finish_check; the CUDA backend's check feeds it pieces computed by its
// own kernels). resid = ||r||oo / (eps (||A||oo ||x||oo + ||b||oo) N), eps = 2^-53;
// the test passes iff resid < threshold (strict), as in netlib.
#include <cmath>

#include "gpu500/hpl/matgen.hpp"
#include "mpi/comm.hpp"
#include "solver.hpp"

namespace gpu500::hpl::detail {

namespace {
// Column sums of |A| over the local rows.
std::vector<double> cols_of(const std::vector<double>& a, std::int64_t lda, std::int64_t mp, std::int64_t nqa) {
  std::vector<double> cols(nqa, 0.0);
  for (std::int64_t j = 0; j < nqa; ++j)
    for (std::int64_t i = 0; i < mp; ++i) cols[j] += std::fabs(a[j * lda + i]);
  return cols;
}
}  // namespace

void check_cpu(const params& prm, const grid& g, const std::vector<double>& x, test_result& r) {
  const std::int64_t n = prm.n;
  const int nb = prm.nb;
  const std::int64_t mp = numroc(n, nb, g.myrow, g.p), nq = numroc(n + 1, nb, g.mycol, g.q);
  const std::int64_t nqa = numroc(n, nb, g.mycol, g.q);
  const std::int64_t lda = std::max<std::int64_t>(1, mp);
  std::vector<double> a(static_cast<std::size_t>(lda * nq));
  generate_local(n, nb, g.p, g.q, g.myrow, g.mycol, a.data(), lda);
  // Row quantities: (A x - b)_i and sum_j |A_ij| for local rows, summed along the process row.
  std::vector<double> rows(2 * mp, 0.0);
  const int cb = owner_of(n, nb, g.q);
  const std::int64_t lb = local_of(n, nb, g.q);
  double bmax = 0;
  for (std::int64_t j = 0; j < nqa; ++j) {
    const double xj = x[global_of(j, nb, g.mycol, g.q)];
    const double* col = a.data() + j * lda;
    for (std::int64_t i = 0; i < mp; ++i) {
      rows[i] += col[i] * xj;
      rows[mp + i] += std::fabs(col[i]);
    }
  }
  if (g.mycol == cb)
    for (std::int64_t i = 0; i < mp; ++i) {
      rows[i] -= a[lb * lda + i];
      bmax = std::max(bmax, std::fabs(a[lb * lda + i]));
    }
  finish_check(prm, g, rows, cols_of(a, lda, mp, nqa), bmax, x, r);
}

void finish_check(const params& prm, const grid& g, std::vector<double>& rows, std::vector<double> cols, double bmax,
                  const std::vector<double>& x, test_result& r) {
  const std::int64_t n = prm.n;
  const std::int64_t mp = static_cast<std::int64_t>(rows.size() / 2), nqa = static_cast<std::int64_t>(cols.size());
  const auto& c = *g.comms;
  c.row.allreduce_sum(rows.data(), 2 * mp);
  c.col.allreduce_sum(cols.data(), nqa);
  double v[4] = {0, 0, 0, bmax};  // ||r||oo, ||A||oo, ||A||1, ||b||oo
  for (std::int64_t i = 0; i < mp; ++i) {
    v[0] = std::max(v[0], std::fabs(rows[i]));
    v[1] = std::max(v[1], rows[mp + i]);
  }
  for (auto s : cols) v[2] = std::max(v[2], s);
  c.all.allreduce_max(v, 4);
  r.norm_r = v[0];
  r.norm_a_inf = v[1];
  r.norm_a_1 = v[2];
  r.norm_b = v[3];
  r.norm_x_inf = r.norm_x_1 = 0;
  for (double xi : x) {
    r.norm_x_inf = std::max(r.norm_x_inf, std::fabs(xi));
    r.norm_x_1 += std::fabs(xi);
  }
  const double eps = std::ldexp(1.0, -53);
  r.checked = prm.threshold > 0;
  if (n == 0) {
    r.resid = 0;
  } else {
    r.resid = r.norm_r / (eps * (r.norm_a_inf * r.norm_x_inf + r.norm_b) * static_cast<double>(n));
  }
  r.passed = r.resid < prm.threshold;  // NaN fails
}

}  // namespace gpu500::hpl::detail
