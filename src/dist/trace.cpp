// The per-level record of the search engines and its JSON form, gathered over the ranks (see
// gpu500/dist/trace.hpp).
#include "gpu500/dist/trace.hpp"

#include <span>
#include <stdexcept>

namespace gpu500::dist {

json::value search_trace(const communicator& c, const std::vector<level_record>* bfs,
                         const std::vector<level_record>* sssp, float sssp_delta) {
  json::value j;
  j["bfs"] = bfs ? to_json(c, *bfs) : json::value::make_array();
  j["sssp"] = sssp ? to_json(c, *sssp) : json::value::make_array();
  if (sssp) j["sssp_delta"] = static_cast<double>(sssp_delta);  // the (first) bucket width
  return j;
}

json::value to_json(const communicator& c, const std::vector<level_record>& levels) {
  // Each level's values: compute, comm, then its steps' seconds; level i's start at mine[at[i]].
  std::vector<double> mine;
  std::vector<std::size_t> at;
  for (const level_record& l : levels) {
    at.push_back(mine.size());
    mine.push_back(l.compute_seconds), mine.push_back(l.comm_seconds);
    for (const auto& step : l.steps) mine.push_back(step.second);
  }
  const std::vector<double> all = c.allgatherv(std::span<const double>(mine));
  const auto R = static_cast<std::size_t>(c.size());
  if (all.size() != R * mine.size())
    throw std::logic_error("the ranks recorded different numbers of levels for the trace");
  const auto by_rank = [&](std::size_t k) {  // value k of every rank
    json::value v = json::value::make_array();
    for (std::size_t r = 0; r < R; ++r) v.push_back(all[r * mine.size() + k]);
    return v;
  };
  json::value a = json::value::make_array();
  for (std::size_t i = 0; i < levels.size(); ++i) {
    const level_record& l = levels[i];
    json::value e;
    e["level"] = l.level;
    e["direction"] = l.direction;
    e["frontier"] = l.frontier;
    e["bytes"] = l.bytes;
    e["compute_seconds"] = all[at[i]];  // rank 0's
    e["comm_seconds"] = all[at[i] + 1];
    e["compute_seconds_by_rank"] = by_rank(at[i]);
    e["comm_seconds_by_rank"] = by_rank(at[i] + 1);
    if (!l.steps.empty()) {
      json::value steps = json::value::make_array();
      for (std::size_t k = 0; k < l.steps.size(); ++k) {
        json::value step;
        step["step"] = l.steps[k].first;
        step["seconds_by_rank"] = by_rank(at[i] + 2 + k);
        steps.push_back(std::move(step));
      }
      e["steps"] = std::move(steps);
    }
    a.push_back(std::move(e));
  }
  return a;
}

void record_phase(std::vector<level_record>& levels, double comm_seconds, int phase, const char* what,
                  index_t local_count, index_t bytes, double seconds) {
  level_record rec;
  rec.level = phase;
  rec.direction = what;
  rec.frontier = local_count;
  rec.bytes = bytes;
  rec.comm_seconds = comm_seconds;
  rec.compute_seconds = seconds - comm_seconds;
  levels.push_back(std::move(rec));
}

void sum_over_ranks(const communicator& c, std::vector<level_record>& levels) {
  std::vector<index_t> sums;
  sums.reserve(2 * levels.size());
  for (const level_record& l : levels) sums.push_back(l.frontier), sums.push_back(l.bytes);
  if (!sums.empty()) c.allreduce(sums.data(), sums.size(), reduce_op::sum);
  for (std::size_t i = 0; i < levels.size(); ++i) levels[i].frontier = sums[2 * i], levels[i].bytes = sums[2 * i + 1];
}

}  // namespace gpu500::dist
