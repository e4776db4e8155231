// Small graphs shared by the BFS and SSSP suites: ordinary Kronecker graphs and awkward cases
// (disconnected parts, self-loops, duplicate edges, zero weights, one vertex, a star, a long path,
// an isolated root). Each case names the roots to search from.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <omp.h>

#include "gpu500/graph/csr.hpp"
#include "gpu500/graph/edge_list.hpp"
#include "gpu500/graph/kronecker.hpp"

namespace gpu500::testing {

struct graph_case {
  std::string name;
  graph::edge_list edges;
  std::vector<std::int64_t> roots;
};

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

inline graph_case kronecker_case(int scale, int edgefactor = 16) {
  graph::kronecker_params p;
  p.scale = scale;
  p.edgefactor = edgefactor;
  graph_case c{"kronecker" + std::to_string(scale), graph::generate_kronecker(p), {}};
  // Roots: the endpoints of a few edges (never isolated) and vertex 0 (maybe isolated).
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
  {  // one vertex, no edge
    graph_case c{"single_vertex", {}, {0}};
    c.edges.num_vertices = 1;
    cs.push_back(std::move(c));
  }
  {  // one vertex with a self-loop only
    graph_case c{"single_vertex_self_loop", {}, {0}};
    c.edges.num_vertices = 1;
    add_edge(c.edges, 0, 0, 0.5f);
    cs.push_back(std::move(c));
  }
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

/// The orders of prepare() (the untimed reset before a timed search) and run() that every engine
/// must accept, on `threads` OpenMP threads: prepared, not prepared (run() resets by itself),
/// prepared twice, and the first root again without a reset. check(root, what) after each search;
/// roots needs 3 entries.
template <class Engine, class Check>
void check_prepare_orders(Engine& e, const std::vector<std::int64_t>& roots, int threads, Check&& check) {
  omp_set_num_threads(threads);
  e.prepare();
  e.run(roots[0]);
  check(roots[0], "prepared");
  e.run(roots[1]);
  check(roots[1], "not prepared");
  e.prepare();
  e.prepare();
  e.run(roots[2]);
  check(roots[2], "prepared twice");
  e.run(roots[0]);
  check(roots[0], "again, not prepared");
  omp_set_num_threads(omp_get_num_procs());
}

/// Runs every root of every case through one Engine per graph (buffers reused across roots) with
/// `threads` OpenMP threads: check(case, oracle, root, engine) after each search, where the oracle
/// is make_oracle(case), built once per graph.
template <class V, class Engine, class Options, class MakeOracle, class Check>
void for_each_search(const std::vector<graph_case>& cases, const Options& o, int threads, MakeOracle&& make_oracle,
                     Check&& check) {
  omp_set_num_threads(threads);
  for (const auto& c : cases) {
    const auto g = graph::build_csr<V>(c.edges);
    const auto oracle = make_oracle(c);
    Engine e(g.view(), o);
    for (auto root : c.roots) {
      e.run(root);
      check(c, oracle, root, e);
    }
  }
  omp_set_num_threads(omp_get_num_procs());
}

}  // namespace gpu500::testing
