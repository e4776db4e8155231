// CPU BFS (Graph500 kernel 2) against a serial queue BFS written here, on Kronecker graphs and
// awkward graphs, for both vertex id widths and 1, 2 and 4 OpenMP threads.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <deque>
#include <string>
#include <vector>

#include "gpu500/bfs/bfs.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/graph/csr.hpp"
#include "../../support/engine_runs.hpp"
#include "../../support/graphs.hpp"

using namespace gpu500;
using gpu500::test::graph_case;

namespace {

// The oracle: adjacency straight from the edge list (self-loops ignored), plain queue BFS.
struct oracle {
  std::vector<std::vector<std::int64_t>> adj;
  explicit oracle(const graph::edge_list& el) : adj(static_cast<std::size_t>(el.num_vertices)) {
    for (index_t i = 0; i < el.size(); ++i)
      if (el.src[i] != el.dst[i]) {
        adj[el.src[i]].push_back(el.dst[i]);
        adj[el.dst[i]].push_back(el.src[i]);
      }
  }
  std::vector<std::int64_t> levels(std::int64_t root) const {
    std::vector<std::int64_t> lv(adj.size(), -1);
    std::deque<std::int64_t> q{root};
    lv[root] = 0;
    while (!q.empty()) {
      const auto u = q.front();
      q.pop_front();
      for (auto v : adj[u])
        if (lv[v] < 0) lv[v] = lv[u] + 1, q.push_back(v);
    }
    return lv;
  }
  bool has_edge(std::int64_t u, std::int64_t v) const {
    for (auto x : adj[u])
      if (x == v) return true;
    return false;
  }
};

// nedge as Graph500 defines it, counted on the edge list: non-loop edges with both ends reached.
index_t count_nedge(const graph::edge_list& el, const std::vector<std::int64_t>& lv) {
  index_t c = 0;
  for (index_t i = 0; i < el.size(); ++i) c += el.src[i] != el.dst[i] && lv[el.src[i]] >= 0 && lv[el.dst[i]] >= 0;
  return c;
}

// Every check of the result against the oracle (at most ~10 failures reported per search).
void check_tree(const graph_case& c, const oracle& o, std::int64_t root, std::span<const std::int64_t> parent,
                index_t nedge, const std::string& what) {
  SCOPED_TRACE(c.name + " root " + std::to_string(root) + " " + what);
  const auto lv = o.levels(root);
  const auto n = static_cast<std::int64_t>(lv.size());
  ASSERT_EQ(static_cast<std::int64_t>(parent.size()), n);
  ASSERT_EQ(parent[root], root);
  int bad = 0;
  for (std::int64_t v = 0; v < n && bad < 10; ++v) {
    if (lv[v] < 0) {
      if (parent[v] != -1) ++bad, ADD_FAILURE() << "unreachable vertex " << v << " has parent " << parent[v];
      continue;
    }
    if (v == root) continue;
    const auto p = parent[v];
    if (p < 0 || p >= n) {
      ++bad, ADD_FAILURE() << "vertex " << v << " (level " << lv[v] << ") has parent " << p;
      continue;
    }
    if (lv[p] != lv[v] - 1) ++bad, ADD_FAILURE() << "vertex " << v << " level " << lv[v] << ", parent level " << lv[p];
    if (!o.has_edge(p, v)) ++bad, ADD_FAILURE() << "parent edge " << p << "-" << v << " is not in the graph";
  }
  // Depth along the parent tree equals the oracle level (this also rules out cycles).
  std::vector<std::int64_t> depth(static_cast<std::size_t>(n), -1);
  depth[root] = 0;
  for (std::int64_t v = 0; v < n && bad < 10; ++v) {
    if (parent[v] < 0 || depth[v] >= 0) continue;
    std::vector<std::int64_t> chain;
    std::int64_t x = v;
    while (x >= 0 && depth[x] < 0 && static_cast<std::int64_t>(chain.size()) <= n) chain.push_back(x), x = parent[x];
    if (x < 0 || depth[x] < 0) {
      ++bad, ADD_FAILURE() << "parent chain from " << v << " does not reach the root";
      continue;
    }
    for (std::size_t i = 0; i < chain.size(); ++i) depth[chain[i]] = depth[x] + static_cast<std::int64_t>(chain.size() - i);
    if (depth[v] != lv[v]) ++bad, ADD_FAILURE() << "vertex " << v << " tree depth " << depth[v] << " != level " << lv[v];
  }
  EXPECT_EQ(nedge, count_nedge(c.edges, lv));
}

std::vector<graph_case> all_cases() {
  auto cs = gpu500::test::awkward_cases();
  for (int scale : {8, 11, 14}) cs.push_back(gpu500::test::kronecker_case(scale));
  cs.push_back(gpu500::test::kronecker_case(10, 1));  // sparse: many components
  return cs;
}

}  // namespace

