// OpenMP threads per rank on a shared host (dist/host_threads.hpp): the rule on masks written out
// (mpirun's bindings: none, per core, per socket; taskset; unknown affinity; teams asked for by
// OMP_NUM_THREADS), then the collective on the ranks mpiexec gives, with OMP_NUM_THREADS set and
// unset.
#include <gtest/gtest.h>
#include <omp.h>
#include <sched.h>

#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <string>
#include <vector>

#include "gpu500/core/error.hpp"
#include "gpu500/dist/comm.hpp"
#include "gpu500/dist/host_threads.hpp"

namespace gpu500::dist {
namespace {

std::vector<int> cores(int first, int count) {
  std::vector<int> c(static_cast<std::size_t>(count));
  std::iota(c.begin(), c.end(), first);
  return c;
}

TEST(HostThreads, UnboundRanksShareTheHostsCores) {
  const std::vector<std::vector<int>> masks(4, cores(0, 16));  // mpirun --bind-to none, 16 cores
  const std::vector<int> unset(4, 0);
  for (int r = 0; r < 4; ++r) {
    const host_threads t = plan_host_threads(masks, unset, r);
    EXPECT_EQ(t.threads, 4);
    EXPECT_EQ(t.sharing, 4);
    EXPECT_EQ(t.cores, 16);
    EXPECT_EQ(t.load, 16);
    EXPECT_FALSE(t.oversubscribed());
  }
  // Six ranks: 16 / 6 = 2 threads each, 12 of the 16 cores busy.
  const host_threads six = plan_host_threads(std::vector<std::vector<int>>(6, cores(0, 16)), std::vector<int>(6, 0), 5);
  EXPECT_EQ(six.threads, 2);
  EXPECT_EQ(six.load, 12);
  // A large host: 128 ranks over 256 cores, two threads each.
  const host_threads big =
      plan_host_threads(std::vector<std::vector<int>>(128, cores(0, 256)), std::vector<int>(128, 0), 127);
  EXPECT_EQ(big.threads, 2);
  EXPECT_EQ(big.sharing, 128);
  EXPECT_EQ(big.load, 256);
  EXPECT_FALSE(big.oversubscribed());
}

TEST(HostThreads, BoundRanksKeepTheirOwnCores) {
  // Bound per core: each rank alone on its core.
  const std::vector<std::vector<int>> per_core = {{0}, {1}, {2}, {3}};
  const host_threads c = plan_host_threads(per_core, std::vector<int>(4, 0), 2);
  EXPECT_EQ(c.threads, 1);
  EXPECT_EQ(c.sharing, 1);
  EXPECT_EQ(c.cores, 1);
  EXPECT_FALSE(c.oversubscribed());
  // Bound per socket of 8 cores, two ranks a socket.
  const std::vector<std::vector<int>> per_socket = {cores(0, 8), cores(0, 8), cores(8, 8), cores(8, 8)};
  const host_threads s = plan_host_threads(per_socket, std::vector<int>(4, 0), 3);
  EXPECT_EQ(s.threads, 4);
  EXPECT_EQ(s.sharing, 2);
  EXPECT_EQ(s.cores, 8);
  EXPECT_EQ(s.load, 8);
  // Overlapping masks: the middle rank shares with both neighbours, each of them with one.
  const std::vector<std::vector<int>> chain = {cores(0, 4), cores(2, 4), cores(4, 4)};
  const host_threads mid = plan_host_threads(chain, std::vector<int>(3, 0), 1);
  EXPECT_EQ(mid.sharing, 3);
  EXPECT_EQ(mid.threads, 1);   // 4 cores over 3 ranks
  EXPECT_EQ(mid.cores, 8);     // the union 0-7
  EXPECT_EQ(mid.load, 2 + 1 + 2);
  EXPECT_EQ(plan_host_threads(chain, std::vector<int>(3, 0), 0).threads, 2);
}

TEST(HostThreads, ExplicitTeamsAreKeptAndOversubscriptionIsNamed) {
  // 3 ranks of 2 threads on 2 cores (a SCALE 12 run took 59.6 s there, 0.7 s with 1 thread each).
  const std::vector<std::vector<int>> two(3, cores(0, 2));
  const host_threads t = plan_host_threads(two, std::vector<int>(3, 2), 0);
  EXPECT_EQ(t.threads, 2);
  EXPECT_EQ(t.load, 6);
  EXPECT_EQ(t.excess(), 3);
  EXPECT_TRUE(t.oversubscribed());
  const std::string w = oversubscription_warning(t);
  EXPECT_NE(w.find("3 ranks of this host run 6 OpenMP threads on 2 cores"), std::string::npos) << w;
  EXPECT_NE(w.find("OMP_NUM_THREADS to at most 1"), std::string::npos) << w;
  // The same ranks left to the rule: one thread each. They outnumber the cores, but there is no
  // team to shrink: not reported.
  const host_threads rule = plan_host_threads(two, std::vector<int>(3, 0), 1);
  EXPECT_EQ(rule.threads, 1);
  EXPECT_EQ(rule.load, 3);
  EXPECT_EQ(rule.excess(), 0);
  EXPECT_FALSE(rule.oversubscribed());
  // One rank asks for a full team, the other takes its share of what the rule gives.
  const std::vector<std::vector<int>> eight(2, cores(0, 8));
  const host_threads mixed = plan_host_threads(eight, {8, 0}, 1);
  EXPECT_EQ(mixed.threads, 4);
  EXPECT_EQ(mixed.load, 12);
  EXPECT_TRUE(mixed.oversubscribed());
  EXPECT_NE(oversubscription_warning(mixed).find("at most 4"), std::string::npos);
}

TEST(HostThreads, UnknownAffinityIsOneCoreOfItsOwn) {
  const std::vector<std::vector<int>> unknown = {{}, {}};
  const host_threads t = plan_host_threads(unknown, {0, 0}, 1);
  EXPECT_EQ(t.threads, 1);
  EXPECT_EQ(t.sharing, 1);
  EXPECT_EQ(t.cores, 1);
  EXPECT_FALSE(t.oversubscribed());
  EXPECT_THROW((void)plan_host_threads(unknown, {0}, 0), error);
  EXPECT_THROW((void)plan_host_threads(unknown, {0, 0}, 2), error);
}

// The collective on this host's ranks (mpiexec --bind-to none: every rank has the same mask).
TEST(HostThreads, CollectiveKeepsOrSetsTheTeam) {
  const auto c = communicator::world();
  cpu_set_t set;
  CPU_ZERO(&set);
  ASSERT_EQ(sched_getaffinity(0, sizeof set, &set), 0);
  const int mine = CPU_COUNT(&set);
  const char* was = std::getenv("OMP_NUM_THREADS");
  const std::string saved = was != nullptr ? was : "";
  const int saved_team = omp_get_max_threads();

  ::setenv("OMP_NUM_THREADS", "3", 1);
  omp_set_num_threads(3);
  const host_threads kept = share_host_cores(c);
  EXPECT_EQ(kept.threads, 3);
  EXPECT_EQ(omp_get_max_threads(), 3);
  EXPECT_GE(kept.sharing, 1);
  EXPECT_LE(kept.sharing, c.node_size());
  EXPECT_EQ(kept.load, 3 * kept.sharing);

  ::unsetenv("OMP_NUM_THREADS");
  const host_threads rule = share_host_cores(c);
  EXPECT_EQ(omp_get_max_threads(), rule.threads);
  EXPECT_EQ(rule.threads, std::max(1, mine / rule.sharing));
  EXPECT_EQ(c.allreduce(rule.sharing, reduce_op::max), c.allreduce(rule.sharing, reduce_op::min))
      << "every rank of an unbound host shares the same cores";

  if (was != nullptr) ::setenv("OMP_NUM_THREADS", saved.c_str(), 1);
  omp_set_num_threads(saved_team);
}

}  // namespace
}  // namespace gpu500::dist
