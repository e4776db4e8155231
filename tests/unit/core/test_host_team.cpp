// Unit tests of the OpenMP team of a busy machine (core/host_team.hpp): the /proc/stat readings
// and the count of busy cores they give, on made-up text.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "gpu500/core/host_team.hpp"

using namespace gpu500;

namespace {

// A /proc/stat with two CPUs: user nice system idle iowait irq softirq steal guest guest_nice.
std::string stat_text(std::uint64_t busy0, std::uint64_t idle0, std::uint64_t busy1, std::uint64_t idle1, int running) {
  return "cpu  1 2 3 4 5 6 7 8 0 0\n"
         "cpu0 " + std::to_string(busy0) + " 0 0 " + std::to_string(idle0) + " 0 0 0 0 0 0\n"
         "cpu1 " + std::to_string(busy1) + " 0 0 " + std::to_string(idle1) + " 0 0 0 0 0 0\n"
         "intr 1 2 3\nctxt 99\nprocs_running " + std::to_string(running) + "\nprocs_blocked 0\n";
}

}  // namespace

TEST(HostTeam, ReadsPerCpuJiffiesAndRunnableTasks) {
  const auto t = parse_proc_stat("cpu  9 9 9 9 9 9 9 9\ncpu3 10 1 2 100 5 1 1 1 0 0\n");
  ASSERT_EQ(t.size(), 1u) << "the sum line is not a CPU";
  EXPECT_EQ(t[0].cpu, 3);
  EXPECT_EQ(t[0].busy, 10u + 1 + 2 + 1 + 1 + 1);
  EXPECT_EQ(t[0].total, t[0].busy + 100 + 5);
  EXPECT_EQ(others_running(stat_text(0, 0, 0, 0, 3)), 2);
  EXPECT_EQ(others_running("cpu0 1 2 3 4\n"), -1);
}

TEST(HostTeam, ACoreBusyMostOfTheWindowCounts) {
  const auto before = parse_proc_stat(stat_text(100, 100, 100, 100, 2));
  // cpu0 busy 5 of 5 ticks (a `yes` on it), cpu1 idle 5 of 5.
  const auto after = parse_proc_stat(stat_text(105, 100, 100, 105, 2));
  EXPECT_EQ(busy_cores(before, after, {0, 1}), 1);
  EXPECT_EQ(busy_cores(before, after, {1}), 0) << "only the cores of the mask";
  EXPECT_EQ(busy_cores(before, after, {0}), 1);
  // 2 of 5 ticks busy on one core: below half a core, idle enough to run a thread.
  const auto light = parse_proc_stat(stat_text(102, 103, 100, 105, 2));
  EXPECT_EQ(busy_cores(before, light, {0, 1}), 0);
  EXPECT_EQ(busy_cores(before, before, {0, 1}), 0) << "no time passed: nothing known, nothing busy";
  EXPECT_EQ(busy_cores(before, after, {0, 1, 7}), 1) << "a core missing from the readings is not counted";
  // This process's own ticks (a library's thread pool spinning at start) are not another program's.
  EXPECT_EQ(busy_cores(before, after, {0, 1}, 5), 0);
  EXPECT_EQ(busy_cores(before, after, {0, 1}, 2), 1);
  const auto both = parse_proc_stat(stat_text(105, 100, 105, 100, 3));
  EXPECT_EQ(busy_cores(before, both, {0, 1}), 2);
  EXPECT_EQ(busy_cores(before, both, {0, 1}, 5), 1);
}

TEST(HostTeam, ReadsTheProcessTicks) {
  // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime ...
  EXPECT_EQ(process_ticks("42 (gpu 500) R 1 42 42 0 -1 4194304 100 0 0 0 17 4 0 0 20 0 3"), 21u);
  EXPECT_EQ(process_ticks("garbage"), 0u);
}

TEST(HostTeam, AnExplicitTeamIsKept) {
  const char* was = std::getenv("OMP_NUM_THREADS");
  const std::string saved = was != nullptr ? was : "";
  ::setenv("OMP_NUM_THREADS", "2", 1);
  const auto r = fit_openmp_team_to_idle_cores();
  EXPECT_EQ(r.threads, 0);
  EXPECT_EQ(fitted_openmp_team(), 0);
  if (was != nullptr) ::setenv("OMP_NUM_THREADS", saved.c_str(), 1);
  else ::unsetenv("OMP_NUM_THREADS");
  EXPECT_FALSE(affinity_cores().empty());
}
