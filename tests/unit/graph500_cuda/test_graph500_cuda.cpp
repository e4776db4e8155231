// The CUDA Graph500 pipeline: the GPU generator equals the host one (edges and weights, Graph500 and
// R-MAT initiators, 32- and 64-bit ids), GPU kernel 1 equals host kernel 1 (as multisets per row, in
// original ids; relabelled rows are sorted by descending degree), the pipeline validates on
// Kronecker graphs, the GPU validator rejects broken trees (BFS and SSSP), the BFS tree handed out
// carries the search's levels, and a SCALE that does not fit stops with one resource_error line.
// Skipped without a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <initializer_list>

#include "../../support/bfs_oracle.hpp"
#include "../../support/directed.hpp"
#include "../../support/graphs.hpp"
#include "gpu500/core/cuda/memory.hpp"
#include "gpu500/core/device.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/graph/csr.hpp"
#include "gpu500/graph/cuda.hpp"
#include "gpu500/graph/shapes.hpp"
#include "gpu500/graph500/cuda_pipeline.hpp"

using namespace gpu500;
namespace gc = gpu500::graph::cuda;

namespace {

class Graph500Cuda : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  }
};

/// Edges at which two lists of the same length differ (endpoints or weight bits).
std::size_t differing_edges(const graph::edge_list& host, const graph::edge_list& dev, bool weighted) {
  std::size_t bad = 0;
  for (std::size_t i = 0; i < host.src.size(); ++i)
    bad += host.src[i] != dev.src[i] || host.dst[i] != dev.dst[i] ||
           (weighted && std::memcmp(&host.weight[i], &dev.weight[i], sizeof(float)) != 0);
  return bad;
}

template <class V>
void expect_same_edges(const graph::kronecker_params& p) {
  const graph::edge_list host = graph::generate_kronecker(p);
  const graph::edge_list dev = gc::download_edge_list(gc::generate_kronecker_device<V>(p));
  ASSERT_EQ(dev.src.size(), host.src.size());
  ASSERT_EQ(dev.weight.size(), host.weight.size());
  EXPECT_EQ(differing_edges(host, dev, p.weights), 0u)
      << "SCALE " << p.scale << " initiator " << p.a << "," << p.b << "," << p.c;
}

/// Rows of a host CSR as sorted (neighbour, weight bits) lists.
template <class V>
std::vector<std::vector<std::pair<std::int64_t, std::uint32_t>>> rows(const graph::csr<V>& g) {
  std::vector<std::vector<std::pair<std::int64_t, std::uint32_t>>> r(static_cast<std::size_t>(g.num_vertices));
  for (std::int64_t v = 0; v < g.num_vertices; ++v) {
    for (std::int64_t e = g.offsets[v]; e < g.offsets[v + 1]; ++e) {
      std::uint32_t wb = 0;
      if (!g.weights.empty()) std::memcpy(&wb, &g.weights[e], 4);
      r[v].push_back({static_cast<std::int64_t>(g.columns[e]), wb});
    }
    std::sort(r[v].begin(), r[v].end());
  }
  return r;
}

}  // namespace

TEST_F(Graph500Cuda, GeneratorMatchesHost) {
  graph::kronecker_params p;
  for (int s : {10, 12, 14, 16}) {
    p.scale = s;
    expect_same_edges<std::uint32_t>(p);
  }
  p.scale = 13;
  expect_same_edges<std::int64_t>(p);
  p.a = 4500;
  p.b = p.c = 1500;  // R-MAT
  expect_same_edges<std::uint32_t>(p);
  p.edgefactor = 5;
  p.weights = false;
  p.seed1 = 12345;
  p.seed2 = 678;
  expect_same_edges<std::uint32_t>(p);
}

