// hash_variants static|mixed --tables LIST: the GLHT benchmark (gpu500/hash/bench.hpp) on any GLHT
// design variant, e.g. glht-t1-rec-np-oc-fa or glht-t1-aos-b8 (parse_glht_variant lists the
// suffixes), beside the named tables. Same inputs, timing and validation as `gpu500 hash`.
#include <cstdio>
#include <string>

#include "gpu500/core/cli.hpp"
#include "gpu500/core/device.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/hash/bench.hpp"

int main(int argc, char** argv) try {
  using namespace gpu500;
  std::string mode = argc > 1 ? argv[1] : "", tables, lfs = "0.8,0.9", json_path;
  std::int64_t keys = std::int64_t{1} << 26, ops = 100000;
  std::vector<std::int64_t> ranges{100, 100000}, scale{24};
  int runs = 3;
  cli::parser p("hash_variants static|mixed", "The GLHT benchmark on GLHT design variants (CUDA).");
  p.option("--tables", tables, "comma list of tables and GLHT variants (required)")
      .option("--keys", keys, "static: number of keys (default 2^26)")
      .option("--lf", lfs, "static: load factors (default 0.8,0.9)")
      .option("--ops", ops, "mixed: operations per small run (default 100000)")
      .option("--ranges", ranges, "mixed: key ranges (default 100,100000)")
      .option("--scale", scale, "mixed: log2 of operations of the scale runs (default 24)")
      .option("--runs", runs, "runs per figure, the median is reported (default 3)")
      .option("--json", json_path, "write every figure to this file");
  p.parse(argc, argv, 2);
  if (p.help_requested() || (mode != "static" && mode != "mixed") || tables.empty()) {
    std::fputs(p.help().c_str(), p.help_requested() ? stdout : stderr);
    return p.help_requested() ? 0 : 2;
  }
  if (!cuda_available()) throw error("needs a CUDA device");
  json::value j;
  bool valid = false;
  if (mode == "static") {
    hash::static_config c;
    c.keys = keys;
    c.load_factors = hash::parse_load_factors(lfs, "--lf");
    c.tables = hash::split_list(tables);
    c.runs = runs;
    c.glht_variants = true;
    j = hash::run_static_bench(c, stdout, &valid);
  } else {
    hash::mixed_config c;
    c.ops = ops;
    c.ranges.assign(ranges.begin(), ranges.end());
    c.scale_log2.assign(scale.begin(), scale.end());
    c.tables = hash::split_list(tables);
    c.runs = runs;
    c.glht_variants = true;
    j = hash::run_mixed_bench(c, stdout, &valid);
  }
  if (!json_path.empty()) json::write_file(json_path, j);
  return valid ? 0 : 1;
} catch (const gpu500::usage_error& e) {
  std::fprintf(stderr, "hash_variants: %s\n", e.what());
  return 2;
} catch (const std::exception& e) {
  std::fprintf(stderr, "hash_variants: %s\n", e.what());
  return 1;
}
