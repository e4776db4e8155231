// src/hash/cpu/bench_request.cpp — `gpu500 hash static|mixed` as one library call: run_bench
// checks a bench_request (every field applies to the mode and the backend, or it is a usage_error),
// fills the mode's defaults into a static_config or mixed_config, runs the benchmark of bench.cpp
// and writes the JSON.
#include <cstdio>
#include <sstream>

#include "gpu500/core/cli.hpp"
#include "gpu500/core/device.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/core/json.hpp"
#include "gpu500/hash/bench.hpp"

namespace gpu500::hash {

namespace {

/// usage_error when `set`: the option `flag` does not apply to this configuration.
void refuse(bool set, const std::string& mode, const char* flag, const char* why) {
  if (set) throw usage_error("hash " + mode + ": " + flag + " " + why);
}

/// The backend asked for, resolved ("auto": CUDA when a device is there) and checked.
backend resolve(const std::string& name) {
  backend b = parse_backend(name);
  if (b == backend::opencl) throw usage_error("hash: no OpenCL backend");
  if (name == "auto") b = resolve_auto_backend();
  if (b == backend::cuda && !cuda_available()) throw usage_error("hash: --backend cuda but no CUDA device");
  return b;
}

}  // namespace

std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> v;
  std::stringstream in(s);
  for (std::string x; std::getline(in, x, ',');)
    if (!x.empty()) v.push_back(x);
  return v;
}

std::vector<double> parse_load_factors(const std::string& s, const char* flag) {
  std::vector<double> v;
  for (const auto& x : split_list(s)) v.push_back(cli::parse_double(x, flag));
  return v;
}

std::vector<std::array<int, 3>> parse_mixes(const std::string& s, const char* flag) {
  std::vector<std::array<int, 3>> v;
  for (const auto& x : split_list(s)) {
    std::array<int, 3> m{};
    if (std::sscanf(x.c_str(), "%d/%d/%d", &m[0], &m[1], &m[2]) != 3)
      throw usage_error(std::string("hash mixed: ") + flag + " wants I/E/F percentages, got '" + x + "'");
    v.push_back(m);
  }
  return v;
}

bool run_bench(const bench_request& r, std::FILE* out) {
  const std::string& m = r.mode;
  if (m != "static" && m != "mixed")
    throw usage_error("hash: the first argument must be static or mixed, got '" + m + "'");
  const backend where = resolve(r.backend_name);
  refuse(!r.with_cpu && where != backend::cuda, m, "--no-cpu", "needs --backend cuda");
  refuse(!r.with_cpu && !r.tables.empty(), m, "--no-cpu", "cannot apply with --tables (name the tables to run)");
  if (r.runs && *r.runs < 1) throw usage_error("hash " + m + ": --runs must be positive");
  json::value j;
  bool valid = false;
  if (m == "static") {
    refuse(r.ops.has_value(), m, "--ops", "applies to hash mixed only");
    refuse(r.ranges.has_value(), m, "--ranges", "applies to hash mixed only");
    refuse(r.mixes.has_value(), m, "--mixes", "applies to hash mixed only");
    refuse(r.scale_log2.has_value(), m, "--scale", "applies to hash mixed only");
    refuse(r.check_limit.has_value(), m, "--check-limit", "applies to hash mixed only");
    refuse(r.full && where != backend::cuda, m, "--full", "needs --backend cuda");
    refuse(r.full && !r.tables.empty(), m, "--full", "cannot apply with --tables (name the tables to run)");
    refuse(r.full && r.load_factors.has_value(), m, "--full", "cannot apply with --lf");
    refuse(!r.full && !r.with_cpu && where == backend::cuda && r.tables.empty(), m, "--no-cpu",
           "applies with --full (the default tables leave out the CPU table)");
    static_config c;
    c.where = where;
    c.with_cpu = r.with_cpu;
    c.keys = r.keys.value_or(where == backend::cuda ? index_t{1} << 26 : index_t{1} << 22);
    c.load_factors = r.load_factors.value_or(r.full ? std::vector<double>{0.5, 0.8, 0.9, 0.95}
                                                    : std::vector<double>{0.8, 0.9, 0.95});
    c.tables = r.tables;
    if (c.tables.empty() && where == backend::cuda && !r.full) c.tables = default_static_tables();
    c.runs = r.runs.value_or(c.runs);
    c.seed = r.seed;
    j = run_static_bench(c, out, &valid);
  } else {
    refuse(r.keys.has_value(), m, "--keys", "applies to hash static only");
    refuse(r.load_factors.has_value(), m, "--lf", "applies to hash static only");
    refuse(r.full, m, "--full", "applies to hash static only");
    refuse(r.scale_log2.has_value() && where != backend::cuda, m, "--scale", "needs --backend cuda");
    mixed_config c;
    c.where = where;
    c.with_cpu = r.with_cpu;
    c.ops = r.ops.value_or(c.ops);
    if (r.ranges) c.ranges = *r.ranges;
    if (r.mixes) c.mixes = *r.mixes;
    if (r.scale_log2) {
      c.scale_log2.clear();
      for (int s : *r.scale_log2) {
        if (s > 30) throw usage_error("hash mixed: --scale values must be at most 30");
        if (s > 0) c.scale_log2.push_back(s);
      }
    }
    c.tables = r.tables;
    c.runs = r.runs.value_or(c.runs);
    c.seed = r.seed;
    c.check_limit = r.check_limit.value_or(c.check_limit);
    if (c.check_limit < 0) throw usage_error("hash mixed: --check-limit must be >= 0");
    j = run_mixed_bench(c, out, &valid);
  }
  std::fflush(out);
  if (!r.json_path.empty()) json::write_file(r.json_path, j);
  return valid;
}

}  // namespace gpu500::hash
