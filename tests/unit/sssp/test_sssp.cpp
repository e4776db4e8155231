// CPU SSSP (Graph500 kernel 3) against a serial Dijkstra with float additions written here, on
// Kronecker graphs and awkward graphs, for both vertex id widths, 1, 2 and 4 OpenMP threads and
// several bucket widths. Distances must match exactly; every tree edge must satisfy
// d(v) == d(parent) + w exactly in float for one of the parent-v edges; the tree has no cycle.
#include <gtest/gtest.h>
#include <omp.h>

#include <queue>
#include <string>
#include <vector>

#include "../bfs/test_graphs.hpp"
#include "gpu500/core/cli.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/graph/csr.hpp"
#include "gpu500/sssp/sssp.hpp"

using namespace gpu500;
using gpu500::testing::graph_case;

namespace {

struct arc {
  std::int64_t to;
  float w;
};

// The oracle: adjacency from the edge list, Dijkstra where each distance is one float addition.
struct oracle {
  std::vector<std::vector<arc>> adj;
  explicit oracle(std::vector<std::vector<arc>> a) : adj(std::move(a)) {}  // directed arcs as given
  explicit oracle(const graph::edge_list& el) : adj(static_cast<std::size_t>(el.num_vertices)) {
    for (index_t i = 0; i < el.size(); ++i)
      if (el.src[i] != el.dst[i]) {
        adj[el.src[i]].push_back({el.dst[i], el.weight[i]});
        adj[el.dst[i]].push_back({el.src[i], el.weight[i]});
      }
  }
  std::vector<float> distances(std::int64_t root) const {
    std::vector<float> d(adj.size(), -1.f);
    std::vector<char> done(adj.size(), 0);
    using item = std::pair<float, std::int64_t>;
    std::priority_queue<item, std::vector<item>, std::greater<>> pq;
    d[root] = 0.f;
    pq.push({0.f, root});
    while (!pq.empty()) {
      const auto [du, u] = pq.top();
      pq.pop();
      if (done[u]) continue;
      done[u] = 1;
      for (const arc& a : adj[u]) {
        const float nd = du + a.w;
        if (d[a.to] < 0.f || nd < d[a.to]) d[a.to] = nd, pq.push({nd, a.to});
      }
    }
    return d;
  }
};

void check_result(const graph_case& c, const oracle& o, std::int64_t root, std::span<const std::int64_t> parent,
                  std::span<const float> dist, index_t nedge, const std::string& what) {
  SCOPED_TRACE(c.name + " root " + std::to_string(root) + " " + what);
  const auto want = o.distances(root);
  const auto n = static_cast<std::int64_t>(want.size());
  ASSERT_EQ(static_cast<std::int64_t>(parent.size()), n);
  ASSERT_EQ(static_cast<std::int64_t>(dist.size()), n);
  ASSERT_EQ(parent[root], root);
  ASSERT_EQ(dist[root], 0.f);
  int bad = 0;
  for (std::int64_t v = 0; v < n && bad < 10; ++v) {
    if (want[v] < 0.f) {
      if (parent[v] != -1 || dist[v] != -1.f)
        ++bad, ADD_FAILURE() << "unreachable vertex " << v << " has parent " << parent[v] << " distance " << dist[v];
      continue;
    }
    if (dist[v] != want[v]) ++bad, ADD_FAILURE() << "vertex " << v << " distance " << dist[v] << " != " << want[v];
    if (v == root) continue;
    const auto p = parent[v];
    if (p < 0 || p >= n) {
      ++bad, ADD_FAILURE() << "reached vertex " << v << " has parent " << p;
      continue;
    }
    bool confirmed = false;
    for (const arc& a : o.adj[p]) confirmed = confirmed || (a.to == v && dist[v] == dist[p] + a.w);
    if (!confirmed) ++bad, ADD_FAILURE() << "vertex " << v << ": no edge from parent " << p << " with d(v) == d(p) + w";
  }
  // No cycles: every parent chain reaches the root within n steps.
  std::vector<char> ok(static_cast<std::size_t>(n), 0);
  ok[root] = 1;
  for (std::int64_t v = 0; v < n && bad < 10; ++v) {
    if (parent[v] < 0 || ok[v]) continue;
    std::vector<std::int64_t> chain;
    std::int64_t x = v;
    while (x >= 0 && !ok[x] && static_cast<std::int64_t>(chain.size()) <= n) chain.push_back(x), x = parent[x];
    if (x < 0 || !ok[x]) {
      ++bad, ADD_FAILURE() << "parent chain from " << v << " does not reach the root";
      continue;
    }
    for (auto y : chain) ok[y] = 1;
  }
  index_t count = 0;
  for (index_t i = 0; i < c.edges.size(); ++i)
    count += c.edges.src[i] != c.edges.dst[i] && want[c.edges.src[i]] >= 0.f && want[c.edges.dst[i]] >= 0.f;
  EXPECT_EQ(nedge, count);
}

std::vector<graph_case> all_cases() {
  auto cs = gpu500::testing::awkward_cases();
  for (int scale : {8, 11, 13}) cs.push_back(gpu500::testing::kronecker_case(scale));
  cs.push_back(gpu500::testing::kronecker_case(10, 1));  // sparse: many components
  return cs;
}

}  // namespace