template <class V>
class CpuBfs : public ::testing::Test {
 protected:
  void check_all(bfs::cpu_options o, int threads, const std::string& what) {
    gpu500::test::for_each_search<V, bfs::cpu_engine<V>>(
        cases_, o, threads, [](const graph_case& c) { return oracle(c.edges); },
        [&](const graph_case& c, const oracle& orc, std::int64_t root, const bfs::cpu_engine<V>& e) {
          check_tree(c, orc, root, e.parents(), e.traversed_edges(), what + " threads " + std::to_string(threads));
        });
  }
  static void SetUpTestSuite() { cases_ = all_cases(); }
  static void TearDownTestSuite() { cases_.clear(); }
  static inline std::vector<graph_case> cases_;
};
using VertexTypes = ::testing::Types<std::uint32_t, std::int64_t>;
TYPED_TEST_SUITE(CpuBfs, VertexTypes);

TYPED_TEST(CpuBfs, DirectionOptimizingMatchesOracle) {
  for (int t : {1, 2, 4}) this->check_all({}, t, "default");
}

TYPED_TEST(CpuBfs, TopDownOnlyMatchesOracle) {
  bfs::cpu_options o;
  o.top_down_only = true;
  for (int t : {1, 3}) this->check_all(o, t, "top-down only");
}

TYPED_TEST(CpuBfs, BottomUpEarlyAndLateMatchesOracle) {
  bfs::cpu_options o;
  o.alpha = 1e9;  // bottom-up from the first step on
  o.beta = 1e9;   // and back to top-down only when the frontier is tiny
  this->check_all(o, 2, "bottom-up early");
  o.beta = 1.0;  // back to top-down almost at once
  this->check_all(o, 4, "bottom-up, early return");
  o.threads = 3;  // explicit thread count in the options
  this->check_all(o, 1, "threads option 3");
}

TYPED_TEST(CpuBfs, WideColumnsMatchOracle) {
  bfs::cpu_options o;
  o.wide_columns = true;  // the engine's rows in 64-bit columns although 32 bits hold every id
  for (int t : {1, 2}) this->check_all(o, t, "64-bit columns");
}

// levels(): one record per non-empty level, in order, whose frontiers add up to the vertices
// reached; the direction is one of the two and the times are not negative.
TYPED_TEST(CpuBfs, LevelsRecordEveryLevel) {
  const auto c = gpu500::test::kronecker_case(11);
  const auto g = graph::build_csr<TypeParam>(c.edges);
  const oracle orc(c.edges);
  bfs::cpu_engine<TypeParam> e(g.view());
  e.run(c.roots[0]);
  const auto lv = orc.levels(c.roots[0]);
  const std::int64_t depth = *std::max_element(lv.begin(), lv.end());
  const auto& levels = e.levels();
  ASSERT_EQ(static_cast<std::int64_t>(levels.size()), depth + 1);
  index_t reached = 0;
  for (std::size_t i = 0; i < levels.size(); ++i) {
    EXPECT_EQ(levels[i].level, static_cast<int>(i));
    EXPECT_TRUE(levels[i].direction == "top-down" || levels[i].direction == "bottom-up") << levels[i].direction;
    EXPECT_EQ(levels[i].frontier, static_cast<index_t>(std::count(lv.begin(), lv.end(), static_cast<std::int64_t>(i))));
    EXPECT_GE(levels[i].compute_seconds, 0.0);
    EXPECT_EQ(levels[i].bytes, 0);  // one process: nothing is sent
    reached += levels[i].frontier;
  }
  EXPECT_EQ(reached, static_cast<index_t>(std::count_if(lv.begin(), lv.end(), [](std::int64_t l) { return l >= 0; })));
  EXPECT_EQ(levels.front().direction, "top-down");
}

