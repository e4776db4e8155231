// The CPU's default N by time (gpu500/hpl/defaults.hpp): the GEMM probe and the time aimed at.
#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "gpu500/core/error.hpp"
#include "gpu500/core/timer.hpp"
#include "gpu500/hpl/defaults.hpp"

namespace gpu500::hpl {

namespace {
template <class T>
double gemm_rate() {
  constexpr int m = 1024, k = 256;
  std::vector<T> a(static_cast<std::size_t>(m) * k, T(0.5)), b(static_cast<std::size_t>(k) * m, T(0.25)),
      c(static_cast<std::size_t>(m) * m, T(1));
  double best = 0;
  for (int rep = 0; rep < 4; ++rep) {
    stopwatch w;
    if constexpr (sizeof(T) == 8)
      cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, m, k, -1.0, a.data(), m, b.data(), k, 1.0, c.data(), m);
    else
      cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, m, k, -1.0f, a.data(), m, b.data(), k, 1.0f, c.data(), m);
    const double t = w.seconds();
    if (rep > 0 && t > 0) best = std::max(best, 2.0 * m * m * k / t);
  }
  return best;
}
}  // namespace

double cpu_gemm_rate(bool single_precision) { return single_precision ? gemm_rate<float>() : gemm_rate<double>(); }

double cpu_default_seconds() {
  const char* e = std::getenv("GPU500_HPL_SECONDS");
  if (!e || !*e) return 60;
  char* end = nullptr;
  const double v = std::strtod(e, &end);
  if (*end != '\0' || !(v > 0 && v <= 1e7))
    throw usage_error(std::string("GPU500_HPL_SECONDS must be a number of seconds in (0, 1e7], got '") + e + "'");
  return v;
}

std::int64_t n_for_time(double flops_per_second, double seconds, int nb) {
  const auto n = static_cast<std::int64_t>(std::cbrt(1.5 * std::max(0.0, flops_per_second) * seconds));
  return std::max<std::int64_t>(nb, n / nb * nb);
}

std::int64_t cpu_default_n(const char* command, const char* probe, std::int64_t by_memory, const char* memory_words,
                           double rate, int nb, bool print) {
  const double seconds = cpu_default_seconds();
  const std::int64_t n = std::min(by_memory, n_for_time(rate, seconds, nb));
  if (print) {
    const std::string bound = n < by_memory ? "ends in about " + std::to_string(std::lround(seconds)) + " s" : memory_words;
    const std::string memory = n < by_memory ? ", memory allows " + std::to_string(by_memory) : "";
    std::fprintf(stderr,
                 "%s: N = %lld (the largest multiple of NB %d that %s: %.3g GFLOP/s expected from %s probe%s); "
                 "about %.0f s; -N chooses another\n",
                 command, static_cast<long long>(n), nb, bound.c_str(), rate / 1e9, probe, memory.c_str(),
                 (2.0 / 3.0) * std::pow(static_cast<double>(n), 3) / rate);
  }
  return n;
}

}  // namespace gpu500::hpl
