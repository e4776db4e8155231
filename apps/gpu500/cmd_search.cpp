// gpu500 bfs / gpu500 sssp: one kernel on a graph read from a file (text edge list), through the
// same pipelines, engines and validators as the Graph500 benchmark.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <random>

#include "command.hpp"
#include "gpu500/config.hpp"
#include "gpu500/core/cli.hpp"
#include "gpu500/core/device.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/core/json.hpp"
#include "gpu500/core/stats.hpp"
#include "gpu500/graph/io.hpp"
#include "pipeline_flags.hpp"

namespace {

int run_search(const gpu500::app::args_t& args, bool sssp) {
  using namespace gpu500;
  const char* name = sssp ? "gpu500 sssp" : "gpu500 bfs";
  std::string path, json_path;
  std::int64_t root = -1, num_vertices = -1, seed = 1;
  int roots = 16;
  bool no_validate = false;
  app::pipeline_flags flags;
  cli::parser p(name, std::string(sssp ? "Single-source shortest paths" : "Breadth-first search") +
                          " on a graph file (text edge list: \"u v\" or \"u v w\" per line), each search\n"
                          "validated as Graph500 validates; per-root time and TEPS, harmonic mean last.");
  p.option("--graph", path, "the edge-list file (required)");
  p.option("--vertices", num_vertices, "vertex count (default: largest id + 1)");
  p.option("--root", root, "search from this vertex only");
  p.option("--roots", roots, "otherwise: up to this many distinct random vertices with edges (default 16)");
  p.option("--seed", seed, "seed of the random roots (default 1)");
  p.flag("--no-validate", no_validate, "skip validation");
  p.option("--json", json_path, "write every figure to this JSON file");
  flags.add(p);
  p.parse(args);
  if (p.help_requested()) {
    std::fputs(p.help().c_str(), stdout);
    return 0;
  }
  if (path.empty()) throw usage_error(std::string(name) + ": --graph FILE is required");
  if (root < 0 && (roots < 1 || roots > 1 << 20)) throw usage_error("--roots must be in 1..1048576");

  graph::edge_list el = graph::read_edge_list(path, num_vertices);
  if (sssp && !el.weighted()) throw usage_error(path + ": SSSP needs weights (a third column)");
  if (!sssp) el.weight.clear();
  const index_t n = el.num_vertices;
  if (root >= n) throw usage_error("--root " + std::to_string(root) + " is not a vertex (the graph has " + std::to_string(n) + ")");

  const std::unique_ptr<graph500::pipeline> pipe = flags.make(std::move(el));
  pipe->generate();
  const double k1 = pipe->construct();

  std::vector<std::int64_t> keys;
  if (root >= 0) {
    keys.push_back(root);
  } else {
    std::mt19937_64 rng(static_cast<std::uint64_t>(seed));
    for (index_t tries = 0; tries < 64 * n && static_cast<int>(keys.size()) < roots; ++tries) {
      const auto v = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(n));
      if (pipe->has_edges(v) && std::find(keys.begin(), keys.end(), v) == keys.end()) keys.push_back(v);
    }
    if (keys.empty()) throw usage_error(path + ": no vertex has an edge");
  }

  std::fprintf(stderr, "%s: %s, %lld vertices, kernel 1 %g s\n", name, pipe->description().c_str(),
               static_cast<long long>(n), k1);
  std::vector<double> times, edges;
  json::value out;
  out["graph"] = path;
  out["backend"] = pipe->description();
  out["kernel"] = sssp ? "sssp" : "bfs";
  out["construction_time"] = k1;
  bool all_valid = true;
  // An untimed warm-up search (thread pools, caches, lazy device state), as Graph500 3.0 does.
  sssp ? pipe->sssp(keys.front()) : pipe->bfs(keys.front());
  for (std::int64_t r : keys) {
    const double t = sssp ? pipe->sssp(r) : pipe->bfs(r);
    const index_t ne = sssp ? pipe->sssp_nedge() : pipe->bfs_nedge();
    std::string verdict = "not validated";
    if (!no_validate) {
      const graph500::validation v = sssp ? pipe->validate_sssp(r) : pipe->validate_bfs(r);
      verdict = v.ok ? "valid" : "INVALID: " + v.message;
      all_valid = all_valid && v.ok;
    }
    std::printf("root %lld: %.6g s, %lld edges, %.4g TEPS, %s\n", static_cast<long long>(r), t,
                static_cast<long long>(ne), ne > 0 ? ne / t : 0.0, verdict.c_str());
    json::value row;
    row["root"] = r;
    row["time"] = t;
    row["nedge"] = ne;
    row["valid"] = verdict == "valid";
    out["searches"].push_back(row);
    if (ne > 0) {
      times.push_back(t);
      edges.push_back(static_cast<double>(ne));
    }
  }
  const double hm = times.empty() ? 0.0 : summarize_teps(times, edges).harmonic_mean;
  std::printf("harmonic_mean_TEPS: %g (%zu searches%s)\n", hm, keys.size(),
              no_validate ? ", not validated" : all_valid ? ", all valid" : ", SOME INVALID");
  out["harmonic_mean_TEPS"] = hm;
  out["valid"] = all_valid;
  if (!json_path.empty()) json::write_file(json_path, out);
  return all_valid ? 0 : 1;
}

}  // namespace

GPU500_COMMAND(bfs, "Breadth-first search on a graph file, validated") { return run_search(args, false); }
GPU500_COMMAND(sssp, "Single-source shortest paths on a graph file, validated") { return run_search(args, true); }
