// Unit tests of the HPL CUDA backend (skipped without a GPU): the 1 x 1 solver against the CPU
// backend, LAPACKE and HPL 2.3's norms; the schedule settings, the cuSOLVER tail, the GPU panels
// and the GPU DGEMM inside the CPU panels each against LAPACKE and the default run.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>

#include "gpu500/core/device.hpp"
#include "gpu500/hpl/grid.hpp"
#include "gpu500/hpl/pdgesv.hpp"
#include "support.hpp"

using namespace gpu500;
using namespace gpu500::hpl;
using namespace hpl_test;


TEST(HplCuda, SolvesAndMatchesCpuAndNorms) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  const grid g = grid::create(1, 1, false);
  run_options gpu;
  gpu.be = backend::cuda;
  gpu.gather_x = true;
  gpu.timing = true;
  // N = 1, N < NB, no look-ahead at HPL 2.3's N = 1000, and N = 4000 against its norms.
  for (auto [n, nb, depth] : {std::tuple{1L, 64, 1}, {53L, 8, 1}, {1000L, 64, 0}, {4000L, 256, 1}}) {
    params p;
    p.n = n;
    p.nb = nb;
    p.depth = depth;
    const auto r = run_test(p, g, gpu);
    EXPECT_TRUE(r.passed) << "N=" << n << " resid " << r.resid;
    EXPECT_LT(r.resid, 1.0);
    ASSERT_EQ(r.x.size(), static_cast<std::size_t>(n));
    if (n <= 1000) {
      EXPECT_LT(rel_diff(r.x, lapack_solution(n)), 1e-10) << "N=" << n;
    }
    // The GPU generator and check against the CPU ones (independent code paths).
    if (n <= 1000) {
      run_options cpu;
      cpu.gather_x = true;
      const auto c = run_test(p, g, cpu);
      EXPECT_EQ(r.norm_a_inf, c.norm_a_inf) << "N=" << n;
      EXPECT_EQ(r.norm_b, c.norm_b) << "N=" << n;
      EXPECT_NEAR(r.norm_a_1, c.norm_a_1, 1e-9 * c.norm_a_1) << "N=" << n;
      EXPECT_LT(rel_diff(r.x, c.x), 1e-9) << "N=" << n;
    }
    for (const auto& row : read_norms())
      if (row.n == n) {
        EXPECT_NEAR(r.norm_a_inf, row.a_inf, 5.1e-7);
        EXPECT_NEAR(r.norm_a_1, row.a_1, 5.1e-7);
        EXPECT_NEAR(r.norm_b, row.b_inf, 5.1e-7);
        EXPECT_NEAR(r.norm_x_inf, row.x_inf, 1e-5 * row.x_inf);
      }
    EXPECT_EQ(r.iters.size(), static_cast<std::size_t>((n + nb - 1) / nb));
  }
  // Segment settings change the schedule, not the answer.
  params p;
  p.n = 1500;
  p.nb = 128;
  run_options g2 = gpu;
  g2.seg_first = 1.0;
  g2.seg_growth = 1.0;
  run_options g3 = gpu;
  g3.swap_stream = false;
  const auto a = run_test(p, g, gpu), b = run_test(p, g, g2), c = run_test(p, g, g3);
  EXPECT_TRUE(a.passed);
  EXPECT_TRUE(b.passed);
  EXPECT_TRUE(c.passed);
  EXPECT_LT(rel_diff(a.x, b.x), 1e-12);
  EXPECT_LT(rel_diff(a.x, c.x), 1e-12);
}

// A CUDA variant (b) at N = 1500, NB = 128 against the default CUDA run: both pass, x agrees.
void expect_agrees_with_default_cuda(run_options b) {
  const grid g = grid::create(1, 1, false);
  params p;
  p.n = 1500;
  p.nb = 128;
  run_options a;
  a.be = b.be = backend::cuda;
  a.gather_x = b.gather_x = true;
  const auto ra = run_test(p, g, a), rb = run_test(p, g, b);
  EXPECT_TRUE(ra.passed);
  EXPECT_TRUE(rb.passed) << "resid " << rb.resid;
  EXPECT_LT(rel_diff(ra.x, rb.x), 1e-9);
}

// One CUDA run with a tail / GPU-panel setting: passes the residual check, x equals LAPACKE's.
// `p` gives the panel variant (PFACT, RFACT, NBMIN, NDIV); pgg: --panel-gemm-gpu.
test_result expect_cuda_variant_solves(long n, int nb, int depth, std::int64_t tail, std::int64_t gpanel, int pgg = 0,
                                       params p = {}, bool gpfirst = false) {
  p.n = n;
  p.nb = nb;
  p.depth = depth;
  run_options o;
  o.be = backend::cuda;
  o.gather_x = true;
  o.timing = true;
  o.tail_getrf = tail;
  o.gpu_panel = gpanel;
  o.panel_gemm_gpu = pgg;
  o.gpu_panel_first = gpfirst;
  const auto r = run_test(p, grid::create(1, 1, false), o);
  const std::string what = "N=" + std::to_string(n) + " NB=" + std::to_string(nb) + " depth " + std::to_string(depth) +
                           " tail " + std::to_string(tail) + " gpu panel " + std::to_string(gpanel) +
                           " panel gemm gpu " + std::to_string(pgg) + (gpfirst ? " gpu panel first " : " ") +
                           tv_code(p);
  EXPECT_TRUE(r.passed) << what << " resid " << r.resid;
  EXPECT_LT(r.resid, 1.0) << what;
  EXPECT_EQ(r.x.size(), static_cast<std::size_t>(n)) << what;
  if (r.x.size() == static_cast<std::size_t>(n)) {
    EXPECT_LT(rel_diff(r.x, lapack_solution(n)), 1e-10) << what;
  }
  return r;
}

