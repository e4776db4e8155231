// Searches on directed graphs on the host: kernel 1's directed rows (each arc in its tail's row
// only), the CPU BFS and SSSP engines with their `directed` option (levels, distances and nedge
// against the arc oracles of tests/support/directed.hpp, every level top-down, no pull), the
// directed validator (accepts them, rejects reverse-arc parents, reachable vertices left
// unreached, unreachable ones reached, cycles, wrong levels, distances and nedge), and the CPU
// pipeline with cpu_pipeline_options::directed (a Kronecker graph refuses it).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "../../support/directed.hpp"
#include "../../support/graphs.hpp"
#include "gpu500/bfs/bfs.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/graph/csr.hpp"
#include "gpu500/graph500/cpu_pipeline.hpp"
#include "gpu500/graph500/validate.hpp"
#include "gpu500/sssp/sssp.hpp"

using namespace gpu500;

namespace {

std::vector<test::graph_case> directed_cases() {
  std::vector<test::graph_case> cs = test::awkward_cases();
  cs.push_back(test::kronecker_case(10));
  return cs;
}

using test::tree_levels;

template <class V>
class Directed : public ::testing::Test {};
using VertexTypes = ::testing::Types<std::uint32_t, std::int64_t>;
TYPED_TEST_SUITE(Directed, VertexTypes);

TYPED_TEST(Directed, KernelOneKeepsEachArcInItsTailsRow) {
  for (const auto& c : directed_cases()) {
    const graph::csr<TypeParam> g = graph::build_csr_directed<TypeParam>(c.edges);
    std::vector<std::vector<std::pair<std::int64_t, float>>> want(static_cast<std::size_t>(c.edges.num_vertices)), got = want;
    for (index_t i = 0; i < c.edges.size(); ++i)
      if (c.edges.src[i] != c.edges.dst[i]) want[c.edges.src[i]].push_back({c.edges.dst[i], c.edges.weight[i]});
    for (index_t u = 0; u < g.num_vertices; ++u)
      for (index_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k) got[u].push_back({static_cast<std::int64_t>(g.columns[k]), g.weights[k]});
    EXPECT_EQ(got, want) << c.name;  // edge-list order within a row
  }
}

TYPED_TEST(Directed, EnginesFollowArcs) {
  for (const auto& c : directed_cases()) {
    const graph::csr<TypeParam> g = graph::build_csr_directed<TypeParam>(c.edges);
    for (int threads : {1, 2}) {
      bfs::cpu_options bo;
      bo.threads = threads;
      bo.directed = true;
      bo.alpha = 1e-9;  // would go bottom-up at once on an undirected graph
      sssp::cpu_options so;
      so.threads = threads;
      so.directed = true;
      so.pull_share = 0;  // every bucket would pull on an undirected graph
      bfs::cpu_engine<TypeParam> b(g.view(), bo);
      sssp::cpu_engine<TypeParam> s(g.view(), so);
      for (std::int64_t root : c.roots) {
        SCOPED_TRACE(c.name + " root " + std::to_string(root) + " threads " + std::to_string(threads));
        const test::directed_oracle o = test::directed_search(c.edges, root);
        b.run(root);
        const graph500::validation vb = graph500::validate_bfs_directed(g.view(), root, b.parents(), b.traversed_edges());
        EXPECT_TRUE(vb.ok) << vb.message;
        EXPECT_EQ(tree_levels({b.parents().begin(), b.parents().end()}, root), o.level);
        EXPECT_EQ(b.traversed_edges(), o.nedge);
        for (const auto& l : b.levels()) EXPECT_EQ(l.direction, "top-down");
        s.run(root);
        const graph500::validation vs =
            graph500::validate_sssp_directed(g.view(), root, s.parents(), s.distances(), s.traversed_edges());
        EXPECT_TRUE(vs.ok) << vs.message;
        EXPECT_EQ(std::vector<float>(s.distances().begin(), s.distances().end()), o.dist);
        EXPECT_EQ(s.traversed_edges(), o.nedge);
        for (const auto& l : s.levels()) EXPECT_NE(l.direction, "pull");
      }
    }
  }
}

// The arcs given, each of weight 1 + its tail.
graph::csr<std::int64_t> digraph(index_t n, const std::vector<std::pair<int, int>>& arcs) {
  graph::edge_list el;
  el.num_vertices = n;
  for (auto [u, v] : arcs) test::add_edge(el, u, v, 1.0f + static_cast<float>(u));
  return graph::build_csr_directed<std::int64_t>(el);
}

TEST(DirectedValidator, RejectsWhatOnlyArcsForbid) {
  // 0 -> 1 -> 2 -> 3, 4 -> 0 (4 unreachable from 0), 3 -> 1 (a back arc), 2 -> 5 and 5 -> 2
  const auto g = digraph(6, {{0, 1}, {1, 2}, {2, 3}, {4, 0}, {3, 1}, {2, 5}, {5, 2}});
  const std::vector<std::int64_t> good = {0, 0, 1, 2, -1, 2};
  const auto bfs = [&](std::vector<std::int64_t> p, index_t nedge = 6, index_t root = 0) {
    return graph500::validate_bfs_directed(g.view(), root, std::span<const std::int64_t>(p), nedge);
  };
  EXPECT_TRUE(bfs(good).ok) << bfs(good).message;
  // 4 -> 0 exists, 0 -> 4 does not: 4 is not reachable from 0 (an undirected search reaches it)
  EXPECT_NE(bfs({0, 0, 1, 2, 0, 2}).message.find("vertex 4"), std::string::npos);
  // 1 has the in-arc 3 -> 1, but at level 3 + 1, not 1
  EXPECT_NE(bfs({0, 3, 1, 2, -1, 2}).message.find("cycle"), std::string::npos);
  // 5 is reachable (2 -> 5) but left unreached
  EXPECT_NE(bfs({0, 0, 1, 2, -1, -1}).message.find("arc 2 -> 5"), std::string::npos);
  EXPECT_NE(bfs({0, 0, 5, 2, -1, 2}).message.find("cycle"), std::string::npos);
  EXPECT_NE(bfs(good, 7).message.find("wrong nedge"), std::string::npos);
  EXPECT_TRUE(bfs(good, -1).ok);
  // from 4 every vertex is reachable; 3's parent must be 2 (level 4), not 1 (no arc 1 -> 3)
  EXPECT_TRUE(bfs({4, 0, 1, 2, 4, 2}, 7, 4).ok);
  EXPECT_NE(bfs({4, 0, 1, 1, 4, 2}, 7, 4).message.find("not confirmed"), std::string::npos);
  // SSSP: weights are 1 + tail; d(1) = 1, d(2) = 3, d(3) = 6, d(5) = 6
  const auto sssp = [&](std::vector<float> d, std::vector<std::int64_t> p = {0, 0, 1, 2, -1, 2}) {
    return graph500::validate_sssp_directed(g.view(), 0, std::span<const std::int64_t>(p), std::span<const float>(d), 6);
  };
  EXPECT_TRUE(sssp({0, 1, 3, 6, -1, 6}).ok) << sssp({0, 1, 3, 6, -1, 6}).message;
  EXPECT_NE(sssp({0, 1, 3, 6.5f, -1, 6}).message.find("arc 2 -> 3"), std::string::npos);  // 6.5 > 3 + 3
  EXPECT_NE(sssp({0, 1, 4, 7, -1, 7}).message.find("arc 1 -> 2"), std::string::npos);    // 4 > 1 + 2
  EXPECT_NE(sssp({0, 1, 3, 5, -1, 6}).message.find("vertex 3 is not confirmed"), std::string::npos);  // 5 != 3 + 3
  EXPECT_NE(sssp({0, 1, 3, 6, -1, 6}, {0, 0, 1, 2, -1, -1}).message.find("arc 2 -> 5"), std::string::npos);
}

// A parent through a reverse arc at a consistent level: 3 -> 2 exists, 2 -> 3 does not. The
// undirected rules (the edge {2, 3} exists, levels differ by one) would accept it.
TEST(DirectedValidator, RejectsAParentThroughAReverseArc) {
  const auto g = digraph(4, {{0, 1}, {0, 2}, {1, 3}, {3, 2}});
  const std::vector<std::int64_t> good = {0, 0, 0, 1}, reverse = {0, 0, 0, 2};
  EXPECT_TRUE(graph500::validate_bfs_directed(g.view(), 0, std::span<const std::int64_t>(good), 4).ok);
  const graph500::validation v = graph500::validate_bfs_directed(g.view(), 0, std::span<const std::int64_t>(reverse), 4);
  EXPECT_NE(v.message.find("vertex 3 is not confirmed by an arc from its parent 2"), std::string::npos) << v.message;
}

TEST(DirectedPipeline, CpuPipelineSearchesArcs) {
  const test::graph_case c = test::kronecker_case(9);
  for (int bits : {32, 64}) {
    graph500::cpu_pipeline_options o;
    o.directed = true;
    o.vertex_bits = bits;
    auto p = graph500::make_cpu_pipeline(graph::edge_list(c.edges), o);
    p->generate();
    p->construct();
    for (std::int64_t root : c.roots) {
      const test::directed_oracle want = test::directed_search(c.edges, root);
      p->bfs(root);
      EXPECT_TRUE(p->validate_bfs(root).ok);
      EXPECT_EQ(p->bfs_nedge(), want.nedge);
      EXPECT_EQ(tree_levels(p->bfs_tree().parent, root), want.level);
      p->sssp(root);
      EXPECT_TRUE(p->validate_sssp(root).ok);
      const auto d = p->sssp_tree().distance;
      EXPECT_EQ(std::vector<float>(d.begin(), d.end()), want.dist);
    }
  }
  graph500::cpu_pipeline_options o;
  o.directed = true;
  EXPECT_THROW(graph500::make_cpu_pipeline(test::small_kronecker(), o), usage_error);
}

}  // namespace
