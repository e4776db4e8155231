// Shared helpers of the HPL unit tests: the reference data of HPL 2.3 (tests/data/hpl), LAPACK's
// solution of HPL's system, and the relative difference of two solutions.
#pragma once

#include <lapacke.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpu500/hpl/matgen.hpp"

namespace hpl_test {

inline std::string testdata(const std::string& f) { return std::string(GPU500_TESTDATA_DIR) + "/hpl/" + f; }

/// One row of norms.txt: HPL 2.3's norms of its system of order n.
struct norms_row {
  long n;
  double a_inf, a_1, b_inf, x_inf;
};
inline std::vector<norms_row> read_norms() {
  std::ifstream f(testdata("norms.txt"));
  EXPECT_TRUE(f.good()) << testdata("norms.txt");
  std::vector<norms_row> rows;
  std::string line;
  while (std::getline(f, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ls(line);
    norms_row r{};
    if (ls >> r.n >> r.a_inf >> r.a_1 >> r.b_inf >> r.x_inf) rows.push_back(r);
  }
  return rows;
}

/// LAPACK's answer for HPL's system of order n.
inline std::vector<double> lapack_solution(long n) {
  auto ab = gpu500::hpl::generate_global(n);
  std::vector<lapack_int> ipiv(n);
  std::vector<double> b(ab.begin() + n * n, ab.begin() + n * n + n);
  const lapack_int info = LAPACKE_dgesv(LAPACK_COL_MAJOR, n, 1, ab.data(), n, ipiv.data(), b.data(), n);
  EXPECT_EQ(info, 0);
  return b;
}

/// max |x - y| / max |y|.
inline double rel_diff(const std::vector<double>& x, const std::vector<double>& y) {
  double d = 0, s = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    d = std::max(d, std::fabs(x[i] - y[i]));
    s = std::max(s, std::fabs(y[i]));
  }
  return s > 0 ? d / s : d;
}

}  // namespace hpl_test
