// The host SSSP engine on the ranks mpiexec gives (1 to 4), each rank holding its rows of a 1-D
// block partition (kernel 1 by exchange): the same distances as the float Dijkstra oracle of one
// process, bit for bit, on a weighted Kronecker graph and on the high-diameter shapes of
// `gpu500 generate --shape` (a path, a 2-D and a 3-D grid), with the heavy steps pushed, pulled
// where a bucket's rows hold a tenth of the arcs, and pulled in every bucket; every parent at
// its distance (d(v) == d(parent) + w of an arc between them) and the phases recorded alike on
// every rank.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "gpu500/dist/comm.hpp"
#include "gpu500/dist/partition.hpp"
#include "gpu500/graph/csr.hpp"
#include "gpu500/graph/kronecker.hpp"
#include "gpu500/graph/shapes.hpp"
#include "gpu500/sssp/sssp.hpp"
#include "levels.hpp"
#include "support/bfs_oracle.hpp"

namespace gpu500 {
namespace {

// Searches from each root on the ranks of c and compares the gathered distances with the oracle's.
void expect_oracle_distances(const graph::edge_list& el, const std::vector<std::int64_t>& roots) {
  const auto c = dist::communicator::world();
  const dist::block_partition part(el.num_vertices, c.size());
  const index_t m = el.size(), r = c.rank(), R = c.size();
  graph::edge_list slice;  // this rank's share of the edge list, as the generators make it
  slice.num_vertices = el.num_vertices;
  for (index_t e = m * r / R; e < m * (r + 1) / R; ++e) {
    slice.src.push_back(el.src[e]);
    slice.dst.push_back(el.dst[e]);
    slice.weight.push_back(el.weight[e]);
  }
  const graph::csr<std::int64_t> g = graph::build_csr<std::int64_t>(c, part, slice);
  const graph::csr<std::int64_t> whole = graph::build_csr<std::int64_t>(el);
  for (const double pull_share : {2.0, 0.1, 0.0})
    for (const float delta : {0.f, 0.3f}) {
      sssp::cpu_options o;
      o.pull_share = pull_share;
      o.delta = delta;
      sssp::cpu_engine<std::int64_t> e(c, part, g.view(), o);
      for (const std::int64_t root : roots) {
        SCOPED_TRACE("pull share " + std::to_string(pull_share) + ", delta " + std::to_string(delta) + ", root " +
                     std::to_string(root));
        e.run(root);
        const std::vector<float> d = test::gather<float>(c, e.distances());
        const std::vector<std::int64_t> p = test::gather<std::int64_t>(c, e.parents());
        std::vector<std::int64_t> want_parent;
        std::vector<float> want;
        test::host_sssp(el, root, want_parent, want);
        ASSERT_EQ(d.size(), want.size());
        for (std::size_t v = 0; v < d.size(); ++v) {
          ASSERT_EQ(d[v], want[v]) << "vertex " << v;
          if (p[v] < 0 || static_cast<std::int64_t>(v) == root) continue;
          bool exact = false;  // an arc to the parent with d(v) == d(parent) + w in float
          for (index_t k = whole.offsets[v]; k < whole.offsets[v + 1]; ++k)
            exact = exact || (whole.columns[k] == p[v] && d[p[v]] + whole.weights[k] == d[v]);
          ASSERT_TRUE(exact) << "vertex " << v << " parent " << p[v];
        }
        EXPECT_GT(e.traversed_edges(), 0);
        // Counts summed over the ranks: the first phase holds the root alone, on whichever rank.
        ASSERT_FALSE(e.levels().empty());
        EXPECT_EQ(e.levels().front().frontier, 1);
        const bool pulled = std::any_of(e.levels().begin(), e.levels().end(),
                                        [](const dist::level_record& l) { return l.direction == "pull"; });
        if (pull_share > 1) {
          EXPECT_FALSE(pulled);
        }
        if (pull_share == 0) {
          EXPECT_TRUE(pulled);
        }
      }
    }
}

TEST(SsspOverRanks, KroneckerMatchesOracle) {
  graph::kronecker_params p;
  p.scale = 10;
  const graph::edge_list el = graph::generate_kronecker(p);
  const graph::csr<std::int64_t> whole = graph::build_csr<std::int64_t>(el);
  expect_oracle_distances(el, graph::pick_search_keys(p, 3, [&](std::int64_t v) { return whole.degree(v) > 0; }));
}

TEST(SsspOverRanks, ShapesMatchOracle) {
  for (const char* spec : {"grid:700", "grid:30x20", "grid:7x6x5"}) {
    SCOPED_TRACE(spec);
    const graph::edge_list el = graph::generate_shape(graph::shape_params::parse(spec));
    expect_oracle_distances(el, {0, el.num_vertices / 2, el.num_vertices - 1});
  }
}

}  // namespace
}  // namespace gpu500
