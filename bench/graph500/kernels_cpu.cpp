// bench/graph500/kernels_cpu.cpp — micro-benchmark of the CPU Graph500 kernels 2 (BFS) and 3 (SSSP).
//
// Generates the Graph500 Kronecker graph (seeds 2,3), builds the CSR, picks the reference's search
// keys, runs one untimed warm-up per kernel and then times `--roots` searches of each variant,
// printing the Graph500 harmonic-mean TEPS (1 / mean(time / nedge)). Baselines measured in the
// same run: the top-down-only BFS (the direction-optimising switch off) and delta-stepping at the
// reference's delta 0.1. Not a test: no validation (the unit tests and the graph500 harness do it).
//   bench_kernels_cpu [SCALE] [--edgefactor 16] [--roots 16] [--vertex-bits 32|64] [--threads T]
//                     [--kernels bfs,sssp|k1] [--sweep-delta] [--json FILE]
// Kernel 1 is timed as the graph500 pipeline does it (CSR, then the SSSP engine's rows reusing the
// CSR sort's buckets); GPU500_PHASE_TIMES=1 prints the SSSP engine's construction phases.
#include <omp.h>

#include <cstdio>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "gpu500/bfs/bfs.hpp"
#include "gpu500/core/cli.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/core/json.hpp"
#include "gpu500/core/stats.hpp"
#include "gpu500/core/timer.hpp"
#include "gpu500/graph/arc_sort.hpp"
#include "gpu500/graph/csr.hpp"
#include "gpu500/graph/kronecker.hpp"
#include "gpu500/sssp/sssp.hpp"

using namespace gpu500;

