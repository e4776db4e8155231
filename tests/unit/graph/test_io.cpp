// The SNAP edge-list reader: good files, one clear error per kind of bad line, files that are
// not edge lists, and vertex counts that cannot fit in memory.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <limits>
#include <string>

#include "gpu500/core/error.hpp"
#include "gpu500/graph/io.hpp"

using namespace gpu500;
using namespace gpu500::graph;

namespace {
std::string write_tmp(const std::string& text) {
  char name[] = "/tmp/gpu500_io_XXXXXX";
  const int fd = mkstemp(name);
  EXPECT_GE(fd, 0);
  std::FILE* f = fdopen(fd, "w");
  std::fwrite(text.data(), 1, text.size(), f);  // NUL and binary bytes included
  std::fclose(f);
  return name;
}
std::string error_of(const std::string& text, index_t n = -1) {
  const std::string path = write_tmp(text);
  try {
    read_edge_list(path, n);
  } catch (const usage_error& e) {
    std::remove(path.c_str());
    return e.what();
  }
  std::remove(path.c_str());
  return "";
}
}  // namespace

TEST(EdgeListFile, ReadsUnweightedAndWeighted) {
  const std::string a = write_tmp("# comment\n0 1\n\n2 5\n% another\n3 3\n");
  const edge_list el = read_edge_list(a);
  EXPECT_EQ(el.num_vertices, 6);
  EXPECT_EQ(el.src, (host_vector<std::int64_t>{0, 2, 3}));
  EXPECT_EQ(el.dst, (host_vector<std::int64_t>{1, 5, 3}));
  EXPECT_FALSE(el.weighted());
  const std::string b = write_tmp("0 1 0.5\r\n1 2 0\n");
  const edge_list w = read_edge_list(b, 10);
  EXPECT_EQ(w.num_vertices, 10);
  EXPECT_EQ(w.weight, (host_vector<float>{0.5f, 0.0f}));
  std::remove(a.c_str());
  std::remove(b.c_str());
}

TEST(EdgeListFile, RejectsBadLinesNamingTheLine) {
  EXPECT_NE(error_of("0 1\nx 2\n").find(":2: expected a vertex id"), std::string::npos);
  EXPECT_NE(error_of("0 -1\n").find("out of range"), std::string::npos);
  EXPECT_NE(error_of("0 1 -0.5\n").find("non-negative weight"), std::string::npos);
  EXPECT_NE(error_of("0 1 nan\n").find("non-negative weight"), std::string::npos);
  EXPECT_NE(error_of("0 1 0.5 7\n").find("unexpected text"), std::string::npos);
  EXPECT_NE(error_of("0 1 0.5\n1 2\n").find("same number of columns"), std::string::npos);
  EXPECT_NE(error_of("0 9\n", 5).find("outside [0, 5)"), std::string::npos);
  EXPECT_NE(error_of("# nothing\n").find("no edges"), std::string::npos);
  EXPECT_THROW(read_edge_list("/nonexistent/graph.txt"), usage_error);
}

TEST(EdgeListFile, AcceptsSubnormalWeights) {
  const std::string a = write_tmp("0 1 1e-320\n1 2 4.9e-324\n");
  const edge_list el = read_edge_list(a);
  ASSERT_EQ(el.weight.size(), 2u);
  EXPECT_EQ(el.weight[0], 0.0f);
  std::remove(a.c_str());
  EXPECT_NE(error_of("0 1 inf\n").find("non-negative weight"), std::string::npos);
  EXPECT_NE(error_of("0 1 1e400\n").find("non-negative weight"), std::string::npos);
}

TEST(EdgeListFile, RefusesFilesThatAreNotEdgeLists) {
  const std::string nul = error_of(std::string("0 1\n\0\0 2 3\n", 11));
  EXPECT_NE(nul.find(":2: contains a NUL byte"), std::string::npos) << nul;
  // gzip magic bytes, then garbage: read as gzip, refused as a corrupt stream.
  const std::string gz = error_of(std::string("\x1f\x8b\x08\x00\x01\xff\n0 1\n", 11));
  EXPECT_NE(gz.find("corrupt or truncated gzip stream"), std::string::npos) << gz;
  EXPECT_EQ(gz.find('\x1f'), std::string::npos);
  const std::string bin = error_of("0 1\nab\x01\xfe\n");
  EXPECT_NE(bin.find("'ab?" "?'"), std::string::npos) << bin;
}

TEST(EdgeListFile, BoundsVertexIds) {
  EXPECT_NE(error_of("0 4611686018427387904\n").find(":1: vertex id out of range [0, 2^48)"), std::string::npos);
  EXPECT_NE(error_of("0 281474976710656\n").find("out of range"), std::string::npos);
  // 2^40 vertices: the edge list of two edges reads, but its binary CSR (16 TB of offsets) is
  // refused before anything is allocated.
  const std::string path = write_tmp("0 1\n1 1099511627775\n");
  const edge_list el = read_edge_list(path);
  EXPECT_EQ(el.num_vertices, index_t{1} << 40);
  write_options wo;
  wo.format = file_format::bin;
  try {
    write_graph(path + ".bin", el, wo);
    ADD_FAILURE() << "a 2^40-vertex binary CSR was written";
  } catch (const resource_error& e) {
    EXPECT_NE(std::string(e.what()).find("the binary CSR of 1099511627776 vertices and 2 edges needs"), std::string::npos)
        << e.what();
  }
  std::remove(path.c_str());
  std::remove((path + ".bin").c_str());
  EXPECT_THROW(check_graph_fits(index_t{1} << 44, "test"), resource_error);
  EXPECT_NO_THROW(check_graph_fits(1000, "test"));
}

// What no search can run on is refused before kernel 1, naming the graph and, for a weight, the
// first edge that holds one SSSP cannot take.
TEST(Searchable, RefusesGraphsNoSearchCanRunOn) {
  const auto message = [](const edge_list& el, bool weighted) {
    try {
      check_searchable(el, "g.txt", weighted);
    } catch (const usage_error& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  edge_list el;
  el.num_vertices = 4;
  el.src = {0, 1, 2};
  el.dst = {0, 1, 2};
  EXPECT_EQ(message(el, false), "g.txt: no edge joins two distinct vertices (3 self-loops): nothing to search");
  el.dst = {1, 2, 3};
  el.weight = {0.5f, -2.f, std::numeric_limits<float>::quiet_NaN()};
  EXPECT_EQ(message(el, false), "accepted");  // BFS reads no weight
  EXPECT_EQ(message(el, true), "g.txt: edge 1 (1, 2) has weight -2; SSSP takes finite weights >= 0");
  el.weight = {0.5f, 2.f, std::numeric_limits<float>::quiet_NaN()};
  EXPECT_EQ(message(el, true), "g.txt: edge 2 (2, 3) has weight nan; SSSP takes finite weights >= 0");
  el.weight = {std::numeric_limits<float>::infinity(), 2.f, 1.f};
  EXPECT_EQ(message(el, true), "g.txt: edge 0 (0, 1) has weight inf; SSSP takes finite weights >= 0");
  el.weight = {3e38f, 3e38f, 0.f};
  EXPECT_EQ(message(el, true),
            "g.txt: the weights can add up to 6e+38 along a path, past the largest float distance (3.4e38); scale them down");
  el.weight = {0.f, 1.f, 3e38f};
  EXPECT_EQ(message(el, true), "accepted");
}
