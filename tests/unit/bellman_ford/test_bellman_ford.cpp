// Unit tests of dense Bellman-Ford: every engine and variant (serial, OpenMP, CUDA — skipped
// without a GPU — and OpenCL, which must run: on PoCL in CI, on the GPU through NVIDIA's
// OpenCL on the GPU machine) against the oracles on awkward graphs:
//  - distances equal Dijkstra's exactly (non-negative weights) or Dijkstra's on the un-reweighted
//    graph shifted by the potentials (negative edges, no negative cycle);
//  - the result passes the shortest-path certificate check (valid, acyclic predecessor tree);
//  - predecessors and round counts equal the serial engine's bit for bit (same tie rule);
//  - a negative cycle reachable from the source is reported; one that is not, is not;
//  - the same for CUDA coarse under the skip and resident schedules (the resident one as one
//    cluster of 16, 8 and 4 blocks whose warps or blocks send each other their distances, or
//    that meet at the cluster barrier and load them, and as a cooperative grid);
//  - the benchmark's option parsers and its refusal of options that cannot apply.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "gpu500/bellman_ford/bellman_ford.hpp"
#include "gpu500/bellman_ford/benchmark.hpp"
#include "gpu500/config.hpp"
#include "gpu500/core/device.hpp"
#include "gpu500/core/error.hpp"

using namespace gpu500;
using namespace gpu500::bellman_ford;