// One rank's slice (the multi-rank pipeline's generator): the same edges as the host's slice,
// at slice bounds that cut a thread's run of edges, and empty slices.
TEST_F(Graph500Cuda, GeneratorSliceMatchesHost) {
  graph::kronecker_params p;
  p.scale = 11;
  const index_t m = p.num_edges();
  for (const auto& [first, count] : {std::pair<index_t, index_t>{0, m}, {5, 1000}, {m / 3, m / 3 + 7}, {m - 17, 17},
                                     {m, 0}, {100, 0}}) {
    const graph::edge_list host = graph::generate_kronecker(p, first, count);
    const gc::device_edge_list<std::int64_t> slice = gc::generate_kronecker_device<std::int64_t>(p, first, count);
    EXPECT_EQ(slice.num_edges, count);
    const graph::edge_list dev = gc::download_edge_list(slice);
    ASSERT_EQ(dev.src.size(), host.src.size()) << "slice at " << first;
    ASSERT_EQ(dev.weight.size(), host.weight.size()) << "slice at " << first;
    EXPECT_EQ(differing_edges(host, dev, true), 0u) << "slice [" << first << ", " << first + count << ")";
  }
  EXPECT_THROW(gc::generate_kronecker_device<std::int64_t>(p, m - 1, 2), std::exception);
}

TEST_F(Graph500Cuda, GeneratorMatchesReferenceVectors) {
  graph::kronecker_params p;
  p.scale = 10;
  const auto el = gc::download_edge_list(gc::generate_kronecker_device<std::uint32_t>(p));
  EXPECT_EQ(el.src[0], 299);
  EXPECT_EQ(el.dst[0], 797);
  EXPECT_FLOAT_EQ(el.weight[0], 0.490170419216156f);
  EXPECT_EQ(el.src[2], 185);
  EXPECT_EQ(el.dst[2], 385);
}

// Kernel 1 on the device against the host CSR at each SCALE: (relabel, sort batch) with the
// default batch, which sorts these graphs in one piece, and with `small_batch` arcs, which cuts
// them into many batches of whole rows.
void expect_kernel1_matches_host(std::initializer_list<int> scales, index_t small_batch) {
  const std::pair<bool, index_t> builds[] = {{false, gc::build_options{}.sort_batch},
                                             {true, gc::build_options{}.sort_batch},
                                             {true, small_batch}};
  for (const auto& [relabel, batch] : builds)
    for (int s : scales) {
      graph::kronecker_params p;
      p.scale = s;
      const graph::edge_list host_el = graph::generate_kronecker(p);
      const auto host = graph::build_csr<std::int64_t>(host_el);
      auto dev = gc::build_device_csr<std::uint32_t>(gc::generate_kronecker_device<std::uint32_t>(p), {relabel, batch});
      EXPECT_EQ(dev.num_arcs(), host.num_arcs());
      const auto down = dev.download_original_ids();
      EXPECT_TRUE(rows(down) == rows(host)) << "SCALE " << s << " relabel " << relabel << " batch " << batch;
      const auto has = dev.has_edges_host();
      for (std::int64_t v = 0; v < host.num_vertices; ++v) ASSERT_EQ(has[v] != 0, host.degree(v) > 0) << v;
      if (relabel) {
        // Degrees do not increase with the new id; rows ascend (descending degree); isolated last.
        const auto view = dev.view();
        const auto off = gpu::to_host(view.offsets, static_cast<std::size_t>(view.num_vertices) + 1);
        const auto col = gpu::to_host(view.columns, static_cast<std::size_t>(dev.num_arcs()));
        for (std::int64_t v = 0; v + 1 < view.num_vertices; ++v)
          ASSERT_GE(off[v + 1] - off[v], off[v + 2] - off[v + 1]) << v;
        for (std::int64_t v = 0; v < view.num_vertices; ++v)
          ASSERT_TRUE(std::is_sorted(col.begin() + off[v], col.begin() + off[v + 1])) << v;
        std::int64_t with_edges = 0;
        for (std::int64_t v = 0; v < view.num_vertices; ++v) with_edges += off[v + 1] > off[v];
        EXPECT_EQ(dev.non_isolated(), with_edges);
        EXPECT_EQ(off[1] - off[0], dev.max_degree());
      }
    }
}

