// The Kronecker generator against the Graph500 3.0.1 reference's own output.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

#include "gpu500/core/error.hpp"
#include "gpu500/graph/csr.hpp"
#include "gpu500/graph/kronecker.hpp"

using namespace gpu500;
using namespace gpu500::graph;

namespace {
std::vector<std::string> data_lines(const std::string& name) {
  std::ifstream f(std::string(GPU500_TESTDATA_DIR) + "/graph500/" + name);
  EXPECT_TRUE(f.good()) << "missing reference file " << name;
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(f, line))
    if (!line.empty() && line[0] != '#') lines.push_back(line);
  return lines;
}
}  // namespace

TEST(Mrg, SeedingMatchesReference) {
  const mrg_state s = mrg_seed(2, 3);
  EXPECT_EQ(s.z1, 3u);
  EXPECT_EQ(s.z2, 1u);
  EXPECT_EQ(s.z3, 4u);
  EXPECT_EQ(s.z4, 1u);
  EXPECT_EQ(s.z5, 1u);
}

TEST(Mrg, SkipEqualsStepping) {
  const auto& t = mrg_skip_table::get();
  mrg_state a = mrg_seed(12345, 678910);
  for (std::uint64_t n : {1ull, 2ull, 255ull, 256ull, 1000ull, 70000ull}) {
    mrg_state stepped = a;
    for (std::uint64_t i = 0; i < n; ++i) stepped.next();
    const mrg_state skipped = t.skip(a, 0, 0, n);
    EXPECT_EQ(stepped.z1, skipped.z1) << n;
    EXPECT_EQ(stepped.z5, skipped.z5) << n;
  }
  // Skips compose: 2^64 twice equals 2 * 2^64.
  const mrg_state x = t.skip(t.skip(a, 0, 1, 0), 0, 1, 0), y = t.skip(a, 0, 2, 0);
  EXPECT_EQ(x.z1, y.z1);
  EXPECT_EQ(x.z3, y.z3);
}

TEST(Kronecker, ScrambleConstantsMatchReference) {
  const scramble_key k = make_scramble_key(2, 3);
  EXPECT_EQ(k.val0, 0x62af6660b44fce69ull);
  EXPECT_EQ(k.val1, 0x2a3d763b3a6b1f0cull);
}

TEST(Kronecker, EveryScale10EdgeAndWeightMatchesReference) {
  const auto lines = data_lines("s10_edges.txt");
  kronecker_params p;
  p.scale = 10;
  const edge_list el = generate_kronecker(p);
  ASSERT_EQ(el.size(), static_cast<index_t>(lines.size()));
  index_t mismatches = 0;
  for (index_t i = 0; i < el.size(); ++i) {
    std::istringstream in(lines[i]);
    std::int64_t u, v;
    float w;
    in >> u >> v >> w;
    if (u != el.src[i] || v != el.dst[i] || w != el.weight[i]) {
      if (++mismatches < 5)
        ADD_FAILURE() << "edge " << i << ": got (" << el.src[i] << ", " << el.dst[i] << ", " << el.weight[i]
                      << ") want " << lines[i];
    }
  }
  EXPECT_EQ(mismatches, 0);
}

TEST(Kronecker, Scale16FirstEdgesMatchReference) {
  kronecker_params p;
  p.scale = 16;
  const edge_list el = generate_kronecker(p, 0, 3);
  EXPECT_EQ(el.src[0], 53430);
  EXPECT_EQ(el.dst[0], 37000);
  EXPECT_FLOAT_EQ(el.weight[0], 0.4542991518974304f);
  EXPECT_EQ(el.src[2], 57163);
  EXPECT_EQ(el.dst[2], 11309);
}

