// Process placement (gpu500/dist/placement.hpp): node-local rank, GPU choice, the core slice
// (pure), the binding (sched_setaffinity) and the BLAS/OpenMP thread count.
#include "gpu500/dist/placement.hpp"

#include <sched.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "gpu500/config.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/dist/host_threads.hpp"

extern "C" {
void openblas_set_num_threads(int);
void omp_set_num_threads(int);
}
#pragma weak openblas_set_num_threads
#pragma weak omp_set_num_threads

namespace gpu500::dist {

std::vector<int> parse_cpu_list(const std::string& s) {
  std::vector<int> out;
  std::stringstream ss(s);
  std::string part;
  while (std::getline(ss, part, ',')) {
    int a = 0, b = 0;
    char dash = 0;
    std::stringstream ps(part);
    if (!(ps >> a)) continue;
    if (ps >> dash) {
      if (dash != '-' || !(ps >> b) || b < a) continue;
    } else {
      b = a;
    }
    for (int c = a; c <= b && a >= 0; ++c) out.push_back(c);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::string format_cpu_list(const std::vector<int>& cpus) {
  std::string s;
  for (std::size_t i = 0; i < cpus.size();) {
    std::size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
    if (!s.empty()) s += ',';
    s += std::to_string(cpus[i]);
    if (j > i) s += '-' + std::to_string(cpus[j]);
    i = j + 1;
  }
  return s;
}

namespace {

// Slice `index` of `count` of `cores`: contiguous, sizes differing by at most one.
std::vector<int> even_slice(const std::vector<int>& cores, int index, int count) {
  if (cores.empty() || count < 1) return {};
  const auto n = static_cast<std::int64_t>(cores.size());
  if (count > n) return {cores[static_cast<std::size_t>(index % n)]};
  const std::int64_t lo = n * index / count, hi = n * (index + 1) / count;
  return {cores.begin() + lo, cores.begin() + hi};
}

std::vector<int> intersect(const std::vector<int>& a, const std::vector<int>& b) {
  std::vector<int> out;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

// Bind this process to `cores` and give OpenBLAS / OpenMP `threads` threads; false where the
// binding is not allowed (the process is then left as it was).
bool bind_to(const std::vector<int>& cores, int threads) {
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int c : cores)
    if (c < CPU_SETSIZE) CPU_SET(c, &set);
  if (sched_setaffinity(0, sizeof set, &set) != 0) return false;
  if (&openblas_set_num_threads != nullptr) openblas_set_num_threads(threads);
  if (&omp_set_num_threads != nullptr) omp_set_num_threads(threads);
  return true;
}

std::vector<int> online_cores() {
  std::ifstream f("/sys/devices/system/cpu/online");
  std::string s;
  if (f && std::getline(f, s)) {
    auto c = parse_cpu_list(s);
    if (!c.empty()) return c;
  }
  return allowed_cores();
}

std::vector<int> gpu_local_cpus(int ordinal) {
  const std::string bus = gpu_pci_bus_id(ordinal);
  if (bus.empty()) return {};
  std::string id = bus;
  std::transform(id.begin(), id.end(), id.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  std::ifstream f("/sys/bus/pci/devices/" + id + "/local_cpulist");
  std::string s;
  return f && std::getline(f, s) ? parse_cpu_list(s) : std::vector<int>{};
}

}  // namespace

std::vector<int> core_slice(const std::vector<int>& node_cores, const std::vector<std::vector<int>>& near,
                            int local_rank) {
  const int ranks = static_cast<int>(near.size());
  if (ranks < 1 || local_rank < 0 || local_rank >= ranks) return {};
  const auto mine = intersect(near[static_cast<std::size_t>(local_rank)], node_cores);
  if (!mine.empty()) {
    int index = 0, count = 0;
    for (int r = 0; r < ranks; ++r)
      if (near[static_cast<std::size_t>(r)] == near[static_cast<std::size_t>(local_rank)]) {
        if (r < local_rank) ++index;
        ++count;
      }
    return even_slice(mine, index, count);
  }
  return even_slice(node_cores, local_rank, ranks);
}

std::vector<int> lone_process_cores(const std::vector<int>& allowed, const std::vector<int>& near) {
  auto mine = intersect(near, allowed);
  return mine.size() < allowed.size() ? mine : std::vector<int>{};
}

placement node_placement() {
  const communicator world = communicator::world();
  placement p;
  p.local_rank = world.node_rank();
  p.local_size = world.node_size();
  return p;
}

placement place_process(backend be, bool share_gpus, const char* program) {
  placement p = node_placement();
  std::vector<std::vector<int>> near(static_cast<std::size_t>(p.local_size));
  if (be == backend::cuda) {
    const int count = gpu_count();
    if (count < 1) throw resource_error("HPL: --backend cuda needs a CUDA device");
    if (p.local_size > count && !share_gpus)
      throw usage_error(std::string(program) + ": " + std::to_string(p.local_size) + " processes on this node and " +
                        std::to_string(count) + " GPU(s): one process per GPU (--share-gpus lets them share)");
    p.gpu = gpu_of_node_rank(p.local_rank, count);
    if (p.local_size > 1)
      for (int r = 0; r < p.local_size; ++r) near[static_cast<std::size_t>(r)] = gpu_local_cpus(gpu_of_node_rank(r, count));
  }
  if (p.local_size < 2) {
    // One process: on a host of several sockets its panel threads stay on the GPU's socket.
    if (be != backend::cuda) return p;
    const auto cores = lone_process_cores(allowed_cores(), gpu_local_cpus(p.gpu));
    if (cores.empty() || !bind_to(cores, static_cast<int>(cores.size()))) return p;
    p.cores = cores;
    p.near_gpu = true;
    p.threads = static_cast<int>(cores.size());
    return p;
  }
  const auto cores = core_slice(online_cores(), near, p.local_rank);
  if (cores.empty()) return p;
  const int threads = std::max(1, static_cast<int>(cores.size()) - 1);
  if (!bind_to(cores, threads)) return p;  // not allowed here: left unbound
  p.cores = cores;
  p.near_gpu = !intersect(near[static_cast<std::size_t>(p.local_rank)], cores).empty();
  p.threads = threads;
  return p;
}

std::string describe(const placement& p, int world_rank) {
  std::string s = "hpl: rank " + std::to_string(world_rank) + " (node rank " + std::to_string(p.local_rank) + " of " +
                  std::to_string(p.local_size) + "): ";
  s += p.gpu >= 0 ? "GPU " + std::to_string(p.gpu) : std::string("CPU backend");
  if (p.cores.empty()) s += ", cores unbound";
  else
    s += ", cores " + format_cpu_list(p.cores) + (p.near_gpu ? " (near the GPU)" : "") + ", " +
         std::to_string(p.threads) + " BLAS/OpenMP threads";
  return s;
}

}  // namespace gpu500::dist
