// Restarted flexible GMRES in FP64 (Saad, "A flexible inner-outer preconditioned GMRES
// algorithm", SIAM J. Sci. Comput. 1993), written once over a small set of vector operations
// that each backend provides on its own memory (host arrays with OpenBLAS, device arrays with
// cuBLAS). Right preconditioning z = M^-1 v by the low-precision LU factors: the minimised
// residual is the true residual b - A x, and a preconditioner applied in FP32 (so not exactly
// linear) is allowed. Each cycle starts from the FP64 residual r = b - A x; the run stops when
// the backward error of x is below the threshold, or after max_iters preconditioned products.
#pragma once

#include <cstdint>
#include <vector>

namespace gpu500::hpl_mxp::detail {

/// What GMRES needs from a backend. Vectors are `double*` of length n in the backend's memory;
/// basis(k) is column k of an n x (restart + 1) array, zbasis(k) of an n x restart array.
struct krylov_space {
  virtual ~krylov_space() = default;
  virtual std::int64_t size() const = 0;
  virtual double* basis(int k) = 0;
  virtual double* zbasis(int k) = 0;
  virtual double* x() = 0;
  virtual double* work() = 0;
  /// r = b - A x (FP64, A regenerated or stored exactly).
  virtual void residual(const double* x, double* r) = 0;
  /// y = A v.
  virtual void matvec(const double* v, double* y) = 0;
  /// z = U^-1 L^-1 v with the low-precision factors.
  virtual void precondition(const double* v, double* z) = 0;
  /// h[0..k) = V(:, 0..k)^T w.
  virtual void project(int k, const double* w, double* h) = 0;
  /// w -= V(:, 0..k) h.
  virtual void subtract(int k, const double* h, double* w) = 0;
  /// x += Z(:, 0..k) y.
  virtual void update(int k, const double* y, double* x) = 0;
  virtual double nrm2(const double* v) = 0;
  virtual double norm_inf(const double* v) = 0;
  virtual void scale(double a, double* v) = 0;
  virtual void zero(double* v) = 0;
};

struct gmres_result {
  int iterations = 0, restarts = 0;
  double norm_r = 0, norm_x = 0;  ///< infinity norms of the last checked residual and of x
};

/// Solves from x = 0 (so the first iteration yields the low-precision LU solution). norm_a and
/// norm_b are ||A||_oo and ||b||_oo; the run stops once the backward error is below `target`.
gmres_result fgmres(krylov_space& s, int restart, int max_iters, double norm_a, double norm_b, double target);

}  // namespace gpu500::hpl_mxp::detail
