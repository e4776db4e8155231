// MPI tests of HPL (run by CTest under mpiexec with 2 and 4 ranks): every grid that fits the
// world (1x2, 2x1, 2x2, 1x4, 4x1, and a 1x1 grid with idle ranks), both process mappings, every
// BCAST x SWAP x DEPTH with several PFACT/RFACT, at awkward sizes; the solution must match
// LAPACKE dgesv on the whole system and the residual must pass on every rank.
// HplCudaMpi: the CUDA backend on P x Q grids (one process per GPU; several ranks may share one
// GPU): 1x2, 2x1 and (4 ranks) 2x2, 1x4, 4x1, both mappings, awkward orders (N < NB, N not a
// multiple of NB, N = 1), BCAST / SWAP / DEPTH / PFACT / RFACT varied over the runs, against
// LAPACKE and the residual check (its own GPU kernels), and against the CPU backend's check;
// the exchanges alternate between NCCL (where every rank has its own GPU), CUDA-aware MPI and
// host staging; in part of the runs the panels are factored on the GPU (with P > 1 over NCCL
// only, else on the CPU); on P = 1 grids the swap pipeline runs with and without its own stream,
// in one segment or several.
// Skipped on every rank without a CUDA device.
#include <gtest/gtest.h>
#include <lapacke.h>
#include <mpi.h>

#include <cmath>

#include "gpu500/config.hpp"
#include "gpu500/core/device.hpp"

#include "gpu500/hpl/grid.hpp"
#include "gpu500/hpl/matgen.hpp"
#include "gpu500/hpl/pdgesv.hpp"
#include "support.hpp"

using namespace gpu500::hpl;
using namespace hpl_test;

namespace {
int world_size() {
  int s = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}
bool gpu_everywhere() {
  int ok = gpu500::cuda_available() ? 1 : 0, all = 0;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return all == 1;
}
std::vector<std::pair<int, int>> grids_of(int ws) {
  std::vector<std::pair<int, int>> g;
  for (int p = 1; p <= ws; ++p)
    for (int q = 1; q <= ws; ++q)
      if (p * q == ws || (p * q == 2 && ws == 4)) g.emplace_back(p, q);  // 4 ranks: 2x2, 1x4, 4x1, 1x2, 2x1
  return g;
}
/// The whole world as a P x Q grid (P = 2 from 4 ranks up) and an N x N problem on it.
struct world_problem {
  grid g;
  params prm;
  world_problem(long n, int nb) {
    const int ws = world_size();
    const int p = ws >= 4 ? 2 : 1, q = ws / p;
    g = grid::create(p, q, false);
    prm.n = n;
    prm.nb = nb;
    prm.p = p;
    prm.q = q;
  }
};
}  // namespace

TEST(HplMpi, EveryGridBroadcastSwapAndDepthMatchesLapack) {
  const int ws = world_size();
  std::vector<std::pair<int, int>> grids;
  for (int p = 1; p <= ws; ++p)
    for (int q = 1; q <= ws; ++q)
      if (p * q == ws || (p * q == 1)) grids.emplace_back(p, q);
  run_options opt;
  opt.gather_x = true;
  int runs = 0;
  for (auto [p, q] : grids)
    for (bool colmajor : {false, true}) {
      const grid g = grid::create(p, q, colmajor);
      for (long n : {1L, 5L, 43L}) {
        const auto ref = lapack_solution(n);
        for (int bc = 0; bc < 6; ++bc)
          for (auto sw : {swap::bin_exch, swap::longs, swap::mix})
            for (int depth : {0, 1}) {
              params prm;
              prm.n = n;
              prm.nb = 4;
              prm.p = p;
              prm.q = q;
              prm.pmap_col_major = colmajor;
              prm.bc = static_cast<bcast>(bc);
              prm.swp = sw;
              prm.swap_threshold = 9;
              prm.depth = depth;
              prm.pfact = static_cast<fact>(runs % 3);
              prm.rfact = static_cast<fact>((runs / 3) % 3);
              prm.nbmin = 1 + runs % 2;
              prm.ndiv = 2 + runs % 2;
              const auto r = run_test(prm, g, opt);
              ++runs;
              if (!g.in_grid) {
                EXPECT_TRUE(r.skipped);
                continue;
              }
              EXPECT_TRUE(r.passed) << p << "x" << q << " " << tv_code(prm) << " N=" << n << " resid " << r.resid;
              ASSERT_EQ(r.x.size(), static_cast<std::size_t>(n));
              EXPECT_LT(rel_diff(r.x, ref), 1e-11) << p << "x" << q << " " << tv_code(prm) << " swap "
                                                   << static_cast<int>(sw) << " N=" << n;
            }
      }
    }
  EXPECT_GT(runs, 0);
}

