// tests/support/directed.hpp — oracles of searches on directed graphs, from the edge list alone
// (each edge (src, dst) the arc src -> dst, self-loops dropped, duplicates kept): levels by a plain
// queue BFS along arcs, float distances by a textbook Dijkstra along arcs (d(v) = d(u) + w in
// float, as every engine adds), and nedge as the arcs out of the reached vertices. The test graphs
// are the shared ones (tests/support/graphs.hpp) read as arcs: a star of arcs into its centre, a
// path of arcs running down, Kronecker arcs. Shares no code with the engines or kernel 1.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <queue>
#include <span>
#include <utility>
#include <vector>

#include "gpu500/graph/edge_list.hpp"
#include "gpu500/graph/kronecker.hpp"

namespace gpu500::test {

struct directed_oracle {
  std::vector<std::int64_t> level;  ///< -1: unreached
  std::vector<float> dist;          ///< -1: unreached
  std::int64_t nedge = 0;           ///< arcs (not self-loops) out of reached vertices
};

inline directed_oracle directed_search(const graph::edge_list& el, std::int64_t root) {
  const auto n = static_cast<std::size_t>(el.num_vertices);
  std::vector<std::vector<std::pair<std::int64_t, float>>> out(n);
  for (std::size_t i = 0; i < el.src.size(); ++i)
    if (el.src[i] != el.dst[i]) out[el.src[i]].push_back({el.dst[i], el.weighted() ? el.weight[i] : 1.0f});
  directed_oracle o;
  o.level.assign(n, -1);
  o.level[root] = 0;
  std::queue<std::int64_t> q;
  q.push(root);
  while (!q.empty()) {
    const std::int64_t u = q.front();
    q.pop();
    o.nedge += static_cast<std::int64_t>(out[u].size());
    for (auto [v, w] : out[u])
      if (o.level[v] < 0) o.level[v] = o.level[u] + 1, q.push(v);
  }
  const float inf = std::numeric_limits<float>::infinity();
  o.dist.assign(n, inf);
  o.dist[root] = 0.0f;
  using item = std::pair<float, std::int64_t>;
  std::priority_queue<item, std::vector<item>, std::greater<>> heap;
  heap.push({0.0f, root});
  while (!heap.empty()) {
    const auto [d, u] = heap.top();
    heap.pop();
    if (d > o.dist[u]) continue;
    for (auto [v, w] : out[u])
      if (d + w < o.dist[v]) o.dist[v] = d + w, heap.push({o.dist[v], v});
  }
  for (float& d : o.dist)
    if (d == inf) d = -1.0f;
  return o;
}

/// The levels of a parent tree (-1: unreached), from the parents alone; a chain longer than the
/// graph (a cycle) stops there.
inline std::vector<std::int64_t> tree_levels(std::span<const std::int64_t> parent, std::int64_t root) {
  std::vector<std::int64_t> level(parent.size(), -1);
  const auto n = static_cast<std::int64_t>(parent.size());
  for (std::size_t v = 0; v < parent.size(); ++v) {
    if (parent[v] < 0) continue;
    std::int64_t d = 0;
    for (std::int64_t x = static_cast<std::int64_t>(v); x != root && d <= n; x = parent[x]) ++d;
    level[v] = d;
  }
  return level;
}

/// A Graph500 Kronecker graph of SCALE 8, whose pipelines refuse to be directed.
inline graph::kronecker_params small_kronecker() {
  graph::kronecker_params k;
  k.scale = 8;
  return k;
}

}  // namespace gpu500::test
