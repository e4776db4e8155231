// Helpers of the tests of the pipeline over MPI ranks (host and CUDA backends): whole arrays from
// every rank's slice, BFS levels from a whole parent array, and the trace's per-rank seconds and
// the CUDA BFS's steps.
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

/// Occurrences of `what` in s[from, to).
inline std::size_t count_in(const std::string& s, const std::string& what, std::size_t from, std::size_t to) {
  std::size_t k = 0;
  for (std::size_t at = s.find(what, from); at != std::string::npos && at < to; at = s.find(what, at + 1)) ++k;
  return k;
}

/// Checks the BFS levels of a dumped trace (one line) for the CUDA engine's steps: each level
/// lists them, a top-down level reduce, gather, hubs, expand, exchange, claim, finish, a
/// bottom-up level reduce, gather, scan, finish, each with `ranks` seconds none of them negative;
/// the SSSP's phases list none. Returns what is wrong, or an empty string.
inline std::string bfs_steps_problem(const std::string& trace, int ranks) {
  const std::size_t bfs = trace.find("\"bfs\":["), sssp = trace.find("\"sssp\":[");
  if (bfs == std::string::npos || sssp == std::string::npos || sssp < bfs) return "no bfs and sssp records";
  const std::size_t levels = count_in(trace, "\"level\":", bfs, sssp);
  const std::size_t down = count_in(trace, "\"direction\":\"top-down\"", bfs, sssp);
  const std::size_t up = count_in(trace, "\"direction\":\"bottom-up\"", bfs, sssp);
  if (levels == 0 || down + up != levels) return "BFS levels neither top-down nor bottom-up";
  if (count_in(trace, "\"steps\":[", bfs, sssp) != levels) return "a BFS level without steps";
  for (const char* step : {"reduce", "gather", "finish"})
    if (count_in(trace, std::string("\"step\":\"") + step + "\"", bfs, sssp) != levels)
      return std::string("step ") + step + " not in every BFS level";
  for (const char* step : {"hubs", "expand", "exchange", "claim"})
    if (count_in(trace, std::string("\"step\":\"") + step + "\"", bfs, sssp) != down)
      return std::string("step ") + step + " not in every top-down level";
  if (count_in(trace, "\"step\":\"scan\"", bfs, sssp) != up) return "step scan not in every bottom-up level";
  const std::string key = "\"seconds_by_rank\":[";
  for (std::size_t at = trace.find(key, bfs); at != std::string::npos && at < sssp; at = trace.find(key, at + 1)) {
    const std::size_t open = at + key.size(), close = trace.find(']', open);
    const std::string numbers = trace.substr(open, close - open);
    int count = 0;
    for (std::size_t from = 0; from <= numbers.size(); ++count) {
      const std::size_t comma = std::min(numbers.find(',', from), numbers.size());
      if (std::stod(numbers.substr(from, comma - from)) < 0) return "a negative step time: " + numbers;
      from = comma + 1;
    }
    if (count != ranks) return "a step's seconds for another rank count: " + numbers;
  }
  if (trace.find("\"steps\"", sssp) != std::string::npos) return "SSSP phases with steps";
  return {};
}

}  // namespace gpu500::test
