// HPL-MxP on P x Q grids of MPI processes (CPU backend): for every grid shape of the started
// ranks and odd N and NB, the run passes, every rank holds the same solution and iteration count,
// and x equals the 1 x 1 solution to the accuracy both must reach; a 1 x 1 solve needs no other
// rank; the zero-diagonal matrix fails on a grid too; a grid that does not match the ranks is
// refused on every rank.
#include <gtest/gtest.h>

#include <cmath>
#include <utility>
#include <vector>

#include "gpu500/core/error.hpp"
#include "gpu500/dist/comm.hpp"
#include "gpu500/hpl_mxp/mxp.hpp"
#include "grid_shapes.hpp"

namespace gpu500::hpl_mxp {
namespace {

options grid_options(std::int64_t n, int nb, int p, int q) {
  options o;
  o.n = n;
  o.nb = nb;
  o.p = p;
  o.q = q;
  o.be = backend::cpu;
  o.prec = precision::fp32;
  return o;
}

TEST(HplMxpGrid, EveryShapeMatchesTheOneProcessSolution) {
  const dist::communicator world = dist::communicator::world();
  for (const auto& [n, nb] : {std::pair<std::int64_t, int>{301, 16}, {97, 37}, {50, 64}}) {
    const result one = solve(grid_options(n, nb, 1, 1));
    ASSERT_TRUE(one.passed);
    double xmax = 0;
    for (double v : one.x) xmax = std::max(xmax, std::fabs(v));
    for (const auto& [p, q] : test::grid_shapes(world.size())) {
      const result r = solve(grid_options(n, nb, p, q));
      EXPECT_TRUE(r.passed) << p << "x" << q << " n=" << n << " berr=" << r.backward_error;
      EXPECT_EQ(world.allreduce(r.iterations, dist::reduce_op::min), world.allreduce(r.iterations, dist::reduce_op::max));
      EXPECT_NEAR(r.norm_a, one.norm_a, 1e-12 * one.norm_a);
      ASSERT_EQ(r.x.size(), one.x.size());
      double diff = 0;
      for (std::size_t i = 0; i < r.x.size(); ++i) diff = std::max(diff, std::fabs(r.x[i] - one.x[i]));
      EXPECT_LT(diff, 1e-9 * xmax) << p << "x" << q << " n=" << n;
      EXPECT_EQ(world.allreduce(diff, dist::reduce_op::max), diff) << "rank 0's x differs from another rank's";
    }
  }
}

// The 1 x 1 grid is each process alone: one rank solves at odd N and NB while the others wait
// at a barrier (a collective of the solve would hang), and its x is every rank's 1 x 1 x.
TEST(HplMxpGrid, OneByOneNeedsNoOtherRank) {
  const dist::communicator world = dist::communicator::world();
  const result all = solve(grid_options(301, 37, 1, 1));
  result alone;
  if (world.rank() == world.size() - 1) alone = solve(grid_options(301, 37, 1, 1));
  world.barrier();
  EXPECT_TRUE(all.passed);
  if (world.rank() == world.size() - 1) {
    EXPECT_EQ(alone.x, all.x);
  }
}

TEST(HplMxpGrid, ZeroDiagonalFailsOnAGrid) {
  const dist::communicator world = dist::communicator::world();
  options o = grid_options(120, 16, 1, world.size());
  o.diag = diagonal::zero;
  const result r = solve(o);
  EXPECT_FALSE(r.passed);
  EXPECT_LE(r.iterations, o.max_iters);
}

TEST(HplMxpGrid, AGridThatDoesNotMatchTheRanksIsRefused) {
  program_settings s;
  s.opt = grid_options(100, 16, 1, 1);
  s.quiet = true;
  EXPECT_THROW(run_program(s), usage_error);  // started as more than one rank
  s.opt = grid_options(100, 16, 2, dist::communicator::world().size());
  EXPECT_THROW(run_program(s), usage_error);  // twice as many as were started
}

}  // namespace
}  // namespace gpu500::hpl_mxp