// --tail-getrf: cuSOLVER finishes the trailing block (its own pivoting), the answer stays
// LAPACK's; tails that start mid-run (after a partial last panel too), cover the whole matrix,
// or never start.
TEST(HplCuda, TailGetrfMatchesLapack) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  for (auto [n, nb, depth, tail] : {std::tuple{400L, 64, 1, 150L}, {400L, 64, 0, 150L}, {400L, 96, 1, 400L},
                                    {400L, 64, 1, 5000L}, {397L, 64, 1, 1L}, {397L, 32, 1, 61L}, {53L, 8, 1, 20L},
                                    {1L, 8, 1, 1L}}) {
    const auto r = expect_cuda_variant_solves(n, nb, depth, tail, 0);
    // CPU panels up to the first panel boundary kt with n - kt <= tail, then one tail entry;
    // no tail when that boundary is n itself.
    const std::int64_t t = std::min(tail, n);
    const std::int64_t kt = (n - t + nb - 1) / nb * nb;
    const std::int64_t entries = kt < n ? kt / nb + 1 : (n + nb - 1) / nb;
    EXPECT_EQ(r.iters.size(), static_cast<std::size_t>(entries)) << "N=" << n << " tail " << tail;
  }
  // A large tail against the run without it.
  run_options b;
  b.tail_getrf = 900;
  expect_agrees_with_default_cuda(b);
}

// --gpu-panel: panels of at most M rows factored by cuSOLVER on the GPU (its pivots become the
// row swaps of the trailing columns); alone, with the tail, without look-ahead, every panel.
TEST(HplCuda, GpuPanelMatchesLapack) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  for (auto [n, nb, depth, gpanel, tail] :
       {std::tuple{400L, 64, 1, 200L, 0L}, {400L, 64, 0, 200L, 0L}, {400L, 64, 1, 5000L, 0L}, {397L, 96, 1, 250L, 100L},
        {397L, 32, 0, 397L, 61L}, {53L, 8, 1, 53L, 0L}, {1L, 8, 1, 1L, 0L}})
    expect_cuda_variant_solves(n, nb, depth, tail, gpanel);
  // Every panel on the GPU against the CPU panels.
  run_options b;
  b.gpu_panel = 1500;
  expect_agrees_with_default_cuda(b);
}

// --panel-gemm-gpu: the recursion's trailing DGEMMs of the CPU panels on the GPU (thresholds 1,
// 2, 8, 16: every level down to the base case, or only the widest), with look-ahead and without,
// with the tail and GPU panels taking the end, every PFACT x RFACT, NDIV 3; the answer stays
// LAPACK's and the GPU path really ran.
TEST(HplCuda, PanelGemmGpuMatchesLapack) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  for (auto [n, nb, depth, tail, gpanel, pgg] :
       {std::tuple{400L, 64, 1, 0L, 0L, 1}, {400L, 64, 0, 0L, 0L, 8}, {397L, 96, 1, 100L, 250L, 2},
        {400L, 128, 1, 150L, 0L, 16}, {53L, 8, 1, 0L, 0L, 1}, {1L, 8, 1, 0L, 0L, 1}}) {
    const auto r = expect_cuda_variant_solves(n, nb, depth, tail, gpanel, pgg);
    if (n > 1) {
      EXPECT_GT(r.panel_gemms_gpu, 0) << "N=" << n << " pgg " << pgg;
    }
  }
  for (auto pf : {fact::left, fact::crout, fact::right})
    for (auto rf : {fact::left, fact::crout, fact::right}) {
      params p;
      p.pfact = pf;
      p.rfact = rf;
      p.nbmin = 2;
      p.ndiv = 3;
      const auto r = expect_cuda_variant_solves(300, 48, 1, 0, 0, 2, p);
      EXPECT_GT(r.panel_gemms_gpu, 0) << tv_code(p);
    }
  // --gpu-panel-first: panel 0 by cuSOLVER, the rest CPU panels with GPU DGEMMs (and GPU panels
  // at the end), with and without look-ahead.
  for (auto [n, nb, depth, gpanel] : {std::tuple{400L, 64, 1, 150L}, {397L, 96, 0, 0L}, {53L, 8, 1, 0L}, {5L, 8, 1, 0L}})
    expect_cuda_variant_solves(n, nb, depth, 0, gpanel, 2, params{}, true);
  // Off by default: no GPU DGEMM inside a panel.
  EXPECT_EQ(expect_cuda_variant_solves(300, 64, 1, 0, 0).panel_gemms_gpu, 0);
  // Every eligible DGEMM on the GPU against the default run at N = 1500.
  run_options b;
  b.panel_gemm_gpu = 1;
  expect_agrees_with_default_cuda(b);
  b.gpu_panel_first = true;
  b.gpu_panel = 600;
  expect_agrees_with_default_cuda(b);
  // The ablation of the partial copy up (the whole panel copied up instead of finish()).
  b.panel_up_all = true;
  expect_agrees_with_default_cuda(b);
}
