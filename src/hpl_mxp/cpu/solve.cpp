// The CPU backend of HPL-MxP: the reference matrix in FP32 (cpu/matgen.cpp), FP32 LU without
// pivoting (cpu/lu.cpp), and flexible GMRES (gmres.hpp) on host vectors with OpenBLAS: A v in
// FP64 from the regenerated matrix, the preconditioner as two cblas_strsv on an FP32 copy.
#include <cblas.h>

#include <algorithm>
#include <cmath>

#include "../backend.hpp"
#include "../gmres.hpp"
#include "cpu/lu.hpp"
#include "cpu/space.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/core/timer.hpp"

namespace gpu500::hpl_mxp::detail {

namespace {

class host_space final : public host_vectors {
 public:
  host_space(std::int64_t n, std::int64_t lda, int restart, const float* lu, const row_sums& sums,
             const std::vector<double>& b)
      : host_vectors(n, restart), lda_(lda), lu_(lu), sums_(sums), b_(b), f_(static_cast<std::size_t>(n)) {}
  void residual(const double* x, double* r) override {
    std::copy(b_.begin(), b_.end(), r);
    matvec_regen(n_, sums_.diag, x, r, -1.0, 1.0);
  }
  void matvec(const double* v, double* y) override { matvec_regen(n_, sums_.diag, v, y, 1.0, 0.0); }
  void precondition(const double* v, double* z) override {
    for (std::int64_t i = 0; i < n_; ++i) f_[i] = static_cast<float>(v[i]);
    const int lda = static_cast<int>(lda_);
    cblas_strsv(CblasColMajor, CblasLower, CblasNoTrans, CblasUnit, ni(), lu_, lda, f_.data(), 1);
    cblas_strsv(CblasColMajor, CblasUpper, CblasNoTrans, CblasNonUnit, ni(), lu_, lda, f_.data(), 1);
    for (std::int64_t i = 0; i < n_; ++i) z[i] = f_[i];
  }

 private:
  std::int64_t lda_;
  const float* lu_;
  const row_sums& sums_;
  const std::vector<double>& b_;
  std::vector<float> f_;
};

}  // namespace

result solve_cpu(const options& o) {
  result r;
  r.n = o.n;
  r.nb = o.nb;
  r.be = backend::cpu;
  r.prec = o.prec;
  const std::int64_t n = o.n, lda = std::max<std::int64_t>(1, n);
  stage(o, "generating the matrix");
  stopwatch sw;
  std::vector<float> a(static_cast<std::size_t>(lda * n));
  const row_sums sums = generate_f32(n, o.diag, a.data(), lda);
  const std::vector<double> b = generate_b(n);
  r.t_generate = sw.seconds();
  stage(o, "LU without pivoting (FP32)");
  sw.restart();
  getrf_nopiv(a.data(), n, lda, o.nb);
  r.t_lu = sw.seconds();
  stage(o, "GMRES refinement (FP64)");
  sw.restart();
  r.norm_a = sums.norm_inf;
  r.norm_b = 0;
  for (double v : b) r.norm_b = std::max(r.norm_b, std::fabs(v));
  host_space space(n, lda, gmres_restart, a.data(), sums, b);
  const gmres_result g = fgmres(space, gmres_restart, o.max_iters, r.norm_a, r.norm_b, threshold);
  r.t_refine = sw.seconds();
  r.iterations = g.iterations;
  r.restarts = g.restarts;
  r.norm_r = g.norm_r;
  r.norm_x = g.norm_x;
  r.x.assign(space.x(), space.x() + n);
  return r;
}

}  // namespace gpu500::hpl_mxp::detail
