// gpu500 hash static|mixed: the GLHT benchmark (Zhang & Sun, "GPU Lock-Free Hopscotch Hash Table")
// on GLHT, the GPU baselines and the CPU hopscotch table. Parses the options into a
// hash::bench_request and calls hash::run_bench (gpu500/hash/bench.hpp).
#include <cstdio>
#include <string>

#include "command.hpp"
#include "gpu500/core/cli.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/hash/bench.hpp"

GPU500_COMMAND(hash, "GLHT hopscotch hash table benchmarks: hash static|mixed") {
  using namespace gpu500;
  hash::bench_request r;
  if (!args.empty() && args[0][0] != '-') r.mode = args[0];
  std::string names;
  for (const auto& t : hash::gpu_table_names()) names += t + ",";
  std::string defaults;
  for (const auto& t : hash::default_static_tables()) defaults += (defaults.empty() ? "" : ",") + t;
  std::int64_t keys = 0, ops = 0, check_limit = 0, seed = 2019;
  std::vector<std::int64_t> ranges, scale;
  int runs = 0;
  bool no_cpu = false;
  cli::parser p("gpu500 hash static|mixed",
                "static: bulk build at each load factor, then find-hit and find-miss of every key.\n"
                "mixed: concurrent [insert,erase,find] batches on an empty table, then GPU scale.");
  p.option("--backend", r.backend_name, "auto|cpu|cuda (cpu runs the CPU hopscotch table only; default auto)")
      .option("--tables", [&](const std::string& v) { r.tables = hash::split_list(v); },
              "comma list of: " + names + "cpu (default: static on cuda " + defaults +
                  "; otherwise every table of the backend)",
              "LIST")
      .flag("--full", r.full, "static, cuda: every table, the CPU table too, at LF 0.5,0.8,0.9,0.95 (default: off)")
      .flag("--no-cpu", no_cpu, "cuda backend, mixed or --full: leave out the CPU table")
      .option("--keys", keys, "static: number of keys (default 2^26 on cuda, 2^22 on cpu)")
      .option("--lf", [&](const std::string& v) { r.load_factors = hash::parse_load_factors(v, "--lf"); },
              "static: load factors (default 0.8,0.9,0.95; 0.5,0.8,0.9,0.95 with --full)", "LIST")
      .option("--ops", ops, "mixed: operations per small run (default 100000)")
      .option("--ranges", ranges, "mixed: key ranges (default 100,1000,10000,100000)")
      .option("--mixes", [&](const std::string& v) { r.mixes = hash::parse_mixes(v, "--mixes"); },
              "mixed: insert/erase/find percentages (default 20/20/60,40/40/20)", "LIST")
      .option("--scale", scale, "mixed, cuda: log2 of operations for the scale runs (default 24,25,26; 0 = none)")
      .option("--runs", runs, "runs per figure, the median is reported (default static 3, mixed 5)")
      .option("--check-limit", check_limit,
              "mixed: model-check the first run of batches up to this many operations (default 4000000)")
      .option("--seed", seed, "input seed (default 2019)")
      .output_file("--json", r.json_path, "write every figure to this file");
  p.parse(std::vector<std::string>(args.begin() + (r.mode.empty() ? 0 : 1), args.end()));
  if (p.help_requested()) {
    std::fputs(p.help().c_str(), stdout);
    return 0;
  }
  if (r.mode.empty()) throw usage_error("hash: name the benchmark: gpu500 hash static|mixed [options] (see gpu500 hash --help)");
  r.with_cpu = !no_cpu;
  if ((p.given("--keys") && keys < 1) || (p.given("--ops") && ops < 1))
    throw usage_error("hash: --keys and --ops must be >= 1");
  if (p.given("--keys")) r.keys = keys;
  if (p.given("--ops")) r.ops = ops;
  if (p.given("--ranges")) r.ranges.emplace(ranges.begin(), ranges.end());
  if (p.given("--scale")) r.scale_log2.emplace(scale.begin(), scale.end());
  if (p.given("--check-limit")) r.check_limit = check_limit;
  if (p.given("--runs")) r.runs = runs;
  r.seed = static_cast<std::uint64_t>(seed);
  const bool valid = hash::run_bench(r, stdout);
  if (!valid) std::fprintf(stderr, "gpu500: error: hash %s: a result failed validation\n", r.mode.c_str());
  return valid ? 0 : 1;
}
