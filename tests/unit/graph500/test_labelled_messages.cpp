// A failed validation names its vertices by label when the graph has labels: the validators mark
// the vertex ids of their messages (validation::vertices, other numbers left alone) and know
// nothing of labels; run_searches (gpu500 bfs|sssp --labels) writes the marked ids as the file's
// labels. Each test corrupts a correct result on a small labelled path, as test_validate.cpp does.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "../../support/graphs.hpp"
#include "gpu500/graph/csr.hpp"
#include "gpu500/graph/io.hpp"
#include "gpu500/graph500/cpu_pipeline.hpp"
#include "gpu500/graph500/searches.hpp"
#include "gpu500/graph500/validate.hpp"

using namespace gpu500;

namespace {

// The path 0 - 1 - 2 - 3 - 4 (weight 1), its vertices named by labels; from root 0 the correct
// tree is {0, 0, 1, 2, 3}.
const std::vector<std::string> labels = {"alice", "bob", "carol", "dave", "e ve"};

graph::edge_list path() {
  graph::edge_list el;
  el.num_vertices = 5;
  for (int u = 0; u < 4; ++u) test::add_edge(el, u, u + 1, 1.0f);
  return el;
}

std::string by_label(std::int64_t v) { return graph::label_text(labels[static_cast<std::size_t>(v)]); }

TEST(LabelledMessages, ValidatorMarksTheVerticesItNamesOnly) {
  const auto g = graph::build_csr<std::int64_t>(path());
  std::vector<std::int64_t> parent = {0, 0, 1, 2, -1};  // vertex 4 dropped from the tree
  graph500::validation v = graph500::validate_bfs(g.view(), 0, std::span<const std::int64_t>(parent), -1);
  ASSERT_FALSE(v.ok);
  EXPECT_EQ(v.message, "edge (3, 4) connects a reached and an unreached vertex");
  ASSERT_EQ(v.vertices.size(), 2u);
  EXPECT_EQ(v.vertices[0].vertex, 3);
  EXPECT_EQ(v.message.substr(v.vertices[1].at, v.vertices[1].size), "4");
  EXPECT_EQ(v.message_naming(by_label), "edge (dave, \"e ve\") connects a reached and an unreached vertex");

  parent = {0, 0, 1, 2, 9};  // a parent out of range is no vertex: it stays a number
  v = graph500::validate_bfs(g.view(), 0, std::span<const std::int64_t>(parent), -1);
  ASSERT_FALSE(v.ok);
  EXPECT_EQ(v.message_naming(by_label), "vertex \"e ve\" has parent 9 out of range");
}

TEST(LabelledMessages, DirectedValidatorMarksTheVerticesItNames) {
  const auto g = graph::build_csr_directed<std::int64_t>(path());
  const std::vector<std::int64_t> parent = {0, 2, 1, 2, 3};  // 1 and 2 each other's parent
  const graph500::validation v =
      graph500::validate_bfs_directed(g.view(), 0, std::span<const std::int64_t>(parent), -1);
  ASSERT_FALSE(v.ok);
  EXPECT_EQ(v.message, "vertex 1's parent chain has a cycle (through vertex 1)");
  EXPECT_EQ(v.message_naming(by_label), "vertex bob's parent chain has a cycle (through vertex bob)");
}

// The CPU pipeline, whose BFS validation checks the search's tree with vertex 4 dropped from it.
class corrupting_pipeline final : public graph500::pipeline {
 public:
  corrupting_pipeline() : inner_(graph500::make_cpu_pipeline(path(), {})), g_(graph::build_csr<std::int64_t>(path())) {}
  std::string description() const override { return inner_->description(); }
  int vertex_bits() const override { return inner_->vertex_bits(); }
  double generate() override { return inner_->generate(); }
  double construct() override { return inner_->construct(); }
  bool has_edges(index_t v) const override { return inner_->has_edges(v); }
  double bfs(index_t root) override { return inner_->bfs(root); }
  index_t bfs_nedge() override { return inner_->bfs_nedge(); }
  graph500::validation validate_bfs(index_t root) override {
    graph500::search_tree t = inner_->bfs_tree();
    t.parent[4] = -1;
    return graph500::validate_bfs(g_.view(), root, std::span<const std::int64_t>(t.parent), -1);
  }
  double sssp(index_t root) override { return inner_->sssp(root); }
  index_t sssp_nedge() override { return inner_->sssp_nedge(); }
  graph500::validation validate_sssp(index_t root) override { return inner_->validate_sssp(root); }

 private:
  std::unique_ptr<graph500::pipeline> inner_;
  graph::csr<std::int64_t> g_;
};

std::string run_and_read(const graph500::search_config& c) {
  corrupting_pipeline p;
  std::FILE* out = std::tmpfile();
  std::FILE* log = std::tmpfile();
  const graph500::search_report r = graph500::run_searches(p, 5, c, out, log);
  EXPECT_FALSE(r.valid);
  std::string text(4096, '\0');
  std::rewind(out);
  text.resize(std::fread(text.data(), 1, text.size(), out));
  std::fclose(out);
  std::fclose(log);
  return text;
}

TEST(LabelledMessages, SearchesNameAFailuresVerticesByLabel) {
  graph500::search_config c;
  c.root = 0;
  c.graph_name = "path";
  const std::string ids = run_and_read(c);
  EXPECT_NE(ids.find("root 0: "), std::string::npos) << ids;
  EXPECT_NE(ids.find("INVALID: edge (3, 4) connects a reached and an unreached vertex"), std::string::npos) << ids;
  c.labels = labels;
  const std::string named = run_and_read(c);
  EXPECT_NE(named.find("root alice: "), std::string::npos) << named;
  EXPECT_NE(named.find("INVALID: edge (dave, \"e ve\") connects a reached and an unreached vertex"), std::string::npos)
      << named;
}

}  // namespace
