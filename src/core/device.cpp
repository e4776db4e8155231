// Host-side device and memory queries; the CUDA part lives in cuda/device.cu.
#include "gpu500/core/device.hpp"

#include <unistd.h>

#include <fstream>
#include <sstream>

#include "gpu500/config.hpp"
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
    return backend::cuda;
  }
  if (s == "opencl" && allow_opencl) {
    if (!GPU500_HAVE_OPENCL) throw usage_error("--backend opencl: this build has no OpenCL backend");
    return backend::opencl;
  }
  throw usage_error("--backend: expected auto, cpu" + std::string(GPU500_HAVE_CUDA ? ", cuda" : "") +
                    (allow_opencl ? ", opencl" : "") + "; got '" + s + "'");
}

backend resolve_auto_backend() { return cuda_available() ? backend::cuda : backend::cpu; }

const char* backend_name(backend b) {
  switch (b) {
    case backend::cpu: return "cpu";
    case backend::cuda: return "cuda";
    case backend::opencl: return "opencl";
  }
  return "?";
}

static std::int64_t meminfo_field(const char* key) {
  std::ifstream f("/proc/meminfo");
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

std::int64_t host_available_memory() {
  const std::int64_t avail = meminfo_field("MemAvailable:");
  return avail > 0 ? avail : host_total_memory();
}

}  // namespace gpu500
