// The DGEMM probe of probe.hpp.
#include "probe.hpp"

#include <cblas.h>

#include <algorithm>
#include <vector>

#include "gpu500/core/timer.hpp"

namespace gpu500::hpl::detail {

double dgemm_rate_probe() {
  constexpr int m = 1024, k = 256;
  std::vector<double> a(static_cast<std::size_t>(m) * k, 0.5), b(static_cast<std::size_t>(k) * m, 0.25),
      c(static_cast<std::size_t>(m) * m, 1.0);
  double best = 0;
  for (int rep = 0; rep < 4; ++rep) {
    stopwatch w;
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, m, k, -1.0, a.data(), m, b.data(), k, 1.0, c.data(), m);
    const double t = w.seconds();
    if (rep > 0 && t > 0) best = std::max(best, 2.0 * m * m * k / t);
  }
  return best;
}

}  // namespace gpu500::hpl::detail
