// The text edge-list reader: good files, and one clear error per kind of bad line.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

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
  std::fputs(text.c_str(), f);
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
