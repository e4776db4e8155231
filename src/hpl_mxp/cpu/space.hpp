// GMRES's vectors on the host (internal): the n x (restart + 1) basis V, the n x restart
// preconditioned basis Z, x and a work vector, with the Gram-Schmidt and update passes as
// OpenBLAS dgemv. The grid's GMRES (grid_space.hpp) derives from it and adds the products with
// A and the preconditioner, every vector whole on every process.
#pragma once

#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "../gmres.hpp"

namespace gpu500::hpl_mxp::detail {

class host_vectors : public krylov_space {
 public:
  host_vectors(std::int64_t n, int restart)
      : n_(n), v_(static_cast<std::size_t>(n) * (restart + 1)), z_(static_cast<std::size_t>(n) * restart),
        x_(static_cast<std::size_t>(n)), w_(static_cast<std::size_t>(n)) {}
  std::int64_t size() const override { return n_; }
  double* basis(int k) override { return v_.data() + static_cast<std::size_t>(k) * n_; }
  double* zbasis(int k) override { return z_.data() + static_cast<std::size_t>(k) * n_; }
  double* x() override { return x_.data(); }
  double* work() override { return w_.data(); }
  void project(int k, const double* w, double* h) override {
    cblas_dgemv(CblasColMajor, CblasTrans, ni(), k, 1.0, v_.data(), ni(), w, 1, 0.0, h, 1);
  }
  void subtract(int k, const double* h, double* w) override {
    cblas_dgemv(CblasColMajor, CblasNoTrans, ni(), k, -1.0, v_.data(), ni(), h, 1, 1.0, w, 1);
  }
  void update(int k, const double* y, double* x) override {
    cblas_dgemv(CblasColMajor, CblasNoTrans, ni(), k, 1.0, z_.data(), ni(), y, 1, 1.0, x, 1);
  }
  double nrm2(const double* v) override { return cblas_dnrm2(ni(), v, 1); }
  double norm_inf(const double* v) override {
    double m = 0;
    for (std::int64_t i = 0; i < n_; ++i) m = std::isnan(v[i]) ? v[i] : std::max(m, std::fabs(v[i]));
    return m;
  }
  void scale(double a, double* v) override { cblas_dscal(ni(), a, v, 1); }
  void zero(double* v) override { std::fill(v, v + n_, 0.0); }

 protected:
  int ni() const { return static_cast<int>(n_); }
  std::int64_t n_;

 private:
  std::vector<double> v_, z_, x_, w_;
};

}  // namespace gpu500::hpl_mxp::detail
