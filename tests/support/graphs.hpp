// tests/support/graphs.hpp — the test graphs every BFS, SSSP and Graph500 suite uses.
//
// A graph_case is an edge list (weighted, so that one graph serves BFS and SSSP) and the roots to
// search from. Three families:
//   awkward_cases()   small hand-built shapes (disconnected parts, self-loops, duplicate edges,
//                     zero weights, one vertex, a star, a long path, an isolated root, ties);
//   awkward_graphs()  a second set of small shapes aimed at delta-stepping (zero-weight cycles,
//                     weights absorbed by the distances' ulp, a chunked hub row, a complete graph);
//   builders          one_vertex(), disconnected(), path(n), star(leaves), kronecker(...) and
//                     kronecker_case(scale): sizes chosen to reach particular GPU code paths.
// Everything is deterministic and shares no code with the kernels under test.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "gpu500/core/types.hpp"
#include "gpu500/graph/edge_list.hpp"
#include "gpu500/graph/kronecker.hpp"

namespace gpu500::test {

struct graph_case {
  std::string name;
  graph::edge_list edges;
  std::vector<std::int64_t> roots;
};
using named_graph = graph_case;

inline void add_edge(graph::edge_list& el, std::int64_t u, std::int64_t v, float w) {
  el.src.push_back(u);
  el.dst.push_back(v);
  el.weight.push_back(w);
}

/// 24 deterministic bits (an LCG; no dependence on the kernels).
inline std::uint32_t test_rand(std::uint64_t& s) {
  s = s * 6364136223846793005ull + 1442695040888963407ull;
  return static_cast<std::uint32_t>(s >> 40);
}

/// A deterministic weight in [0, 1), with about 1/7 exact zeros when asked.
inline float test_weight(std::uint64_t& s, bool zeros) {
  const std::uint32_t r = test_rand(s);
  if (zeros && r % 7 == 0) return 0.f;
  return static_cast<float>(r) / 16777216.f;
}

/// One vertex, with no edge or with a self-loop (weight 0.5) only; root 0.
inline graph_case single_vertex(const std::string& name, bool self_loop) {
  graph_case c{name, {}, {0}};
  c.edges.num_vertices = 1;
  if (self_loop) add_edge(c.edges, 0, 0, 0.5f);
  return c;
}

/// A Graph500 Kronecker graph (default seeds and initiator) with roots at the endpoints of a few
/// edges (never isolated) and vertex 0 (maybe isolated).
inline graph_case kronecker_case(int scale, int edgefactor = 16) {
  graph::kronecker_params p;
  p.scale = scale;
  p.edgefactor = edgefactor;
  graph_case c{"kronecker" + std::to_string(scale), graph::generate_kronecker(p), {}};
  for (std::size_t i : {std::size_t{0}, std::size_t{7}, c.edges.src.size() / 2})
    if (c.edges.src[i] != c.edges.dst[i]) c.roots.push_back(c.edges.src[i]);
  c.roots.push_back(0);
  return c;
}

inline std::vector<graph_case> awkward_cases() {
  std::vector<graph_case> cs;
  std::uint64_t s = 12345;
  {  // two components, an isolated vertex, self-loops and duplicates with their own weights
    graph_case c{"disconnected_loops_duplicates", {}, {0, 5, 9, 3}};
    c.edges.num_vertices = 10;
    for (auto [u, v] : std::vector<std::pair<int, int>>{{0, 1}, {1, 2}, {2, 3}, {3, 0}, {1, 3}, {1, 1}, {2, 1},
                                                        {1, 2}, {5, 6}, {6, 7}, {7, 8}, {8, 5}, {8, 8}, {6, 8}})
      add_edge(c.edges, u, v, test_weight(s, false));
    cs.push_back(std::move(c));
  }
  {  // zero weights everywhere, including zero-weight cycles
    graph_case c{"zero_weights", {}, {0, 17}};
    c.edges.num_vertices = 40;
    for (int i = 0; i < 40; ++i) {
      add_edge(c.edges, i, (i + 1) % 40, 0.f);
      add_edge(c.edges, i, (i * 7 + 3) % 40, (i % 3 == 0) ? 0.f : test_weight(s, true));
    }
    cs.push_back(std::move(c));
  }
  cs.push_back(single_vertex("single_vertex", false));
  cs.push_back(single_vertex("single_vertex_self_loop", true));
  {  // a star: centre 0 with 3000 leaves, roots at the centre and at a leaf
    graph_case c{"star", {}, {0, 1234}};
    c.edges.num_vertices = 3001;
    for (int i = 1; i <= 3000; ++i) add_edge(c.edges, i, 0, test_weight(s, true));
    cs.push_back(std::move(c));
  }
  {  // a path of 10,000 vertices in scrambled edge order, roots at an end and in the middle
    graph_case c{"path10000", {}, {0, 5000, 9999}};
    c.edges.num_vertices = 10000;
    for (int k = 0; k < 9999; ++k) {
      const int i = static_cast<int>((static_cast<std::int64_t>(k) * 7919) % 9999);
      add_edge(c.edges, i + 1, i, test_weight(s, false));
    }
    cs.push_back(std::move(c));
  }
  {  // an isolated root in a graph that has edges elsewhere (and equal-weight ties)
    graph_case c{"isolated_root", {}, {4, 0}};
    c.edges.num_vertices = 8;
    for (auto [u, v] : std::vector<std::pair<int, int>>{{0, 1}, {1, 2}, {0, 2}, {2, 3}, {5, 6}, {6, 7}, {3, 0}})
      add_edge(c.edges, u, v, 0.25f);
    cs.push_back(std::move(c));
  }
  {  // a dense random graph with many ties (weights 0, 1/4, 1/2), 2000 vertices
    graph_case c{"random_ties", {}, {0, 1999}};
    c.edges.num_vertices = 2000;
    for (int i = 0; i < 30000; ++i) {
      const float w = static_cast<float>(test_rand(s) % 3) * 0.25f;
      const std::int64_t u = test_rand(s) % 2000, v = test_rand(s) % 2000;
      add_edge(c.edges, u, v, w);
    }
    cs.push_back(std::move(c));
  }
  return cs;
}

inline std::vector<graph_case> awkward_graphs() {
  std::vector<graph_case> out;
  std::mt19937_64 rng(12345);
  std::uniform_real_distribution<float> uw(0.0f, 1.0f);
  const auto random_graph = [&](index_t n, index_t m, auto weight) {
    graph::edge_list el;
    el.num_vertices = n;
    std::uniform_int_distribution<index_t> uv(0, n - 1);
    for (index_t i = 0; i < m; ++i) add_edge(el, uv(rng), uv(rng), weight());
    return el;
  };
  {  // two components, isolated vertices between them
    graph_case g{"disconnected", {}, {0, 7, 150}};
    g.edges.num_vertices = 300;
    for (index_t i = 0; i < 99; ++i) add_edge(g.edges, i, i + 1, uw(rng));
    for (index_t i = 0; i < 300; ++i) add_edge(g.edges, 150 + (i % 100), 150 + ((i * 37 + 11) % 100), uw(rng));
    out.push_back(std::move(g));
  }
  {  // self-loops and duplicate edges with different weights
    graph_case g{"loops-duplicates", {}, {0, 3}};
    g.edges.num_vertices = 6;
    add_edge(g.edges, 0, 0, 0.0f);
    add_edge(g.edges, 0, 1, 0.9f);
    add_edge(g.edges, 0, 1, 0.2f);
    add_edge(g.edges, 1, 0, 0.5f);
    add_edge(g.edges, 1, 2, 0.3f);
    add_edge(g.edges, 2, 2, 0.1f);
    add_edge(g.edges, 2, 3, 1.0f);
    add_edge(g.edges, 3, 2, 0.25f);
    add_edge(g.edges, 3, 4, 0.0f);
    add_edge(g.edges, 4, 4, 0.5f);
    out.push_back(std::move(g));
  }
  {  // half of the weights zero: zero-weight cycles everywhere
    graph_case g{"zero-weights", random_graph(500, 2000, [&] { return (rng() & 1) ? 0.0f : uw(rng); }), {0, 1, 499}};
    out.push_back(std::move(g));
  }
  {  // all weights zero
    graph_case g{"all-zero", random_graph(200, 800, [] { return 0.0f; }), {5}};
    out.push_back(std::move(g));
  }
  {  // only 0 and 1: many equal distances
    graph_case g{"zero-one", random_graph(400, 1600, [&] { return (rng() & 1) ? 1.0f : 0.0f; }), {0, 17}};
    out.push_back(std::move(g));
  }
  {  // weights far below the distances' ulp: additions that do not change the distance
    graph_case g{"absorbed", random_graph(400, 3000, [&] { return (rng() % 3 == 0) ? 1.0e-9f : 0.5f + uw(rng); }),
                 {0, 9}};
    out.push_back(std::move(g));
  }
  out.push_back(single_vertex("single-vertex", false));
  out.push_back(single_vertex("single-vertex-loop", true));
  {  // a star whose hub row is long enough to be cut into chunks
    graph_case g{"star", {}, {0, 1, 4999}};
    g.edges.num_vertices = 5001;
    for (index_t i = 1; i <= 5000; ++i) add_edge(g.edges, 0, i, uw(rng));
    out.push_back(std::move(g));
  }
  {  // a hub plus a ring: the hub row is chunked in the light phase (tiny weights) too
    graph_case g{"hub-ring", {}, {0, 100}};
    g.edges.num_vertices = 9000;
    for (index_t i = 1; i < 9000; ++i) add_edge(g.edges, 0, i, (i % 2) ? 1.0e-4f * static_cast<float>(i % 7) : uw(rng));
    for (index_t i = 1; i < 9000; ++i) add_edge(g.edges, i, 1 + (i % 8999), uw(rng) * 0.01f);
    out.push_back(std::move(g));
  }
  {  // a long path: thousands of buckets
    graph_case g{"path", {}, {0, 1000, 1999}};
    g.edges.num_vertices = 2000;
    for (index_t i = 0; i + 1 < 2000; ++i) add_edge(g.edges, i, i + 1, uw(rng));
    out.push_back(std::move(g));
  }
  {  // the root has no edges
    graph_case g{"isolated-root", random_graph(50, 200, [&] { return uw(rng); }), {}};
    g.edges.num_vertices = 51;  // vertex 50 has no edges
    g.roots = {50};
    out.push_back(std::move(g));
  }
  {  // complete graph on 64 vertices
    graph_case g{"complete-64", {}, {0, 63}};
    g.edges.num_vertices = 64;
    for (index_t i = 0; i < 64; ++i)
      for (index_t j = i + 1; j < 64; ++j) add_edge(g.edges, i, j, uw(rng));
    out.push_back(std::move(g));
  }
  return out;
}

/// Edge lists with weights drawn in (0, 1] from a seeded generator (the builders below).
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

inline graph_case one_vertex() {
  builder b(1);
  return {"one-vertex", b.take(), {0}};
}

/// Two random components, isolated vertices, self-loops and duplicate edges.
inline graph_case disconnected() {
  builder b(2100);
  for (int c = 0; c < 2; ++c)
    for (int i = 0; i < 6000; ++i)
      b.edge(b.random_vertex(c * 1000, c * 1000 + 1000), b.random_vertex(c * 1000, c * 1000 + 1000));
  for (int i = 0; i < 999; ++i) b.edge(i, i + 1);  // keep each part connected
  for (int i = 1000; i < 1999; ++i) b.edge(i, i + 1);
  b.edge(5, 5);
  b.edge(1500, 1500);
  b.edge(7, 8);
  b.edge(7, 8);
  b.edge(8, 7);
  return {"disconnected", b.take(), {3, 1500, 2050}};
}

/// A path 0 - 1 - ... - (n-1), roots at an end and in the middle.
inline graph_case path(std::int64_t n) {
  builder b(n);
  for (std::int64_t i = 0; i + 1 < n; ++i) b.edge(i, i + 1);
  return {"path-" + std::to_string(n), b.take(), {0, n / 2}};
}

/// A hub with `leaves` leaves (> 65536 puts it in the GPU's grid queue), plus a ring through the
/// leaves every 1000 so that the graph is not a pure tree.
inline graph_case star(std::int64_t leaves) {
  builder b(leaves + 1);
  for (std::int64_t i = 1; i <= leaves; ++i) b.edge(0, i);
  for (std::int64_t i = 1; i + 1000 <= leaves; i += 1000) b.edge(i, i + 1000);
  return {"star-" + std::to_string(leaves), b.take(), {5, 0}};
}

/// A Kronecker graph with initiator (a, b, c) in 1/10000 (no roots: callers pick them).
inline graph_case kronecker(int scale, int a, int b, int c, const std::string& name) {
  graph::kronecker_params p;
  p.scale = scale;
  p.a = a;
  p.b = b;
  p.c = c;
  graph::edge_list el = graph::generate_kronecker(p);
  return {name, std::move(el), {}};
}

}  // namespace gpu500::test