template <class V>
class CpuSssp : public ::testing::Test {
 protected:
  void check_all(sssp::cpu_options o, int threads, const std::string& what) {
    gpu500::testing::for_each_search<V, sssp::cpu_engine<V>>(
        cases_, o, threads, [](const graph_case& c) { return oracle(c.edges); },
        [&](const graph_case& c, const oracle& orc, std::int64_t root, const sssp::cpu_engine<V>& e) {
          check_result(c, orc, root, e.parents(), e.distances(), e.traversed_edges(),
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
  const auto c = gpu500::testing::kronecker_case(11);
  const auto g = graph::build_csr<TypeParam>(c.edges);
  const oracle orc(c.edges);
  sssp::cpu_engine<TypeParam> e(g.view());
  ASSERT_GE(c.roots.size(), 3u);
  gpu500::testing::check_prepare_orders(
      e, c.roots, 2, [&](std::int64_t r, const std::string& what) { check_result(c, orc, r, e.parents(), e.distances(), e.traversed_edges(), what); });
}

// Internal ids follow decreasing degree by default; the graph's own ids must give the same result.
TYPED_TEST(CpuSssp, GraphVertexIdsMatchDijkstra) {
  sssp::cpu_options o;
  o.no_relabel = true;
  for (int t : {1, 2}) this->check_all(o, t, "no relabel");
  o.no_light_heavy = true;
  this->check_all(o, 2, "no relabel, no light/heavy split");
}

TEST(CpuSsspOptions, ParseFlags) {
  sssp::cpu_options o;
  cli::parser p("t", "t");
  sssp::add_cpu_options(p, o);
  p.parse(std::vector<std::string>{"--sssp-threads", "2", "--sssp-delta", "0.05", "--sssp-no-light-heavy",
                                          "--sssp-no-relabel"});
  EXPECT_EQ(o.threads, 2);
  EXPECT_FLOAT_EQ(o.delta, 0.05f);
  EXPECT_TRUE(o.no_light_heavy);
  EXPECT_TRUE(o.no_relabel);
  cli::parser q("t", "t");
  sssp::add_cpu_options(q, o);
  EXPECT_THROW(q.parse(std::vector<std::string>{"--sssp-delta", "abc"}), gpu500::usage_error);
}

TEST(CpuSsspOptions, RejectsBadInput) {
  graph::edge_list el;
  el.num_vertices = 3;
  gpu500::testing::add_edge(el, 0, 1, 0.5f);
  gpu500::testing::add_edge(el, 1, 2, -0.5f);
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
  using gpu500::testing::add_edge;
  graph_case c{"hubs", {}, {0, 20005, 2}};
  const std::int64_t n = 20010;
  c.edges.num_vertices = n;
  std::uint64_t x = 77;
  const std::int64_t leaves[3] = {20000, 9000, 13000};
  for (int h = 0; h < 3; ++h)
    for (std::int64_t i = 0; i < leaves[h]; ++i) {
      const std::int64_t leaf = 3 + (i * (2 * h + 1) + 17 * h) % (n - 3);
      add_edge(c.edges, h, leaf, gpu500::testing::test_weight(x, true));
      if (i % 997 == 0) add_edge(c.edges, h, leaf, gpu500::testing::test_weight(x, false));  // a duplicate
    }
  for (std::int64_t v = 3; v < n; ++v) add_edge(c.edges, v, v + 1 < n ? v + 1 : 3, gpu500::testing::test_weight(x, false));
  const auto g = graph::build_csr<TypeParam>(c.edges);
  const oracle orc(c.edges);
  for (float d : {0.f, 0.002f})
    for (int t : {1, 3, 4}) {
      omp_set_num_threads(t);
      sssp::cpu_options o;
      o.delta = d;
      sssp::cpu_engine<TypeParam> e(g.view(), o);
      for (auto r : c.roots) {
        e.run(r);
        check_result(c, orc, r, e.parents(), e.distances(), e.traversed_edges(),
                     "delta " + std::to_string(d) + " threads " + std::to_string(t));
      }
    }
  omp_set_num_threads(omp_get_num_procs());
}

// A larger graph for manual stress runs (--gtest_also_run_disabled_tests): SCALE 17, 2 threads.
TEST(CpuSsspLarge, DISABLED_Scale17MatchesDijkstra) {
  const std::vector<graph_case> cs{gpu500::testing::kronecker_case(17)};
  for (float d : {0.f, 0.1f})
    gpu500::testing::for_each_search<std::uint32_t, sssp::cpu_engine<std::uint32_t>>(
        cs, sssp::cpu_options{0, d}, 2, [](const graph_case& c) { return oracle(c.edges); },
        [&](const graph_case& c, const oracle& orc, std::int64_t root, const sssp::cpu_engine<std::uint32_t>& e) {
          check_result(c, orc, root, e.parents(), e.distances(), e.traversed_edges(), "scale 17");
        });
}

// A directed csr_view (not a kernel-1 graph: arcs without their reverse) takes the engine's
// general row construction; distances must match a directed Dijkstra exactly.
TEST(CpuSssp, DirectedGraphMatchesDijkstra) {
  const index_t n = 400;
  graph::csr<std::int64_t> g;
  g.num_vertices = n;
  std::vector<std::vector<arc>> adj(static_cast<std::size_t>(n));
  std::uint64_t x = 12345;
  auto rnd = [&x] { return (x = x * 6364136223846793005ull + 1442695040888963407ull) >> 33; };
  g.offsets.push_back(0);
  for (index_t u = 0; u < n; ++u) {
    const int deg = u % 17 == 0 ? 60 : static_cast<int>(rnd() % 6);  // a few hubs
    for (int k = 0; k < deg; ++k) {
      const auto v = static_cast<std::int64_t>(rnd() % n);
      const float w = static_cast<float>(rnd() % 1000) / 1000.f;
      g.columns.push_back(v);
      g.weights.push_back(w);
      adj[static_cast<std::size_t>(u)].push_back({v, w});
    }
    g.offsets.push_back(static_cast<index_t>(g.columns.size()));
  }
  const oracle o(adj);
  for (int threads : {1, 2})
    for (float delta : {0.f, 0.1f}) {
      sssp::cpu_engine<std::int64_t> e(g.view(), sssp::cpu_options{threads, delta});
      for (std::int64_t root : {0, 5, 399}) {
        SCOPED_TRACE("threads " + std::to_string(threads) + " delta " + std::to_string(delta) + " root " +
                     std::to_string(root));
        e.run(root);
        const auto d = o.distances(root);
        const auto dist = e.distances();
        const auto par = e.parents();
        for (index_t v = 0; v < n; ++v) {
          ASSERT_EQ(dist[v], d[v]) << "vertex " << v;
          if (d[v] < 0.f || v == root) continue;
          bool ok = false;  // an arc parent -> v with d(v) == d(parent) + w
          for (const arc& a : adj[static_cast<std::size_t>(par[v])]) ok = ok || (a.to == v && d[par[v]] + a.w == d[v]);
          EXPECT_TRUE(ok) << "vertex " << v << " parent " << par[v];
        }
      }
    }
}
