// Energy counters (RAPL through powercap, NVML's total-energy counter) and the window meter
// (see gpu500/core/energy.hpp). NVML is loaded with dlopen at run time so that the program
// starts on hosts without the NVIDIA driver; only the handful of NVML entry points used are
// declared here (their C ABI: an int status, an opaque device handle).
#include "gpu500/core/energy.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "gpu500/config.hpp"
#include "gpu500/core/timer.hpp"

#if GPU500_HAVE_CUDA
#include <dlfcn.h>
#include <cuda_runtime_api.h>
#endif

namespace gpu500::energy {

double delta_joules(double before, double after, double range) {
  if (after >= before) return after - before;
  return range > 0 ? range - before + after : 0.0;
}

meter::meter(std::unique_ptr<counter> c) : meter(std::move(c), &wall_time) {}
meter::meter(std::unique_ptr<counter> c, double (*clock)()) : counter_(std::move(c)), clock_(clock) {
  range_ = counter_->range_joules();
}

void meter::start() {
  joules_ = 0;
  start_seconds_ = clock_();
  last_ = counter_->read_joules();
}

double meter::sample() {
  const std::vector<double> now = counter_->read_joules();
  for (std::size_t i = 0; i < now.size() && i < last_.size(); ++i)
    joules_ += delta_joules(last_[i], now[i], i < range_.size() ? range_[i] : 0.0);
  last_ = now;
  return clock_() - start_seconds_;
}

window meter::stop() {
  window w;
  w.seconds = sample();
  w.joules = joules_;
  return w;
}

// ---- RAPL through powercap -------------------------------------------------------------------

namespace {

bool read_number(const std::filesystem::path& file, double* v) {
  std::ifstream in(file);
  long double x = 0;
  if (!(in >> x)) return false;
  *v = static_cast<double>(x);
  return true;
}

class rapl_counter final : public counter {
 public:
  explicit rapl_counter(std::vector<std::filesystem::path> domains, std::vector<double> ranges)
      : domains_(std::move(domains)), ranges_(std::move(ranges)), last_(domains_.size(), 0.0) {}
  [[nodiscard]] std::string name() const override {
    return "RAPL, " + std::to_string(domains_.size()) + " package domain" + (domains_.size() == 1 ? "" : "s");
  }
  std::vector<double> read_joules() override {
    // A read that fails keeps the channel's last reading (0 would look like a wrap-around).
    for (std::size_t i = 0; i < domains_.size(); ++i) {
      double uj = 0;
      if (read_number(domains_[i] / "energy_uj", &uj)) last_[i] = uj * 1e-6;
    }
    return last_;
  }
  [[nodiscard]] std::vector<double> range_joules() const override { return ranges_; }

 private:
  std::vector<std::filesystem::path> domains_;
  std::vector<double> ranges_, last_;
};

}  // namespace

std::unique_ptr<counter> open_rapl(const std::string& root, std::string* why) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(root, ec)) {
    *why = "no RAPL counters (" + root + " does not exist)";
    return nullptr;
  }
  std::vector<fs::path> found;
  for (const auto& e : fs::directory_iterator(root, ec)) {
    const std::string n = e.path().filename().string();
    // Package domains are intel-rapl:N; intel-rapl:N:M are their subdomains (core, dram), counted
    // in the package already (dram on some parts is not, and is left out as the package is).
    if (n.rfind("intel-rapl:", 0) == 0 && n.find(':', 11) == std::string::npos) found.push_back(e.path());
  }
  if (found.empty()) {
    *why = "no RAPL package domain under " + root;
    return nullptr;
  }
  std::sort(found.begin(), found.end());
  std::vector<double> ranges;
  for (const fs::path& d : found) {
    double uj = 0, range = 0;
    if (!read_number(d / "energy_uj", &uj)) {
      *why = "RAPL counter " + (d / "energy_uj").string() + " is not readable (it needs root on recent kernels)";
      return nullptr;
    }
    ranges.push_back(read_number(d / "max_energy_range_uj", &range) ? range * 1e-6 : 0.0);
  }
  return std::make_unique<rapl_counter>(std::move(found), std::move(ranges));
}

