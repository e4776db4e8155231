// gpu500 graph500: the Graph500 3.0 benchmark (kernels 1-3, validation, the reference's output block).
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <sstream>

#include "command.hpp"
#include "gpu500/config.hpp"
#include "gpu500/core/cli.hpp"
#include "gpu500/core/device.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/graph500/harness.hpp"
#include "pipeline_flags.hpp"

namespace {

/// "0.57,0.19,0.19" -> parts of 10000.
void parse_initiator(const std::string& s, gpu500::graph::kronecker_params& p) {
  std::vector<double> v;
  std::stringstream in(s);
  std::string part;
  while (std::getline(in, part, ',')) v.push_back(gpu500::cli::parse_double(part, "--initiator"));
  if (v.size() != 3) throw gpu500::usage_error("--initiator takes three probabilities A,B,C (D = 1 - A - B - C)");
  for (double x : v)
    if (x < 0 || x > 1) throw gpu500::usage_error("--initiator: probabilities must be in [0, 1]");
  p.a = static_cast<int>(v[0] * 10000 + 0.5);
  p.b = static_cast<int>(v[1] * 10000 + 0.5);
  p.c = static_cast<int>(v[2] * 10000 + 0.5);
}

bool env_set(const char* name) { return std::getenv(name) != nullptr; }

}  // namespace

GPU500_COMMAND(graph500, "The Graph500 benchmark: generator, kernel 1, BFS, SSSP, validation") {
  using namespace gpu500;
  graph::kronecker_params gp;
  graph500::run_config cfg;
  std::string kernels = "bfs,sssp", json_path;
  std::vector<std::int64_t> seeds = {2, 3};
  bool no_validate = false, skip_bfs = false, quiet = false;
  app::pipeline_flags flags;

  cli::parser p("gpu500 graph500",
                "Run Graph500 3.0: Kronecker graph of 2^SCALE vertices and EDGEFACTOR*2^SCALE edges, kernel 1,\n"
                "64 BFS and 64 SSSP searches, each validated; the reference's output block on stdout.\n"
                "Environment: SKIP_VALIDATION, SKIP_BFS as in the reference.");
  p.positional("SCALE", gp.scale, "log2 of the vertex count (default 16)");
  p.positional("EDGEFACTOR", gp.edgefactor, "edges per vertex (default 16)");
  p.option("--kernels", kernels, "bfs,sssp | bfs | sssp (default bfs,sssp)");
  p.option("--roots", cfg.num_roots, "number of search keys (default 64)");
  p.option("--seed", seeds, "the two generator seeds S1,S2 (default 2,3 as the reference)");
  p.option("--initiator", [&](const std::string& v) { parse_initiator(v, gp); },
           "Kronecker initiator A,B,C (default 0.57,0.19,0.19; R-MAT: 0.45,0.15,0.15)", "A,B,C");
  p.flag("--no-validate", no_validate, "skip validation (as SKIP_VALIDATION)");
  p.flag("--skip-bfs", skip_bfs, "run SSSP only (as SKIP_BFS)");
  p.flag("--quiet", quiet, "no per-root progress on stderr");
  p.option("--json", json_path, "write every figure to this JSON file");
  flags.add(p);
  p.parse(args);
  if (p.help_requested()) {
    std::fputs(p.help().c_str(), stdout);
    return 0;
  }

  if (seeds.size() != 2) throw usage_error("--seed takes two seeds S1,S2");
  gp.seed1 = static_cast<std::uint64_t>(seeds[0]);
  gp.seed2 = static_cast<std::uint64_t>(seeds[1]);
  if (kernels == "bfs,sssp" || kernels == "sssp,bfs") {
    cfg.run_bfs = cfg.run_sssp = true;
  } else if (kernels == "bfs") {
    cfg.run_sssp = false;
  } else if (kernels == "sssp") {
    cfg.run_bfs = false;
  } else {
    throw usage_error("--kernels: expected bfs,sssp | bfs | sssp, got '" + kernels + "'");
  }
  if (skip_bfs || env_set("SKIP_BFS")) cfg.run_bfs = false;
  if (!cfg.run_bfs && !cfg.run_sssp) throw usage_error("nothing to run: --skip-bfs with --kernels bfs");
  cfg.validate = !(no_validate || env_set("SKIP_VALIDATION"));
  cfg.progress = !quiet;
  if (cfg.num_roots < 1 || cfg.num_roots > 1 << 20) throw usage_error("--roots must be in 1..1048576");
  gp.weights = cfg.run_sssp;
  gp.check();
  cfg.graph = gp;

  const std::unique_ptr<graph500::pipeline> pipe = flags.make(gp);

  const graph500::run_result r = graph500::run(*pipe, cfg);
  graph500::print_output_block(stdout, cfg, r);
  if (!json_path.empty()) json::write_file(json_path, graph500::to_json(cfg, r, *pipe));
  if (!r.valid) {
    std::fprintf(stderr, "gpu500: error: %s\n", r.failure.c_str());
    return 1;
  }
  return 0;
}
