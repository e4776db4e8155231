// gpu500/bfs/direction.hpp — Beamer's direction test (Beamer, Asanović & Patterson, "Direction-
// Optimizing Breadth-First Search", SC'12), the one rule of every engine that switches on counts
// of the whole graph (the host engine at every rank count):
//  - top-down -> bottom-up when the frontier grows and its arcs exceed the unexplored arcs / alpha;
//  - bottom-up -> top-down when the frontier shrinks and holds fewer than n / beta vertices.
// The growth test keeps a shrinking tail whose few arcs still outweigh the nearly explored rest
// top-down (without it such a tail went bottom-up again and scanned every row); the shrink test
// keeps a growing frontier bottom-up although it is still small (the paper's states).
#pragma once

#include "gpu500/core/types.hpp"

namespace gpu500::bfs {

/// The counts of one level over the whole graph (summed over the ranks).
struct level_counts {
  index_t frontier = 0;           ///< vertices in the frontier
  index_t previous_frontier = 0;  ///< vertices in the last level's frontier
  index_t frontier_arcs = 0;      ///< their degrees summed
  index_t unexplored_arcs = 0;    ///< the degrees of the vertices not yet reached, summed
  index_t vertices = 0;           ///< n
};

struct direction_rule {
  double alpha = 15.0, beta = 18.0;
  bool top_down_only = false;

  /// Whether the level with these counts runs bottom-up, given whether the last one did.
  [[nodiscard]] constexpr bool bottom_up(bool bottom_up_now, const level_counts& l) const {
    if (top_down_only) return false;
    if (!bottom_up_now)
      return l.frontier > l.previous_frontier &&
             static_cast<double>(l.frontier_arcs) > static_cast<double>(l.unexplored_arcs) / alpha;
    return !(l.frontier < l.previous_frontier && static_cast<double>(l.frontier) < static_cast<double>(l.vertices) / beta);
  }
};

}  // namespace gpu500::bfs
