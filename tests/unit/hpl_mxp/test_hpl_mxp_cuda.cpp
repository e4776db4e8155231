// HPL-MxP's CUDA backend against the host path (skipped without a GPU), piece by piece so that a
// failure names its part: the device generator against the host's, the device LU (look-ahead,
// recursive diagonal blocks, every precision) against the host LU, the low-precision factors'
// backward error against the bound of their format's rounding (factor_check.hpp: E4M3's unit
// roundoff 2^-4 for fp8; a wrong transpose or scale exceeds it, a GEMM that silently rounds
// less stays below its floor), then whole solves of the one CUDA solver on its 1 x 1 grid (the
// process alone: the whole matrix, GMRES's vectors on the GPU) on odd N and NB, NB above N
// included — the solution equal to the host's to the accuracy both must reach — the failing
// matrix reported as FAILED, and fp8's refusals (NB not a multiple of 16). The hooks
// cuda_generated / cuda_factored run the solver's own generation and LU on the 1 x 1 grid.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "backend.hpp"
#include "cpu/lu.hpp"
#include "factor_check.hpp"
#include "gpu500/core/device.hpp"
#include "gpu500/core/error.hpp"
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

// The device LU of the generated n x n matrix, for each precision and NB, against the host LU
// (fp8: the NBs that are multiples of 16; entries within E4M3's unit roundoff 2^-4, relative to
// 1 + |entry|: the updates of this matrix stay below 1 in size, so their rounding moves an entry
// by less than u; factor_check.hpp's bound is the sharp one).
void expect_device_lu_matches_the_host(std::int64_t n, std::initializer_list<int> nbs) {
  std::vector<float> host(static_cast<std::size_t>(n * n));
  detail::generate_f32(n, diagonal::reference, host.data(), n);
  detail::getrf_nopiv(host.data(), n, n, 64);
  for (precision p : {precision::fp32, precision::bf16, precision::fp16, precision::fp8})
    for (int nb : nbs) {
      if (p == precision::fp8 && nb % fp8_nb_multiple != 0) continue;
      const std::vector<float> dev = detail::cuda_factored(n, nb, p);
      double worst = 0;
      for (std::size_t e = 0; e < host.size(); ++e)
        worst = std::max(worst, std::fabs(static_cast<double>(dev[e]) - host[e]) / (1.0 + std::fabs(host[e])));
      const double tol = p == precision::fp32 ? 1e-4 : p == precision::fp8 ? test::unit_roundoff(p) : 5e-2;
      EXPECT_LT(worst, tol) << precision_name(p) << " n=" << n << " nb=" << nb;
    }
}

TEST(HplMxpCuda, DeviceLuMatchesTheHostLu) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  expect_device_lu_matches_the_host(700, {160, 64, 700, 1000});
}

// The same at a size compute-sanitizer racecheck runs in seconds (the diagonal-block LU's shared
// memory, two panels and a partial one; the FP8 copies' transposing tiles).
TEST(HplMxpCuda, SmallDeviceLuMatchesTheHostLu) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  expect_device_lu_matches_the_host(150, {64});
}

// The device's low-precision factors L U = A - R with R within the bound of their inputs'
// rounding (factor_check.hpp), entry by entry and in the Frobenius norm, and above a twentieth
// of it: the format's rounding did happen. N = 700 with NB 160 and 64 (partial last blocks, C
// rows padded to 16 at the bottom), NB 48 at N = 333 (odd N, three-block look-ahead pieces).
TEST(HplMxpCuda, LowPrecisionFactorsHaveTheBackwardErrorOfTheirRounding) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  for (const auto& [n, nbs] : {std::pair<std::int64_t, std::vector<int>>{700, {160, 64}}, {333, {48}}}) {
    const std::vector<float> a = detail::cuda_generated(n);  // the matrix the device factors
    for (const precision p : {precision::fp8, precision::bf16, precision::fp16})
      for (const int nb : nbs) {
        const std::vector<float> f = detail::cuda_factored(n, nb, p);
        const test::factor_check c = test::check_factors(a, f, n, nb, p);
        EXPECT_LE(c.worst, 1.0) << precision_name(p) << " n=" << n << " nb=" << nb << ": entry (" << c.wi << ", "
                                << c.wj << ")";
        EXPECT_LE(c.frob, c.frob_bound) << precision_name(p) << " n=" << n << " nb=" << nb;
        EXPECT_GT(c.frob, c.frob_bound / 20) << precision_name(p) << " n=" << n << " nb=" << nb
                                             << ": less rounding than the format's";
      }
  }
}