namespace {

struct measured {
  std::string kernel, variant;
  double hmean_teps = 0, median_time = 0;
};

template <class Engine>
measured time_engine(Engine& e, const std::vector<std::int64_t>& roots, std::string kernel, std::string variant) {
  e.run(roots[0]);  // warm-up (untimed)
  std::vector<double> t, m;
  for (auto r : roots) {
    e.prepare();  // the untimed reset (the reference's clean_pred / clean_shortest)
    stopwatch sw;
    e.run(r);
    t.push_back(sw.seconds());
    m.push_back(static_cast<double>(e.traversed_edges()));
    GPU500_EXPECTS(e.parents()[r] == r, "benchmark: root is not its own parent");
  }
  const auto s = summarize_teps(t, m);
  measured out{std::move(kernel), std::move(variant), s.harmonic_mean, median(t)};
  std::printf("%-5s %-28s harmonic_mean_TEPS %10.4g   median_time %9.4g s   median nedge %.11g\n", out.kernel.c_str(),
              out.variant.c_str(), out.hmean_teps, out.median_time, median(m));
  std::fflush(stdout);
  return out;
}

template <class V>
std::vector<measured> bench(const graph::kronecker_params& p, int roots_wanted, bool sweep, const std::string& kernels) {
  stopwatch sw;
  const auto el = graph::generate_kronecker(p);
  const double gen = sw.seconds();
  sw.restart();
  // Kernel 1 as the graph500 pipeline times it: the CSR, then the SSSP engine (default options)
  // whose sort reuses the CSR sort's buckets.
  graph::arc_sort_scratch scratch;
  const auto g = graph::build_csr<V>(el, &scratch);
  const double build = sw.seconds();
  sw.restart();
  std::optional<sssp::cpu_engine<V>> k1_sssp;
  if (kernels.find("sssp") != std::string::npos || kernels == "k1") k1_sssp.emplace(g.view(), sssp::cpu_options{}, &scratch);
  const double build_sssp = sw.seconds();
  scratch.release();
  std::printf("SCALE %d edgefactor %d: %lld vertices, %lld arcs, %d-bit ids; generation %.3g s, kernel 1 %.3g s "
              "(CSR %.3g s + SSSP engine rows %.3g s)\n",
              p.scale, p.edgefactor, static_cast<long long>(g.num_vertices), static_cast<long long>(g.num_arcs()),
              static_cast<int>(8 * sizeof(V)), gen, build + build_sssp, build, build_sssp);
  const auto roots =
      graph::pick_search_keys(p, roots_wanted, [&](std::int64_t v) { return g.degree(v) > 0; });
  std::vector<measured> out;
  if (kernels.find("bfs") != std::string::npos) {
    {
      bfs::cpu_engine<V> e(g.view());
      out.push_back(time_engine(e, roots, "bfs", "direction-optimizing"));
    }
    bfs::cpu_options o;
    o.top_down_only = true;
    bfs::cpu_engine<V> e(g.view(), o);
    out.push_back(time_engine(e, roots, "bfs", "top-down only (baseline)"));
  }
  if (kernels == "k1") {
    out.push_back({"generation", "generate_kronecker", 0, gen});
    out.push_back({"kernel1", "build_csr", 0, build});
    out.push_back({"kernel1", "sssp engine rows", 0, build_sssp});
  }
  if (kernels.find("sssp") == std::string::npos) return out;
  out.push_back(time_engine(*k1_sssp, roots, "sssp", "adaptive delta (kernel 1's)"));
  k1_sssp.reset();
  std::vector<float> deltas = {0.1f, 0.f};
  if (sweep) deltas = {0.1f, 0.f, 0.005f, 0.01f, 0.02f, 0.04f, 0.08f, 0.2f, 0.4f};
  for (float d : deltas) {
    sssp::cpu_options o;
    o.delta = d;
    stopwatch build;
    sssp::cpu_engine<V> e(g.view(), o);
    std::printf("sssp  engine construction (rows, ids)  %.3g s\n", build.seconds());
    out.push_back(time_engine(e, roots, "sssp", d > 0 ? "delta " + std::to_string(d) : std::string("adaptive delta")));
  }
  {
    sssp::cpu_options o;
    o.delta = 0.f;
    o.no_light_heavy = true;
    sssp::cpu_engine<V> e(g.view(), o);
    out.push_back(time_engine(e, roots, "sssp", "adaptive, no light/heavy"));
  }
  {
    sssp::cpu_options o;
    o.no_relabel = true;
    sssp::cpu_engine<V> e(g.view(), o);
    out.push_back(time_engine(e, roots, "sssp", "adaptive, graph vertex ids"));
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    graph::kronecker_params p;
    p.scale = 18;
    int roots = 16, vertex_bits = 32, threads = 0;
    bool sweep = false;
    std::string json_path, kernels = "bfs,sssp";
    cli::parser cl("bench_kernels_cpu", "Harmonic-mean TEPS of the CPU BFS and SSSP engines on a Kronecker graph");
    cl.positional("SCALE", p.scale, "log2 of the vertex count (default 18)");
    cl.option("--edgefactor", p.edgefactor, "edges per vertex (default 16)");
    cl.option("--roots", roots, "timed searches per variant (default 16)");
    cl.option("--vertex-bits", vertex_bits, "32 (default) or 64");
    cl.option("--threads", threads, "OpenMP threads (default: all)");
    cl.option("--kernels", kernels, "bfs,sssp (default) | bfs | sssp | k1 (generation and kernel 1 only)");
    cl.flag("--sweep-delta", sweep, "also time SSSP over a range of delta values");
    cl.option("--json", json_path, "write the figures to this JSON file");
    cl.parse(argc, argv);
    if (cl.help_requested()) {
      std::fputs(cl.help().c_str(), stdout);
      return 0;
    }
    p.check();
    if (threads > 0) omp_set_num_threads(threads);
    std::printf("threads %d (hardware threads %u)\n", omp_get_max_threads(), std::thread::hardware_concurrency());
    const auto res = vertex_bits == 32 ? bench<std::uint32_t>(p, roots, sweep, kernels) : bench<std::int64_t>(p, roots, sweep, kernels);
    if (!json_path.empty()) {
      json::value j = json::value::make_object();
      j["scale"] = p.scale;
      j["edgefactor"] = p.edgefactor;
      j["vertex_bits"] = vertex_bits;
      j["threads"] = omp_get_max_threads();
      j["roots"] = roots;
      for (const auto& r : res) {
        json::value x = json::value::make_object();
        x["kernel"] = r.kernel;
        x["variant"] = r.variant;
        x["harmonic_mean_teps"] = r.hmean_teps;
        x["median_time_s"] = r.median_time;
        j["results"].push_back(std::move(x));
      }
      json::write_file(json_path, j);
    }
    return 0;
  } catch (const gpu500::usage_error& e) {
    std::fprintf(stderr, "bench_kernels_cpu: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_kernels_cpu: %s\n", e.what());
    return 1;
  }
}