TEST_F(Graph500Cuda, Kernel1MatchesHost) {
  // 997 arcs a batch cuts SCALE 10 and 14 into 33 and 527 batches.
  expect_kernel1_matches_host({10, 14}, 997);
}

// The same at a size compute-sanitizer racecheck runs in seconds (kernel 1's CUB sorts share memory).
TEST_F(Graph500Cuda, SmallKernel1MatchesHost) { expect_kernel1_matches_host({7}, 97); }

// The batches of whole rows that kernel 1 and the SSSP engine sort in: every arc in exactly one
// batch, in order; each later batch's first row is the last one starting at or before k * batch; no batch
// holds more than batch + the longest row; the relative offsets handed to each batch are right.
TEST_F(Graph500Cuda, RowBatchPlanCoversEveryArcOnce) {
  graph::kronecker_params p;
  p.scale = 10;
  auto dev = gc::build_device_csr<std::uint32_t>(gc::generate_kronecker_device<std::uint32_t>(p), {true});
  const auto view = dev.view();
  const index_t n = view.num_vertices, arcs = dev.num_arcs();
  const auto off = gpu::to_host(view.offsets, static_cast<std::size_t>(n) + 1);
  ASSERT_EQ(off[n], arcs);
  for (const index_t batch : {index_t{3}, index_t{100}, index_t{4096}, dev.max_degree(), arcs, 4 * arcs}) {
    const gc::row_batch_plan plan = gc::plan_row_batches(view.offsets, n, arcs, batch);
    ASSERT_EQ(plan.size(), static_cast<std::size_t>((arcs + batch - 1) / batch)) << batch;
    ASSERT_EQ(plan.rows.front(), 0);
    ASSERT_EQ(plan.rows.back(), n);
    ASSERT_EQ(plan.starts.back(), arcs);
    index_t max_rows = 0, max_items = 0;
    for (std::size_t k = 0; k < plan.size(); ++k) {
      const index_t r = plan.rows[k];
      ASSERT_LE(r, plan.rows[k + 1]) << batch << " " << k;
      ASSERT_EQ(plan.starts[k], off[r]) << batch << " " << k;
      ASSERT_LE(off[r], static_cast<index_t>(k) * batch) << batch << " " << k;
      if (k > 0 && r < n) {
        ASSERT_GT(off[r + 1], static_cast<index_t>(k) * batch) << batch << " " << k;
      }
      ASSERT_LE(plan.starts[k + 1] - plan.starts[k], batch + dev.max_degree()) << batch << " " << k;
      max_rows = std::max(max_rows, plan.rows[k + 1] - r);
      max_items = std::max(max_items, plan.starts[k + 1] - plan.starts[k]);
    }
    EXPECT_EQ(plan.max_rows, max_rows);
    EXPECT_EQ(plan.max_items, max_items);
    gpu::device_buffer<index_t> rel(static_cast<std::size_t>(plan.max_rows) + 1);
    index_t next_arc = 0, next_row = 0;
    gc::for_each_row_batch(plan, view.offsets, rel.data(), nullptr,
                           [&](index_t r0, index_t nrows, index_t o0, index_t items, const index_t* r) {
                             ASSERT_GE(r0, next_row);
                             ASSERT_EQ(o0, next_arc);
                             ASSERT_GT(items, 0);
                             ASSERT_EQ(off[r0 + nrows] - o0, items);
                             const auto h = gpu::to_host(r, static_cast<std::size_t>(nrows) + 1);
                             for (index_t i = 0; i <= nrows; ++i) ASSERT_EQ(h[i], off[r0 + i] - o0) << i;
                             next_arc = o0 + items;
                             next_row = r0 + nrows;
                           });
    EXPECT_EQ(next_arc, arcs) << batch;
  }
  EXPECT_THROW(gc::plan_row_batches(view.offsets, n, arcs, 0), error);  // a broken precondition
  const gc::row_batch_plan none = gc::plan_row_batches(view.offsets, n, 0, 64);
  EXPECT_EQ(none.size(), 1u);
  EXPECT_EQ(none.max_items, 0);
  int calls = 0;
  gc::for_each_row_batch(none, view.offsets, nullptr, nullptr, [&](auto...) { ++calls; });
  EXPECT_EQ(calls, 0);
}