TEST(HplMpi, LargerRunTimesAreTheSlowestRank) {
  const world_problem w(300, 16);
  const grid& g = w.g;
  const params& prm = w.prm;
  const auto r = run_test(prm, g, run_options{});
  EXPECT_TRUE(r.passed) << r.resid;
  double t = r.time, tmax = 0, tmin = 0;
  MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(&t, &tmin, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  EXPECT_EQ(tmax, tmin);  // every rank reports the combined (maximum) time
}

TEST(HplCudaMpi, GridsVariantsAndAwkwardSizesMatchLapack) {
  if (!gpu_everywhere()) GTEST_SKIP() << "no CUDA device";
  const int ws = world_size();
  run_options gpu;
  gpu.be = gpu500::backend::cuda;
  gpu.gather_x = true;
  int runs = 0;
  struct size_case { long n; int nb; };
  const size_case sizes[] = {{1, 4}, {5, 16}, {43, 4}, {70, 8}, {203, 32}};
  for (auto [p, q] : grids_of(ws))
    for (bool colmajor : {false, true}) {
      const grid g = grid::create(p, q, colmajor);
      for (const auto& sc : sizes) {
        const auto ref = lapack_solution(sc.n);
        for (int v = 0; v < 6; ++v) {
          params prm;
          prm.n = sc.n;
          prm.nb = sc.nb;
          prm.p = p;
          prm.q = q;
          prm.pmap_col_major = colmajor;
          prm.bc = static_cast<bcast>((v + runs) % 6);
          prm.swp = static_cast<swap>(v % 3);
          prm.swap_threshold = 9;
          prm.depth = (v / 3 + runs) % 2;
          prm.pfact = static_cast<fact>(runs % 3);
          prm.rfact = static_cast<fact>((runs / 3) % 3);
          prm.nbmin = 1 + runs % 3;
          prm.ndiv = 2 + runs % 2;
          gpu.device_mpi = runs % 2 == 0;  // GPU-to-GPU panel broadcast where MPI is CUDA-aware
          gpu.nccl = runs % 3 != 2;        // NCCL where every rank has its own GPU
          // Panels by cuSOLVER on the GPU below N/2 rows (both kinds in one solve), and the first
          // (P > 1: over NCCL only, else on the CPU).
          gpu.gpu_panel = runs % 4 < 2 ? sc.n / 2 : 0;
          gpu.gpu_panel_first = runs % 4 == 1;
          // P = 1: the swap pipeline with and without its own stream, in one or many segments.
          gpu.swap_stream = runs % 5 != 3;
          gpu.seg_first = runs % 2 == 0 ? 0.125 : 1.0;
          const auto r = run_test(prm, g, gpu);
          ++runs;
          if (!g.in_grid) {
            EXPECT_TRUE(r.skipped);
            continue;
          }
          const std::string what = std::to_string(p) + "x" + std::to_string(q) + (colmajor ? " col " : " row ") +
                                   tv_code(prm) + " swap " + std::to_string(static_cast<int>(prm.swp)) +
                                   " exchange " + r.gpu_exchange + (gpu.swap_stream ? "" : " no swap stream") + " gpu panel " + std::to_string(gpu.gpu_panel) +
                                   (gpu.gpu_panel_first ? " first" : "") +
                                   " N=" + std::to_string(sc.n) + " NB=" + std::to_string(sc.nb);
          EXPECT_TRUE(r.checked && r.passed) << what << " resid " << r.resid;
          ASSERT_EQ(r.x.size(), static_cast<std::size_t>(sc.n)) << what;
          EXPECT_LT(rel_diff(r.x, ref), 1e-11) << what;
        }
      }
    }
  EXPECT_GT(runs, 0);
}

// The GPU residual check against the CPU backend's on the same problem, and the combined time.
TEST(HplCudaMpi, ResidualAgreesWithCpuBackendAndTimeIsTheSlowestRank) {
  if (!gpu_everywhere()) GTEST_SKIP() << "no CUDA device";
  const world_problem w(600, 64);
  const grid& g = w.g;
  const params& prm = w.prm;
  run_options gpu, cpu;
  gpu.be = gpu500::backend::cuda;
  gpu.gather_x = cpu.gather_x = true;
  const auto rg = run_test(prm, g, gpu);
  const auto rc = run_test(prm, g, cpu);
  ASSERT_TRUE(rg.passed) << rg.resid;
  ASSERT_TRUE(rc.passed) << rc.resid;
  EXPECT_LT(rel_diff(rg.x, rc.x), 1e-11);
  EXPECT_NEAR(rg.norm_a_inf, rc.norm_a_inf, 1e-9 * rc.norm_a_inf);
  EXPECT_NEAR(rg.norm_a_1, rc.norm_a_1, 1e-9 * rc.norm_a_1);
  EXPECT_EQ(rg.norm_b, rc.norm_b);
  double t = rg.time, tmax = 0, tmin = 0;
  MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(&t, &tmin, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  EXPECT_EQ(tmax, tmin);
  EXPECT_GT(rg.gflops, 0);
}

// One rank per GPU: the exchanges go by NCCL (when the build has it), with GPU panels (on
// P > 1 gathered over NCCL) and with CPU panels, and the solution is the one the MPI exchanges
// give; --no-nccl's setting falls back to MPI. Ranks sharing a GPU never use NCCL. 1 x R,
// R x 1 and, from 4 ranks, 2 x 2.
TEST(HplCudaMpi, OneGpuPerRankExchangesByNccl) {
  if (!gpu_everywhere()) GTEST_SKIP() << "no CUDA device";
  const int ws = world_size();
  std::vector<std::pair<int, int>> shapes = {{1, ws}, {ws, 1}};
  if (ws >= 4) shapes.emplace_back(2, ws / 2);
  for (auto [p, q] : shapes) {
    const grid g = grid::create(p, q, false);
    int own = g.local_rank < static_cast<int>(gpu500::cuda_devices().size()) ? 1 : 0, all_own = 0;
    MPI_Allreduce(&own, &all_own, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    params prm;
    prm.n = 1003;
    prm.nb = 64;
    prm.p = p;
    prm.q = q;
    run_options gpu;
    gpu.be = gpu500::backend::cuda;
    gpu.gather_x = true;
    gpu.gpu_panel = 500;  // the last panels, and the first
    gpu.gpu_panel_first = true;
    const auto rn = run_test(prm, g, gpu);
    run_options cpu_panels = gpu;
    cpu_panels.gpu_panel = 0;
    cpu_panels.gpu_panel_first = false;
    const auto rc = run_test(prm, g, cpu_panels);
    gpu.nccl = false;
    const auto rm = run_test(prm, g, gpu);
    if (!g.in_grid) continue;
    const std::string what = std::to_string(p) + "x" + std::to_string(q);
    ASSERT_TRUE(rn.passed && rc.passed && rm.passed) << what << " resid " << rn.resid << " / " << rc.resid << " / "
                                                     << rm.resid;
    EXPECT_NE(rm.gpu_exchange, "nccl") << what;
    EXPECT_LT(rel_diff(rn.x, rm.x), 1e-11) << what;
    EXPECT_LT(rel_diff(rc.x, rm.x), 1e-11) << what;
    if (GPU500_HAVE_NCCL && all_own) EXPECT_EQ(rn.gpu_exchange, "nccl") << what;
    else EXPECT_NE(rn.gpu_exchange, "nccl") << what;
  }
}

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  ::testing::InitGoogleTest(&argc, argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0) {
    auto& l = ::testing::UnitTest::GetInstance()->listeners();
    delete l.Release(l.default_result_printer());
  }
  const int rc = RUN_ALL_TESTS();
  int all = 0;
  MPI_Allreduce(&rc, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return all;
}
