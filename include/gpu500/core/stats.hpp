// gpu500/core/stats.hpp — summary statistics as the Graph500 reference computes them
// (src/main.c get_statistics): sorted sample, quartiles as means of the two middle candidates,
// standard deviation with n-1.
#pragma once

#include <span>
#include <vector>

namespace gpu500 {

struct summary {
  double min = 0, first_quartile = 0, median = 0, third_quartile = 0, max = 0;
  double mean = 0, stddev = 0;
};

/// Statistics of x (any order). first = (s[(n-1)/4] + s[n/4]) / 2, median and third alike.
summary summarize(std::span<const double> x);

/// Graph500 TEPS statistics over per-search times and edge counts: computed on s_i = t_i / m_i;
/// min TEPS = 1 / max(s), quartiles inverted, harmonic mean = 1 / mean(s), and the harmonic
/// standard deviation stddev(s) / (mean(s)^2 sqrt(n-1)) (Norris 1940).
struct teps_summary {
  double min = 0, first_quartile = 0, median = 0, third_quartile = 0, max = 0;
  double harmonic_mean = 0, harmonic_stddev = 0;
};
teps_summary summarize_teps(std::span<const double> seconds, std::span<const double> edges);

/// Harmonic mean of positive rates (the same figure as summarize_teps(...).harmonic_mean when the
/// rates are edges / seconds with equal edge counts).
double harmonic_mean(std::span<const double> rates);

/// Median of x (any order; empty -> 0).
double median(std::vector<double> x);

}  // namespace gpu500