TEST_F(Graph500Cuda, Kernel1FromHostEdgeListKeepsDuplicatesDropsSelfLoops) {
  graph::edge_list el;
  el.num_vertices = 5;
  el.src = {0, 0, 1, 2, 3, 3};
  el.dst = {1, 1, 1, 3, 4, 0};
  auto dev = gc::build_device_csr<std::int64_t>(gc::upload_edge_list<std::int64_t>(el), {true});
  EXPECT_EQ(dev.num_arcs(), 10);  // 5 non-self-loop edges, both directions
  EXPECT_TRUE(rows(dev.download_original_ids()) == rows(graph::build_csr<std::int64_t>(el)));
  graph::edge_list bad = el;
  bad.dst[2] = 9;
  EXPECT_THROW(gc::upload_edge_list<std::uint32_t>(bad), usage_error);
}

TEST_F(Graph500Cuda, PipelineValidatesKroneckerSearches) {
  for (int bits : {32, 64}) {
    graph::kronecker_params p;
    p.scale = 15;
    p.weights = false;
    graph500::cuda_options o;
    o.vertex_bits = bits;
    auto pipe = graph500::make_cuda_pipeline(p, o);
    EXPECT_EQ(pipe->vertex_bits(), bits);
    EXPECT_GT(pipe->generate(), 0.0);
    EXPECT_GT(pipe->construct(), 0.0);
    const auto host = graph::generate_kronecker(p);
    const auto roots = graph::pick_search_keys(p, 8, [&](std::int64_t v) { return pipe->has_edges(v); });
    for (std::int64_t r : roots) {
      pipe->bfs(r);
      const auto v = pipe->validate_bfs(r);
      EXPECT_TRUE(v.ok) << v.message;
      EXPECT_EQ(pipe->bfs_nedge(), test::host_bfs(host, r).nedge) << "root " << r;
    }
  }
}

TEST_F(Graph500Cuda, SearchKeysMatchHostGraph) {
  graph::kronecker_params p;
  p.scale = 10;
  p.weights = false;
  auto pipe = graph500::make_cuda_pipeline(p, graph500::cuda_options{});
  pipe->generate();
  pipe->construct();
  const auto roots = graph::pick_search_keys(p, 8, [&](std::int64_t v) { return pipe->has_edges(v); });
  const std::vector<std::int64_t> want = {458, 214, 220, 966, 395, 9, 848, 777};  // the reference's
  EXPECT_EQ(roots, want);
}

TEST_F(Graph500Cuda, TooLargeScaleIsOneClearLine) {
  graph::kronecker_params p;
  p.scale = 36;
  auto pipe = graph500::make_cuda_pipeline(p, graph500::cuda_options{});
  try {
    pipe->generate();
    FAIL() << "SCALE 36 should not fit";
  } catch (const resource_error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("SCALE 36"), std::string::npos) << m;
    EXPECT_NE(m.find("of device memory"), std::string::npos) << m;
  }
}

// ---- the validator on its own: a correct host tree passes, broken ones fail ------------------

namespace {

template <class V>
struct device_graph_fixture {
  gc::device_csr<V> g;
  explicit device_graph_fixture(const graph::edge_list& el, bool relabel)
      : g(gc::build_device_csr<V>(gc::upload_edge_list<V>(el), {relabel})) {}
  graph500::validation bfs(std::int64_t root, const std::vector<std::int64_t>& parent, std::int64_t nedge) {
    gpu::device_buffer<std::int64_t> p(parent.size());
    gpu::copy_bytes(p.data(), parent.data(), parent.size() * 8);
    return graph500::cuda::validate_bfs<V>(g.view(), g.new2old(), root, p.data(), nedge);
  }
  graph500::validation sssp(std::int64_t root, const std::vector<std::int64_t>& parent, const std::vector<float>& d,
                            std::int64_t nedge) {
    gpu::device_buffer<std::int64_t> p(parent.size());
    gpu::device_buffer<float> dd(d.size());
    gpu::copy_bytes(p.data(), parent.data(), parent.size() * 8);
    gpu::copy_bytes(dd.data(), d.data(), d.size() * 4);
    return graph500::cuda::validate_sssp<V>(g.view(), g.new2old(), root, p.data(), dd.data(), nedge);
  }
};

}  // namespace

