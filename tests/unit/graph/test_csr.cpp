// Kernel 1 (CSR construction) invariants on hand-made and generated edge lists.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>
#include <omp.h>

#include "gpu500/core/error.hpp"
#include "gpu500/graph/csr.hpp"
#include "gpu500/graph/kronecker.hpp"

using namespace gpu500;
using namespace gpu500::graph;

template <class V>
class CsrTest : public ::testing::Test {};
using VertexTypes = ::testing::Types<std::uint32_t, std::int64_t>;
TYPED_TEST_SUITE(CsrTest, VertexTypes);

TYPED_TEST(CsrTest, BothDirectionsNoSelfLoopsDuplicatesKept) {
  edge_list el;
  el.num_vertices = 5;
  el.src = {0, 1, 2, 2, 0, 3};
  el.dst = {1, 2, 2, 1, 1, 3};
  el.weight = {0.5f, 0.25f, 1.0f, 0.125f, 0.75f, 0.0f};
  const auto g = build_csr<TypeParam>(el);
  ASSERT_EQ(g.offsets.size(), 6u);
  EXPECT_EQ(g.num_arcs(), 8);  // 4 non-loop edges x 2
  EXPECT_EQ(g.degree(0), 2);
  EXPECT_EQ(g.degree(1), 4);
  EXPECT_EQ(g.degree(2), 2);
  EXPECT_EQ(g.degree(3), 0);
  EXPECT_EQ(g.degree(4), 0);
  // Multiset of (u, v, w) arcs equals the expected one.
  std::multiset<std::tuple<index_t, index_t, float>> got, want;
  for (index_t u = 0; u < 5; ++u)
    for (index_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k) got.insert({u, static_cast<index_t>(g.columns[k]), g.weights[k]});
  for (std::size_t i = 0; i < el.src.size(); ++i) {
    if (el.src[i] == el.dst[i]) continue;
    want.insert({el.src[i], el.dst[i], el.weight[i]});
    want.insert({el.dst[i], el.src[i], el.weight[i]});
  }
  EXPECT_EQ(got, want);
}

TYPED_TEST(CsrTest, GeneratedGraphIsSymmetric) {
  kronecker_params p;
  p.scale = 11;
  const edge_list el = generate_kronecker(p);
  const auto g = build_csr<TypeParam>(el);
  index_t loops = 0;
  for (index_t i = 0; i < el.size(); ++i) loops += el.src[i] == el.dst[i];
  EXPECT_EQ(g.num_arcs(), 2 * (el.size() - loops));
  std::map<std::pair<index_t, index_t>, int> count;
  for (index_t u = 0; u < g.num_vertices; ++u)
    for (index_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k) ++count[{u, static_cast<index_t>(g.columns[k])}];
  for (const auto& [e, c] : count) EXPECT_EQ(c, (count[{e.second, e.first}])) << e.first << "-" << e.second;
}

TYPED_TEST(CsrTest, RejectsOutOfRangeEndpoints) {
  edge_list el;
  el.num_vertices = 3;
  el.src = {0, 5};
  el.dst = {1, 1};
  EXPECT_THROW(build_csr<TypeParam>(el), usage_error);
  el.src = {0, -1};
  EXPECT_THROW(build_csr<TypeParam>(el), usage_error);
}

// The check of the edge list's ends names the first edge with an end outside [0, n), as kernel 1's
// error does; the vertex count edges imply checks their ends too.
TEST(EdgeEnds, TheFirstEdgeOutsideIsNamed) {
  const std::vector<std::int64_t> src{3, 0, 9, -2, 11}, dst{1, 7, 2, 4, 0};
  EXPECT_NO_THROW(check_edge_ends(src.data(), dst.data(), 2, 8));
  EXPECT_NO_THROW(check_edge_ends(src.data(), dst.data(), 0, 1));
  const auto message = [&](index_t m, index_t n) {
    try {
      check_edge_ends(src.data(), dst.data(), m, n);
    } catch (const usage_error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message(5, 8), "graph: edge 2 (9, 2) has an endpoint outside [0, 8)");
  EXPECT_EQ(message(5, 7), "graph: edge 1 (0, 7) has an endpoint outside [0, 7)");
  EXPECT_EQ(message(5, 100), "graph: edge 3 (-2, 4) has an endpoint outside [0, 100)");
  // The vertex count edges imply: the largest end + 1, refused with a negative end or one past 2^48.
  EXPECT_EQ(vertex_count_of_edges(src.data(), dst.data(), 3), 10);
  EXPECT_EQ(vertex_count_of_edges(dst.data(), dst.data(), 1), 2);
  EXPECT_THROW((void)vertex_count_of_edges(src.data(), dst.data(), 5), usage_error);
  const std::vector<std::int64_t> huge{0, std::int64_t{1} << 48}, far{1, 2};
  EXPECT_THROW((void)vertex_count_of_edges(huge.data(), far.data(), 2), usage_error);
  EXPECT_EQ(vertex_count_of_edges(far.data(), huge.data(), 1), 2);
  edge_list el;
  el.num_vertices = 8;
  el.src.assign(src.begin(), src.end());
  el.dst.assign(dst.begin(), dst.end());
  try {
    (void)build_csr<std::int64_t>(el);
    ADD_FAILURE() << "kernel 1 took an edge outside the graph";
  } catch (const usage_error& e) {
    EXPECT_STREQ(e.what(), "graph: edge 2 (9, 2) has an endpoint outside [0, 8)");
  }
}

TEST(Csr, ThirtyTwoBitIdsRefuseHugeGraphs) {
  edge_list el;
  el.num_vertices = index_t{1} << 33;
  EXPECT_THROW(build_csr<std::uint32_t>(el), usage_error);
}

// Within a row, arcs keep edge-list order (edge i's arc before edge j's for i < j), whatever the
// thread count: compare with rows built serially here.
TYPED_TEST(CsrTest, RowsKeepEdgeOrderForAnyThreadCount) {
  kronecker_params p;
  p.scale = 12;
  const edge_list el = generate_kronecker(p);
  std::vector<std::vector<std::pair<index_t, float>>> want(static_cast<std::size_t>(el.num_vertices));
  for (index_t i = 0; i < el.size(); ++i) {
    if (el.src[i] == el.dst[i]) continue;
    want[el.src[i]].push_back({el.dst[i], el.weight[i]});
    want[el.dst[i]].push_back({el.src[i], el.weight[i]});
  }
  const int saved = omp_get_max_threads();
  for (int t : {1, 2, 3, 8}) {
    omp_set_num_threads(t);
    const auto g = build_csr<TypeParam>(el);
    ASSERT_EQ(g.offsets.size(), want.size() + 1);
    for (index_t u = 0; u < g.num_vertices; ++u) {
      ASSERT_EQ(g.degree(u), static_cast<index_t>(want[u].size())) << "threads " << t << " vertex " << u;
      for (index_t k = 0; k < g.degree(u); ++k) {
        ASSERT_EQ(static_cast<index_t>(g.columns[g.offsets[u] + k]), want[u][k].first) << "threads " << t << " vertex " << u;
        ASSERT_EQ(g.weights[g.offsets[u] + k], want[u][k].second);
      }
    }
  }
  omp_set_num_threads(saved);
}