namespace {

struct test_case {
  std::string name;
  dense_matrix m;
  index_t source = 0;
  bool cycle = false;            // a negative cycle is reachable from the source
  std::vector<float> expected;   // exact distances (empty when cycle)
};

dense_matrix chain(index_t n) {  // n-1 -> n-2 -> ... -> 0, weight 1: needs n-1 changing rounds
  dense_matrix m = dense_matrix::empty(n);
  for (index_t v = 1; v < n; ++v) m.set_weight(v, v - 1, 1.0f);
  return m;
}

test_case nonnegative(std::string name, graph_params p, index_t source) {
  test_case c{std::move(name), generate(p), source, false, {}};
  c.expected = dijkstra(c.m, source);
  return c;
}

test_case with_potentials(std::string name, graph_params p, index_t source) {
  std::vector<float> pot;
  p.negative = true;
  test_case c{std::move(name), generate(p, &pot), source, false, {}};
  graph_params base = p;
  base.negative = false;
  const auto d = dijkstra(generate(base), source);
  c.expected.resize(d.size());
  for (std::size_t v = 0; v < d.size(); ++v)
    c.expected[v] = d[v] == inf ? inf : d[v] + pot[static_cast<std::size_t>(source)] - pot[v];
  bool any_negative = false;
  for (index_t j = 0; j < c.m.n; ++j)
    for (index_t v = 0; v < c.m.n; ++v) any_negative = any_negative || c.m.weight(j, v) < 0;
  EXPECT_TRUE(any_negative) << "the potential graph should have negative edges";
  return c;
}

std::vector<test_case> cases() {
  std::vector<test_case> cs;
  cs.push_back({"n1", dense_matrix::empty(1), 0, false, {0.0f}});
  {
    test_case c{"n1-negative-self-loop", dense_matrix::empty(1), 0, true, {}};
    c.m.set_weight(0, 0, -1.0f);
    cs.push_back(std::move(c));
  }
  cs.push_back(nonnegative("n37-zero-weights-ties", {37, 0.3, 0, 2, false, 11}, 5));
  cs.push_back(nonnegative("n100-sparse-unreachable", {100, 0.015, 1, 9, false, 12}, 3));
  cs.push_back(nonnegative("n257-half-dense", {257, 0.5, 1, 100, false, 13}, 256));
  cs.push_back(nonnegative("n33-complete", {33, 1.0, 0, 1000, false, 14}, 0));
  cs.push_back(nonnegative("n200-pitch-224", {200, 0.4, 1, 50, false, 20}, 3));
  cs.push_back(nonnegative("n500-pitch-512", {500, 0.3, 1, 50, false, 21}, 499));
  // Resident, cluster of 4: 64 rows per block, four per warp; the last block's last warp owns a
  // row past N (a message that carries +inf into the padding).
  cs.push_back(nonnegative("n251-last-warp-past-n", {251, 0.3, 1, 60, false, 22}, 250));
  cs.push_back(nonnegative("n1100-more-rows-than-a-cluster-holds", {1100, 0.3, 1, 100, false, 19}, 1099));
  {
    test_case c{"chain-n65-needs-n-1-rounds", chain(65), 64, false, {}};
    c.expected = dijkstra(c.m, 64);
    cs.push_back(std::move(c));
  }
  cs.push_back(with_potentials("n300-negative-edges", {300, 0.2, 0, 50, false, 15}, 7));
  cs.push_back(with_potentials("n61-negative-sparse", {61, 0.05, 0, 20, false, 16}, 60));
  {
    // A reachable negative cycle 10 -> 20 -> 30 -> 10 (total -3) planted in a random graph.
    test_case c{"n120-reachable-negative-cycle", generate({120, 0.1, 1, 9, false, 17}), 0, true, {}};
    c.m.set_weight(0, 10, 1.0f);
    c.m.set_weight(10, 20, -1.0f);
    c.m.set_weight(20, 30, -1.0f);
    c.m.set_weight(30, 10, -1.0f);
    cs.push_back(std::move(c));
  }
  {
    // A negative cycle among vertices 40..42 that nothing else reaches: not our concern.
    test_case c{"n90-unreachable-negative-cycle", generate({90, 0.2, 1, 9, false, 18}), 1, false, {}};
    for (index_t x = 40; x <= 42; ++x)
      for (index_t j = 0; j < 90; ++j) c.m.set_weight(j, x, inf);
    c.m.set_weight(40, 41, -5.0f);
    c.m.set_weight(41, 42, -5.0f);
    c.m.set_weight(42, 40, -5.0f);
    // Oracle: Dijkstra on the graph with the cycle's vertices removed from reach (their
    // out-edges only lead away, and nothing reaches them), i.e. with those edges dropped.
    dense_matrix nocycle = c.m;
    for (index_t x = 40; x <= 42; ++x)
      for (index_t v = 0; v < 90; ++v) nocycle.set_weight(x, v, inf);
    c.expected = dijkstra(nocycle, 1);
    cs.push_back(std::move(c));
  }
  return cs;
}

struct config {
  engine_kind kind;
  variant var;
  int group;
  schedule sched = schedule::launch;
  engine_config ecfg{};  // the resident schedule's knobs
};

std::string config_name(const ::testing::TestParamInfo<config>& i) {
  std::string s = std::string(engine_name(i.param.kind)) + "_" + variant_name(i.param.var) + "_M" +
                  std::to_string(i.param.group);
  if (i.param.sched != schedule::launch) s += std::string("_") + schedule_name(i.param.sched);
  const engine_config& c = i.param.ecfg;
  if (c.resident_cluster >= 0) s += "_cluster" + std::to_string(c.resident_cluster);
  if (c.resident_rows > 0) s += "_rows" + std::to_string(c.resident_rows);
  if (c.resident_exchange == engine_config::exchange::async) s += "_async";
  if (c.resident_exchange == engine_config::exchange::pull) s += "_pull";
  if (c.resident_threads != 512) s += "_threads" + std::to_string(c.resident_threads);
  if (c.resident_rows_per_warp > 0) s += "_per_warp" + std::to_string(c.resident_rows_per_warp);
  if (!c.resident_registers) s += "_smem_rows";
  return s;
}

bool skip_without_device(engine_kind k) { return k == engine_kind::cuda && !cuda_available(); }

class BellmanFord : public ::testing::TestWithParam<config> {};

TEST_P(BellmanFord, AgreesWithOraclesOnAwkwardGraphs) {
  const config cfg = GetParam();
  if (skip_without_device(cfg.kind)) GTEST_SKIP() << "no CUDA device";
  auto e = make_engine(cfg.kind, cfg.ecfg);
  auto reference = make_engine(engine_kind::serial);
  std::printf("engine: %s\n", e->description().c_str());
  int ran = 0;
  for (const bool full : {false, true}) {
    for (const auto& c : cases()) {
      if (full && c.m.n > 70) continue;  // N rounds each: keep it short
      SCOPED_TRACE(c.name + (full ? " (full rounds)" : ""));
      if (!e->supports(cfg.sched, cfg.var, c.m.n)) {
        // Only the resident schedule has a size limit, and only past what shared memory holds
        // (a cluster of 4 blocks: 128 rows of 512 floats per block already do not fit).
        EXPECT_EQ(cfg.sched, schedule::resident);
        EXPECT_GT(c.m.n, cfg.ecfg.resident_cluster == 4 ? 400 : 1000);
        continue;
      }
      SCOPED_TRACE(e->schedule_detail(cfg.sched, cfg.var, c.m.n));
      ++ran;
      run_options o{cfg.var, cfg.group, full, c.source};
      o.sched = cfg.sched;
      const dense_matrix mt = layout_for(cfg.kind, cfg.var) == c.m.lay ? dense_matrix{} : transpose(c.m);
      const dense_matrix& input = mt.n ? mt : c.m;
      const result r = run(*e, input, o);
      const result ref = run(*reference, c.m, {variant::naive, 1, full, c.source});
      if (c.cycle) {
        EXPECT_EQ(r.st, status::negative_cycle);
        EXPECT_EQ(r.rounds, c.m.n);
        continue;
      }
      ASSERT_EQ(r.st, status::ok);
      ASSERT_EQ(r.dist.size(), c.expected.size());
      for (std::size_t v = 0; v < c.expected.size(); ++v) ASSERT_EQ(r.dist[v], c.expected[v]) << "vertex " << v;
      EXPECT_EQ(check_shortest_paths(c.m, c.source, r.dist, r.pred), "");
      EXPECT_EQ(r.pred, ref.pred);
      EXPECT_EQ(r.rounds, ref.rounds);
      if (full) EXPECT_EQ(r.rounds, c.m.n);
      else EXPECT_LE(r.rounds, c.m.n);
    }
  }
  EXPECT_GT(ran, 10);
}

std::vector<config> configs() {
  std::vector<config> cs{{engine_kind::serial, variant::naive, 1}, {engine_kind::openmp, variant::naive, 1}};
  std::vector<engine_kind> gpus{engine_kind::cuda};
  if (GPU500_HAVE_OPENCL) gpus.push_back(engine_kind::opencl);
  for (auto k : gpus) {
    cs.push_back({k, variant::naive, 1});
    cs.push_back({k, variant::reduce, 1});
    cs.push_back({k, variant::reduce, 64});
    cs.push_back({k, variant::reduce, 256});
    cs.push_back({k, variant::coarse, 32});
    cs.push_back({k, variant::coarse, 128});
    if (k == engine_kind::cuda) {
      cs.push_back({k, variant::coarse, 1024});
      cs.push_back({k, variant::coarse, 32, schedule::skip});
      cs.push_back({k, variant::coarse, 256, schedule::skip});
      cs.push_back({k, variant::coarse, 32, schedule::resident});
      cs.push_back({k, variant::coarse, 32, schedule::resident, {.resident_cluster = 8}});
      cs.push_back({k, variant::coarse, 32, schedule::resident, {.resident_cluster = 4}});
      cs.push_back({k, variant::coarse, 32, schedule::resident, {.resident_cluster = 16, .resident_rows_per_warp = 4}});
      cs.push_back({k, variant::coarse, 32, schedule::resident, {.resident_cluster = 16, .resident_rows_per_warp = 1}});
      cs.push_back({k, variant::coarse, 32, schedule::resident,
                    {.resident_cluster = 16, .resident_exchange = engine_config::exchange::async}});
      cs.push_back({k, variant::coarse, 32, schedule::resident,
                    {.resident_cluster = 8, .resident_exchange = engine_config::exchange::async}});
      cs.push_back({k, variant::coarse, 32, schedule::resident,
                    {.resident_cluster = 16, .resident_exchange = engine_config::exchange::pull}});
      cs.push_back({k, variant::coarse, 32, schedule::resident,
                    {.resident_exchange = engine_config::exchange::async, .resident_threads = 1024}});
      cs.push_back({k, variant::coarse, 32, schedule::resident, {.resident_cluster = 0, .resident_threads = 1024}});
      cs.push_back({k, variant::coarse, 32, schedule::resident, {.resident_cluster = 16, .resident_registers = false}});
      cs.push_back({k, variant::coarse, 32, schedule::resident, {.resident_cluster = 0}});
      cs.push_back({k, variant::coarse, 32, schedule::resident, {.resident_cluster = 0, .resident_rows = 7}});
    }
  }
  return cs;
}

INSTANTIATE_TEST_SUITE_P(Engines, BellmanFord, ::testing::ValuesIn(configs()), config_name);

TEST(BellmanFordChain, RoundCountsMatchThePathLength) {
  // A chain of 65 vertices converges after 64 changing rounds plus one quiet round; the check
  // round must not be mistaken for a negative cycle.
  auto e = make_engine(engine_kind::serial);
  const auto m = chain(65);
  const auto r = run(*e, m, {variant::naive, 1, false, 64});
  EXPECT_EQ(r.st, status::ok);
  EXPECT_EQ(r.rounds, 65);
  EXPECT_EQ(r.dist[0], 64.0f);
  const auto r2 = run(*e, m, {variant::naive, 1, false, 0});  // source 0 reaches nothing
  EXPECT_EQ(r2.rounds, 1);
  EXPECT_EQ(r2.dist[1], inf);
}

TEST(BellmanFordCpu, EveryInstructionSetAndTilingAgrees) {
  // The CPU fold is compiled for AVX-512F, AVX2 and the baseline ISA, and the OpenMP engine cuts
  // the rows into a block per thread and merges the blocks' partial results in order: every set
  // this CPU has, serial and on 1, 3 and 16 OpenMP threads (always a team, or only above the
  // default threshold; more threads than cores; columns that end in the +inf padding) gives the
  // oracle's distances and the baseline serial engine's predecessors and rounds (the tie rule
  // across blocks). A set the CPU lacks is refused, never run.
  using isa = engine_config::cpu_isa;
  std::vector<test_case> graphs;
  graphs.push_back(nonnegative("n1100", {1100, 0.3, 1, 100, false, 19}, 1099));
  graphs.push_back(nonnegative("n257-ties", {257, 0.5, 0, 3, false, 23}, 0));
  graphs.push_back(with_potentials("n300-negative-edges", {300, 0.2, 0, 50, false, 15}, 7));
  auto baseline = make_engine(engine_kind::serial, {.isa = isa::baseline});
  EXPECT_NE(baseline->description().find("baseline ISA"), std::string::npos) << baseline->description();
  int sets = 0;
  for (const isa i : {isa::automatic, isa::avx512, isa::avx2, isa::baseline}) {
    std::unique_ptr<engine> probe;
    try {
      probe = make_engine(engine_kind::serial, {.isa = i});
    } catch (const usage_error& e) {
      std::printf("skipping an instruction set this CPU lacks: %s\n", e.what());
      EXPECT_NE(i, isa::baseline);
      EXPECT_NE(i, isa::automatic);
      continue;
    }
    ++sets;
    for (const int threads : {1, 3, 16}) {
      for (const std::int64_t work : {-1, 0, 1 << 17}) {  // -1: the serial engine; 0: always a team
        if (work < 0 && threads != 1) continue;
        const int saved = omp_get_max_threads();
        omp_set_num_threads(threads);
        auto e = work < 0 ? make_engine(engine_kind::serial, {.isa = i})
                          : make_engine(engine_kind::openmp, {.isa = i, .cpu_parallel_work = work});
        for (const auto& c : graphs) {
          SCOPED_TRACE(c.name + " " + e->description());
          const result r = run(*e, c.m, {variant::naive, 1, false, c.source});
          const result ref = run(*baseline, c.m, {variant::naive, 1, false, c.source});
          ASSERT_EQ(r.st, status::ok);
          for (std::size_t v = 0; v < c.expected.size(); ++v) ASSERT_EQ(r.dist[v], c.expected[v]) << "vertex " << v;
          EXPECT_EQ(check_shortest_paths(c.m, c.source, r.dist, r.pred), "");
          EXPECT_EQ(r.pred, ref.pred);
          EXPECT_EQ(r.rounds, ref.rounds);
        }
        omp_set_num_threads(saved);
      }
    }
  }
  EXPECT_GE(sets, 2);  // automatic and the baseline at least
  EXPECT_THROW(make_engine(engine_kind::openmp, {.cpu_parallel_work = -1}), usage_error);
  // The host bandwidth probe reads the whole buffer (it checks the minimum it finds).
  const double gbs = host_read_bandwidth(std::size_t{1} << 24, 2);
  EXPECT_GT(gbs, 0.1);
  EXPECT_LT(gbs, 1e5);
}

TEST(BellmanFordSchedules, ResidentFitsSmallNAndSkipIsCoarseOnly) {
  auto cpu = make_engine(engine_kind::openmp);
  EXPECT_TRUE(cpu->supports(schedule::launch, variant::naive, 100));
  EXPECT_FALSE(cpu->supports(schedule::skip, variant::coarse, 100));
  EXPECT_FALSE(cpu->supports(schedule::resident, variant::coarse, 100));
  const auto m = generate({40, 0.5, 1, 9, false, 5});
  run_options o{variant::naive, 1, false, 0};
  o.sched = schedule::skip;
  EXPECT_THROW(run(*cpu, m, o), usage_error);
  EXPECT_EQ(parse_schedule("resident"), schedule::resident);
  EXPECT_THROW(parse_schedule("fast"), usage_error);
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  auto gpu = make_engine(engine_kind::cuda);
  EXPECT_TRUE(gpu->supports(schedule::skip, variant::coarse, 32768));
  EXPECT_FALSE(gpu->supports(schedule::skip, variant::naive, 256));
  EXPECT_FALSE(gpu->supports(schedule::resident, variant::reduce, 256));
  for (const index_t n : {1, 256, 512, 1024, 2048}) EXPECT_TRUE(gpu->supports(schedule::resident, variant::coarse, n)) << n;
  EXPECT_FALSE(gpu->supports(schedule::resident, variant::coarse, 8192));
  std::printf("resident at 256: %s; at 2048: %s\n", gpu->schedule_detail(schedule::resident, variant::coarse, 256).c_str(),
              gpu->schedule_detail(schedule::resident, variant::coarse, 2048).c_str());
  // Which exchange runs: warps sending where the rows fit in registers, blocks sending otherwise.
  EXPECT_NE(gpu->schedule_detail(schedule::resident, variant::coarse, 256).find("warps send to blocks"), std::string::npos);
  EXPECT_NE(gpu->schedule_detail(schedule::resident, variant::coarse, 2048).find("cooperative grid"), std::string::npos);
  engine_config by_block;
  by_block.resident_exchange = engine_config::exchange::async;
  EXPECT_NE(make_engine(engine_kind::cuda, by_block)
                ->schedule_detail(schedule::resident, variant::coarse, 256)
                .find("blocks send to blocks"),
            std::string::npos);
  by_block = {};
  by_block.resident_registers = false;  // warp exchange asked for, rows in shared memory: blocks send
  EXPECT_NE(make_engine(engine_kind::cuda, by_block)
                ->schedule_detail(schedule::resident, variant::coarse, 256)
                .find("blocks send to blocks"),
            std::string::npos);
  const auto mt = transpose(m);
  o = {variant::reduce, 32, false, 0};
  o.sched = schedule::skip;
  EXPECT_THROW(run(*gpu, m, o), usage_error);
  engine_config bad;
  bad.resident_cluster = 2;
  EXPECT_THROW(make_engine(engine_kind::cuda, bad), usage_error);
  bad = {};
  bad.resident_threads = 256;
  EXPECT_THROW(make_engine(engine_kind::cuda, bad), usage_error);
  bad = {};
  bad.resident_rows_per_warp = 3;
  EXPECT_THROW(make_engine(engine_kind::cuda, bad), usage_error);
  // The phase trace: cycles per phase of the last resident solve, in the detail.
  engine_config traced;
  traced.resident_trace = true;
  auto tg = make_engine(engine_kind::cuda, traced);
  o = {variant::coarse, 32, false, 0};
  o.sched = schedule::resident;
  const result tr = run(*tg, mt, o);
  EXPECT_EQ(tr.dist, dijkstra(m, 0));
  const std::string detail = tg->schedule_detail(schedule::resident, variant::coarse, m.n);
  EXPECT_NE(detail.find("cycles per round"), std::string::npos) << detail;
  std::printf("%s\n", detail.c_str());
  // Resident timing runs exactly k rounds and leaves a valid result behind.
  gpu->upload(mt);
  EXPECT_GT(time_resident_rounds(*gpu, variant::coarse, 0, 50), 0.0);
  std::vector<float> d;
  std::vector<std::int32_t> p;
  gpu->download(d, p);
  EXPECT_EQ(d, dijkstra(m, 0));
}

TEST(BellmanFordOracle, CertificateCheckCatchesWrongResults) {
  const auto m = generate({50, 0.3, 1, 9, false, 3});
  auto e = make_engine(engine_kind::serial);
  const auto r = run(*e, m, {variant::naive, 1, false, 0});
  ASSERT_EQ(check_shortest_paths(m, 0, r.dist, r.pred), "");
  auto d = r.dist;
  for (auto& x : d)
    if (x > 0 && x != inf) {
      x += 1;  // too long: a tree edge is no longer tight or an edge relaxes
      break;
    }
  EXPECT_NE(check_shortest_paths(m, 0, d, r.pred), "");
  auto p = r.pred;
  for (std::size_t v = 0; v < p.size(); ++v)
    if (p[v] >= 0) {
      p[v] = static_cast<std::int32_t>(v);  // a self-loop is not an edge
      break;
    }
  EXPECT_NE(check_shortest_paths(m, 0, r.dist, p), "");
  auto u = r.dist;
  u[0] = 1;
  EXPECT_NE(check_shortest_paths(m, 0, u, r.pred), "");
}

TEST(BellmanFordGraph, GeneratorIsDeterministicAndChecksItsInput) {
  const graph_params p{200, 0.25, 3, 7, false, 42};
  const auto a = generate(p), b = generate(p);
  EXPECT_EQ(a.w, b.w);
  EXPECT_EQ(a.ld % 32, 0);
  index_t edges = 0;
  for (index_t j = 0; j < 200; ++j) {
    EXPECT_EQ(a.weight(j, j), inf);
    for (index_t v = 0; v < 200; ++v) {
      const float w = a.weight(j, v);
      if (w == inf) continue;
      ++edges;
      EXPECT_TRUE(w >= 3 && w <= 7 && w == static_cast<float>(static_cast<int>(w)));
    }
  }
  EXPECT_NEAR(static_cast<double>(edges) / (200 * 199), 0.25, 0.02);
  const auto t = transpose(a);
  EXPECT_EQ(t.lay, layout::by_target);
  for (index_t j = 0; j < 200; j += 7)
    for (index_t v = 0; v < 200; v += 3) EXPECT_EQ(t.weight(j, v), a.weight(j, v));
  EXPECT_EQ(transpose(t).w, a.w);
  EXPECT_THROW(generate({100000, 0.5, 0, 1000, false, 1}), usage_error);  // sums would be inexact
  try {  // the product in a few figures, not to_string's six decimals
    check_params({100000000, 0.5, 0, 100, false, 1});
    ADD_FAILURE() << "n * max|weight| = 1e10 was accepted";
  } catch (const usage_error& e) {
    EXPECT_STREQ(e.what(), "bellman-ford: n * max|weight| = 1e+10 must stay below 2^24 (16777216) for exact float32 "
                           "sums; lower --wmax or --n");
  }
  EXPECT_THROW(generate({10, 1.5, 0, 1, false, 1}), usage_error);
  EXPECT_THROW(generate({10, 0.5, -1, 1, false, 1}), usage_error);
}

TEST(BellmanFordOptions, RejectsBadGroupSizesAndLayouts) {
  std::vector<engine_kind> kinds;
  if (cuda_available()) kinds.push_back(engine_kind::cuda);
  if (GPU500_HAVE_OPENCL) kinds.push_back(engine_kind::opencl);
  const auto m = generate({40, 0.5, 1, 9, false, 5});
  for (auto k : kinds) {
    auto e = make_engine(k);
    EXPECT_THROW(run(*e, m, {variant::reduce, 48, false, 0}), usage_error);
    EXPECT_THROW(run(*e, m, {variant::reduce, e->max_group() * 2, false, 0}), usage_error);
    EXPECT_THROW(run(*e, m, {variant::coarse, 32, false, 0}), error);  // coarse needs by_target
  }
  auto c = make_engine(engine_kind::openmp);
  EXPECT_THROW(run(*c, m, {variant::naive, 1, false, 40}), error);  // source out of range
  EXPECT_THROW(parse_variant("fast"), usage_error);
}

TEST(BellmanFordBenchmark, OptionsThatCannotApplyAreRefused) {
  const backend_set all = parse_backends("all");
  EXPECT_TRUE(all.wants_cpu() && all.wants_cuda() && all.wants_opencl());
  const backend_set cpu = parse_backends("cpu");
  EXPECT_TRUE(cpu.wants_cpu() && !cpu.wants_cuda() && !cpu.wants_opencl());
  EXPECT_THROW(parse_backends("cpu,gpu"), usage_error);
  EXPECT_EQ(parse_schedules("launch,resident"), (std::vector<schedule>{schedule::launch, schedule::resident}));
  EXPECT_THROW(parse_schedules("launch,"), usage_error);
  EXPECT_EQ(parse_exchange("pull"), engine_config::exchange::pull);
  EXPECT_THROW(parse_exchange("push"), usage_error);
  EXPECT_EQ(parse_cpu_isa("avx2"), engine_config::cpu_isa::avx2);
  EXPECT_THROW(parse_cpu_isa("sse"), usage_error);

  const auto given = [](std::vector<std::string> flags) {
    return [flags](const char* f) { return std::find(flags.begin(), flags.end(), f) != flags.end(); };
  };
  benchmark_options o;  // defaults: every backend, variant and schedule
  EXPECT_NO_THROW(check_applicable(o, given({"--group", "--schedules", "--resident-cluster", "--resident-exchange",
                                             "--cpu-isa", "--cl-platform", "--cl-device", "--no-page-lock"})));
  EXPECT_THROW(check_applicable(o, given({"--sweep-n"})), usage_error);  // without --sweep
  o.sweep_groups = {32};
  o.sweep_sizes = {2048};
  EXPECT_NO_THROW(check_applicable(o, given({"--sweep", "--sweep-n"})));
  o.sweep_sizes = {1024};
  EXPECT_THROW(check_applicable(o, given({"--sweep", "--sweep-n"})), usage_error);  // not among the sizes
  o = {};
  o.backends = cpu;
  for (const char* f : {"--group", "--schedules", "--resident-cluster", "--cl-device", "--no-page-lock", "--sweep"})
    EXPECT_THROW(check_applicable(o, given({f})), usage_error) << f;
  EXPECT_NO_THROW(check_applicable(o, given({"--cpu-isa"})));
  o = {};
  o.variants = {variant::naive};
  EXPECT_THROW(check_applicable(o, given({"--group"})), usage_error);
  EXPECT_THROW(check_applicable(o, given({"--schedules"})), usage_error);
  o = {};
  o.schedules = {schedule::launch, schedule::skip};
  EXPECT_THROW(check_applicable(o, given({"--resident-exchange"})), usage_error);
  o.backends = parse_backends("cuda");
  EXPECT_THROW(check_applicable(o, given({"--cpu-isa"})), usage_error);
}

}  // namespace
