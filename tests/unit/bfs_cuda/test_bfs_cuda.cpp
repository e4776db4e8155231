// Enterprise BFS on the GPU: every combination of technique flags must give a tree that the GPU
// validator accepts, with the engine's nedge equal to the validator's and to a host BFS oracle's,
// on Graph500/R-MAT graphs and on awkward ones (one vertex, disconnected parts with isolated
// vertices, self-loops and duplicates, a 100,000-vertex path, a star whose hub has more than 65,536
// edges, grids and a geometric graph of hundreds of levels). Skipped without a GPU.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "../../support/bfs_oracle.hpp"
#include "../../support/graphs.hpp"
#include "gpu500/core/device.hpp"
#include "gpu500/graph/shapes.hpp"
#include "gpu500/graph500/cuda_pipeline.hpp"

using namespace gpu500;

namespace {

/// The distinct technique configurations (WB, the device loop and the bitmap need TS; the cache
/// needs HC). The bottom-up bitmap is on in all of them and off in those with the device loop.
std::vector<graph500::cuda_options> all_configs() {
  std::vector<graph500::cuda_options> out;
  for (int ts = 0; ts < 2; ++ts)
    for (int wb = 0; wb < 2; ++wb)
      for (int loop = 0; loop < 2; ++loop)
        for (int hc = 0; hc < 3; ++hc)  // 0: off, 1: gamma without cache, 2: gamma + cache
          for (int sort = 0; sort < 2; ++sort)
            for (int bitmap = 1; bitmap >= 0; --bitmap) {
              if (!ts && (wb || loop)) continue;
              if (!bitmap && !(ts && loop)) continue;
              graph500::cuda_options o;
              o.bfs.no_ts = !ts;
              o.bfs.no_wb = !wb;
              o.bfs.no_device_loop = !loop;
              o.bfs.no_hc = hc == 0;
              o.bfs.no_hub_cache = hc != 2;
              o.bfs.no_bitmap = !bitmap;
              o.no_sort = !sort;
              out.push_back(o);
            }
  return out;
}

std::string name_of(const graph500::cuda_options& o) { return graph500::describe(o); }

/// Run the pipeline over the graph's roots; every search validated and its nedge checked.
void check_graph(const test::named_graph& g, const graph500::cuda_options& o, int vertex_bits = 0) {
  graph500::cuda_options opt = o;
  opt.vertex_bits = vertex_bits;
  auto pipe = graph500::make_cuda_pipeline(g.edges, opt);
  pipe->generate();
  pipe->construct();
  for (std::int64_t root : g.roots) {
    SCOPED_TRACE(g.name + " root " + std::to_string(root) + " config " + name_of(opt) + " bits " +
                 std::to_string(pipe->vertex_bits()));
    const auto oracle = test::host_bfs(g.edges, root);
    const double t = pipe->bfs(root);
    EXPECT_GT(t, 0.0);
    const auto v = pipe->validate_bfs(root);
    EXPECT_TRUE(v.ok) << v.message;
    EXPECT_EQ(pipe->bfs_nedge(), oracle.nedge);
    EXPECT_EQ(v.nedge, oracle.nedge);
  }
}

test::named_graph with_roots(test::named_graph g, int count) {
  std::vector<std::uint8_t> has(static_cast<std::size_t>(g.edges.num_vertices), 0);
  for (std::size_t i = 0; i < g.edges.src.size(); ++i)
    if (g.edges.src[i] != g.edges.dst[i]) has[g.edges.src[i]] = has[g.edges.dst[i]] = 1;
  graph::kronecker_params p;
  int s = 0;
  while ((std::int64_t{1} << s) < g.edges.num_vertices) ++s;
  p.scale = s;
  g.roots = graph::pick_search_keys(p, count, [&](std::int64_t v) { return v < g.edges.num_vertices && has[v]; });
  return g;
}

class BfsCuda : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  }
};

}  // namespace

TEST_F(BfsCuda, OneVertexEveryConfig) {
  const auto g = test::one_vertex();
  for (const auto& o : all_configs()) check_graph(g, o);
}

