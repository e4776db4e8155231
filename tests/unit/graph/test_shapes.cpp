// The high-diameter shapes (gpu500/graph/shapes.hpp) against what each shape must be: the grid's
// edges are exactly the lattice's neighbour pairs, the geometric graph's exactly the pairs closer
// than r (checked against every pair of a small graph, positions recomputed here), each edge
// once, the same list on 1 and several threads, weights in [0, 1), and bad specs refused; which
// shapes are paths and cycles (graph::chain_like), the ones `--backend auto` runs on the CPU.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>
#include <vector>

#include "gpu500/core/error.hpp"
#include "gpu500/graph/shapes.hpp"

namespace {

using namespace gpu500;
using graph::shape_params;

std::set<std::pair<std::int64_t, std::int64_t>> edge_set(const graph::edge_list& el) {
  std::set<std::pair<std::int64_t, std::int64_t>> s;
  for (index_t k = 0; k < el.size(); ++k) {
    EXPECT_LT(el.src[k], el.dst[k]) << "edge " << k << " is not (smaller id, larger id)";
    EXPECT_TRUE(s.insert({el.src[k], el.dst[k]}).second) << "edge " << k << " twice";
  }
  return s;
}

/// The BFS levels from vertex 0 (a plain queue over the undirected edges).
std::vector<index_t> levels_from_zero(const graph::edge_list& el) {
  std::vector<std::vector<index_t>> adj(static_cast<std::size_t>(el.num_vertices));
  for (index_t k = 0; k < el.size(); ++k) {
    adj[el.src[k]].push_back(el.dst[k]);
    adj[el.dst[k]].push_back(el.src[k]);
  }
  std::vector<index_t> level(adj.size(), -1), queue{0};
  level[0] = 0;
  for (std::size_t i = 0; i < queue.size(); ++i)
    for (index_t v : adj[queue[i]])
      if (level[v] < 0) level[v] = level[queue[i]] + 1, queue.push_back(v);
  return level;
}

TEST(Shapes, GridIsTheLattice) {
  for (const std::vector<index_t>& ext : {std::vector<index_t>{7}, {5, 4}, {3, 4, 5}, {1, 6}, {6, 1, 1}}) {
    shape_params p;
    p.extents = ext;
    const graph::edge_list el = graph::generate_shape(p);
    index_t n = 1;
    for (index_t e : ext) n *= e;
    ASSERT_EQ(el.num_vertices, n);
    std::set<std::pair<std::int64_t, std::int64_t>> want;
    const index_t X = ext[0], Y = ext.size() > 1 ? ext[1] : 1, Z = ext.size() > 2 ? ext[2] : 1;
    for (index_t z = 0; z < Z; ++z)
      for (index_t y = 0; y < Y; ++y)
        for (index_t x = 0; x < X; ++x) {
          const index_t v = x + X * (y + Y * z);
          if (x + 1 < X) want.insert({v, v + 1});
          if (y + 1 < Y) want.insert({v, v + X});
          if (z + 1 < Z) want.insert({v, v + X * Y});
        }
    EXPECT_EQ(edge_set(el), want) << p.name();
    ASSERT_EQ(el.weight.size(), el.src.size());
    for (float w : el.weight) EXPECT_TRUE(w >= 0.f && w < 1.f);
  }
}

TEST(Shapes, GridDiameterIsTheManhattanOne) {
  const graph::edge_list el = graph::generate_shape(shape_params::parse("grid:30x20"));
  const auto level = levels_from_zero(el);
  EXPECT_EQ(*std::max_element(level.begin(), level.end()), 29 + 19);
  EXPECT_EQ(el.size(), 29 * 20 + 19 * 30);
}

TEST(Shapes, GeometricIsEveryPairCloserThanR) {
  for (const char* spec : {"geometric:3000:7", "geometric:400:40", "geometric:50:1"}) {
    shape_params p = shape_params::parse(spec);
    p.seed = 99;
    const graph::edge_list el = graph::generate_shape(p);
    const graph::plane_points pts = graph::geometric_points(p);
    const index_t n = p.num_vertices();
    ASSERT_EQ(static_cast<index_t>(pts.x.size()), n);
    const double r = graph::geometric_radius(n, p.mean_degree);
    std::set<std::pair<std::int64_t, std::int64_t>> want;
    for (index_t u = 0; u < n; ++u)
      for (index_t v = u + 1; v < n; ++v) {
        const double dx = pts.x[u] - pts.x[v], dy = pts.y[u] - pts.y[v];
        if (dx * dx + dy * dy < r * r) want.insert({u, v});
      }
    EXPECT_EQ(edge_set(el), want) << spec;
  }
  // The radius for the mean degree, and the degree it gives (a little less: points near the
  // border have fewer neighbours).
  EXPECT_NEAR(graph::geometric_radius(3000, 7.0), std::sqrt(7.0 / (3.14159265358979 * 3000)), 1e-12);
  const graph::edge_list el = graph::generate_shape(shape_params::parse("geometric:20000:7"));
  const double mean = 2.0 * static_cast<double>(el.size()) / 20000.0;
  EXPECT_GT(mean, 6.3);
  EXPECT_LT(mean, 7.2);
}

TEST(Shapes, GeometricIdsFollowTheCells) {
  // Points sorted by cell row by row: y never falls by more than a cell's side from one id to the
  // next, so near points have near ids.
  const shape_params p = shape_params::parse("geometric:20000:6");
  const graph::plane_points pts = graph::geometric_points(p);
  const double side = 1.0 / std::floor(1.0 / graph::geometric_radius(20000, 6.0));
  for (std::size_t v = 1; v < pts.y.size(); ++v) ASSERT_GT(pts.y[v], pts.y[v - 1] - side - 1e-12) << v;
}

TEST(Shapes, SameListOnAnyThreadCount) {
  for (const char* spec : {"geometric:5000", "grid:40x30x20"}) {
    shape_params p = shape_params::parse(spec);
    p.seed = 12345;
    const int threads = omp_get_max_threads();
    omp_set_num_threads(1);
    const graph::edge_list one = graph::generate_shape(p);
    omp_set_num_threads(4);
    const graph::edge_list four = graph::generate_shape(p);
    omp_set_num_threads(threads);
    ASSERT_EQ(one.size(), four.size()) << spec;
    EXPECT_TRUE(std::equal(one.src.begin(), one.src.end(), four.src.begin())) << spec;
    EXPECT_TRUE(std::equal(one.dst.begin(), one.dst.end(), four.dst.begin())) << spec;
    EXPECT_TRUE(std::equal(one.weight.begin(), one.weight.end(), four.weight.begin())) << spec;
  }
  // Another seed, other weights (and for the geometric graph other points).
  shape_params p = shape_params::parse("grid:10x10");
  const graph::edge_list a = graph::generate_shape(p);
  p.seed = 2;
  const graph::edge_list b = graph::generate_shape(p);
  EXPECT_FALSE(std::equal(a.weight.begin(), a.weight.end(), b.weight.begin()));
  p.weights = false;
  EXPECT_TRUE(graph::generate_shape(p).weight.empty());
}

TEST(Shapes, ChainLikeIsPathsAndCyclesOnly) {
  const auto chain = [](std::vector<std::int64_t> s, std::vector<std::int64_t> d, index_t n) {
    return graph::chain_like(s.data(), d.data(), static_cast<index_t>(s.size()), n);
  };
  EXPECT_TRUE(chain({0, 1, 2}, {1, 2, 3}, 4));         // a path
  EXPECT_TRUE(chain({0, 1, 2, 3}, {1, 2, 3, 0}, 4));   // a cycle
  EXPECT_TRUE(chain({0, 2}, {1, 3}, 7));               // pieces of paths and isolated vertices
  EXPECT_TRUE(chain({}, {}, 3));                       // no edge
  EXPECT_FALSE(chain({0, 0, 0}, {1, 2, 3}, 5));        // a star of three leaves
  EXPECT_FALSE(chain({0, 1, 1}, {1, 2, 1}, 4));        // a self-loop gives its vertex two more ends
  EXPECT_FALSE(chain({0, 1, 2, 3}, {1, 2, 3, 0}, 3));  // more edges than vertices
  // Vertex ids far beyond the edges (a file naming vertex 2^40): counted over the edge ends, not
  // over n counters, with the same answers.
  const index_t huge = index_t{1} << 40;
  EXPECT_TRUE(chain({0, 1}, {1, huge - 1}, huge));
  EXPECT_TRUE(chain({5, huge - 1}, {huge - 2, huge - 3}, huge));
  EXPECT_FALSE(chain({huge - 1, huge - 1, huge - 1}, {1, 2, 3}, huge));
  EXPECT_FALSE(chain({0, 7}, {7, 7}, huge));  // a self-loop on a path's vertex
  EXPECT_TRUE(graph::chain_like(graph::generate_shape(shape_params::parse("grid:1000"))));
  EXPECT_FALSE(graph::chain_like(graph::generate_shape(shape_params::parse("grid:30x30"))));
  const graph::edge_list path = graph::generate_shape(shape_params::parse("grid:50"));
  const graph::edge_list mesh = graph::generate_shape(shape_params::parse("grid:5x5"));
  const auto pick = [](backend resolved, const graph::edge_list& el) {
    return graph::auto_search_backend(resolved, el.src.data(), el.dst.data(), el.size(), el.num_vertices);
  };
  EXPECT_EQ(pick(backend::cuda, path), backend::cpu);
  EXPECT_EQ(pick(backend::cuda, mesh), backend::cuda);
  EXPECT_EQ(pick(backend::cpu, path), backend::cpu);
  EXPECT_EQ(pick(backend::cpu, mesh), backend::cpu);
}

TEST(Shapes, ParseAndName) {
  EXPECT_EQ(shape_params::parse("grid:1024x1024").num_vertices(), 1024 * 1024);
  EXPECT_EQ(shape_params::parse("grid:10x20x30").name(), "grid:10x20x30");
  EXPECT_EQ(shape_params::parse("geometric:1000000").name(), "geometric:1000000:6");
  EXPECT_EQ(shape_params::parse("geometric:1000:8.5").mean_degree, 8.5);
  for (const char* bad : {"grid", "grid:", "grid:0x5", "grid:1", "grid:2x2x2x2", "grid:-3x4", "grid:3y4", "torus:5",
                          "geometric:1", "geometric:100:0", "geometric:100:-1", "grid:2000000x2000000"})
    EXPECT_THROW(shape_params::parse(bad), usage_error) << bad;
}

}  // namespace
