// Helpers of the tests of the pipeline over MPI ranks (host and CUDA backends): whole arrays from
// every rank's slice, BFS levels from a whole parent array, and the trace's per-rank seconds.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
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

/// Checks a dumped trace (one line) for its per-rank seconds: every level or phase record has a
/// compute_seconds_by_rank and a comm_seconds_by_rank array of `ranks` numbers. Returns what is
/// wrong, or an empty string.
inline std::string per_rank_seconds_problem(const std::string& trace, int ranks) {
  std::size_t records = 0;
  for (std::size_t at = trace.find("\"level\":"); at != std::string::npos; at = trace.find("\"level\":", at + 1))
    ++records;
  if (records == 0) return "no level records";
  for (const char* key : {"\"compute_seconds_by_rank\":[", "\"comm_seconds_by_rank\":["}) {
    std::size_t arrays = 0;
    for (std::size_t at = trace.find(key); at != std::string::npos; at = trace.find(key, at + 1)) {
      ++arrays;
      const std::size_t open = at + std::string(key).size(), close = trace.find(']', open);
      if (close == std::string::npos || close == open) return std::string(key) + " empty or unclosed";
      const auto numbers = 1 + std::count(trace.begin() + static_cast<std::ptrdiff_t>(open),
                                          trace.begin() + static_cast<std::ptrdiff_t>(close), ',');
      if (numbers != ranks) return std::string(key) + " holds " + std::to_string(numbers) + " numbers";
    }
    if (arrays != records) return std::string(key) + " in " + std::to_string(arrays) + " of " +
                                  std::to_string(records) + " records";
  }
  return {};
}



}  // namespace gpu500::test
