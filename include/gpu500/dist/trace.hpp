// gpu500/dist/trace.hpp — the per-level record every search engine keeps (BFS levels, SSSP
// phases), on one rank or many: what the level did (direction, frontier, bytes sent to other
// ranks) and how long this rank computed and waited in exchanges, and its JSON form for
// `--json`'s "trace" (docs/json.md), gathered over the ranks so that the slowest rank of a level
// shows.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "gpu500/core/json.hpp"
#include "gpu500/core/types.hpp"
#include "gpu500/dist/comm.hpp"

namespace gpu500::dist {

/// One level (BFS) or one phase (SSSP) of a search.
struct level_record {
  int level = 0;
  std::string direction;      ///< "top-down", "bottom-up", "light", "heavy", "pull", "all"
  index_t frontier = 0;       ///< vertices expanded, summed over ranks
  index_t bytes = 0;          ///< bytes sent to other ranks, summed over ranks
  double compute_seconds = 0, comm_seconds = 0;  ///< this rank's
  /// The level's parts as the GPU timed them (gpu/step_timer.hpp), this rank's seconds, in order;
  /// empty where the engine does not time its parts. Every rank lists the same names.
  std::vector<std::pair<std::string, double>> steps;
};

/// The trace's entries: frontier and bytes as recorded, compute_seconds and comm_seconds rank 0's,
/// and every rank's seconds in rank order (compute_seconds_by_rank, comm_seconds_by_rank), so
/// that the slowest rank of a level shows; where the level has steps, "steps": a list of
/// {"step": name, "seconds_by_rank": [...]}. Collective: every rank recorded the same levels (the
/// level loop and the phase loop end on global counts); a rank whose count differs is a
/// logic_error on every rank.
json::value to_json(const communicator& c, const std::vector<level_record>& levels);

/// A Graph500 run's JSON "trace", any backend, one process or over ranks: {"bfs": [...], "sssp":
/// [...], "sssp_delta": width} of the last BFS's and SSSP's levels (an empty list for a search that
/// has not run: a null pointer) and the SSSP's first bucket width. Collective.
json::value search_trace(const communicator& c, const std::vector<level_record>* bfs,
                         const std::vector<level_record>* sssp, float sssp_delta);

/// Appends the record of one BFS level or SSSP phase with its count and bytes, its communication
/// time comm_seconds and its compute time what is left of `seconds`; sum_over_ranks turns this
/// rank's counts and bytes of a whole search into sums over the ranks with one reduction
/// (collective: every rank recorded the same phases).
void record_phase(std::vector<level_record>& levels, double comm_seconds, int phase, const char* what,
                  index_t local_count, index_t bytes, double seconds);
void sum_over_ranks(const communicator& c, std::vector<level_record>& levels);

}  // namespace gpu500::dist
