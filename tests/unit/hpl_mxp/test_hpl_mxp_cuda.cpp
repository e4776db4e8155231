// HPL-MxP's CUDA backend against the host path (skipped without a GPU), piece by piece so that a
// failure names its part: the device generator against the host's, the device LU (look-ahead,
// recursive diagonal blocks, every precision) against the host LU, then whole solves on odd N
// and NB — the solution equal to the host's to the accuracy both must reach — and the failing
// matrix reported as FAILED.
#include <gtest/gtest.h>

#include <cmath>
#include <initializer_list>
#include <vector>

#include "backend.hpp"
#include "cpu/lu.hpp"
#include "gpu500/core/device.hpp"
#include "gpu500/hpl_mxp/mxp.hpp"

namespace gpu500::hpl_mxp {
namespace {

options make(backend be, precision p, std::int64_t n, int nb) {
  options o;
  o.be = be;
  o.prec = p;
  o.n = n;
  o.nb = nb;
  return o;
}

TEST(HplMxpCuda, GeneratorMatchesTheHost) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  const std::int64_t n = 517;
  std::vector<float> host(static_cast<std::size_t>(n * n));
  detail::generate_f32(n, diagonal::reference, host.data(), n);
  const std::vector<float> dev = detail::cuda_generated(n);
  ASSERT_EQ(dev.size(), host.size());
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < n; ++i) {
      const float h = host[j * n + i], d = dev[j * n + i];
      if (i == j) {
        EXPECT_NEAR(d, h, 1e-6f * h) << i;  // the diagonal's sums run in another order
      } else {
        ASSERT_EQ(d, h) << i << "," << j;
      }
    }
}

// The device LU of the generated n x n matrix, for each precision and NB, against the host LU.
void expect_device_lu_matches_the_host(std::int64_t n, std::initializer_list<int> nbs) {
  std::vector<float> host(static_cast<std::size_t>(n * n));
  detail::generate_f32(n, diagonal::reference, host.data(), n);
  detail::getrf_nopiv(host.data(), n, n, 64);
  for (precision p : {precision::fp32, precision::bf16, precision::fp16})
    for (int nb : nbs) {
      const std::vector<float> dev = detail::cuda_factored(n, nb, p);
      double worst = 0;
      for (std::size_t e = 0; e < host.size(); ++e)
        worst = std::max(worst, std::fabs(static_cast<double>(dev[e]) - host[e]) / (1.0 + std::fabs(host[e])));
      EXPECT_LT(worst, p == precision::fp32 ? 1e-4 : 5e-2) << precision_name(p) << " n=" << n << " nb=" << nb;
    }
}

TEST(HplMxpCuda, DeviceLuMatchesTheHostLu) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  expect_device_lu_matches_the_host(700, {160, 64, 700, 1000});
}

// The same at a size compute-sanitizer racecheck runs in seconds (the diagonal-block LU's shared
// memory, two panels and a partial one).
TEST(HplMxpCuda, SmallDeviceLuMatchesTheHostLu) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  expect_device_lu_matches_the_host(150, {64});
}

TEST(HplMxpCuda, EveryPrecisionMatchesTheHostSolution) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  const std::int64_t n = 1003;
  const result host = solve(make(backend::cpu, precision::fp32, n, 64));
  ASSERT_TRUE(host.passed);
  double xmax = 0;
  for (double v : host.x) xmax = std::max(xmax, std::fabs(v));
  for (precision p : {precision::bf16, precision::fp16, precision::fp32})
    for (int nb : {200, 96, 1}) {
      if (nb == 1 && p != precision::fp32) continue;
      const result r = solve(make(backend::cuda, p, n, nb));
      EXPECT_TRUE(r.passed) << precision_name(p) << " nb=" << nb << " berr=" << r.backward_error;
      EXPECT_LE(r.iterations, 20) << precision_name(p);
      EXPECT_NEAR(r.norm_a, host.norm_a, 1e-12 * host.norm_a);
      EXPECT_EQ(r.norm_b, host.norm_b);
      ASSERT_EQ(r.x.size(), host.x.size());
      double diff = 0;
      for (std::size_t i = 0; i < r.x.size(); ++i) diff = std::max(diff, std::fabs(r.x[i] - host.x[i]));
      EXPECT_LT(diff, 1e-9 * xmax) << precision_name(p) << " nb=" << nb;
    }
}

TEST(HplMxpCuda, LargerThanOneWaveAndOneIterationIsNotEnough) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  options o = make(backend::cuda, precision::bf16, 4097, 512);
  const result r = solve(o);
  EXPECT_TRUE(r.passed) << r.backward_error;
  o.max_iters = 1;
  const result one = solve(o);
  EXPECT_EQ(one.iterations, 1);
  EXPECT_FALSE(one.passed);
}

TEST(HplMxpCuda, ZeroDiagonalFails) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  options o = make(backend::cuda, precision::bf16, 300, 64);
  o.diag = diagonal::zero;
  const result r = solve(o);
  EXPECT_FALSE(r.passed);
  EXPECT_LE(r.iterations, o.max_iters);
}

}  // namespace
}  // namespace gpu500::hpl_mxp