TEST_F(Graph500Cuda, ValidatorRejectsBrokenBfsTrees) {
  const auto g = test::disconnected();
  for (bool relabel : {false, true}) {
    device_graph_fixture<std::uint32_t> f(g.edges, relabel);
    const std::int64_t root = 3;
    const auto o = test::host_bfs(g.edges, root);
    const auto parent = test::host_bfs_parents(g.edges, root, o);
    const auto good = f.bfs(root, parent, o.nedge);
    ASSERT_TRUE(good.ok) << good.message;
    EXPECT_EQ(good.nedge, o.nedge);
    EXPECT_FALSE(f.bfs(root, parent, o.nedge + 1).ok);  // wrong nedge

    // A vertex at depth >= 2 whose parent becomes the root (not a neighbour / wrong level).
    std::int64_t deep = -1;
    for (std::int64_t v = 0; v < 1000; ++v)
      if (o.level[v] >= 3) deep = v;
    ASSERT_GE(deep, 0);
    auto p = parent;
    p[deep] = root;
    const auto r1 = f.bfs(root, p, o.nedge);
    EXPECT_FALSE(r1.ok);
    EXPECT_FALSE(r1.message.empty());
    p = parent;
    p[root] = 4;  // root not its own parent
    EXPECT_FALSE(f.bfs(root, p, o.nedge).ok);
    p = parent;
    p[deep] = -1;  // a reached vertex dropped: an edge joins visited and unvisited
    EXPECT_FALSE(f.bfs(root, p, o.nedge).ok);
    p = parent;
    p[deep] = 5000;  // out of range
    EXPECT_FALSE(f.bfs(root, p, o.nedge).ok);
    p = parent;
    p[1500] = 1501;  // a vertex of the other component claims to be reached
    p[1501] = 1500;  // ... in a two-cycle
    EXPECT_FALSE(f.bfs(root, p, o.nedge).ok);
    // A cycle among reached vertices: two neighbours point at each other.
    p = parent;
    const std::int64_t c = parent[deep];
    p[c] = deep;
    EXPECT_FALSE(f.bfs(root, p, o.nedge).ok);
  }
}

TEST_F(Graph500Cuda, ValidatorChecksSsspTrees) {
  const auto g = test::disconnected();
  device_graph_fixture<std::int64_t> f(g.edges, true);
  const std::int64_t root = 1500;
  std::vector<std::int64_t> parent;
  std::vector<float> dist;
  test::host_sssp(g.edges, root, parent, dist);
  const auto nedge = test::host_bfs(g.edges, root).nedge;
  const auto good = f.sssp(root, parent, dist, nedge);
  ASSERT_TRUE(good.ok) << good.message;
  EXPECT_EQ(good.nedge, nedge);
  std::int64_t v = -1;
  for (std::int64_t x = 1000; x < 2000; ++x)
    if (x != root && parent[x] != root && dist[x] > 0) v = x;
  ASSERT_GE(v, 0);
  auto d = dist;
  d[v] = std::nextafter(d[v], 10.0f);  // off by one ulp: not confirmed exactly
  EXPECT_FALSE(f.sssp(root, parent, d, nedge).ok);
  d = dist;
  d[v] = dist[v] * 3 + 1;  // too long: the triangle rule fails on some edge
  EXPECT_FALSE(f.sssp(root, parent, d, nedge).ok);
  d = dist;
  d[root] = 0.25f;
  EXPECT_FALSE(f.sssp(root, parent, d, nedge).ok);
}

