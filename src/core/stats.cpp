// Summary statistics with the Graph500 reference's definitions (src/main.c get_statistics).
#include "gpu500/core/stats.hpp"

#include <algorithm>
#include <cmath>

#include "gpu500/core/error.hpp"

namespace gpu500 {

summary summarize(std::span<const double> x) {
  summary s;
  const std::size_t n = x.size();
  if (n == 0) return s;
  std::vector<double> v(x.begin(), x.end());
  std::sort(v.begin(), v.end());
  s.min = v.front();
  s.max = v.back();
  s.first_quartile = (v[(n - 1) / 4] + v[n / 4]) * 0.5;
  s.median = (v[(n - 1) / 2] + v[n / 2]) * 0.5;
  s.third_quartile = (v[n - 1 - (n - 1) / 4] + v[n - 1 - n / 4]) * 0.5;
  double sum = 0;
  for (double d : v) sum += d;
  s.mean = sum / static_cast<double>(n);
  double var = 0;
  for (double d : v) var += (d - s.mean) * (d - s.mean);
  s.stddev = n > 1 ? std::sqrt(var / static_cast<double>(n - 1)) : 0.0;
  return s;
}

teps_summary summarize_teps(std::span<const double> seconds, std::span<const double> edges) {
  GPU500_EXPECTS(seconds.size() == edges.size(), "one edge count per time");
  teps_summary t;
  const std::size_t n = seconds.size();
  if (n == 0) return t;
  std::vector<double> s(n);
  for (std::size_t i = 0; i < n; ++i) s[i] = seconds[i] / edges[i];
  const summary q = summarize(s);
  t.min = 1.0 / q.max;
  t.first_quartile = 1.0 / q.third_quartile;
  t.median = 1.0 / q.median;
  t.third_quartile = 1.0 / q.first_quartile;
  t.max = 1.0 / q.min;
  t.harmonic_mean = 1.0 / q.mean;
  t.harmonic_stddev = n > 1 ? q.stddev / (q.mean * q.mean * std::sqrt(static_cast<double>(n - 1))) : 0.0;
  return t;
}

double harmonic_mean(std::span<const double> rates) {
  if (rates.empty()) return 0;
  double inv = 0;
  for (double r : rates) inv += 1.0 / r;
  return static_cast<double>(rates.size()) / inv;
}

double median(std::vector<double> x) {
  if (x.empty()) return 0;
  std::sort(x.begin(), x.end());
  const std::size_t n = x.size();
  return (x[(n - 1) / 2] + x[n / 2]) * 0.5;
}

}  // namespace gpu500
