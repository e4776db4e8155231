// CPU SSSP (Graph500 kernel 3) against the test suites' Dijkstra oracle (tests/support/sssp_check.hpp)
// on Kronecker graphs and awkward graphs, for both vertex id widths, 1, 2 and 4 OpenMP threads and
// several bucket widths. Distances must match bit for bit; every tree edge must satisfy
// d(v) == d(parent) + w exactly in float for one of the parent-v arcs; the tree has no cycle.
#include <gtest/gtest.h>
#include <omp.h>

#include <string>
#include <vector>

#include "../../support/engine_runs.hpp"
#include "../../support/graphs.hpp"
#include "../../support/sssp_check.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/graph/csr.hpp"
#include "gpu500/sssp/delta.hpp"
#include "gpu500/sssp/sssp.hpp"

using namespace gpu500;
using gpu500::test::graph_case;

namespace {

/// The engine's result for root against Dijkstra on the same CSR, and nedge against the input.
template <class V>
void check_result(const graph_case& c, const graph::csr<V>& g, std::int64_t root, std::span<const std::int64_t> parent,
                  std::span<const float> dist, index_t nedge, const std::string& what) {
  SCOPED_TRACE(c.name + " root " + std::to_string(root) + " " + what);
  const auto want = test::dijkstra(g, root);
  EXPECT_EQ(test::check_sssp(g, root, want, parent, dist), "");
  EXPECT_EQ(nedge, test::edge_list_nedge(c.edges, want));
}

std::vector<graph_case> all_cases() {
  auto cs = test::awkward_cases();
  for (int scale : {8, 11, 13}) cs.push_back(test::kronecker_case(scale));
  cs.push_back(test::kronecker_case(10, 1));  // sparse: many components
  return cs;
}

}  // namespace

template <class V>
class CpuSssp : public ::testing::Test {
 protected:
  void check_all(sssp::cpu_options o, int threads, const std::string& what) {
    test::for_each_search<V, sssp::cpu_engine<V>>(
        cases_, o, threads, [](const graph_case& c) { return graph::build_csr<V>(c.edges); },
        [&](const graph_case& c, const graph::csr<V>& g, std::int64_t root, const sssp::cpu_engine<V>& e) {
          check_result(c, g, root, e.parents(), e.distances(), e.traversed_edges(),
                       what + " threads " + std::to_string(threads));
        });
  }
  static void SetUpTestSuite() { cases_ = all_cases(); }
  static void TearDownTestSuite() { cases_.clear(); }
  static inline std::vector<graph_case> cases_;
};
using VertexTypes = ::testing::Types<std::uint32_t, std::int64_t>;
TYPED_TEST_SUITE(CpuSssp, VertexTypes);

TYPED_TEST(CpuSssp, AdaptiveDeltaMatchesDijkstra) {
  for (int t : {1, 2, 4}) this->check_all({}, t, "adaptive delta");
}

TYPED_TEST(CpuSssp, ReferenceDeltaMatchesDijkstra) {
  sssp::cpu_options o;
  o.delta = 0.1f;
  for (int t : {1, 4}) this->check_all(o, t, "delta 0.1");
}

TYPED_TEST(CpuSssp, SmallAndLargeDeltaMatchDijkstra) {
  sssp::cpu_options o;
  o.delta = 0.013f;  // many buckets, most edges heavy
  this->check_all(o, 2, "delta 0.013");
  o.delta = 100.f;  // one bucket: parallel Bellman-Ford on light edges only
  this->check_all(o, 3, "delta 100");
}

TYPED_TEST(CpuSssp, NoLightHeavySplitMatchesDijkstra) {
  sssp::cpu_options o;
  o.no_light_heavy = true;
  o.threads = 2;
  this->check_all(o, 1, "no light/heavy split");
}

