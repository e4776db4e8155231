// gpu500 hash static|mixed: paper 004's experiments on GLHT, the GPU baselines and the CPU
// hopscotch table (gpu500/hash/bench.hpp).
#include <array>
#include <cstdio>
#include <string>

#include "command.hpp"
#include "gpu500/core/cli.hpp"
#include "gpu500/core/device.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/core/json.hpp"
#include "gpu500/hash/bench.hpp"

namespace {

std::vector<std::string> split_names(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == ',') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

std::vector<double> parse_doubles(const std::string& s, const char* what) {
  std::vector<double> out;
  for (const auto& p : split_names(s)) out.push_back(gpu500::cli::parse_double(p, what));
  return out;
}

}  // namespace

GPU500_COMMAND(hash, "GLHT hopscotch hash table benchmarks: hash static|mixed") {
  using namespace gpu500;
  std::string mode;
  if (!args.empty() && args[0][0] != '-') mode = args[0];
  const gpu500::app::args_t rest(args.begin() + (mode.empty() ? 0 : 1), args.end());
  std::string backend_s = "auto", tables, json_path, lfs, mixes;
  std::int64_t keys = -1, ops = 100000, seed = 2019, check_limit = hash::mixed_config{}.check_limit;
  int runs = -1;
  bool no_cpu = false;
  std::vector<std::int64_t> ranges{100, 1000, 10000, 100000}, scale{24, 25, 26};
  cli::parser p("gpu500 hash static|mixed",
                "static: bulk build at each load factor, then find-hit and find-miss of every key.\n"
                "mixed: concurrent [insert,erase,find] batches on an empty table, then GPU scale.");
  p.option("--backend", backend_s, "auto|cpu|cuda (cpu runs the CPU hopscotch table only)")
      .option("--tables", tables, "comma list: glht,glht-bitmap,glht-t8,glht-t1,glht-t1-aos,glht-t1-rec,glht-rec,linear,"
                                  "linear-aos,quadratic,cuckoo,chained,chained-alloc,cpu (default: all of the backend); GLHT "
                                  "names take the suffixes -np (no precheck), -rs (run-time slot stride), -b6/-b8 (tile 1: "
                                  "blocks per SM), -h1 (tile 1: home slot first), -hc (tile 1: home claim beside the lock), "
                                  "-ps (one 16-byte store of key and value), -oc (occupancy bits), -fa (fences instead of "
                                  "acquire atomics), -ov (tile 1 with -oc: overlapped claim), -nc (tile 1: lanes drift, no "
                                  "re-converging per operation), e.g. glht-t1-rec-np-oc")
      .flag("--no-cpu", no_cpu, "cuda backend: do not run the CPU table")
      .option("--keys", keys, "static: number of keys (default 2^26 on cuda, 2^22 on cpu)")
      .option("--lf", lfs, "static: load factors (default 0.5,0.8,0.9,0.95)")
      .option("--ops", ops, "mixed: operations per small run (default 100000)")
      .option("--ranges", ranges, "mixed: key ranges (default 100,1000,10000,100000)")
      .option("--mixes", mixes, "mixed: insert/erase/find percentages, e.g. 20/20/60,40/40/20")
      .option("--scale", scale, "mixed, cuda: log2 of operations for the scale runs (default 24,25,26; 0 = none)")
      .option("--runs", runs, "runs per figure, the median is reported (default static 3, mixed 5)")
      .option("--check-limit", check_limit,
              "mixed: model-check the first run of every batch of at most this many operations (default 4000000; "
              "the scale runs are 2^24 and up)")
      .option("--seed", seed, "input seed")
      .option("--json", json_path, "write every figure to this file");
  p.parse(rest);
  if (p.help_requested() || mode.empty()) {
    std::fputs(p.help().c_str(), mode.empty() && !p.help_requested() ? stderr : stdout);
    return p.help_requested() ? 0 : 2;
  }
  backend b = parse_backend(backend_s);
  if (b == backend::opencl) throw usage_error("hash: no OpenCL backend");
  if (backend_s == "auto") b = resolve_auto_backend();
  if (b == backend::cuda && !cuda_available()) throw usage_error("hash: --backend cuda but no CUDA device");
  json::value j;
  bool valid = false;
  if (mode == "static") {
    hash::static_config c;
    c.where = b;
    c.with_cpu = !no_cpu;
    c.keys = keys > 0 ? keys : (b == backend::cuda ? (std::int64_t{1} << 26) : (std::int64_t{1} << 22));
    c.load_factors = lfs.empty() ? std::vector<double>{0.5, 0.8, 0.9, 0.95} : parse_doubles(lfs, "--lf");
    c.tables = split_names(tables);
    if (runs > 0) c.runs = runs;
    c.seed = static_cast<std::uint64_t>(seed);
    j = hash::run_static_bench(c, stdout, &valid);
  } else if (mode == "mixed") {
    hash::mixed_config c;
    c.where = b;
    c.with_cpu = !no_cpu;
    c.ops = ops;
    c.ranges.assign(ranges.begin(), ranges.end());
    c.scale_log2.clear();
    for (auto s : scale)
      if (s > 0) {
        if (s > 30) throw usage_error("hash mixed: --scale values must be at most 30");
        c.scale_log2.push_back(static_cast<int>(s));
      }
    if (!mixes.empty()) {
      c.mixes.clear();
      for (const auto& m : split_names(mixes)) {
        std::array<int, 3> x{};
        if (std::sscanf(m.c_str(), "%d/%d/%d", &x[0], &x[1], &x[2]) != 3)
          throw usage_error("hash mixed: --mixes wants I/E/F percentages, got '" + m + "'");
        c.mixes.push_back(x);
      }
    }
    c.tables = split_names(tables);
    if (runs > 0) c.runs = runs;
    c.seed = static_cast<std::uint64_t>(seed);
    if (check_limit < 0) throw usage_error("hash mixed: --check-limit must be >= 0");
    c.check_limit = check_limit;
    j = hash::run_mixed_bench(c, stdout, &valid);
  } else {
    throw usage_error("hash: the first argument must be static or mixed, got '" + mode + "'");
  }
  std::fflush(stdout);
  if (!json_path.empty()) json::write_file(json_path, j);
  if (!valid) std::fprintf(stderr, "gpu500: error: hash %s: a result failed validation\n", mode.c_str());
  return valid ? 0 : 1;
}
