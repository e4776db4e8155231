// The P x Q grid shapes of a given number of processes (1 x R, ..., R x 1), for the HPL-MxP grid
// tests of both backends.
#pragma once

#include <utility>
#include <vector>

namespace gpu500::hpl_mxp::test {

inline std::vector<std::pair<int, int>> grid_shapes(int ranks) {
  std::vector<std::pair<int, int>> out;
  for (int p = 1; p <= ranks; ++p)
    if (ranks % p == 0) out.emplace_back(p, ranks / p);
  return out;
}

}  // namespace gpu500::hpl_mxp::test