// The engine keeps its own rows, light arcs (w <= delta) as a prefix and heavy arcs after: deltas
// equal to many weights (random_ties has 0, 1/4 and 1/2; zero_weights has zeros) put arcs on
// both sides of the boundary of the same row; a lost or doubled arc changes some distance.
TYPED_TEST(CpuSssp, DeltaEqualToTiedWeightsMatchesDijkstra) {
  sssp::cpu_options o;
  o.delta = 0.25f;
  this->check_all(o, 2, "delta 0.25");
  o.delta = 0.5f;
  this->check_all(o, 1, "delta 0.5");
}

// prepare() is the untimed reset the Graph500 pipeline calls before each timed run(); run() resets
// by itself when it was not called. Every order of the two must give the exact result: a stale
// tentative distance of the previous search would make some distance too small.
TYPED_TEST(CpuSssp, PrepareIsOptionalAndIdempotent) {
  const auto c = test::kronecker_case(11);
  const auto g = graph::build_csr<TypeParam>(c.edges);
  sssp::cpu_engine<TypeParam> e(g.view());
  ASSERT_GE(c.roots.size(), 3u);
  test::check_prepare_orders(e, c.roots, 2, [&](std::int64_t r, const std::string& what) {
    check_result(c, g, r, e.parents(), e.distances(), e.traversed_edges(), what);
  });
}

// take_result() hands a search's parents and distances over without a copy; the engine holds none
// until its next search, whose prepare() (the caller's or run()'s own) makes new ones: every
// search after a hand-over is exact.
TYPED_TEST(CpuSssp, ResultHandedOverAndSearchesGoOn) {
  const auto c = test::kronecker_case(11);
  const auto g = graph::build_csr<TypeParam>(c.edges);
  sssp::cpu_engine<TypeParam> e(g.view());
  ASSERT_GE(c.roots.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    if (i == 1) e.prepare();
    e.run(c.roots[i]);
    const index_t nedge = e.traversed_edges();
    const auto [parent, dist] = e.take_result();
    EXPECT_TRUE(e.parents().empty());
    EXPECT_TRUE(e.distances().empty());
    EXPECT_EQ(e.traversed_edges(), 0);
    check_result(c, g, c.roots[i], parent, dist, nedge, "handed over after search " + std::to_string(i));
  }
}

// Internal ids follow decreasing degree by default; the graph's own ids must give the same result.
TYPED_TEST(CpuSssp, GraphVertexIdsMatchDijkstra) {
  sssp::cpu_options o;
  o.no_relabel = true;
  for (int t : {1, 2}) this->check_all(o, t, "no relabel");
  o.no_light_heavy = true;
  this->check_all(o, 2, "no relabel, no light/heavy split");
}

// The pull (a bucket's heavy step as every row not settled looking for the bucket's vertices
// among its heavy arcs, kept in ascending weight), the default over ranks, on one process: in
// every bucket and where a bucket's rows hold a tenth of the arcs.
TYPED_TEST(CpuSssp, PullMatchesDijkstra) {
  sssp::cpu_options o;
  for (const double share : {0.0, 0.1}) {
    o.pull_share = share;
    for (int t : {1, 3}) this->check_all(o, t, "pull share " + std::to_string(share));
  }
}

// Every search keeps its phases, as over ranks: the root alone in the first light iteration,
// then light iterations and heavy steps (pulls where asked, "all" without the split), no bytes.
TEST(CpuSssp, PhasesRecorded) {
  const auto c = test::kronecker_case(10);
  const auto g = graph::build_csr<std::uint32_t>(c.edges);
  for (const double share : {2.0, 0.0})
    for (const bool split : {true, false}) {
      sssp::cpu_options o;
      o.pull_share = share;
      o.no_light_heavy = !split;
      sssp::cpu_engine<std::uint32_t> e(g.view(), o);
      e.run(c.roots[0]);
      const auto& levels = e.levels();
      ASSERT_GT(levels.size(), 2u);
      EXPECT_EQ(levels.front().direction, split ? "light" : "all");
      EXPECT_EQ(levels.front().frontier, 1);
      index_t heavy = 0, pulls = 0;
      for (std::size_t i = 0; i < levels.size(); ++i) {
        EXPECT_EQ(levels[i].level, static_cast<int>(i));
        EXPECT_EQ(levels[i].bytes, 0);
        EXPECT_EQ(levels[i].comm_seconds, 0.0);
        heavy += levels[i].direction == "heavy";
        pulls += levels[i].direction == "pull";
      }
      EXPECT_EQ(heavy > 0, split && share > 1);
      EXPECT_EQ(pulls > 0, split && share == 0);
      EXPECT_GT(e.delta(), 0.f);
    }
}