TEST_F(Graph500Cuda, SsspThroughThePipelineValidates) {
  graph::kronecker_params p;
  p.scale = 12;
  p.weights = true;
  auto pipe = graph500::make_cuda_pipeline(p, graph500::cuda_options{});
  pipe->generate();
  pipe->construct();
  const auto roots = graph::pick_search_keys(p, 4, [&](std::int64_t v) { return pipe->has_edges(v); });
  const auto host = graph::generate_kronecker(p);
  for (std::int64_t r : roots) {
    pipe->sssp(r);
    const auto v = pipe->validate_sssp(r);
    EXPECT_TRUE(v.ok) << v.message;
    EXPECT_EQ(pipe->sssp_nedge(), test::host_bfs(host, r).nedge);
    // BFS on the same weighted graph still validates.
    pipe->bfs(r);
    EXPECT_TRUE(pipe->validate_bfs(r).ok);
  }
}

// The searches report in original ids from inside their timed region (the relabelling's map runs
// at the end of run()); an isolated root (its new id past the vertices with arcs), two components
// and vertices without arcs exercise every branch of that mapping, for BFS and SSSP, 32- and
// 64-bit ids, with and without the relabelling.
TEST_F(Graph500Cuda, SearchesReportOriginalIdsOnDisconnectedGraphs) {
  const auto g = test::disconnected();  // weighted
  ASSERT_TRUE(g.edges.weighted());
  for (int bits : {32, 64})
    for (bool sort : {true, false}) {
      graph500::cuda_options o;
      o.vertex_bits = bits;
      o.no_sort = !sort;
      auto pipe = graph500::make_cuda_pipeline(g.edges, o);
      pipe->generate();
      pipe->construct();
      for (std::int64_t r : g.roots) {
        SCOPED_TRACE("root " + std::to_string(r) + " bits " + std::to_string(bits) + " sort " + std::to_string(sort));
        pipe->bfs(r);
        const auto b = pipe->validate_bfs(r);
        EXPECT_TRUE(b.ok) << b.message;
        EXPECT_EQ(b.nedge, test::host_bfs(g.edges, r).nedge);
        pipe->sssp(r);
        const auto s = pipe->validate_sssp(r);
        EXPECT_TRUE(s.ok) << s.message;
        EXPECT_EQ(pipe->sssp_nedge(), test::host_bfs(g.edges, r).nedge);
      }
    }
}

// The BFS tree handed to callers carries the engine's levels in original ids, equal to a queue
// BFS's: on the small shapes (isolated roots among them), a grid of many levels (the device loop
// and its cluster tier) and a Kronecker graph (bottom-up levels), 32- and 64-bit ids, with and
// without the relabelling; its parents (widened on the host) form a tree of those levels.
TEST_F(Graph500Cuda, BfsTreeCarriesTheSearchLevels) {
  std::vector<test::graph_case> cs = test::awkward_cases();
  cs.push_back(test::kronecker_case(14));
  graph::shape_params grid;
  grid.extents = {257, 129};
  cs.push_back({"grid 257 x 129", graph::generate_shape(grid), {0, 257 * 64 + 128, 257 * 129 - 1}});
  for (const auto& c : cs)
    for (int bits : {32, 64})
      for (bool sort : {true, false}) {
        graph500::cuda_options o;
        o.vertex_bits = bits;
        o.no_sort = !sort;
        auto pipe = graph500::make_cuda_pipeline(graph::edge_list(c.edges), o);
        pipe->generate();
        pipe->construct();
        for (std::int64_t r : c.roots) {
          SCOPED_TRACE(c.name + " root " + std::to_string(r) + " bits " + std::to_string(bits) + " sort " +
                       std::to_string(sort));
          pipe->bfs(r);
          const graph500::search_tree t = pipe->bfs_tree();
          const std::vector<std::int64_t> level(t.level.begin(), t.level.end());
          EXPECT_EQ(level, test::host_bfs(c.edges, r).level);
          EXPECT_EQ(test::tree_levels(t.parent, r), level);
        }
      }
}