TEST_F(BfsCuda, DisconnectedEveryConfig) {
  const auto g = test::disconnected();
  for (const auto& o : all_configs()) check_graph(g, o);
}

TEST_F(BfsCuda, StarHubInGridQueueEveryConfig) {
  const auto g = test::star(70000);
  for (const auto& o : all_configs()) check_graph(g, o);
}

// Small enough for compute-sanitizer's racecheck and synccheck (scripts/gpu-check.d/sanitize.sh):
// a star whose hub (5,000 arcs) is in the grid class, and a SCALE 10 Kronecker graph whose hubs
// (over hub_threshold arcs) fill the bottom-up hub cache, every configuration, two searches each.
TEST_F(BfsCuda, SmallEveryConfig) {
  auto star = test::star(5000);
  star.roots = {0, 4999};
  const auto kron = with_roots(test::kronecker(10, 5700, 1900, 1900, "kronecker-10"), 2);
  for (const auto& o : all_configs()) {
    check_graph(star, o);
    check_graph(kron, o);
  }
}

TEST_F(BfsCuda, RmatEveryConfig) {
  const auto g = with_roots(test::kronecker(13, 4500, 1500, 1500, "rmat-13"), 3);
  for (const auto& o : all_configs()) check_graph(g, o);
}

TEST_F(BfsCuda, KroneckerEveryConfig) {
  const auto g = with_roots(test::kronecker(14, 5700, 1900, 1900, "kronecker-14"), 4);
  for (const auto& o : all_configs()) check_graph(g, o);
}

TEST_F(BfsCuda, ShortPathEveryConfig) {
  const auto g = test::path(3000);
  for (const auto& o : all_configs()) check_graph(g, o);
}

// A 25,000-vertex path (25,000 levels from an end): every configuration with the device loop, plus
// BL, TS alone and the full stack without the loop (each level from the host).
TEST_F(BfsCuda, LongPath) {
  auto g = test::path(25000);
  g.roots = {0};
  for (const auto& o : all_configs())
    if (o.bfs.device_loop() && o.bfs.bitmap()) check_graph(g, o);
  graph500::cuda_options bl;
  bl.bfs.no_ts = bl.bfs.no_hc = bl.bfs.no_hub_cache = true;
  bl.no_sort = true;
  check_graph(g, bl);
  graph500::cuda_options ts_only = bl;
  ts_only.bfs.no_ts = false;
  ts_only.bfs.no_wb = ts_only.bfs.no_device_loop = true;
  check_graph(g, ts_only);
  graph500::cuda_options full_no_loop;
  full_no_loop.bfs.no_device_loop = true;
  check_graph(g, full_no_loop);
}

// Meshes and a geometric graph of odd sizes: hundreds of levels whose frontiers (up to about a
// thousand vertices) stay in the device loop from the root to the end, and the same searches with
// every level from the host.
TEST_F(BfsCuda, ShapesOfManyLevels) {
  for (const char* spec : {"grid:301x257", "grid:37x29x23", "geometric:40001:7"}) {
    const graph::shape_params p = graph::shape_params::parse(spec);
    test::named_graph g = with_roots({spec, graph::generate_shape(p), {}}, 3);
    if (p.shape == graph::shape_params::kind::grid) g.roots.push_back(0);  // a corner
    check_graph(g, graph500::cuda_options{});
    graph500::cuda_options no_loop;
    no_loop.bfs.no_device_loop = true;
    check_graph(g, no_loop);
  }
}

