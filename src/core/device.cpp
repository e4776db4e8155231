// Host-side device and memory queries; the CUDA part lives in cuda/device.cu.
#include "gpu500/core/device.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "gpu500/config.hpp"
#include "gpu500/core/cuda_arch.hpp"
#include "gpu500/core/error.hpp"

namespace gpu500 {

#if !GPU500_HAVE_CUDA
std::vector<device_info> cuda_devices() { return {}; }
#endif

bool cuda_available() { return !cuda_devices().empty(); }

backend parse_backend(const std::string& s, bool allow_opencl) {
  if (s == "auto") return resolve_auto_backend();
  if (s == "cpu") return backend::cpu;
  if (s == "cuda") {
    if (!GPU500_HAVE_CUDA) throw usage_error("--backend cuda: this build has no CUDA backend");
    if (!cuda_available()) throw usage_error("--backend cuda: no CUDA device is visible");
    check_cuda_devices();  // a GPU this build has no code for: one line now, not a failed launch later
    return backend::cuda;
  }
  if (s == "opencl" && allow_opencl) {
    if (!GPU500_HAVE_OPENCL) throw usage_error("--backend opencl: this build has no OpenCL backend");
    return backend::opencl;
  }
  throw usage_error("--backend: expected auto, cpu" + std::string(GPU500_HAVE_CUDA ? ", cuda" : "") +
                    (allow_opencl ? ", opencl" : "") + "; got '" + s + "'");
}

backend resolve_auto_backend() {
  if (!cuda_available()) return backend::cpu;
  check_cuda_devices();
  return backend::cuda;
}

const char* backend_name(backend b) {
  switch (b) {
    case backend::cpu: return "cpu";
    case backend::cuda: return "cuda";
    case backend::opencl: return "opencl";
  }
  return "?";
}

/// A "Key:   N kB" line of /proc/meminfo or /proc/self/status, in bytes (0 when absent).
static std::int64_t kb_field(const char* file, const char* key) {
  std::ifstream f(file);
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind(key, 0) == 0) {
      std::istringstream in(line.substr(std::char_traits<char>::length(key)));
      std::int64_t kb = 0;
      in >> kb;
      return kb * 1024;
    }
  }
  return 0;
}

std::int64_t host_total_memory() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<std::int64_t>(pages) * page : 0;
}

namespace {

std::int64_t read_number(const std::string& file) {  // -1: absent or "max"
  std::ifstream f(file);
  std::string s;
  if (!(f >> s) || s == "max") return -1;
  char* end = nullptr;
  const long long v = std::strtoll(s.c_str(), &end, 10);
  return end != s.c_str() && *end == '\0' && v >= 0 ? v : -1;
}

/// The least room (limit - usage) over a cgroup directory and its ancestors up to `root`;
/// INT64_MAX when none sets a limit. A path the mount does not show (a cgroup namespace) is
/// shortened from the front until it names a directory.
std::int64_t cgroup_room(const std::string& root, std::string path, const char* limit, const char* usage) {
  std::int64_t room = INT64_MAX;
  while (path.size() > 1 && !std::filesystem::is_directory(root + path)) {
    const auto next = path.find('/', 1);
    path = next == std::string::npos ? "/" : path.substr(next);
  }
  for (;;) {
    const std::string dir = root + (path == "/" ? "" : path);
    const std::int64_t lim = read_number(dir + "/" + limit), used = read_number(dir + "/" + usage);
    if (lim >= 0 && lim < (std::int64_t{1} << 62)) room = std::min(room, std::max<std::int64_t>(0, lim - std::max<std::int64_t>(0, used)));
    if (path.size() <= 1) return room;
    path = path.substr(0, std::max<std::size_t>(1, path.rfind('/')));
  }
}

std::int64_t cgroup_available_memory() {
  std::ifstream f("/proc/self/cgroup");
  std::string line;
  std::int64_t room = INT64_MAX;
  while (std::getline(f, line)) {
    const auto a = line.find(':'), b = line.find(':', a + 1);
    if (a == std::string::npos || b == std::string::npos) continue;
    const std::string controllers = line.substr(a + 1, b - a - 1), path = line.substr(b + 1);
    if (controllers.empty()) {  // cgroup v2 (or the unified part of a hybrid host)
      for (const char* root : {"/sys/fs/cgroup", "/sys/fs/cgroup/unified"})
        room = std::min(room, cgroup_room(root, path, "memory.max", "memory.current"));
    } else if (("," + controllers + ",").find(",memory,") != std::string::npos) {
      room = std::min(room, cgroup_room("/sys/fs/cgroup/memory", path, "memory.limit_in_bytes", "memory.usage_in_bytes"));
    }
  }
  return room;
}

std::int64_t address_space_room() {
  rlimit rl{};
  if (::getrlimit(RLIMIT_AS, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY) return INT64_MAX;
  std::ifstream f("/proc/self/statm");
  std::int64_t pages = 0;
  f >> pages;
  const std::int64_t used = pages * sysconf(_SC_PAGE_SIZE);
  return std::max<std::int64_t>(0, static_cast<std::int64_t>(rl.rlim_cur) - used);
}

}  // namespace

std::int64_t host_available_memory() {
  std::int64_t avail = kb_field("/proc/meminfo", "MemAvailable:");
  if (avail <= 0) avail = host_total_memory();
  if (avail <= 0) avail = INT64_MAX;
  avail = std::min({avail, cgroup_available_memory(), address_space_room()});
  return avail == INT64_MAX ? 0 : avail;
}

std::string human_bytes(double bytes) {
  static const char* units[] = {"bytes", "kB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB"};
  int u = 0;
  while (u < 8 && bytes >= 999.5) {
    bytes /= 1000;
    ++u;
  }
  char buf[64];
  if (bytes >= 999.5) {  // beyond yottabytes: the count itself
    std::snprintf(buf, sizeof buf, "%.3g bytes", bytes * 1e24);
    return buf;
  }
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.3g %s", bytes, units[u]);
  return buf;
}

std::int64_t resident_memory() { return kb_field("/proc/self/status", "VmRSS:"); }
std::int64_t peak_resident_memory() { return kb_field("/proc/self/status", "VmHWM:"); }

bool env_flag(const char* name) {
  const char* v = std::getenv(name);
  return v && *v && std::strcmp(v, "0") != 0;
}

bool memory_report_requested() { return env_flag("GPU500_MEMORY_REPORT"); }

void note_memory_estimate(double need, const std::string& what) {
  if (memory_report_requested())
    std::fprintf(stderr, "gpu500 memory: estimate %.0f resident %lld (%s)\n", need,
                 static_cast<long long>(resident_memory()), what.c_str());
}

void check_host_memory(double need, const std::string& what) {
  note_memory_estimate(need, what);
  const std::int64_t avail = host_available_memory();
  if (avail > 0 && need > static_cast<double>(avail))
    throw resource_error(what + " needs " + human_bytes(need) + ", " + human_bytes(static_cast<double>(avail)) +
                         " available");
}

}  // namespace gpu500
