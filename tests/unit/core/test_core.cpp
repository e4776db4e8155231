// Unit tests of the core layer: statistics as Graph500 defines them, the CLI parser, JSON, the
// count of a node's ranks on one GPU.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "gpu500/core/cli.hpp"
#include "gpu500/core/device.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/core/json.hpp"
#include "gpu500/core/provenance.hpp"
#include "gpu500/core/stats.hpp"

using namespace gpu500;

TEST(Stats, QuartilesFollowTheReference) {
  const std::vector<double> x = {5, 1, 4, 2, 3};  // sorted 1..5
  const auto s = summarize(x);
  EXPECT_EQ(s.min, 1);
  EXPECT_EQ(s.max, 5);
  EXPECT_EQ(s.median, 3);
  EXPECT_EQ(s.first_quartile, 2);   // (x[1] + x[1]) / 2
  EXPECT_EQ(s.third_quartile, 4);
  EXPECT_DOUBLE_EQ(s.mean, 3);
  EXPECT_DOUBLE_EQ(s.stddev, std::sqrt(2.5));
  const std::vector<double> y = {1, 2, 3, 4};
  const auto t = summarize(y);
  EXPECT_DOUBLE_EQ(t.median, 2.5);
  EXPECT_DOUBLE_EQ(t.first_quartile, 1.5);  // (y[0] + y[1]) / 2
  EXPECT_DOUBLE_EQ(t.third_quartile, 3.5);
}

TEST(Stats, HarmonicTepsIsInverseOfMeanTimePerEdge) {
  const std::vector<double> t = {1, 2, 4}, m = {10, 10, 10};
  const auto s = summarize_teps(t, m);
  EXPECT_DOUBLE_EQ(s.harmonic_mean, 1.0 / ((0.1 + 0.2 + 0.4) / 3));
  EXPECT_DOUBLE_EQ(s.min, 2.5);
  EXPECT_DOUBLE_EQ(s.max, 10);
  const std::vector<double> rates = {10, 5, 2.5};
  EXPECT_DOUBLE_EQ(harmonic_mean(rates), s.harmonic_mean);
}

TEST(Cli, ParsesOptionsFlagsAndPositionals) {
  int scale = 0;
  std::int64_t n = 0;
  bool v = false;
  std::vector<std::int64_t> seeds;
  std::string backend = "auto";
  cli::parser p("t", "test");
  p.positional("SCALE", scale, "scale").option("-N", n, "n").flag("--no-validate", v, "skip")
      .option("--seed", seeds, "seeds").option("--backend", backend, "backend");
  p.parse({"12", "-N", "1000", "--no-validate", "--seed=5,7", "--backend", "cpu"});
  EXPECT_EQ(scale, 12);
  EXPECT_EQ(n, 1000);
  EXPECT_TRUE(v);
  EXPECT_EQ(seeds, (std::vector<std::int64_t>{5, 7}));
  EXPECT_EQ(backend, "cpu");
  EXPECT_TRUE(p.given("-N"));
}

TEST(Cli, RejectsUnknownAndMalformed) {
  int scale = 0;
  cli::parser p("t", "test");
  p.positional("SCALE", scale, "scale", true);
  EXPECT_THROW(p.parse({"--bogus"}), usage_error);
  EXPECT_THROW(p.parse({"12x"}), usage_error);
  EXPECT_THROW(p.parse({}), usage_error);
  EXPECT_THROW(p.parse({"1", "2"}), usage_error);
  EXPECT_THROW(cli::parse_int("99999999999999999999", "x"), usage_error);
  EXPECT_THROW(cli::parse_double("1.5e", "x"), usage_error);
}

TEST(Cli, IntegersAreDecimal) {
  EXPECT_EQ(cli::parse_int("010", "x"), 10);
  EXPECT_EQ(cli::parse_int("09", "x"), 9);
  EXPECT_EQ(cli::parse_int("-010", "x"), -10);
  for (const char* hex : {"0x10", "0X1f", "0x"}) {
    try {
      (void)cli::parse_int(hex, "--root");
      ADD_FAILURE() << hex << " was accepted";
    } catch (const usage_error& e) {
      EXPECT_EQ(std::string(e.what()), std::string("--root: expected an integer (decimal digits), got '") + hex + "'");
    }
  }
  int scale = 0;
  std::int64_t root = 0;
  cli::parser p("t", "test");
  p.positional("SCALE", scale, "scale").option("--root", root, "root");
  p.parse({"010", "--root", "010"});
  EXPECT_EQ(scale, 10);
  EXPECT_EQ(root, 10);
}

TEST(Json, WritesNestedValues) {
  json::value v;
  v["name"] = "a\"b";
  v["n"] = 3;
  v["x"] = 0.5;
  v["list"] = std::vector<double>{1, 2};
  v["nan"] = std::nan("");
  EXPECT_EQ(v.dump(-1), R"({"name":"a\"b","n":3,"x":0.5,"list":[1,2],"nan":null})");
}

TEST(Json, OutputPathsAreCheckedWhileParsing) {
  const std::string dir = ::testing::TempDir();
  std::string path;
  cli::parser p("t", "test");
  p.output_file("--json", path, "out");
  EXPECT_THROW(p.parse({"--json", dir}), usage_error);                        // a directory
  EXPECT_THROW(p.parse({"--json", dir + "/no/such/dir/x.json"}), usage_error);  // no directory
  EXPECT_THROW(p.parse({"--json", ""}), usage_error);
  EXPECT_THROW(p.parse({"--json", "/proc/x.json"}), usage_error);  // cannot create files there
  p.parse({"--json", dir + "/ok.json"});
  EXPECT_EQ(path, dir + "/ok.json");
  EXPECT_FALSE(std::ifstream(path).good()) << "the check must not leave a file behind";
}

TEST(Json, WriteFileIsAtomic) {
  const std::string path = ::testing::TempDir() + "/atomic.json";
  json::value a;
  a["v"] = 1;
  json::write_file(path, a);
  json::value b;
  b["v"] = 2;
  json::write_file(path, b);  // replaces the old file whole
  std::ifstream f(path);
  std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  b["provenance"] = provenance::to_json(provenance::current());  // what write_file adds
  EXPECT_EQ(text, b.dump() + "\n");
  // No temporary file is left beside it.
  for (const auto& e : std::filesystem::directory_iterator(::testing::TempDir()))
    EXPECT_EQ(e.path().string().find("atomic.json.tmp"), std::string::npos) << e.path();
  EXPECT_THROW(json::write_file(::testing::TempDir() + "/no/such/dir/x.json", a), gpu500::error);
}

TEST(Device, HumanBytesAndTheMemoryCheck) {
  EXPECT_EQ(human_bytes(12), "12 bytes");
  EXPECT_EQ(human_bytes(74.5e9), "74.5 GB");
  EXPECT_EQ(human_bytes(512e6), "512 MB");
  EXPECT_EQ(human_bytes(999.7e9), "1 TB");
  EXPECT_EQ(human_bytes(8.0 * 9223372036854775807.0 * 9223372036854775807.0), "6.81e+38 bytes");
  const std::int64_t avail = host_available_memory();
  ASSERT_GT(avail, 0);
  EXPECT_NO_THROW(check_host_memory(1024, "a kilobyte"));
  try {
    check_host_memory(4.0 * static_cast<double>(avail), "four times the memory");
    ADD_FAILURE() << "not refused";
  } catch (const resource_error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("four times the memory needs ", 0), 0u) << e.what();
    EXPECT_NE(std::string(e.what()).find(" available"), std::string::npos) << e.what();
  }
}
