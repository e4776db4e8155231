// gpu500/core/energy.hpp — energy counters and a meter over a measurement window.
//
// The GreenGraph500 way (Hoefler, GreenGraph500 Submission Rules 1.1, 2014): the energy a
// kernel takes is read from cumulative hardware counters before and after a window long enough
// to be accurate, and reported as joules, average watts and traversed edges per joule
// (TEPS per watt). Two counters: the GPU's total-energy counter through NVML
// (nvmlDeviceGetTotalEnergyConsumption, millijoules since the driver loaded; CUDA builds only,
// the driver's libnvidia-ml is loaded at run time) and the host's RAPL package domains through
// /sys/class/powercap/intel-rapl:N/energy_uj (microjoules, wrapping at max_energy_range_uj).
// The interface is CUDA-independent: a counter is a set of channels (one per package or GPU),
// each a cumulative reading in joules that may wrap at its range.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace gpu500::energy {

/// Cumulative energy counters, one reading per channel (e.g. per RAPL package).
class counter {
 public:
  virtual ~counter() = default;
  /// What is measured, e.g. "NVML, GPU 0000:1B:00.0" or "RAPL, 2 packages".
  [[nodiscard]] virtual std::string name() const = 0;
  /// The current reading of every channel, joules since an arbitrary origin.
  virtual std::vector<double> read_joules() = 0;
  /// Where each channel wraps back to 0 (joules); 0: it does not wrap.
  [[nodiscard]] virtual std::vector<double> range_joules() const = 0;
};

/// Joules between two readings of a channel that wraps at `range` (0: never wraps). A reading
/// below the one before is taken as one wrap-around (callers sample often enough that at most
/// one wrap happens between readings); without a range it counts as 0.
double delta_joules(double before, double after, double range);

/// One measured window.
struct window {
  double seconds = 0;
  double joules = 0;
  [[nodiscard]] double watts() const { return seconds > 0 ? joules / seconds : 0; }
};

/// A meter over a counter: start(), sample() now and then (at least once per wrap period of the
/// counter), stop(). The clock is a caller-supplied function so that tests can drive it.
class meter {
 public:
  explicit meter(std::unique_ptr<counter> c);
  meter(std::unique_ptr<counter> c, double (*clock)());
  [[nodiscard]] std::string name() const { return counter_->name(); }
  void start();
  /// Adds the energy since the last reading; returns the seconds since start().
  double sample();
  /// The window since start() (sampled once more).
  window stop();

 private:
  std::unique_ptr<counter> counter_;
  double (*clock_)();
  std::vector<double> last_, range_;
  double start_seconds_ = 0, joules_ = 0;
};

/// Where a run's energy is read: the host's CPU packages (RAPL) or the current CUDA device (NVML).
enum class source { host, gpu };

/// The counter for `s`, or nullptr with *why saying why energy is unavailable (no RAPL domains or
/// none readable, no NVML library or driver, no energy counter on this GPU, a build without CUDA).
/// The RAPL root is /sys/class/powercap unless the environment sets GPU500_POWERCAP_ROOT.
std::unique_ptr<counter> open_counter(source s, std::string* why);

/// The RAPL counter of the package domains under `root` (intel-rapl:N, not their subdomains),
/// or nullptr with *why.
std::unique_ptr<counter> open_rapl(const std::string& root, std::string* why);

}  // namespace gpu500::energy
