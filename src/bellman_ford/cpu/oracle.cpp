// Test oracles for dense Bellman-Ford, written independently of the engines:
//  - dijkstra: textbook O(N^2) Dijkstra (array scan for the closest unsettled vertex), with the
//    same single float addition per edge, so its distances equal the Bellman-Ford fixpoint
//    exactly when weights are >= 0 (float addition is monotone and x + w >= x for w >= 0);
//  - check_shortest_paths: the shortest-path certificate (feasibility of every edge, tightness
//    of every tree edge, a predecessor tree rooted at the source, reachability by BFS).
#include <string>

#include "gpu500/bellman_ford/bellman_ford.hpp"
#include "gpu500/core/error.hpp"

namespace gpu500::bellman_ford {

std::vector<float> dijkstra(const dense_matrix& m, index_t source) {
  const index_t n = m.n;
  GPU500_EXPECTS(source >= 0 && source < n, "dijkstra: source out of range");
  std::vector<float> d(static_cast<std::size_t>(n), inf);
  std::vector<char> done(static_cast<std::size_t>(n), 0);
  d[static_cast<std::size_t>(source)] = 0.0f;
  for (index_t it = 0; it < n; ++it) {
    index_t u = -1;
    float du = inf;
    for (index_t v = 0; v < n; ++v)
      if (!done[v] && d[v] < du) {
        du = d[v];
        u = v;
      }
    if (u < 0) break;  // the rest is unreachable
    done[u] = 1;
    for (index_t v = 0; v < n; ++v) {
      const float w = m.weight(u, v);
      GPU500_EXPECTS(!(w < 0), "dijkstra: negative edge weight");
      const float c = du + w;
      if (c < d[v]) d[v] = c;
    }
  }
  return d;
}

std::string check_shortest_paths(const dense_matrix& m, index_t source, const std::vector<float>& dist,
                                 const std::vector<std::int32_t>& pred) {
  const index_t n = m.n;
  if (static_cast<index_t>(dist.size()) != n || static_cast<index_t>(pred.size()) != n)
    return "dist/pred have the wrong length";
  if (dist[source] != 0.0f) return "dist(source) = " + std::to_string(dist[source]) + ", expected 0";
  if (pred[source] != -1) return "pred(source) = " + std::to_string(pred[source]) + ", expected -1";

  // Reachability by BFS over finite entries.
  std::vector<char> seen(static_cast<std::size_t>(n), 0);
  std::vector<index_t> queue{source};
  seen[source] = 1;
  for (std::size_t q = 0; q < queue.size(); ++q)
    for (index_t v = 0; v < n; ++v)
      if (!seen[v] && m.weight(queue[q], v) != inf) {
        seen[v] = 1;
        queue.push_back(v);
      }
  for (index_t v = 0; v < n; ++v) {
    if (seen[v] != (dist[v] != inf))
      return "vertex " + std::to_string(v) + (seen[v] ? " is reachable but has dist inf" : " is unreachable but has a finite dist");
    if (!seen[v] && pred[v] != -1) return "unreachable vertex " + std::to_string(v) + " has a predecessor";
  }

  // No edge can still be relaxed.
  index_t bad = -1;
#pragma omp parallel for schedule(static) reduction(max : bad)
  for (index_t j = 0; j < n; ++j) {
    if (dist[j] == inf) continue;
    for (index_t v = 0; v < n; ++v) {
      const float w = m.weight(j, v);
      if (w != inf && dist[j] + w < dist[v]) bad = std::max(bad, j * n + v);
    }
  }
  if (bad >= 0)
    return "edge " + std::to_string(bad / n) + " -> " + std::to_string(bad % n) + " can still be relaxed";

  // Tree edges are tight.
  for (index_t v = 0; v < n; ++v) {
    if (v == source || !seen[v]) continue;
    const index_t p = pred[v];
    if (p < 0 || p >= n) return "reachable vertex " + std::to_string(v) + " has predecessor " + std::to_string(p);
    const float w = m.weight(p, v);
    if (w == inf) return "pred(" + std::to_string(v) + ") = " + std::to_string(p) + " is not an edge";
    if (dist[p] + w != dist[v])
      return "dist(" + std::to_string(v) + ") = " + std::to_string(dist[v]) + " != dist(pred) + w = " +
             std::to_string(dist[p] + w);
  }

  // The predecessor graph is a tree rooted at the source (no cycle): walk with colouring.
  std::vector<char> state(static_cast<std::size_t>(n), 0);  // 0 new, 1 on the current walk, 2 reaches source
  state[source] = 2;
  std::vector<index_t> walk;
  for (index_t v = 0; v < n; ++v) {
    if (!seen[v] || state[v] == 2) continue;
    walk.clear();
    index_t x = v;
    while (state[x] == 0) {
      state[x] = 1;
      walk.push_back(x);
      x = pred[x];
    }
    if (state[x] == 1) return "the predecessor graph has a cycle through vertex " + std::to_string(x);
    for (index_t y : walk) state[y] = 2;
  }
  return "";
}

}  // namespace gpu500::bellman_ford
