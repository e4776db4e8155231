// tests/unit/sssp_cuda/oracle.hpp — the GPU SSSP's test oracle and checker, sharing no code with the
// engine: a binary-heap Dijkstra in float arithmetic (each distance one float add of a stored
// weight, as Graph500 requires), and a checker of a (parent, distance) result: distances equal the
// oracle's bit for bit, unreached <=> parent -1 and distance -1, the root is its own parent at 0,
// every other reached vertex has an arc to its parent with d(v) == d(parent) + w in float, and the
// parent pointers reach the root without cycles. Plus the awkward graphs the tests use.
#pragma once

#include <cstdint>
#include <cstring>
#include <queue>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "gpu500/graph/csr.hpp"
#include "gpu500/graph/edge_list.hpp"

namespace sssp_oracle {

using gpu500::index_t;

template <class V>
std::vector<float> dijkstra(const gpu500::graph::csr<V>& g, index_t root) {
  std::vector<float> d(static_cast<std::size_t>(g.num_vertices), -1.0f);
  std::vector<char> done(d.size(), 0);
  using item = std::pair<float, index_t>;
  std::priority_queue<item, std::vector<item>, std::greater<>> pq;
  d[root] = 0.0f;
  pq.push({0.0f, root});
  while (!pq.empty()) {
    const auto [du, u] = pq.top();
    pq.pop();
    if (done[u]) continue;
    done[u] = 1;
    for (index_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k) {
      const auto v = static_cast<index_t>(g.columns[k]);
      const float nd = du + g.weights[k];
      if (d[v] < 0.0f || nd < d[v]) {
        d[v] = nd;
        pq.push({nd, v});
      }
    }
  }
  return d;
}

inline bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

/// Empty when every parent chain ends at the root (no cycles); parent -1 marks unreached vertices.
inline std::string parents_reach_root(index_t root, const std::vector<std::int64_t>& parent) {
  const auto n = static_cast<index_t>(parent.size());
  std::vector<char> state(static_cast<std::size_t>(n), 0);  // 0 unknown, 1 on the current chain, 2 reaches root
  state[root] = 2;
  std::vector<index_t> chain;
  for (index_t v = 0; v < n; ++v) {
    if (parent[v] < 0 || state[v] == 2) continue;
    chain.clear();
    index_t x = v;
    while (state[x] == 0) {
      state[x] = 1;
      chain.push_back(x);
      x = parent[x];
    }
    if (state[x] == 1) return "parent cycle through vertex " + std::to_string(x);
    for (index_t y : chain) state[y] = 2;
  }
  return {};
}

/// Empty when (parent, dist) is a correct SSSP result for root; otherwise the first problem.
template <class V>
std::string check(const gpu500::graph::csr<V>& g, index_t root, const std::vector<float>& oracle,
                  const std::vector<std::int64_t>& parent, const std::vector<float>& dist) {
  const index_t n = g.num_vertices;
  if (static_cast<index_t>(parent.size()) != n || static_cast<index_t>(dist.size()) != n) return "wrong result size";
  if (parent[root] != root || !same_bits(dist[root], 0.0f)) return "root is not its own parent at distance +0";
  for (index_t v = 0; v < n; ++v) {
    if (!same_bits(dist[v], oracle[v]))
      return "vertex " + std::to_string(v) + ": distance " + std::to_string(dist[v]) + " != oracle " + std::to_string(oracle[v]);
    if ((parent[v] < 0) != (oracle[v] < 0.0f)) return "vertex " + std::to_string(v) + ": reached/parent mismatch";
    if (parent[v] < -1 || parent[v] >= n) return "vertex " + std::to_string(v) + ": parent out of range";
    if (v == root || parent[v] < 0) continue;
    const index_t p = parent[v];
    bool ok = false;
    for (index_t k = g.offsets[v]; k < g.offsets[v + 1] && !ok; ++k)
      ok = static_cast<index_t>(g.columns[k]) == p && dist[p] >= 0.0f && same_bits(dist[p] + g.weights[k], dist[v]);
    if (!ok) return "vertex " + std::to_string(v) + ": no arc to parent " + std::to_string(p) + " with d(v) == d(p) + w";
  }
  return parents_reach_root(root, parent);
}

/// Graph500 nedge: (sum of CSR degrees of reached vertices) / 2.
template <class V>
index_t nedge(const gpu500::graph::csr<V>& g, const std::vector<float>& oracle) {
  index_t s = 0;
  for (index_t v = 0; v < g.num_vertices; ++v)
    if (oracle[v] >= 0.0f) s += g.degree(v);
  return s / 2;
}

// ---- awkward graphs ------------------------------------------------------------------------------

struct named_graph {
  std::string name;
  gpu500::graph::edge_list el;
  std::vector<index_t> roots;
};

inline void add(gpu500::graph::edge_list& el, index_t u, index_t v, float w) {
  el.src.push_back(u);
  el.dst.push_back(v);
  el.weight.push_back(w);
}

inline std::vector<named_graph> awkward_graphs() {
  std::vector<named_graph> out;
  std::mt19937_64 rng(12345);
  std::uniform_real_distribution<float> uw(0.0f, 1.0f);
  const auto random_graph = [&](index_t n, index_t m, auto weight) {
    gpu500::graph::edge_list el;
    el.num_vertices = n;
    std::uniform_int_distribution<index_t> uv(0, n - 1);
    for (index_t i = 0; i < m; ++i) add(el, uv(rng), uv(rng), weight());
    return el;
  };
  {  // two components, isolated vertices between them
    named_graph g{"disconnected", {}, {0, 7, 150}};
    g.el.num_vertices = 300;
    for (index_t i = 0; i < 99; ++i) add(g.el, i, i + 1, uw(rng));
    for (index_t i = 0; i < 300; ++i) add(g.el, 150 + (i % 100), 150 + ((i * 37 + 11) % 100), uw(rng));
    out.push_back(std::move(g));
  }
  {  // self-loops and duplicate edges with different weights
    named_graph g{"loops-duplicates", {}, {0, 3}};
    g.el.num_vertices = 6;
    add(g.el, 0, 0, 0.0f);
    add(g.el, 0, 1, 0.9f);
    add(g.el, 0, 1, 0.2f);
    add(g.el, 1, 0, 0.5f);
    add(g.el, 1, 2, 0.3f);
    add(g.el, 2, 2, 0.1f);
    add(g.el, 2, 3, 1.0f);
    add(g.el, 3, 2, 0.25f);
    add(g.el, 3, 4, 0.0f);
    add(g.el, 4, 4, 0.5f);
    out.push_back(std::move(g));
  }
  {  // half of the weights zero: zero-weight cycles everywhere
    named_graph g{"zero-weights", random_graph(500, 2000, [&] { return (rng() & 1) ? 0.0f : uw(rng); }), {0, 1, 499}};
    out.push_back(std::move(g));
  }
  {  // all weights zero
    named_graph g{"all-zero", random_graph(200, 800, [] { return 0.0f; }), {5}};
    out.push_back(std::move(g));
  }
  {  // only 0 and 1: many equal distances
    named_graph g{"zero-one", random_graph(400, 1600, [&] { return (rng() & 1) ? 1.0f : 0.0f; }), {0, 17}};
    out.push_back(std::move(g));
  }
  {  // weights far below the distances' ulp: additions that do not change the distance
    named_graph g{"absorbed", random_graph(400, 3000, [&] { return (rng() % 3 == 0) ? 1.0e-9f : 0.5f + uw(rng); }), {0, 9}};
    out.push_back(std::move(g));
  }
  {  // one vertex, no edges
    named_graph g{"single-vertex", {}, {0}};
    g.el.num_vertices = 1;
    out.push_back(std::move(g));
  }
  {  // one vertex with a self-loop only
    named_graph g{"single-vertex-loop", {}, {0}};
    g.el.num_vertices = 1;
    add(g.el, 0, 0, 0.5f);
    out.push_back(std::move(g));
  }
  {  // a star whose hub row is long enough to be cut into chunks
    named_graph g{"star", {}, {0, 1, 4999}};
    g.el.num_vertices = 5001;
    for (index_t i = 1; i <= 5000; ++i) add(g.el, 0, i, uw(rng));
    out.push_back(std::move(g));
  }
  {  // a hub plus a ring: the hub row is chunked in the light phase (tiny weights) too
    named_graph g{"hub-ring", {}, {0, 100}};
    g.el.num_vertices = 9000;
    for (index_t i = 1; i < 9000; ++i) add(g.el, 0, i, (i % 2) ? 1.0e-4f * static_cast<float>(i % 7) : uw(rng));
    for (index_t i = 1; i < 9000; ++i) add(g.el, i, 1 + (i % 8999), uw(rng) * 0.01f);
    out.push_back(std::move(g));
  }
  {  // a long path: thousands of buckets
    named_graph g{"path", {}, {0, 1000, 1999}};
    g.el.num_vertices = 2000;
    for (index_t i = 0; i + 1 < 2000; ++i) add(g.el, i, i + 1, uw(rng));
    out.push_back(std::move(g));
  }
  {  // the root has no edges
    named_graph g{"isolated-root", random_graph(50, 200, [&] { return uw(rng); }), {}};
    g.el.num_vertices = 51;  // vertex 50 has no edges
    g.roots = {50};
    out.push_back(std::move(g));
  }
  {  // complete graph on 64 vertices
    named_graph g{"complete-64", {}, {0, 63}};
    g.el.num_vertices = 64;
    for (index_t i = 0; i < 64; ++i)
      for (index_t j = i + 1; j < 64; ++j) add(g.el, i, j, uw(rng));
    out.push_back(std::move(g));
  }
  return out;
}

}  // namespace sssp_oracle