TEST(Kronecker, IndependentOfThreadCountAndOfRanges) {
  kronecker_params p;
  p.scale = 12;
  const int saved = omp_get_max_threads();
  omp_set_num_threads(1);
  const edge_list one = generate_kronecker(p);
  omp_set_num_threads(3);
  const edge_list three = generate_kronecker(p);
  omp_set_num_threads(saved);
  EXPECT_EQ(one.src, three.src);
  EXPECT_EQ(one.dst, three.dst);
  EXPECT_EQ(one.weight, three.weight);
  const edge_list part = generate_kronecker(p, 5000, 100);
  for (int i = 0; i < 100; ++i) {
    EXPECT_EQ(part.src[i], one.src[5000 + i]);
    EXPECT_EQ(part.weight[i], one.weight[5000 + i]);
  }
}

// The generator (vectorised where the CPU allows) against make_kronecker_edge on each edge's own
// skipped state, over a SCALE 14 list and unaligned ranges; the list holds edges whose draws met
// the rejection (a redraw), which the vector path hands to the scalar one.
TEST(Kronecker, GeneratorMatchesPerEdgeScalarPath) {
  kronecker_params p;
  p.scale = 14;
  p.a = 4500, p.b = 1500, p.c = 1500;  // a non-default initiator too
  const auto& table = mrg_skip_table::get();
  const mrg_state seed = mrg_seed(p.seed1, p.seed2);
  const scramble_key key = make_scramble_key(p.seed1, p.seed2);
  const edge_list el = generate_kronecker(p);
  int redraws = 0;
  for (index_t i = 0; i < el.size(); ++i) {
    const mrg_state s = table.skip(seed, 0, static_cast<std::uint64_t>(i), 0);
    const kronecker_edge e = make_kronecker_edge(s, p.scale, p.a, p.b, p.c, key);
    ASSERT_EQ(el.src[i], static_cast<std::int64_t>(e.src)) << "edge " << i;
    ASSERT_EQ(el.dst[i], static_cast<std::int64_t>(e.dst)) << "edge " << i;
    ASSERT_EQ(el.weight[i], e.weight) << "edge " << i;
    mrg_state t = s;
    for (int b = 0; b < p.scale; ++b)
      while (t.next() < 3647u) ++redraws;
  }
  EXPECT_GT(redraws, 0) << "no edge exercises the redraw path";
  for (auto [first, count] : {std::pair<index_t, index_t>{5003, 1001}, {4093, 7}, {el.size() - 13, 13}}) {
    const edge_list part = generate_kronecker(p, first, count);
    for (index_t i = 0; i < count; ++i) {
      ASSERT_EQ(part.src[i], el.src[first + i]) << first << "+" << i;
      ASSERT_EQ(part.dst[i], el.dst[first + i]) << first << "+" << i;
      ASSERT_EQ(part.weight[i], el.weight[first + i]) << first << "+" << i;
    }
  }
}

TEST(Kronecker, ScrambleIsABijection) {
  const scramble_key k = make_scramble_key(2, 3);
  for (int scale : {1, 5, 12}) {
    std::vector<char> seen(std::size_t{1} << scale, 0);
    for (std::uint64_t v = 0; v < seen.size(); ++v) {
      const std::uint64_t s = scramble(v, scale, k);
      ASSERT_LT(s, seen.size());
      EXPECT_FALSE(seen[s]);
      seen[s] = 1;
    }
  }
}

TEST(Kronecker, SearchKeysMatchReferenceAtScale10) {
  const auto lines = data_lines("s10_roots.txt");
  ASSERT_EQ(lines.size(), 64u);
  kronecker_params p;
  p.scale = 10;
  const csr<std::int64_t> g = build_csr<std::int64_t>(generate_kronecker(p));
  const auto roots = pick_search_keys(p, 64, [&](std::int64_t v) { return g.degree(v) > 0; });
  for (int i = 0; i < 64; ++i) EXPECT_EQ(roots[i], std::stoll(lines[i])) << "root " << i;
}

TEST(Kronecker, RejectsBadParameters) {
  kronecker_params p;
  p.scale = 0;
  EXPECT_THROW(p.check(), usage_error);
  p.scale = 43;
  EXPECT_THROW(p.check(), usage_error);
  p.scale = 10;
  p.edgefactor = 0;
  EXPECT_THROW(p.check(), usage_error);
}
