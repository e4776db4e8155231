// Helpers of the tests of the pipeline over MPI ranks (host and CUDA backends): whole arrays from
// every rank's slice, and BFS levels from a whole parent array.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "gpu500/dist/comm.hpp"

namespace gpu500::test {

/// Every rank's slice concatenated (the partition's ranges are in rank order). Collective.
template <class T>
std::vector<T> gather(const dist::communicator& c, std::span<const T> mine) {
  return c.allgatherv<T>(mine);
}

/// Levels from a whole parent array (-1: unreached); -2 marks a vertex whose chain does not end
/// at the root.
inline std::vector<std::int64_t> levels_of(const std::vector<std::int64_t>& parent, std::int64_t root) {
  const auto n = static_cast<std::int64_t>(parent.size());
  std::vector<std::int64_t> level(parent.size(), -1);
  for (std::int64_t v = 0; v < n; ++v) {
    if (parent[v] == -1) continue;
    std::int64_t d = 0, u = v;
    while (u != root && d <= n) u = parent[u], ++d;
    level[v] = u == root ? d : -2;
  }
  return level;
}

}  // namespace gpu500::test