// A CUDA solve of o against the host's solution of the same matrix: passed in few iterations,
// the same ||A||_oo (to the rounding of the diagonal's sums) and ||b||_oo, x equal to 1e-9
// relative, the accuracy both must reach.
void expect_matches_the_host(const options& o, const result& host) {
  const result r = solve(o);
  const std::string what = std::string(precision_name(o.prec)) + " n=" + std::to_string(o.n) +
                           " nb=" + std::to_string(o.nb);
  EXPECT_TRUE(r.passed) << what << " berr=" << r.backward_error;
  EXPECT_LE(r.iterations, 20) << what;
  EXPECT_NEAR(r.norm_a, host.norm_a, 1e-12 * host.norm_a) << what;
  EXPECT_EQ(r.norm_b, host.norm_b) << what;
  ASSERT_EQ(r.x.size(), host.x.size()) << what;
  double diff = 0, xmax = 0;
  for (std::size_t i = 0; i < r.x.size(); ++i) {
    diff = std::max(diff, std::fabs(r.x[i] - host.x[i]));
    xmax = std::max(xmax, std::fabs(host.x[i]));
  }
  EXPECT_LT(diff, 1e-9 * xmax) << what;
}

TEST(HplMxpCuda, EveryPrecisionMatchesTheHostSolution) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  const std::int64_t n = 1003;
  const result host = solve(make(backend::cpu, precision::fp32, n, 64));
  ASSERT_TRUE(host.passed);
  for (precision p : {precision::bf16, precision::fp16, precision::fp32, precision::fp8})
    for (int nb : {200, 208, 96, 1}) {
      if (nb == 1 && p != precision::fp32) continue;
      if (p == precision::fp8 && nb % fp8_nb_multiple != 0) continue;  // refused (below)
      expect_matches_the_host(make(backend::cuda, p, n, nb), host);
    }
}

// Every precision on the 1 x 1 grid (the process alone: the whole matrix, nothing sent, GMRES's
// vectors on the GPU) at odd N and odd NB (fp8: NB an odd multiple of 16, the nearest it
// allows), one block column wider than N included (the panel alone, no update; the
// preconditioner one block), against the host's 1 x 1 solve at the same N and NB.
TEST(HplMxpCuda, OneByOneGridMatchesTheHostOnOddNAndNb) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  for (const auto& [n, nb, fp8_nb] : {std::tuple<std::int64_t, int, int>{777, 37, 48}, {301, 401, 320}}) {
    const result host = solve(make(backend::cpu, precision::fp32, n, nb));
    ASSERT_TRUE(host.passed) << "n=" << n;
    for (const precision p : {precision::bf16, precision::fp16, precision::fp32, precision::fp8}) {
      const options o = make(backend::cuda, p, n, p == precision::fp8 ? fp8_nb : nb);
      ASSERT_EQ(o.p * o.q, 1);
      expect_matches_the_host(o, host);
    }
  }
}

TEST(HplMxpCuda, LargerThanOneWaveAndOneIterationIsNotEnough) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  for (const precision p : {precision::bf16, precision::fp8}) {
    options o = make(backend::cuda, p, 4097, 512);
    const result r = solve(o);
    EXPECT_TRUE(r.passed) << precision_name(p) << " berr=" << r.backward_error;
    EXPECT_LE(r.iterations, 20) << precision_name(p);
    o.max_iters = 1;
    const result one = solve(o);
    EXPECT_EQ(one.iterations, 1) << precision_name(p);
    EXPECT_FALSE(one.passed) << precision_name(p);
  }
}

// A zero pivot makes the FP8 copies' scale NaN (never a finite result).
TEST(HplMxpCuda, ZeroDiagonalFails) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  for (const precision p : {precision::bf16, precision::fp8}) {
    options o = make(backend::cuda, p, 300, 64);
    o.diag = diagonal::zero;
    const result r = solve(o);
    EXPECT_FALSE(r.passed) << precision_name(p);
    EXPECT_LE(r.iterations, o.max_iters) << precision_name(p);
  }
}

// fp8 needs NB a multiple of 16 (cuBLASLt's FP8 GEMM): refused by the solve and by the LU itself.
TEST(HplMxpCuda, Fp8RefusesNbNotAMultipleOf16) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  EXPECT_THROW(solve(make(backend::cuda, precision::fp8, 1003, 200)), usage_error);
  EXPECT_THROW(detail::cuda_factored(300, 100, precision::fp8), usage_error);
}

}  // namespace
}  // namespace gpu500::hpl_mxp
