// The OpenMP team of a busy machine (gpu500/core/host_team.hpp): the /proc/stat readings, the
// rule, and the one call the program makes before a command runs.
#include "gpu500/core/host_team.hpp"

#include <omp.h>
#include <sched.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

namespace gpu500 {

std::vector<cpu_times> parse_proc_stat(std::string_view text) {
  std::vector<cpu_times> out;
  std::istringstream in{std::string(text)};
  std::string line;
  while (std::getline(in, line)) {
    if (line.size() < 4 || line.compare(0, 3, "cpu") != 0 || !std::isdigit(static_cast<unsigned char>(line[3]))) continue;
    std::istringstream f(line.substr(3));
    cpu_times t;
    std::uint64_t v[8] = {};  // user nice system idle iowait irq softirq steal
    f >> t.cpu;
    for (auto& x : v) f >> x;
    if (!f && !f.eof()) continue;
    t.busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
    t.total = t.busy + v[3] + v[4];
    out.push_back(t);
  }
  return out;
}

int others_running(std::string_view proc_stat) {
  const auto at = proc_stat.find("procs_running ");
  if (at == std::string_view::npos) return -1;
  return std::atoi(std::string(proc_stat.substr(at + 14, 12)).c_str()) - 1;
}

int busy_cores(const std::vector<cpu_times>& before, const std::vector<cpu_times>& after, const std::vector<int>& mask,
               std::uint64_t own_ticks, double share) {
  // The mask's busy ticks less this process's own (its library threads, e.g. OpenBLAS's pool
  // spinning just after it starts, are not another program), in cores' worth of the window.
  double busy = 0, window = 0;
  int seen = 0;
  for (int c : mask) {
    const auto b = std::find_if(before.begin(), before.end(), [c](const cpu_times& t) { return t.cpu == c; });
    const auto a = std::find_if(after.begin(), after.end(), [c](const cpu_times& t) { return t.cpu == c; });
    if (b == before.end() || a == after.end() || a->total <= b->total) continue;
    busy += static_cast<double>(a->busy - std::min(a->busy, b->busy));
    window += static_cast<double>(a->total - b->total);
    ++seen;
  }
  if (seen == 0) return 0;
  const double others = std::max(0.0, busy - static_cast<double>(own_ticks)) / (window / seen);
  return std::clamp(static_cast<int>(others + 1.0 - share), 0, seen);
}

std::uint64_t process_ticks(std::string_view self_stat) {
  // Fields after the command name's closing parenthesis: state is field 3, utime 14, stime 15.
  const auto close = self_stat.rfind(')');
  if (close == std::string_view::npos) return 0;
  std::istringstream in{std::string(self_stat.substr(close + 1))};
  std::string field;
  std::uint64_t utime = 0, stime = 0;
  for (int i = 3; i <= 15 && in >> field; ++i) {
    if (i == 14) utime = std::strtoull(field.c_str(), nullptr, 10);
    if (i == 15) stime = std::strtoull(field.c_str(), nullptr, 10);
  }
  return utime + stime;
}

std::vector<int> affinity_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> c;
  if (sched_getaffinity(0, sizeof set, &set) == 0)
    for (int i = 0; i < CPU_SETSIZE; ++i)
      if (CPU_ISSET(i, &set)) c.push_back(i);
  return c;
}

namespace {

int fitted_team = 0;

std::string read_file(const char* path) {
  std::ifstream f(path);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

}  // namespace

idle_team fit_openmp_team_to_idle_cores() {
  idle_team r;
  const auto mask = affinity_cores();
  r.cores = static_cast<int>(mask.size());
  if (std::getenv("OMP_NUM_THREADS") != nullptr || r.cores < 2) return r;
  const std::string first = read_file("/proc/stat");
  if (others_running(first) <= 0) return r;  // nothing else runnable: every core is ours (no wait)
  const std::uint64_t own_first = process_ticks(read_file("/proc/self/stat"));
  // Jiffies tick at 100 Hz: 50 ms gives five ticks a core, enough to tell busy from idle.
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const std::string second = read_file("/proc/stat");
  const std::uint64_t own = process_ticks(read_file("/proc/self/stat")) - own_first;
  r.busy = busy_cores(parse_proc_stat(first), parse_proc_stat(second), mask, own);
  if (r.busy == 0) return r;
  r.threads = std::max(1, std::min(omp_get_max_threads(), r.cores - r.busy));
  omp_set_num_threads(r.threads);
  fitted_team = r.threads;
  return r;
}

int fitted_openmp_team() { return fitted_team; }

}  // namespace gpu500