TEST(CpuSsspOptions, RejectsBadInput) {
  graph::edge_list el;
  el.num_vertices = 3;
  test::add_edge(el, 0, 1, 0.5f);
  test::add_edge(el, 1, 2, -0.5f);
  const auto bad = graph::build_csr<std::int64_t>(el);
  EXPECT_THROW({ sssp::cpu_engine<std::int64_t> e0(bad.view()); }, gpu500::usage_error);
  el.weight[1] = 0.25f;
  const auto g = graph::build_csr<std::int64_t>(el);
  sssp::cpu_engine<std::int64_t> e(g.view());
  EXPECT_THROW(e.run(3), gpu500::error);
  el.weight.clear();
  const auto unweighted = graph::build_csr<std::int64_t>(el);
  EXPECT_THROW({ sssp::cpu_engine<std::int64_t> e1(unweighted.view()); }, gpu500::error);
}

// Long hub rows: three hubs of 9000-20000 leaves (overlapping, with duplicate arcs), a ring
// through the leaves, random weights with zeros; roots at a hub and at a leaf; small and adaptive
// deltas (almost every hub arc heavy) on 1, 3 and 4 threads.
TYPED_TEST(CpuSssp, LongHeavyRowsMatchDijkstra) {
  using test::add_edge;
  graph_case c{"hubs", {}, {0, 20005, 2}};
  const std::int64_t n = 20010;
  c.edges.num_vertices = n;
  std::uint64_t x = 77;
  const std::int64_t leaves[3] = {20000, 9000, 13000};
  for (int h = 0; h < 3; ++h)
    for (std::int64_t i = 0; i < leaves[h]; ++i) {
      const std::int64_t leaf = 3 + (i * (2 * h + 1) + 17 * h) % (n - 3);
      add_edge(c.edges, h, leaf, test::test_weight(x, true));
      if (i % 997 == 0) add_edge(c.edges, h, leaf, test::test_weight(x, false));  // a duplicate
    }
  for (std::int64_t v = 3; v < n; ++v) add_edge(c.edges, v, v + 1 < n ? v + 1 : 3, test::test_weight(x, false));
  const auto g = graph::build_csr<TypeParam>(c.edges);
  for (float d : {0.f, 0.002f})
    for (int t : {1, 3, 4}) {
      omp_set_num_threads(t);
      sssp::cpu_options o;
      o.delta = d;
      sssp::cpu_engine<TypeParam> e(g.view(), o);
      for (auto r : c.roots) {
        e.run(r);
        check_result(c, g, r, e.parents(), e.distances(), e.traversed_edges(),
                     "delta " + std::to_string(d) + " threads " + std::to_string(t));
      }
    }
  omp_set_num_threads(omp_get_num_procs());
}

// A larger graph for manual stress runs (--gtest_also_run_disabled_tests): SCALE 17, 2 threads.
TEST(CpuSsspLarge, DISABLED_Scale17MatchesDijkstra) {
  const std::vector<graph_case> cs{test::kronecker_case(17)};
  for (float d : {0.f, 0.1f})
    test::for_each_search<std::uint32_t, sssp::cpu_engine<std::uint32_t>>(
        cs, sssp::cpu_options{0, d}, 2, [](const graph_case& c) { return graph::build_csr<std::uint32_t>(c.edges); },
        [&](const graph_case& c, const graph::csr<std::uint32_t>& g, std::int64_t root,
            const sssp::cpu_engine<std::uint32_t>& e) {
          check_result(c, g, root, e.parents(), e.distances(), e.traversed_edges(), "scale 17");
        });
}

