// Searches on directed graphs on the GPU: kernel 1 with build_options::directed equals the host's
// directed rows (as multisets per row), and the CUDA pipeline with cuda_options::directed (the
// Enterprise BFS top-down at every level, the GPU SSSP without pulls, the host's directed
// validator) gives the arc oracles' levels, distances and nedge (tests/support/directed.hpp), with
// every technique on, with the baseline, and with 32- and 64-bit ids. Skipped without a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "../../support/directed.hpp"
#include "../../support/graphs.hpp"
#include "gpu500/core/device.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/graph/csr.hpp"
#include "gpu500/graph/cuda.hpp"
#include "gpu500/graph500/cuda_pipeline.hpp"

using namespace gpu500;
namespace gc = gpu500::graph::cuda;

namespace {

class DirectedCuda : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  }
};

std::vector<test::graph_case> cases() {
  std::vector<test::graph_case> cs = test::awkward_cases();
  cs.push_back(test::kronecker_case(10));
  cs.push_back(test::kronecker_case(14));  // frontiers past the device loop's limits
  return cs;
}

// Rows as sorted (head, weight) lists.
template <class V>
std::vector<std::vector<std::pair<std::int64_t, float>>> sorted_rows(const graph::csr<V>& g) {
  std::vector<std::vector<std::pair<std::int64_t, float>>> r(static_cast<std::size_t>(g.num_vertices));
  for (index_t u = 0; u < g.num_vertices; ++u) {
    for (index_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k) r[u].push_back({static_cast<std::int64_t>(g.columns[k]), g.weights[k]});
    std::sort(r[u].begin(), r[u].end());
  }
  return r;
}

void expect_follows_arcs(const graph500::cuda_options& o, const std::string& what) {
  for (const auto& c : cases()) {
    auto p = graph500::make_cuda_pipeline(graph::edge_list(c.edges), o);
    p->generate();
    p->construct();
    for (std::int64_t root : c.roots) {
      SCOPED_TRACE(what + " " + c.name + " root " + std::to_string(root));
      const test::directed_oracle want = test::directed_search(c.edges, root);
      p->bfs(root);
      const graph500::validation vb = p->validate_bfs(root);
      EXPECT_TRUE(vb.ok) << vb.message;
      EXPECT_EQ(p->bfs_nedge(), want.nedge);
      const graph500::search_tree t = p->bfs_tree();
      EXPECT_EQ(test::tree_levels(t.parent, root), want.level);
      EXPECT_EQ(std::vector<std::int64_t>(t.level.begin(), t.level.end()), want.level);
      if (!c.edges.weighted()) continue;  // a graph without weights has no SSSP engine (an edgeless one)
      p->sssp(root);
      const graph500::validation vs = p->validate_sssp(root);
      EXPECT_TRUE(vs.ok) << vs.message;
      EXPECT_EQ(p->sssp_nedge(), want.nedge);
      const auto d = p->sssp_tree().distance;
      EXPECT_EQ(std::vector<float>(d.begin(), d.end()), want.dist);
    }
  }
}

TEST_F(DirectedCuda, KernelOneEqualsHostRows) {
  for (const auto& c : cases()) {
    gc::build_options bo;
    bo.relabel = false;
    bo.directed = true;
    const graph::csr<std::uint32_t> dev =
        gc::build_device_csr<std::uint32_t>(gc::upload_edge_list<std::uint32_t>(c.edges), bo).download_original_ids();
    EXPECT_EQ(sorted_rows(dev), sorted_rows(graph::build_csr_directed<std::uint32_t>(c.edges))) << c.name;
  }
}

TEST_F(DirectedCuda, PipelineFollowsArcs) {
  graph500::cuda_options o;
  o.directed = true;
  expect_follows_arcs(o, "enterprise");
  o.vertex_bits = 64;
  expect_follows_arcs(o, "64-bit ids");
}

TEST_F(DirectedCuda, BaselineAndHostLoopFollowArcs) {
  graph500::cuda_options o;
  o.directed = true;
  o.bfs.baseline();
  o.bfs.alpha = 1e-9;  // would go bottom-up at once on an undirected graph
  o.sssp.loop = sssp::cuda::loop_kind::host;
  o.sssp.pull_above = o.sssp.pull_first = 1e-9;  // would pull every bucket on an undirected graph
  expect_follows_arcs(o, "baseline");
}

TEST_F(DirectedCuda, KroneckerGraphIsUndirected) {
  graph500::cuda_options o;
  o.directed = true;
  EXPECT_THROW(graph500::make_cuda_pipeline(test::small_kronecker(), o), usage_error);
}

}  // namespace