// ---- NVML ------------------------------------------------------------------------------------

#if GPU500_HAVE_CUDA
namespace {

struct nvml_device_st;
using nvml_device = nvml_device_st*;
using nvml_init_fn = int (*)();
using nvml_by_pci_fn = int (*)(const char*, nvml_device*);
using nvml_energy_fn = int (*)(nvml_device, unsigned long long*);
using nvml_error_fn = const char* (*)(int);

class nvml_counter final : public counter {
 public:
  nvml_counter(void* lib, nvml_device dev, nvml_energy_fn energy, std::string bus)
      : lib_(lib), dev_(dev), energy_(energy), bus_(std::move(bus)) {}
  ~nvml_counter() override {
    if (auto shutdown = reinterpret_cast<nvml_init_fn>(dlsym(lib_, "nvmlShutdown"))) shutdown();
    dlclose(lib_);
  }
  nvml_counter(const nvml_counter&) = delete;
  nvml_counter& operator=(const nvml_counter&) = delete;
  [[nodiscard]] std::string name() const override { return "NVML, GPU " + bus_; }
  std::vector<double> read_joules() override {
    // A read that fails keeps the last reading (0 would make the next one count everything).
    unsigned long long mj = 0;
    if (energy_(dev_, &mj) == 0) last_ = static_cast<double>(mj) * 1e-3;
    return {last_};
  }
  [[nodiscard]] std::vector<double> range_joules() const override { return {0.0}; }  // 64-bit mJ

 private:
  void* lib_;
  nvml_device dev_;
  nvml_energy_fn energy_;
  std::string bus_;
  double last_ = 0;
};

std::unique_ptr<counter> open_nvml(std::string* why) {
  int dev = 0;
  char bus[32] = {};
  if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetPCIBusId(bus, sizeof bus, dev) != cudaSuccess) {
    *why = "no CUDA device to measure";
    return nullptr;
  }
  void* lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) {
    *why = "the NVIDIA management library libnvidia-ml.so.1 cannot be loaded";
    return nullptr;
  }
  const auto init = reinterpret_cast<nvml_init_fn>(dlsym(lib, "nvmlInit_v2"));
  const auto by_pci = reinterpret_cast<nvml_by_pci_fn>(dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2"));
  const auto energy = reinterpret_cast<nvml_energy_fn>(dlsym(lib, "nvmlDeviceGetTotalEnergyConsumption"));
  const auto error = reinterpret_cast<nvml_error_fn>(dlsym(lib, "nvmlErrorString"));
  bool started = false;
  const auto fail = [&](const std::string& what, int rc) {
    *why = what + (error != nullptr && rc != 0 ? std::string(": ") + error(rc) : std::string());
    if (auto shutdown = reinterpret_cast<nvml_init_fn>(dlsym(lib, "nvmlShutdown")); started && shutdown != nullptr)
      shutdown();
    dlclose(lib);
    return nullptr;
  };
  if (init == nullptr || by_pci == nullptr || energy == nullptr) return fail("libnvidia-ml lacks the energy counter", 0);
  if (const int rc = init(); rc != 0) return fail("NVML does not start", rc);
  started = true;
  nvml_device d = nullptr;
  if (const int rc = by_pci(bus, &d); rc != 0) return fail(std::string("NVML does not find GPU ") + bus, rc);
  unsigned long long mj = 0;
  if (const int rc = energy(d, &mj); rc != 0) return fail(std::string("GPU ") + bus + " has no energy counter", rc);
  auto c = std::make_unique<nvml_counter>(lib, d, energy, bus);
  c->read_joules();  // the first reading, kept should a later one fail
  return c;
}

}  // namespace
#endif

std::unique_ptr<counter> open_counter(source s, std::string* why) {
  if (s == source::gpu) {
#if GPU500_HAVE_CUDA
    return open_nvml(why);
#else
    *why = "this build has no CUDA backend";
    return nullptr;
#endif
  }
  const char* root = std::getenv("GPU500_POWERCAP_ROOT");
  return open_rapl(root != nullptr && *root != '\0' ? root : "/sys/class/powercap", why);
}

}  // namespace gpu500::energy
