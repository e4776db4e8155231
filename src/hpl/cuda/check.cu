// The residual check of the CUDA backend, on the GPU(s), by code that shares nothing with the
// solver: [A | b] is regenerated in device memory, own kernels (kernels.cu: residual_parts,
// residual_local) reduce the rows and columns of A and A x - b, the host forms the norms and
// HPL's scaled residual ||Ax-b||oo / (eps (||A||oo ||x||oo + ||b||oo) N). The CPU sibling is
// src/hpl/check.cpp; the P x Q reductions are its finish_check. Also the public device-side
// generator and check (gpu500/hpl/device.hpp) that benchmarks use on other solvers' results.
#include "check.cuh"

#include <algorithm>
#include <cmath>

#include "../solver.hpp"
#include "gpu500/core/cuda/check.cuh"
#include "gpu500/hpl/device.hpp"
#include "util.cuh"

namespace gpu500::hpl {
namespace detail {

void cuda_check(const params& prm, const double* a, std::int64_t lda, const std::vector<double>& x, test_result& r) {
  const std::int64_t n = prm.n;
  const std::size_t nn = static_cast<std::size_t>(std::max<std::int64_t>(1, n));
  device_buffer<double> dx(nn), rows(nn), rowabs(nn), colabs(nn);
  if (n > 0) GPU500_CUDA_CHECK(cudaMemcpy(dx.data(), x.data(), sizeof(double) * n, cudaMemcpyHostToDevice));
  kernels::residual_parts(a, lda, n, dx.data(), rows.data(), rowabs.data(), colabs.data(), nullptr);
  std::vector<double> hr(n), hra(n), hca(n), hb(n);
  if (n > 0) {
    GPU500_CUDA_CHECK(cudaMemcpy(hr.data(), rows.data(), sizeof(double) * n, cudaMemcpyDeviceToHost));
    GPU500_CUDA_CHECK(cudaMemcpy(hra.data(), rowabs.data(), sizeof(double) * n, cudaMemcpyDeviceToHost));
    GPU500_CUDA_CHECK(cudaMemcpy(hca.data(), colabs.data(), sizeof(double) * n, cudaMemcpyDeviceToHost));
    GPU500_CUDA_CHECK(cudaMemcpy(hb.data(), a + n * lda, sizeof(double) * n, cudaMemcpyDeviceToHost));
  }
  r.norm_r = r.norm_a_inf = r.norm_a_1 = r.norm_b = r.norm_x_inf = r.norm_x_1 = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    r.norm_r = std::max(r.norm_r, std::fabs(hr[i]));
    r.norm_a_inf = std::max(r.norm_a_inf, hra[i]);
    r.norm_a_1 = std::max(r.norm_a_1, hca[i]);
    r.norm_b = std::max(r.norm_b, std::fabs(hb[i]));
    r.norm_x_inf = std::max(r.norm_x_inf, std::fabs(x[i]));
    r.norm_x_1 += std::fabs(x[i]);
  }
  const double eps = std::ldexp(1.0, -53);
  r.resid = n == 0 ? 0 : r.norm_r / (eps * (r.norm_a_inf * r.norm_x_inf + r.norm_b) * static_cast<double>(n));
  r.checked = prm.threshold > 0;
  r.passed = r.resid < prm.threshold;
}

// The residual check on the GPUs: [A | b] regenerated, local pieces by the check's own kernels
// (kernels.cu: residual_local), reductions and norms by finish_check (shared with the CPU check).
void check_dist(const params& prm, const grid& g, const kernels::local_shape& sh, const double* a,
                const std::vector<double>& x, test_result& r) {
  const std::int64_t n = prm.n, nqa = numroc(n, prm.nb, g.mycol, g.q);
  device_buffer<double> dx(std::max<std::int64_t>(1, n)), drows(std::max<std::int64_t>(1, 2 * sh.mp)),
      dcols(std::max<std::int64_t>(1, nqa));
  if (n > 0) GPU500_CUDA_CHECK(cudaMemcpy(dx.data(), x.data(), sizeof(double) * n, cudaMemcpyHostToDevice));
  kernels::residual_local(a, sh, nqa, dx.data(), drows.data(), dcols.data(), nullptr);
  std::vector<double> rows(2 * sh.mp), cols(nqa), b(sh.mp);
  if (sh.mp > 0) GPU500_CUDA_CHECK(cudaMemcpy(rows.data(), drows.data(), sizeof(double) * 2 * sh.mp, cudaMemcpyDeviceToHost));
  if (nqa > 0) GPU500_CUDA_CHECK(cudaMemcpy(cols.data(), dcols.data(), sizeof(double) * nqa, cudaMemcpyDeviceToHost));
  double bmax = 0;
  if (g.mycol == owner_of(n, prm.nb, g.q) && sh.mp > 0) {
    GPU500_CUDA_CHECK(cudaMemcpy(b.data(), a + local_of(n, prm.nb, g.q) * sh.lda, sizeof(double) * sh.mp,
                                 cudaMemcpyDeviceToHost));
    for (std::int64_t i = 0; i < sh.mp; ++i) {
      rows[i] -= b[i];
      bmax = std::max(bmax, std::fabs(b[i]));
    }
  }
  finish_check(prm, g, rows, std::move(cols), bmax, x, r);
}

}  // namespace detail

void generate_on_device(double* a, std::int64_t lda, std::int64_t n) {
  detail::kernels::generate(a, lda, n, nullptr);
  GPU500_CUDA_CHECK(cudaDeviceSynchronize());
}

void check_on_device(const params& prm, const double* a, std::int64_t lda, const std::vector<double>& x,
                     test_result& r) {
  detail::cuda_check(prm, a, lda, x, r);
}

}  // namespace gpu500::hpl
