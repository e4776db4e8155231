// HPL-MxP's one CUDA solver on P x Q grids under mpiexec (skipped without a GPU): for every grid
// shape of the started ranks, every precision and odd N and NB, the run passes, every rank holds
// the same solution and iteration count, and x equals the CPU one-process solution to the
// accuracy both must reach (fp8: the NBs that are multiples of 16; the others refused on every
// rank); a run of many block columns (the look-ahead's every piece: next block column and row on
// some processes, none on others; bf16 and fp8, whose parts travel with their scales and padding)
// and the zero-diagonal matrix, which must fail; the 1 x 1 grid is each process alone (one rank
// solves while the others wait: no NCCL communicator, no MPI call).
// Ranks take the GPU of their node rank; where they outnumber the GPUs they share them (MPI
// broadcasts), else each has its own (NCCL, and once MPI with nccl off).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "gpu500/core/device.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/dist/comm.hpp"
#include "gpu500/dist/placement.hpp"
#include "gpu500/hpl_mxp/mxp.hpp"
#include "grid_shapes.hpp"

namespace gpu500::hpl_mxp {
namespace {

options cuda_grid(std::int64_t n, int nb, int p, int q, precision prec) {
  const dist::communicator world = dist::communicator::world();
  options o;
  o.n = n;
  o.nb = nb;
  o.p = p;
  o.q = q;
  o.be = backend::cuda;
  o.prec = prec;
  o.device = dist::gpu_of_node_rank(world.node_rank(), dist::gpu_count());
  return o;
}

// max |x - ref| / max |ref|, the same on every rank (checked).
double agreed_difference(const result& r, const result& ref) {
  const dist::communicator world = dist::communicator::world();
  double diff = 0, xmax = 0;
  for (std::size_t i = 0; i < ref.x.size(); ++i) {
    diff = std::max(diff, std::fabs(r.x[i] - ref.x[i]));
    xmax = std::max(xmax, std::fabs(ref.x[i]));
  }
  EXPECT_EQ(world.allreduce(diff, dist::reduce_op::max), diff) << "rank 0's x differs from another rank's";
  return diff / xmax;
}

TEST(HplMxpCudaGrid, EveryShapeAndPrecisionMatchesTheHostSolution) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  const dist::communicator world = dist::communicator::world();
  for (const auto& [n, nb] : {std::pair<std::int64_t, int>{301, 16}, {97, 37}, {50, 64}, {1000, 96}}) {
    options host;
    host.n = n;
    host.nb = nb;
    host.be = backend::cpu;
    const result ref = solve(host);
    ASSERT_TRUE(ref.passed);
    for (const auto& [p, q] : test::grid_shapes(world.size()))
      for (const precision prec : {precision::bf16, precision::fp16, precision::fp32, precision::fp8}) {
        if (prec == precision::fp8 && nb % fp8_nb_multiple != 0) {
          EXPECT_THROW(solve(cuda_grid(n, nb, p, q, prec)), usage_error) << "fp8 with NB " << nb;
          continue;
        }
        const result r = solve(cuda_grid(n, nb, p, q, prec));
        EXPECT_TRUE(r.passed) << p << "x" << q << " n=" << n << " " << precision_name(prec)
                              << " berr=" << r.backward_error;
        EXPECT_EQ(world.allreduce(r.iterations, dist::reduce_op::min),
                  world.allreduce(r.iterations, dist::reduce_op::max));
        EXPECT_NEAR(r.norm_a, ref.norm_a, 1e-12 * ref.norm_a);
        ASSERT_EQ(r.x.size(), ref.x.size());
        EXPECT_LT(agreed_difference(r, ref), 1e-9) << p << "x" << q << " n=" << n << " " << precision_name(prec);
      }
  }
}

TEST(HplMxpCudaGrid, ManyBlockColumnsBothTransports) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  const dist::communicator world = dist::communicator::world();
  const auto all = test::grid_shapes(world.size());
  const auto [p, q] = all[all.size() / 2];  // the squarest shape
  options host;
  host.n = 3001;
  host.nb = 128;
  host.be = backend::cpu;
  const result ref = solve(host);
  for (const precision prec : {precision::bf16, precision::fp8})
    for (const bool nccl : {true, false}) {
      options o = cuda_grid(3001, 128, p, q, prec);
      o.nccl = nccl;
      const result r = solve(o);
      EXPECT_TRUE(r.passed) << p << "x" << q << " " << precision_name(prec) << " nccl=" << nccl
                            << " berr=" << r.backward_error;
      EXPECT_LE(r.iterations, 20) << precision_name(prec);
      EXPECT_LT(agreed_difference(r, ref), 1e-9) << p << "x" << q << " " << precision_name(prec) << " nccl=" << nccl;
    }
}

// One rank solves on the 1 x 1 grid at odd N and NB while the others wait at a barrier (a
// collective or an NCCL communicator of the solve would hang), in bf16 and fp8; its x equals
// that rank's 1 x 1 x of the run where every rank solved, and those pass.
TEST(HplMxpCudaGrid, OneByOneNeedsNoOtherRank) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  const dist::communicator world = dist::communicator::world();
  for (const auto& [prec, nb] : {std::pair<precision, int>{precision::bf16, 37}, {precision::fp8, 48}}) {
    // The options once, on every rank (cuda_grid asks the world communicator, a collective).
    // A solve that throws on one rank must not leave the others at the barrier: caught, said.
    const options o = cuda_grid(301, nb, 1, 1, prec);
    std::string why;
    result all, alone;
    try {
      all = solve(o);
      if (world.rank() == world.size() - 1) alone = solve(o);
    } catch (const std::exception& e) {
      why = e.what();
      std::fprintf(stderr, "rank %d: %s\n", world.rank(), why.c_str());
    }
    world.barrier();
    EXPECT_EQ(why, "") << precision_name(prec);
    EXPECT_TRUE(all.passed) << precision_name(prec) << " berr=" << all.backward_error;
    if (world.rank() == world.size() - 1 && why.empty()) {
      EXPECT_EQ(alone.x.size(), all.x.size());
      double diff = 0, xmax = 0;
      for (std::size_t i = 0; i < all.x.size(); ++i) {
        diff = std::max(diff, std::fabs(alone.x[i] - all.x[i]));
        xmax = std::max(xmax, std::fabs(all.x[i]));
      }
      EXPECT_LT(diff, 1e-9 * xmax) << precision_name(prec);
    }
  }
}

TEST(HplMxpCudaGrid, ZeroDiagonalFails) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  for (const precision prec : {precision::bf16, precision::fp8}) {
    options o = cuda_grid(120, 16, 1, dist::communicator::world().size(), prec);
    o.diag = diagonal::zero;
    const result r = solve(o);
    EXPECT_FALSE(r.passed) << precision_name(prec);
    EXPECT_LE(r.iterations, o.max_iters) << precision_name(prec);
  }
}

}  // namespace
}  // namespace gpu500::hpl_mxp