// A directed csr_view (not a kernel-1 graph: arcs without their reverse) takes the engine's
// general row construction; distances must match a directed Dijkstra exactly.
TEST(CpuSssp, DirectedGraphMatchesDijkstra) {
  const index_t n = 400;
  graph::csr<std::int64_t> g;
  g.num_vertices = n;
  std::uint64_t x = 12345;
  auto rnd = [&x] { return (x = x * 6364136223846793005ull + 1442695040888963407ull) >> 33; };
  g.offsets.push_back(0);
  for (index_t u = 0; u < n; ++u) {
    const int deg = u % 17 == 0 ? 60 : static_cast<int>(rnd() % 6);  // a few hubs
    for (int k = 0; k < deg; ++k) {
      g.columns.push_back(static_cast<std::int64_t>(rnd() % n));
      g.weights.push_back(static_cast<float>(rnd() % 1000) / 1000.f);
    }
    g.offsets.push_back(static_cast<index_t>(g.columns.size()));
  }
  for (int threads : {1, 2})
    for (float delta : {0.f, 0.1f}) {
      sssp::cpu_engine<std::int64_t> e(g.view(), sssp::cpu_options{threads, delta});
      for (std::int64_t root : {0, 5, 399}) {
        SCOPED_TRACE("threads " + std::to_string(threads) + " delta " + std::to_string(delta) + " root " +
                     std::to_string(root));
        e.run(root);
        EXPECT_EQ(test::check_sssp(g, root, test::dijkstra(g, root), e.parents(), e.distances()), "");
      }
    }
}

// The adaptive width every delta-stepping engine starts from (sssp/delta.hpp).
TEST(SsspDelta, MeanWeightPerDegree) {
  // Graph500-like: mean weight 0.5 over 3200 arcs, 100 vertices with arcs (mean degree 32).
  EXPECT_DOUBLE_EQ(sssp::mean_weight_per_degree(0.5 * 3200, 3200, 100), 0.5 / 32);
  EXPECT_EQ(sssp::mean_weight_per_degree(0, 0, 0), 1.0);      // no arcs
  EXPECT_EQ(sssp::mean_weight_per_degree(5, 10, 0), 1.0);     // (inconsistent counts: no vertex)
  EXPECT_EQ(sssp::mean_weight_per_degree(0, 10, 5), 1e-6);    // all-zero weights: still positive
  EXPECT_EQ(sssp::mean_weight_per_degree(1e-9, 10, 5), 1e-6);
}

// The sparse tail's widening of the CUDA engines (sssp/delta.hpp), bucket by bucket.
TEST(SsspDelta, SparseTailWidensAfterThePeakUpToTheCap) {
  float delta = 0.25f;
  int peaked = 0;
  sssp::widen_in_sparse_tail(delta, 2.0f, 5, 100, peaked);  // few vertices before the peak: no change
  EXPECT_EQ(delta, 0.25f);
  EXPECT_EQ(peaked, 0);
  sssp::widen_in_sparse_tail(delta, 2.0f, 100, 100, peaked);  // the peak: marked, not widened
  EXPECT_EQ(delta, 0.25f);
  EXPECT_EQ(peaked, 1);
  sssp::widen_in_sparse_tail(delta, 2.0f, 500, 100, peaked);  // a busy bucket after it: no change
  EXPECT_EQ(delta, 0.25f);
  for (float expected : {0.5f, 1.0f, 2.0f, 2.0f}) {  // the tail doubles it until the cap
    sssp::widen_in_sparse_tail(delta, 2.0f, 99, 100, peaked);
    EXPECT_EQ(delta, expected);
  }
  float capped = 1.5f;  // doubling would pass the cap: kept
  sssp::widen_in_sparse_tail(capped, 2.0f, 0, 100, peaked);
  EXPECT_EQ(capped, 1.5f);
}
