// Restarted flexible GMRES (gmres.hpp): modified Arnoldi with classical Gram-Schmidt applied
// twice (CGS2: two projections per vector, each one BLAS-2 pass over the basis), Givens
// rotations on the host-side Hessenberg matrix, and the true FP64 residual at every restart.
#include "gmres.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "gpu500/hpl_mxp/mxp.hpp"

namespace gpu500::hpl_mxp::detail {

namespace {

// The Givens rotation (c, s) with [c s; -s c] [a; b] = [r; 0].
void rotation(double a, double b, double& c, double& s) {
  if (b == 0.0) {
    c = 1.0;
    s = 0.0;
  } else if (std::fabs(b) > std::fabs(a)) {
    const double t = a / b;
    s = 1.0 / std::sqrt(1.0 + t * t);
    c = t * s;
  } else {
    const double t = b / a;
    c = 1.0 / std::sqrt(1.0 + t * t);
    s = t * c;
  }
}

}  // namespace

gmres_result fgmres(krylov_space& s, int restart, int max_iters, double norm_a, double norm_b, double target) {
  gmres_result out;
  const std::int64_t n = s.size();
  if (n == 0) return out;
  const int m = std::max(1, restart);
  const double eps = std::ldexp(1.0, -53);
  std::vector<double> h(static_cast<std::size_t>(m + 1) * m), g(m + 1), cs(m), sn(m), tmp(m + 1), y(m);
  auto H = [&](int i, int j) -> double& { return h[static_cast<std::size_t>(j) * (m + 1) + i]; };
  double* x = s.x();
  s.zero(x);
  for (;;) {
    double* r = s.basis(0);
    s.residual(x, r);
    out.norm_r = s.norm_inf(r);
    out.norm_x = s.norm_inf(x);
    const double be = backward_error(out.norm_r, norm_a, out.norm_x, norm_b, n);
    if (be < target || !std::isfinite(be) || out.iterations >= max_iters) break;
    const double beta = s.nrm2(r);
    if (!(beta > 0.0) || !std::isfinite(beta)) break;
    s.scale(1.0 / beta, r);
    std::fill(h.begin(), h.end(), 0.0);
    std::fill(g.begin(), g.end(), 0.0);
    g[0] = beta;
    ++out.restarts;
    // The 2-norm goal of this cycle: half the allowed infinity norm (||r||_oo <= ||r||_2), with
    // ||x|| from x or, on the first cycle, from the first preconditioned vector.
    double norm_x = out.norm_x, goal = 0;
    int k = 0;
    for (int j = 0; j < m && out.iterations < max_iters; ++j) {
      double* z = s.zbasis(j);
      s.precondition(s.basis(j), z);
      if (j == 0 && norm_x == 0.0) norm_x = beta * s.norm_inf(z);
      goal = 0.5 * target * eps * static_cast<double>(n) * (norm_a * norm_x + norm_b);
      double* w = s.basis(j + 1);
      s.matvec(z, w);
      for (int pass = 0; pass < 2; ++pass) {
        s.project(j + 1, w, tmp.data());
        s.subtract(j + 1, tmp.data(), w);
        for (int i = 0; i <= j; ++i) H(i, j) += tmp[i];
      }
      H(j + 1, j) = s.nrm2(w);
      const bool breakdown = !(H(j + 1, j) > 0.0);
      if (!breakdown) s.scale(1.0 / H(j + 1, j), w);
      for (int i = 0; i < j; ++i) {
        const double t = cs[i] * H(i, j) + sn[i] * H(i + 1, j);
        H(i + 1, j) = -sn[i] * H(i, j) + cs[i] * H(i + 1, j);
        H(i, j) = t;
      }
      rotation(H(j, j), H(j + 1, j), cs[j], sn[j]);
      g[j + 1] = -sn[j] * g[j];
      g[j] = cs[j] * g[j];
      H(j, j) = cs[j] * H(j, j) + sn[j] * H(j + 1, j);
      H(j + 1, j) = 0.0;
      ++out.iterations;
      k = j + 1;
      if (breakdown || !(std::fabs(g[j + 1]) > goal)) break;
    }
    // y = H(0..k, 0..k)^-1 g, x += Z y.
    for (int i = k - 1; i >= 0; --i) {
      double t = g[i];
      for (int c = i + 1; c < k; ++c) t -= H(i, c) * y[c];
      y[i] = t / H(i, i);
    }
    if (k > 0) s.update(k, y.data(), x);
  }
  return out;
}

}  // namespace gpu500::hpl_mxp::detail
