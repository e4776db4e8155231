// Test graphs (awkward shapes and Kronecker/R-MAT) and host oracles that share no code with the
// GPU engines or the GPU validator: a plain queue BFS and a Dijkstra in float arithmetic.
#pragma once

#include <cstdint>
#include <queue>
#include <random>
#include <string>
#include <vector>

#include "gpu500/graph/edge_list.hpp"
#include "gpu500/graph/kronecker.hpp"

namespace gpu500::test {

struct named_graph {
  std::string name;
  graph::edge_list edges;
  std::vector<std::int64_t> roots;
};

/// Edge list with weights drawn in (0, 1].
class builder {
 public:
  explicit builder(std::int64_t n, unsigned seed = 7) : rng_(seed) { el_.num_vertices = n; }
  void edge(std::int64_t u, std::int64_t v) {
    el_.src.push_back(u);
    el_.dst.push_back(v);
    el_.weight.push_back(std::uniform_real_distribution<float>(0.001f, 1.0f)(rng_));
  }
  std::int64_t random_vertex(std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi - 1)(rng_);
  }
  graph::edge_list take() { return std::move(el_); }

 private:
  std::mt19937_64 rng_;
  graph::edge_list el_;
};

inline named_graph one_vertex() {
  builder b(1);
  return {"one-vertex", b.take(), {0}};
}

/// Two random components, isolated vertices, self-loops and duplicate edges.
inline named_graph disconnected() {
  builder b(2100);
  for (int c = 0; c < 2; ++c)
    for (int i = 0; i < 6000; ++i) b.edge(b.random_vertex(c * 1000, c * 1000 + 1000), b.random_vertex(c * 1000, c * 1000 + 1000));
  for (int i = 0; i < 999; ++i) b.edge(i, i + 1);  // keep each part connected
  for (int i = 1000; i < 1999; ++i) b.edge(i, i + 1);
  b.edge(5, 5);
  b.edge(1500, 1500);
  b.edge(7, 8);
  b.edge(7, 8);
  b.edge(8, 7);
  return {"disconnected", b.take(), {3, 1500, 2050}};
}

inline named_graph path(std::int64_t n) {
  builder b(n);
  for (std::int64_t i = 0; i + 1 < n; ++i) b.edge(i, i + 1);
  return {"path-" + std::to_string(n), b.take(), {0, n / 2}};
}

/// A hub with `leaves` leaves (> 65536 puts it in the grid queue), plus a ring through the leaves
/// every 1000 so that the graph is not a pure tree.
inline named_graph star(std::int64_t leaves) {
  builder b(leaves + 1);
  for (std::int64_t i = 1; i <= leaves; ++i) b.edge(0, i);
  for (std::int64_t i = 1; i + 1000 <= leaves; i += 1000) b.edge(i, i + 1000);
  return {"star-" + std::to_string(leaves), b.take(), {5, 0}};
}

inline named_graph kronecker(int scale, int a, int b, int c, const std::string& name) {
  graph::kronecker_params p;
  p.scale = scale;
  p.a = a;
  p.b = b;
  p.c = c;
  graph::edge_list el = graph::generate_kronecker(p);
  return {name, std::move(el), {}};
}

/// Host BFS oracle: levels (-1 unreached) and Graph500 nedge (non-self-loop input edges with both
/// ends reached, duplicates counted).
struct bfs_oracle {
  std::vector<std::int64_t> level;
  std::int64_t nedge = 0;
};

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

/// Host Dijkstra in float arithmetic (d(v) = d(u) + w as one float add): parents and distances.
inline void host_sssp(const graph::edge_list& el, std::int64_t root, std::vector<std::int64_t>& parent,
                      std::vector<float>& dist) {
  const auto n = static_cast<std::size_t>(el.num_vertices);
  std::vector<std::vector<std::pair<std::int64_t, float>>> adj(n);
  for (std::size_t i = 0; i < el.src.size(); ++i) {
    if (el.src[i] == el.dst[i]) continue;
    adj[el.src[i]].push_back({el.dst[i], el.weight[i]});
    adj[el.dst[i]].push_back({el.src[i], el.weight[i]});
  }
  parent.assign(n, -1);
  dist.assign(n, -1.0f);
  std::vector<bool> done(n, false);
  using item = std::pair<float, std::int64_t>;
  std::priority_queue<item, std::vector<item>, std::greater<item>> pq;
  dist[root] = 0.0f;
  parent[root] = root;
  pq.push({0.0f, root});
  while (!pq.empty()) {
    const auto [d, u] = pq.top();
    pq.pop();
    if (done[u]) continue;
    done[u] = true;
    for (const auto& [v, w] : adj[u]) {
      const float nd = d + w;
      if (!done[v] && (dist[v] < 0 || nd < dist[v])) {
        dist[v] = nd;
        parent[v] = u;
        pq.push({nd, v});
      }
    }
  }
}

}  // namespace gpu500::test
