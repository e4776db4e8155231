// gpu500/core/host_team.hpp — an OpenMP team that does not collapse on a busy machine.
//
// An OpenMP team of one thread per core shares a core with any other busy program (a build, a
// `yes`). libgomp's threads then wait at every barrier for the one thread that the kernel runs in
// turn with that program: a CPU BFS on a SCALE 14 graph, 2 threads on 2 cores with one busy core,
// ran 2.4e6 TEPS instead of 2e8-1e9 with one thread (docs/reliability.md, "OpenMP on a busy
// machine"). OMP_WAIT_POLICY=passive also helps, but libgomp reads it when the library loads,
// before main; the team size can be set at run time. So the program sizes its team once, at
// start: the cores of its affinity mask less those busy with other programs now (measured from
// /proc/stat over a short window less this process's own ticks, only when some other program is
// running at all), at least 1.
// An explicit OMP_NUM_THREADS is always kept.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace gpu500 {

/// One CPU's jiffies from a /proc/stat "cpuN" line: busy (user, nice, system, irq, softirq,
/// steal) and total (busy + idle + iowait).
struct cpu_times {
  int cpu = 0;
  std::uint64_t busy = 0, total = 0;
};

/// The per-CPU lines of /proc/stat text (not the "cpu " sum line).
[[nodiscard]] std::vector<cpu_times> parse_proc_stat(std::string_view text);
/// Runnable tasks other than the reader (/proc/stat "procs_running" less 1; -1 when absent).
[[nodiscard]] int others_running(std::string_view proc_stat);
/// How many cores of `mask` other programs kept busy between two readings: the mask's busy ticks
/// less `own_ticks` (this process's, from process_ticks), in cores' worth of the window, a
/// fraction above `share` counting as a core.
[[nodiscard]] int busy_cores(const std::vector<cpu_times>& before, const std::vector<cpu_times>& after,
                             const std::vector<int>& mask, std::uint64_t own_ticks = 0, double share = 0.5);
/// The CPU ticks (user + system, every thread) of a process from its /proc/PID/stat text.
[[nodiscard]] std::uint64_t process_ticks(std::string_view self_stat);

/// The cores this process may run on (its affinity mask), ascending; empty where unknown.
[[nodiscard]] std::vector<int> affinity_cores();

struct idle_team {
  int cores = 0;    ///< cores of this process's mask
  int busy = 0;     ///< of those, busy with other programs
  int threads = 0;  ///< the team set (0: left as it was)
};

/// Where OMP_NUM_THREADS is unset: measures the busy cores of the mask (about 50 ms, only when
/// another program is running) and, when some are busy, sets the OpenMP team to the others (at
/// least 1 thread). Called once by the program before a command runs.
idle_team fit_openmp_team_to_idle_cores();
/// The team fit_openmp_team_to_idle_cores set (0: none), which a rank's share of its host's
/// cores (dist/host_threads.hpp) never exceeds.
[[nodiscard]] int fitted_openmp_team();

}  // namespace gpu500
