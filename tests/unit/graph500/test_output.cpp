// The output block has the reference's layout: same keys, same order, same 32-character key
// field and number formats as s10_reference_output.txt / s16_reference_output.txt.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>

#include "gpu500/graph500/harness.hpp"

using namespace gpu500;
using namespace gpu500::graph500;

namespace {

std::vector<std::string> read_lines(const std::string& path) {
  std::ifstream f(path);
  EXPECT_TRUE(f.good()) << path;
  std::vector<std::string> lines;
  for (std::string l; std::getline(f, l);) lines.push_back(l);
  return lines;
}

std::vector<std::string> render(const run_config& cfg, const run_result& r) {
  std::FILE* f = std::tmpfile();
  print_output_block(f, cfg, r);
  std::rewind(f);
  std::vector<std::string> lines;
  char buf[512];
  while (std::fgets(buf, sizeof buf, f)) {
    std::string s(buf);
    if (!s.empty() && s.back() == '\n') s.pop_back();
    lines.push_back(s);
  }
  std::fclose(f);
  return lines;
}

run_result fake_result(int roots) {
  run_result r;
  for (int i = 0; i < roots; ++i) {
    r.bfs.seconds.push_back(1e-4 * (1 + i % 7));
    r.bfs.nedge.push_back(16239);
    r.bfs.validate_seconds.push_back(1e-3);
    r.sssp.seconds.push_back(3e-4 * (1 + i % 5));
    r.sssp.nedge.push_back(16239);
    r.sssp.validate_seconds.push_back(2e-3);
  }
  r.generation_seconds = 0.005;
  r.construction_seconds = 0.006;
  return r;
}

/// The key part of a line: everything up to the value (the first 32 characters).
std::string key_of(const std::string& l) { return l.substr(0, std::min<std::size_t>(32, l.size())); }

}  // namespace

TEST(OutputBlock, KeysAndLayoutMatchReference) {
  for (const char* name : {"s10_reference_output.txt", "s16_reference_output.txt"}) {
    const auto ref = read_lines(std::string(GPU500_TESTDATA_DIR) + "/graph500/" + name);
    ASSERT_EQ(ref.size(), 55u);
    run_config cfg;
    cfg.graph.scale = name[1] == '1' && name[2] == '0' ? 10 : 16;
    const auto got = render(cfg, fake_result(64));
    ASSERT_EQ(got.size(), ref.size());
    for (std::size_t i = 0; i < ref.size(); ++i) {
      EXPECT_EQ(key_of(got[i]), key_of(ref[i])) << "line " << i + 1;
      EXPECT_GT(got[i].size(), 32u);
    }
  }
}

TEST(OutputBlock, NumberFormats) {
  run_config cfg;
  cfg.graph.scale = 10;
  const auto got = render(cfg, fake_result(64));
  EXPECT_EQ(got[0], "SCALE:                          10");
  EXPECT_EQ(got[1], "edgefactor:                     16");
  EXPECT_EQ(got[2], "NBFS:                           64");
  EXPECT_EQ(got[4], "num_mpi_processes:              1");
  EXPECT_EQ(got[20], "min_nedge:                      16239");
  EXPECT_EQ(got[26], "stddev_nedge:                   0");
  EXPECT_EQ(got[3], "graph_generation:               0.005");
  // nedge uses %.11g: large counts print in full, not in exponent form.
  run_result r = fake_result(4);
  for (auto& x : r.sssp.nedge) x = 1073741824.0 * 7;
  cfg.num_roots = 4;
  const auto big = render(cfg, r);
  EXPECT_EQ(big[20], "min_nedge:                      7516192768");
}

TEST(OutputBlock, BfsOnlyHas34Lines) {
  run_config cfg;
  cfg.run_sssp = false;
  const auto got = render(cfg, fake_result(64));
  EXPECT_EQ(got.size(), 34u);
  for (const auto& l : got) EXPECT_EQ(l.find("sssp"), std::string::npos) << l;
}

TEST(OutputBlock, SkipValidationPrintsMinusOne) {
  run_config cfg;
  cfg.validate = false;
  const auto got = render(cfg, fake_result(64));
  EXPECT_EQ(got[41], "bfs  min_validate:              -1");
  EXPECT_EQ(got[47], "bfs  stddev_validate:           0");
  EXPECT_EQ(got[54], "sssp stddev_validate:           0");
}

TEST(OutputBlock, InvalidRunPrintsOneLine) {
  run_config cfg;
  run_result r = fake_result(64);
  r.valid = false;
  const auto got = render(cfg, r);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0], "No results printed for invalid run.");
}

TEST(OutputBlock, HarmonicMeanIsOneOverMeanTimePerEdge) {
  run_config cfg;
  run_result r = fake_result(64);
  const auto got = render(cfg, r);
  double mean_s = 0;
  for (std::size_t i = 0; i < 64; ++i) mean_s += r.bfs.seconds[i] / r.bfs.nedge[i];
  mean_s /= 64;
  char want[64];
  std::snprintf(want, sizeof want, "bfs  harmonic_mean_TEPS:     !  %g", 1 / mean_s);
  EXPECT_EQ(got[32], want);
}