TYPED_TEST(CpuBfs, ConvenienceRunEqualsEngine) {
  const auto c = gpu500::test::kronecker_case(9);
  const auto g = graph::build_csr<TypeParam>(c.edges);
  const oracle orc(c.edges);
  const auto p = bfs::run<TypeParam>(g.view(), c.roots[0]);
  check_tree(c, orc, c.roots[0], p, count_nedge(c.edges, orc.levels(c.roots[0])), "bfs::run");
}

// prepare() is the untimed reset (Graph500's clean_pred) the pipeline calls before each timed run();
// run() resets by itself when it was not called. A stale parent or visited bit of the previous
// search would leave a vertex reached that is not, or unreached that is.
TYPED_TEST(CpuBfs, PrepareIsOptionalAndIdempotent) {
  const auto c = gpu500::test::kronecker_case(10, 1);  // sparse: many components
  const auto g = graph::build_csr<TypeParam>(c.edges);
  const oracle orc(c.edges);
  bfs::cpu_engine<TypeParam> e(g.view());
  ASSERT_GE(c.roots.size(), 3u);
  gpu500::test::check_prepare_orders(
      e, c.roots, 2, [&](std::int64_t r, const std::string& what) { check_tree(c, orc, r, e.parents(), e.traversed_edges(), what); });
}

// take_parents() hands a search's parents over without a copy; the engine holds none until its
// next search, whose prepare() (the caller's or run()'s own) makes new ones: every search after a
// hand-over is exact.
TYPED_TEST(CpuBfs, ParentsHandedOverAndSearchesGoOn) {
  const auto c = gpu500::test::kronecker_case(10, 1);  // sparse: many components
  const auto g = graph::build_csr<TypeParam>(c.edges);
  const oracle orc(c.edges);
  bfs::cpu_engine<TypeParam> e(g.view());
  ASSERT_GE(c.roots.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    if (i == 1) e.prepare();
    e.run(c.roots[i]);
    const index_t nedge = e.traversed_edges();
    const graph::host_vector<std::int64_t> p = e.take_parents();
    EXPECT_TRUE(e.parents().empty());
    EXPECT_EQ(e.traversed_edges(), 0);
    check_tree(c, orc, c.roots[i], p, nedge, "handed over after search " + std::to_string(i));
  }
}

TEST(CpuBfsOptions, RejectsBadInput) {
  const auto c = gpu500::test::kronecker_case(6);
  const auto g = graph::build_csr<std::int64_t>(c.edges);
  bfs::cpu_options o;
  o.alpha = 0;
  EXPECT_THROW({ bfs::cpu_engine<std::int64_t> bad(g.view(), o); }, gpu500::error);
  bfs::cpu_engine<std::int64_t> e(g.view());
  EXPECT_THROW(e.run(-1), gpu500::error);
  EXPECT_THROW(e.run(g.num_vertices), gpu500::error);
}

// A larger graph for manual stress runs (--gtest_also_run_disabled_tests): SCALE 18, 2 threads.
TEST(CpuBfsLarge, DISABLED_Scale18MatchesOracle) {
  const std::vector<graph_case> cs{gpu500::test::kronecker_case(18)};
  gpu500::test::for_each_search<std::uint32_t, bfs::cpu_engine<std::uint32_t>>(
      cs, bfs::cpu_options{}, 2, [](const graph_case& c) { return oracle(c.edges); },
      [&](const graph_case& c, const oracle& orc, std::int64_t root, const bfs::cpu_engine<std::uint32_t>& e) {
        check_tree(c, orc, root, e.parents(), e.traversed_edges(), "scale 18");
      });
}
