// gpu500/sssp/delta.hpp — the adaptive bucket width of every delta-stepping engine (host and
// CUDA, one process and over ranks): Meyer & Sanders' Theta(1/d) for weights in [0, 1), measured
// on the graph as the mean arc weight over the mean degree of the vertices with arcs. Each engine
// scales it by its own factor (how much a phase costs it against the extra work of a wider bucket).
#pragma once

namespace gpu500::sssp {

/// The rule before an engine's factor, from sums over the whole graph (a multi-rank caller sums
/// its ranks' shares first): weight_sum / arcs / (arcs / vertices_with_arcs), at least 1e-6; 1
/// when there are no arcs.
[[nodiscard]] constexpr double mean_weight_per_degree(double weight_sum, double arcs, double vertices_with_arcs) {
  if (!(arcs > 0) || !(vertices_with_arcs > 0)) return 1.0;
  const double d = (weight_sum / arcs) / (arcs / vertices_with_arcs);
  return d > 1e-6 ? d : 1e-6;
}

}  // namespace gpu500::sssp
