// gpu500/sssp/delta.hpp — the adaptive bucket width of every delta-stepping engine (host and
// CUDA, one process and over ranks): Meyer & Sanders' Theta(1/d) for weights in [0, 1), measured
// on the graph as the mean arc weight over the mean degree of the vertices with arcs. Each engine
// scales it by its own factor (how much a phase costs it against the extra work of a wider bucket).
// Also the sparse tail's widening of the CUDA engines (one process and over ranks).
#pragma once

#include <cstdint>

#include "gpu500/core/types.hpp"

namespace gpu500::sssp {

/// The rule before an engine's factor, from sums over the whole graph (a multi-rank caller sums
/// its ranks' shares first): weight_sum / arcs / (arcs / vertices_with_arcs), at least 1e-6; 1
/// when there are no arcs.
[[nodiscard]] constexpr double mean_weight_per_degree(double weight_sum, double arcs, double vertices_with_arcs) {
  if (!(arcs > 0) || !(vertices_with_arcs > 0)) return 1.0;
  const double d = (weight_sum / arcs) / (arcs / vertices_with_arcs);
  return d > 1e-6 ? d : 1e-6;
}

/// The sparse tail of a search: once one bucket has settled at least grow_below vertices (the
/// search has peaked), each later bucket that settles fewer doubles the width of the next, while
/// the doubled width stays at most delta_max. Called at the end of every bucket with the vertices
/// it settled (a multi-rank caller: summed over the ranks, so that every rank widens alike).
GPU500_HD constexpr void widen_in_sparse_tail(float& delta, float delta_max, std::int64_t settled,
                                              std::int64_t grow_below, int& peaked) {
  if (settled >= grow_below) {
    peaked = 1;
    return;
  }
  if (peaked && delta * 2.0f <= delta_max) delta *= 2.0f;
}

}  // namespace gpu500::sssp
