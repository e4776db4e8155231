// HPL-MxP's CUDA backend against the host path (skipped without a GPU): every precision on odd N
// and NB (several panels, a diagonal block factored by recursive halving), the solution equal to
// the host's to the accuracy both must reach, the failing matrix reported as FAILED.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

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
