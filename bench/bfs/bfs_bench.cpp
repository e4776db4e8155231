// bench/bfs/bfs_bench.cpp — gpu500_bfs_bench: the CUDA Graph500 BFS pipeline used directly, for the
// technique ablation (bench/bfs/ablation.sh: the Enterprise paper's Figure 13 on this GPU).
//
//   gpu500_bfs_bench --scale 22 [--edgefactor 16] [--rmat] [--grid SIDE] [--roots 16]
//                    [--label NAME] [--json FILE] [technique switches: --no-ts, --no-wb, ...]
//
// The technique switches are those of `gpu500 graph500 --backend cuda`, under the same names.
//
// Graphs: Graph500 Kronecker (default), R-MAT (0.45, 0.15, 0.15) with --rmat, or a long-diameter
// 2-D grid of SIDE x SIDE vertices with --grid. Roots: the Graph500 search-key stream. Every search
// is validated on the GPU; TEPS are counted the Graph500 way (nedge of the component / time) and
// summarised by the harmonic mean. Prints one line and, with --json, one JSON object per run.
#include <cstdio>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "gpu500/core/cli.hpp"
#include "gpu500/core/cuda/memory.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/core/stats.hpp"
#include "gpu500/graph/cuda.hpp"
#include "gpu500/graph/kronecker.hpp"
#include "gpu500/graph/shapes.hpp"
#include "gpu500/graph500/cuda_pipeline.hpp"

using namespace gpu500;

namespace {

graph::edge_list grid_graph(std::int64_t side) {
  graph::shape_params sp;
  sp.extents = {side, side};
  sp.weights = false;
  return graph::generate_shape(sp);
}

}  // namespace

int main(int argc, char** argv) try {
  graph::kronecker_params p;
  p.weights = false;
  int roots = 16;
  bool rmat = false, trace = false;
  std::int64_t grid = 0;
  std::string label = "run", json_path;
  graph500::cuda_options o;
  cli::parser cl("gpu500_bfs_bench", "CUDA BFS benchmark: validated searches, harmonic-mean Graph500 GTEPS");
  cl.option("--scale", p.scale, "log2 vertices (Kronecker / R-MAT)");
  cl.option("--edgefactor", p.edgefactor, "edges per vertex (16)");
  cl.flag("--rmat", rmat, "R-MAT initiator 0.45,0.15,0.15 instead of Graph500's");
  cl.option("--grid", grid, "long-diameter graph: a SIDE x SIDE grid (SIDE a power of two)");
  cl.option("--roots", roots, "searches (16)");
  cl.option("--label", label, "name of this configuration in the output");
  cl.option("--json", json_path, "append one JSON object to this file");
  cl.flag("--trace", trace, "print each search's levels (direction, level, frontier size) and time");
  const std::pair<const char*, bool*> switches[] = {
      {"--no-ts", &o.bfs.no_ts},           {"--no-wb", &o.bfs.no_wb},
      {"--no-hc", &o.bfs.no_hc},           {"--no-hub-cache", &o.bfs.no_hub_cache},
      {"--no-device-loop", &o.bfs.no_device_loop}, {"--no-bitmap", &o.bfs.no_bitmap},
      {"--no-sort", &o.no_sort}};
  for (const auto& [name, on] : switches) cl.flag(name, *on, "technique switch, as in gpu500 graph500 --help");
  cl.parse(argc, argv);
  if (cl.help_requested()) {
    std::fputs(cl.help().c_str(), stdout);
    return 0;
  }
  if (rmat) {
    p.a = 4500;
    p.b = p.c = 1500;
  }
  std::string graph_name = rmat ? "rmat" : "kronecker";
  std::unique_ptr<graph500::pipeline> pipe;
  if (grid > 0) {
    int s = 0;
    while ((std::int64_t{1} << s) < grid * grid) ++s;
    if ((std::int64_t{1} << s) != grid * grid) throw usage_error("--grid: SIDE must be a power of two");
    p.scale = s;
    graph_name = "grid" + std::to_string(grid);
    pipe = graph500::make_cuda_pipeline(grid_graph(grid), o);
  } else {
    pipe = graph500::make_cuda_pipeline(p, o);
  }
  const double tgen = pipe->generate();
  const double tcon = pipe->construct();
  {
    const auto [free_b, total_b] = gpu::device_memory();
    std::printf("device memory in use after kernel 1: %.2f GB of %.2f GB (the pipeline's peak estimate: %.2f GB)\n",
                (total_b - free_b) / 1e9, total_b / 1e9,
                graph::cuda::pipeline_device_bytes(p.num_vertices(), p.num_edges(), pipe->vertex_bits() / 8, p.weights,
                                                   !o.no_sort) / 1e9);
  }
  const auto keys = graph::pick_search_keys(p, roots, [&](std::int64_t v) { return pipe->has_edges(v); });
  // Untimed, validated warm-up from the first key (as Graph500 3.0 does).
  pipe->bfs(keys[0]);
  const auto warm = pipe->validate_bfs(keys[0]);
  if (!warm.ok) throw error("warm-up search from " + std::to_string(keys[0]) + " failed validation: " + warm.message);
  std::vector<double> times, edges;
  int valid = 0;
  std::string failure;
  for (std::int64_t r : keys) {
    times.push_back(pipe->bfs(r));
    edges.push_back(static_cast<double>(pipe->bfs_nedge()));
    if (trace)
      std::printf("  root %lld  %.3f ms  %.1f GTEPS  %s\n", static_cast<long long>(r), times.back() * 1e3,
                  edges.back() / times.back() / 1e9, graph500::cuda_level_trace(*pipe).c_str());
    const auto v = pipe->validate_bfs(r);
    if (v.ok)
      ++valid;
    else if (failure.empty())
      failure = "root " + std::to_string(r) + ": " + v.message;
  }
  const auto teps = summarize_teps(times, edges);
  const auto t = summarize(times);
  const double mean_edges = summarize(edges).mean;
  std::printf("%-10s %-10s scale %2d  hmean %8.2f GTEPS  min %8.2f  max %8.2f  mean_time %.3f ms  nedge %.4g  "
              "valid %d/%zu  gen %.2f s  k1 %.3f s  [%s]\n",
              label.c_str(), graph_name.c_str(), p.scale, teps.harmonic_mean / 1e9, teps.min / 1e9, teps.max / 1e9,
              t.mean * 1e3, mean_edges, valid, keys.size(), tgen, tcon, pipe->description().c_str());
  if (!failure.empty()) std::printf("VALIDATION FAILED: %s\n", failure.c_str());
  if (!json_path.empty()) {
    std::ofstream j(json_path, std::ios::app);
    j << "{\"label\":\"" << label << "\",\"graph\":\"" << graph_name << "\",\"scale\":" << p.scale
      << ",\"roots\":" << keys.size() << ",\"valid\":" << valid << ",\"hmean_gteps\":" << teps.harmonic_mean / 1e9
      << ",\"min_gteps\":" << teps.min / 1e9 << ",\"max_gteps\":" << teps.max / 1e9 << ",\"mean_time_s\":" << t.mean
      << ",\"mean_nedge\":" << mean_edges << ",\"generation_s\":" << tgen << ",\"construction_s\":" << tcon
      << ",\"description\":\"" << pipe->description() << "\"}\n";
  }
  return failure.empty() ? 0 : 1;
} catch (const usage_error& e) {
  std::fprintf(stderr, "gpu500_bfs_bench: %s\n", e.what());
  return 2;
} catch (const std::exception& e) {
  std::fprintf(stderr, "gpu500_bfs_bench: error: %s\n", e.what());
  return 1;
}
