// gpu500/graph/edge_list.hpp — an edge list in generation order (Graph500's kernel 1 input).
#pragma once

#include <cstdint>
#include <vector>

#include "gpu500/core/types.hpp"

namespace gpu500::graph {

/// Edges as parallel arrays (structure of arrays): edge i is (src[i], dst[i]) with weight[i]
/// (weights empty for a BFS-only list). Self-loops and duplicate edges are kept, as generated.
struct edge_list {
  index_t num_vertices = 0;
  std::vector<std::int64_t> src, dst;
  std::vector<float> weight;

  [[nodiscard]] index_t size() const { return static_cast<index_t>(src.size()); }
  [[nodiscard]] bool weighted() const { return !weight.empty(); }
};

}  // namespace gpu500::graph
