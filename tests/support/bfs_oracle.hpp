// tests/support/bfs_oracle.hpp — host oracles for BFS and SSSP trees that share no code with the
// engines or the validators under test: a plain queue BFS (levels and the Graph500 edge count
// nedge), a BFS tree in parent form built from those levels, and a binary-heap Dijkstra in float
// arithmetic (each distance one float add of a stored weight, as Graph500 requires).
#pragma once

#include <cstdint>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

#include "gpu500/graph/csr.hpp"
#include "gpu500/graph/edge_list.hpp"
#include "sssp_check.hpp"

namespace gpu500::test {

/// Levels (-1 unreached) and Graph500 nedge (non-self-loop input edges with both ends reached,
/// duplicates counted).
struct bfs_oracle {
  std::vector<std::int64_t> level;
  std::int64_t nedge = 0;
};

/// Undirected adjacency lists of an edge list, self-loops dropped, duplicates kept.
inline std::vector<std::vector<std::int64_t>> adjacency(const graph::edge_list& el) {
  std::vector<std::vector<std::int64_t>> adj(static_cast<std::size_t>(el.num_vertices));
  for (std::size_t i = 0; i < el.src.size(); ++i) {
    if (el.src[i] == el.dst[i]) continue;
    adj[el.src[i]].push_back(el.dst[i]);
    adj[el.dst[i]].push_back(el.src[i]);
  }
  return adj;
}

inline bfs_oracle host_bfs(const graph::edge_list& el, std::int64_t root) {
  const auto adj = adjacency(el);
  bfs_oracle o;
  o.level.assign(static_cast<std::size_t>(el.num_vertices), -1);
  std::queue<std::int64_t> q;
  o.level[root] = 0;
  q.push(root);
  while (!q.empty()) {
    const std::int64_t u = q.front();
    q.pop();
    for (std::int64_t v : adj[u])
      if (o.level[v] < 0) {
        o.level[v] = o.level[u] + 1;
        q.push(v);
      }
  }
  for (std::size_t i = 0; i < el.src.size(); ++i)
    if (el.src[i] != el.dst[i] && o.level[el.src[i]] >= 0) ++o.nedge;
  return o;
}

/// A BFS tree in parent form from the oracle's levels (first neighbour one level up).
inline std::vector<std::int64_t> host_bfs_parents(const graph::edge_list& el, std::int64_t root,
                                                  const bfs_oracle& o) {
  const auto adj = adjacency(el);
  std::vector<std::int64_t> parent(static_cast<std::size_t>(el.num_vertices), -1);
  parent[root] = root;
  for (std::int64_t v = 0; v < el.num_vertices; ++v)
    if (v != root && o.level[v] > 0)
      for (std::int64_t u : adj[v])
        if (o.level[u] == o.level[v] - 1) {
          parent[v] = u;
          break;
        }
  return parent;
}

/// Dijkstra on an edge list in float arithmetic (sssp_check.hpp's, over the edge list's CSR):
/// parents and distances (-1 unreached).
inline void host_sssp(const graph::edge_list& el, std::int64_t root, std::vector<std::int64_t>& parent,
                      std::vector<float>& dist) {
  dijkstra_tree(graph::build_csr<std::int64_t>(el), root, parent, dist);
}

}  // namespace gpu500::test