// The device loop's cluster tier at its limits: a tree whose second level (25,600 leaves, found by
// the few lane groups of one block) overflows that block's shared queue into the spill list and
// leaves the tier (from the root; from a leaf, the tree again level by level); a 3-D grid whose
// frontiers from its centre outgrow the tier's 4,096 vertices (the grid loop takes over from what
// the tier left), and from a corner stay below them. 32- and 64-bit ids.
TEST_F(BfsCuda, ClusterTierSpillsAndHandsOver) {
  constexpr std::int64_t children = 128, leaves = 200;  // the children's degree 201: within the loop's 256
  test::builder b(1 + children + children * leaves);
  for (std::int64_t c = 1; c <= children; ++c) {
    b.edge(0, c);
    for (std::int64_t l = 0; l < leaves; ++l) b.edge(c, 1 + children + (c - 1) * leaves + l);
  }
  const test::named_graph broom{"broom-128x200", b.take(), {0, 1 + children + 77}};
  const graph::shape_params p = graph::shape_params::parse("grid:81x79x77");
  const test::named_graph mesh{"grid:81x79x77", graph::generate_shape(p), {0, 40 + 81 * (39 + 79 * 38)}};
  for (const auto& g : {broom, mesh}) {
    check_graph(g, graph500::cuda_options{});
    check_graph(g, graph500::cuda_options{}, 64);
  }
}

// Grids sized for a share of the SMs (--bfs-sm-share): the grid-stride loops cover every vertex
// and arc with as few as one SM's blocks, on the full stack and on the baseline.
TEST_F(BfsCuda, GridsForAShareOfTheSms) {
  const auto k = with_roots(test::kronecker(14, 5700, 1900, 1900, "kronecker-14"), 3);
  for (const double share : {0.001, 0.5, 0.75}) {
    graph500::cuda_options full;
    full.bfs.grid_sm_share = share;
    graph500::cuda_options bl = full;
    bl.bfs.baseline();
    for (const auto& g : {test::star(70000), test::path(3000), k}) {
      check_graph(g, full);
      check_graph(g, bl);
    }
  }
}

TEST_F(BfsCuda, SixtyFourBitIds) {
  const auto k = with_roots(test::kronecker(12, 5700, 1900, 1900, "kronecker-12"), 2);
  for (const auto& g : {test::disconnected(), test::star(70000), k}) {
    check_graph(g, graph500::cuda_options{}, 64);
    graph500::cuda_options bl;
    bl.bfs.no_ts = bl.bfs.no_hc = bl.bfs.no_hub_cache = true;
    check_graph(g, bl, 64);
  }
}

TEST_F(BfsCuda, SearchesAreRepeatable) {
  // The engine keeps its buffers across searches: interleaved roots must each validate.
  const auto g = with_roots(test::kronecker(12, 5700, 1900, 1900, "kronecker-12"), 6);
  auto pipe = graph500::make_cuda_pipeline(g.edges, graph500::cuda_options{});
  pipe->generate();
  pipe->construct();
  for (int rep = 0; rep < 2; ++rep)
    for (std::int64_t r : g.roots) {
      pipe->bfs(r);
      const auto v = pipe->validate_bfs(r);
      EXPECT_TRUE(v.ok) << v.message;
      EXPECT_EQ(v.nedge, test::host_bfs(g.edges, r).nedge);
    }
}

TEST(BfsCudaOptions, SwitchesAndDescription) {
  graph500::cuda_options o;
  EXPECT_EQ(graph500::describe(o), "enterprise ts+wb+hc+cache+loop+bitmap+sort");
  o.bfs.no_wb = o.bfs.no_hub_cache = o.bfs.no_bitmap = true;
  EXPECT_FALSE(o.bfs.bitmap());
  EXPECT_FALSE(o.bfs.wb());
  EXPECT_TRUE(o.bfs.ts());
  EXPECT_FALSE(o.bfs.hub_cache());
  graph500::cuda_options b;
  b.bfs.baseline();
  b.no_sort = true;
  EXPECT_FALSE(b.bfs.ts());
  EXPECT_FALSE(b.bfs.hc());
  EXPECT_EQ(graph500::describe(b), "enterprise bl");
  b.bfs.grid_sm_share = 0.75;
  EXPECT_EQ(graph500::describe(b), "enterprise bl+sms0.75");
  o.bfs.grid_sm_share = 0.5;
  EXPECT_EQ(graph500::describe(o), "enterprise ts+hc+loop+sms0.5+sort");
}
