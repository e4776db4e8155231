// tests/support/sssp_check.hpp — the one SSSP oracle and result checker of the test suites, sharing
// no code with the engines or the Graph500 validator:
//   dijkstra(g, root)       a binary-heap Dijkstra over a CSR in float arithmetic (each distance one
//                           float add of a stored weight, as Graph500 requires); -1 unreached;
//   dijkstra_tree(g, root, parent, dist)   the same with the parents (over an edge list: build
//                           its CSR with graph::build_csr first);
//   check_sssp(g, root, oracle, parent, dist)
//                           empty when (parent, dist) is a correct result, else the first problem:
//                           distances equal the oracle's bit for bit, unreached <=> parent -1 and
//                           distance -1, the root is its own parent at +0, every other reached vertex
//                           has an arc parent -> v with d(v) == d(parent) + w in float, and the parent
//                           pointers reach the root without cycles;
//   csr_nedge / edge_list_nedge   Graph500's nedge of a search, from CSR degrees or input edges.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <queue>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "gpu500/core/types.hpp"
#include "gpu500/graph/csr.hpp"
#include "gpu500/graph/edge_list.hpp"

namespace gpu500::test {

/// Dijkstra's tree: parent and distance of every vertex (-1 and -1 when unreached; the root is
/// its own parent at +0). A vertex's parent is the first vertex that gave it its final distance.
template <class V>
void dijkstra_tree(const graph::csr<V>& g, index_t root, std::vector<std::int64_t>& parent, std::vector<float>& d) {
  d.assign(static_cast<std::size_t>(g.num_vertices), -1.0f);
  parent.assign(d.size(), -1);
  std::vector<char> done(d.size(), 0);
  using item = std::pair<float, index_t>;
  std::priority_queue<item, std::vector<item>, std::greater<>> pq;
  d[root] = 0.0f;
  parent[root] = root;
  pq.push({0.0f, root});
  while (!pq.empty()) {
    const auto [du, u] = pq.top();
    pq.pop();
    if (done[u]) continue;
    done[u] = 1;
    for (index_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k) {
      const auto v = static_cast<index_t>(g.columns[k]);
      const float nd = du + g.weights[k];
      if (!done[v] && (d[v] < 0.0f || nd < d[v])) {
        d[v] = nd;
        parent[v] = u;
        pq.push({nd, v});
      }
    }
  }
}

/// The distances alone (-1 unreached).
template <class V>
std::vector<float> dijkstra(const graph::csr<V>& g, index_t root) {
  std::vector<std::int64_t> parent;
  std::vector<float> d;
  dijkstra_tree(g, root, parent, d);
  return d;
}

inline bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

/// Empty when every parent chain ends at the root (no cycles); parent -1 marks unreached vertices.
inline std::string parents_reach_root(index_t root, std::span<const std::int64_t> parent) {
  const auto n = static_cast<index_t>(parent.size());
  std::vector<char> state(static_cast<std::size_t>(n), 0);  // 0 unknown, 1 on the current chain, 2 reaches root
  state[root] = 2;
  std::vector<index_t> chain;
  for (index_t v = 0; v < n; ++v) {
    if (parent[v] < 0 || state[v] == 2) continue;
    chain.clear();
    index_t x = v;
    while (x >= 0 && state[x] == 0) {
      state[x] = 1;
      chain.push_back(x);
      x = parent[x];
    }
    if (x < 0) return "parent chain from vertex " + std::to_string(v) + " ends at -1";
    if (state[x] == 1) return "parent cycle through vertex " + std::to_string(x);
    for (index_t y : chain) state[y] = 2;
  }
  return {};
}

/// Empty when (parent, dist) is a correct SSSP result of g for root; otherwise the first problem.
template <class V>
std::string check_sssp(const graph::csr<V>& g, index_t root, const std::vector<float>& oracle,
                       std::span<const std::int64_t> parent, std::span<const float> dist) {
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
    for (index_t k = g.offsets[p]; k < g.offsets[p + 1] && !ok; ++k)
      ok = static_cast<index_t>(g.columns[k]) == v && dist[p] >= 0.0f && same_bits(dist[p] + g.weights[k], dist[v]);
    if (!ok) return "vertex " + std::to_string(v) + ": no arc from parent " + std::to_string(p) + " with d(v) == d(p) + w";
  }
  return parents_reach_root(root, parent);
}
template <class V>
std::string check_sssp(const graph::csr<V>& g, index_t root, const std::vector<float>& oracle,
                       const std::vector<std::int64_t>& parent, const std::vector<float>& dist) {
  return check_sssp(g, root, oracle, std::span<const std::int64_t>(parent), std::span<const float>(dist));
}

/// Graph500 nedge from the CSR: (sum of the degrees of reached vertices) / 2.
template <class V>
index_t csr_nedge(const graph::csr<V>& g, const std::vector<float>& oracle) {
  index_t s = 0;
  for (index_t v = 0; v < g.num_vertices; ++v)
    if (oracle[v] >= 0.0f) s += g.degree(v);
  return s / 2;
}

/// Graph500 nedge from the input: edges other than self-loops with both ends reached.
inline index_t edge_list_nedge(const graph::edge_list& el, const std::vector<float>& oracle) {
  index_t s = 0;
  for (index_t i = 0; i < el.size(); ++i)
    s += el.src[i] != el.dst[i] && oracle[el.src[i]] >= 0.0f && oracle[el.dst[i]] >= 0.0f;
  return s;
}

}  // namespace gpu500::test
