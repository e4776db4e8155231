// bench/sssp/main.cpp — Graph500 kernel 3 (SSSP) on one GPU: the CUDA engine on Kronecker graphs.
//
// For each SCALE: generate the Graph500 edge list on the host (bit-identical to the reference), build
// the CSR on the host (kernel 1, 32-bit ids), optionally relabel the vertices by descending degree
// (what the Graph500 CUDA pipeline does), upload it, pick the reference's search keys, and for
// every engine variant run an untimed warm-up then one timed search per key. TEPS follow Graph500:
// nedge / time with nedge = (sum of the CSR degrees of reached vertices) / 2, harmonic mean over the
// keys. Every search of the first variant is validated on the host by a checker written here (it
// shares no code with the engine): parent edge with d(v) == d(parent) + w exactly, triangle rule on
// every arc, reached <=> parent, no parent cycles, nedge recount; other variants validate their
// first key. Baselines measured in the same run: the device-to-device copy bandwidth (the time to
// stream the graph's arcs once is printed beside each search) and the CPU engine on a few keys.
#include <cuda_runtime.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "gpu500/core/cli.hpp"
#include "gpu500/core/cuda/check.cuh"
#include "gpu500/core/cuda/memory.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/core/json.hpp"
#include "gpu500/core/stats.hpp"
#include "gpu500/core/timer.hpp"
#include "gpu500/graph/csr.hpp"
#include "gpu500/graph/kronecker.hpp"
#include "gpu500/sssp/cuda.hpp"
#include "gather.hpp"
#if defined(GPU500_BENCH_HAVE_CPU_SSSP)
#include "gpu500/sssp/sssp.hpp"
#endif

using namespace gpu500;
namespace sc = gpu500::sssp::cuda;
using vid = std::uint32_t;

namespace {

struct variant {
  std::string name;
  sc::options opt;
};

/// "adaptive", "host", "bf", "delta=X", "blocks=N", "grow=N", "binary", "gallop", "nolean", "ilp=K",
/// "vpl=B", "chunk=N", "lrow=N", "grab=N", "inter[=N]", "pf=F", "dscale=F", "baseline" (the unoptimised baseline's settings), joined with '+'.
variant parse_variant(const std::string& spec) {
  variant v{spec, {}};
  std::size_t at = 0;
  while (at <= spec.size()) {
    const std::size_t end = std::min(spec.find('+', at), spec.size());
    const std::string t = spec.substr(at, end - at);
    if (t == "adaptive" || t.empty()) {
    } else if (t == "host") v.opt.loop = sc::loop_kind::host;
    else if (t == "bf") v.opt.algo = sc::algorithm::bellman_ford;
    else if (t == "profile") v.opt.profile = true;
    else if (t == "unsorted") v.opt.unsorted_rows = true;
    else if (t == "nofilter") v.opt.no_settled_filter = true;
    else if (t == "binary") v.opt.cut = sc::cut_search::binary;
    else if (t == "gallop") v.opt.cut = sc::cut_search::gallop;
    else if (t == "nolean") v.opt.no_lean = true;
    else if (t == "trace") v.opt.trace = true;
    else if (t == "qbits") v.opt.queue_bitmaps = true;
    else if (t == "norows") v.opt.no_row_records = true;
    else if (t.rfind("pull=", 0) == 0) v.opt.pull_above = cli::parse_double(t.substr(5), "pull");
    else if (t == "baseline") v.opt = sc::baseline_options(v.opt);  // the unoptimised baseline
    else if (t.rfind("ilp=", 0) == 0) v.opt.arcs_per_lane = static_cast<int>(cli::parse_int(t.substr(4), "ilp"));
    else if (t.rfind("vpl=", 0) == 0) v.opt.vertices_per_lane = static_cast<int>(cli::parse_int(t.substr(4), "vpl"));
    else if (t.rfind("chunk=", 0) == 0) v.opt.chunk = static_cast<int>(cli::parse_int(t.substr(6), "chunk"));
    else if (t.rfind("lrow=", 0) == 0) v.opt.light_row = static_cast<int>(cli::parse_int(t.substr(5), "lrow"));
    else if (t.rfind("grab=", 0) == 0) v.opt.grab = static_cast<int>(cli::parse_int(t.substr(5), "grab"));
    else if (t == "inter") v.opt.interleave = 1;
    else if (t.rfind("pf=", 0) == 0) v.opt.pull_first = cli::parse_double(t.substr(3), "pf");
    else if (t.rfind("inter=", 0) == 0) v.opt.interleave = static_cast<int>(cli::parse_int(t.substr(6), "inter"));
    else if (t.rfind("dscale=", 0) == 0) v.opt.delta_scale = static_cast<float>(cli::parse_double(t.substr(7), "dscale"));
    else if (t.rfind("delta=", 0) == 0) v.opt.delta = static_cast<float>(cli::parse_double(t.substr(6), "delta"));
    else if (t.rfind("blocks=", 0) == 0) v.opt.blocks_per_sm = static_cast<int>(cli::parse_int(t.substr(7), "blocks"));
    else if (t.rfind("grow=", 0) == 0) v.opt.grow_below = cli::parse_int(t.substr(5), "grow");
    else throw usage_error("unknown variant part '" + t + "'");
    at = end + 1;
  }
  return v;
}

/// Empty when every reached vertex's parent chain ends at the root: its depth (steps to the root)
/// is found by walking up to a vertex of known depth; a walk of more than n steps is a cycle.
std::string parents_reach_root(index_t root, const std::vector<std::int64_t>& parent) {
  const auto n = static_cast<index_t>(parent.size());
  std::vector<index_t> depth(static_cast<std::size_t>(n), -1), walk;
  depth[root] = 0;
  for (index_t v = 0; v < n; ++v) {
    walk.clear();
    for (index_t x = v; parent[x] >= 0 && depth[x] < 0; x = parent[x]) {
      if (static_cast<index_t>(walk.size()) > n) return "parent cycle above vertex " + std::to_string(v);
      walk.push_back(x);
    }
    if (walk.empty()) continue;
    const index_t top = parent[walk.back()];
    if (depth[top] < 0) return "parent chain from " + std::to_string(v) + " does not reach the root";
    for (std::size_t i = walk.size(); i-- > 0;) depth[walk[i]] = depth[top] + static_cast<index_t>(walk.size() - i);
  }
  return {};
}

/// Host validator (independent of the engine): empty string when the search is valid.
std::string validate(const graph::csr<vid>& g, index_t root, const std::vector<std::int64_t>& parent,
                     const std::vector<float>& dist, index_t engine_nedge) {
  const index_t n = g.num_vertices;
  if (parent[root] != root || dist[root] != 0.0f) return "root is not its own parent at distance 0";
  std::vector<std::string> errs(static_cast<std::size_t>(omp_get_max_threads()));
  index_t degsum = 0;
#pragma omp parallel for schedule(dynamic, 4096) reduction(+ : degsum)
  for (index_t v = 0; v < n; ++v) {
    std::string& err = errs[static_cast<std::size_t>(omp_get_thread_num())];
    if (!err.empty()) continue;
    const std::int64_t p = parent[v];
    const bool reached = p >= 0;
    if (p < -1 || p >= n) {
      err = "parent out of range at " + std::to_string(v);
      continue;
    }
    if (reached != (dist[v] >= 0.0f) || (!reached && dist[v] != -1.0f)) {
      err = "parent/distance disagree at " + std::to_string(v);
      continue;
    }
    if (!reached) continue;
    degsum += g.degree(v);
    bool confirmed = v == root;
    for (index_t k = g.offsets[v]; k < g.offsets[v + 1]; ++k) {
      const index_t u = g.columns[k];
      const float w = g.weights[k];
      if (parent[u] < 0) {
        err = "edge connecting visited " + std::to_string(v) + " and unvisited " + std::to_string(u);
        break;
      }
      if (dist[u] + w < dist[v]) {
        err = "triangle rule violated on " + std::to_string(u) + "-" + std::to_string(v);
        break;
      }
      if (u == p && dist[u] + w == dist[v]) confirmed = true;
    }
    if (err.empty() && !confirmed) err = "vertex " + std::to_string(v) + " not confirmed from its parent";
  }
  for (const auto& e : errs)
    if (!e.empty()) return e;
  if (degsum / 2 != engine_nedge)
    return "nedge " + std::to_string(engine_nedge) + " != validator's " + std::to_string(degsum / 2);
  return parents_reach_root(root, parent);
}

/// A relabelling's maps in device memory (engine::report_original_ids): the searches on the
/// relabelled graph then report in the original ids, the mapping timed with them.
class device_maps {
 public:
  device_maps(const std::vector<index_t>& old2new, const graph::csr<vid>& relabelled) {
    const auto n = old2new.size();
    std::vector<vid> o2n(n), n2o(n);
    for (std::size_t o = 0; o < n; ++o) {
      o2n[o] = static_cast<vid>(old2new[o]);
      n2o[static_cast<std::size_t>(old2new[o])] = static_cast<vid>(o);
    }
    while (non_isolated_ < relabelled.num_vertices && relabelled.degree(non_isolated_) > 0) ++non_isolated_;
    o2n_ = gpu::to_device(o2n);
    n2o_ = gpu::to_device(n2o);
  }
  [[nodiscard]] graph::id_map<vid> ids() const { return {n2o_.data(), o2n_.data(), non_isolated_}; }

 private:
  gpu::device_buffer<vid> o2n_, n2o_;
  index_t non_isolated_ = 0;
};

/// Renumber vertices by descending degree (ties by id), as the GPU pipeline's kernel 1 does.
graph::csr<vid> relabel(const graph::csr<vid>& g, std::vector<index_t>& old2new) {
  const index_t n = g.num_vertices;
  std::vector<index_t> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), index_t{0});
  std::stable_sort(order.begin(), order.end(), [&](index_t a, index_t b) { return g.degree(a) > g.degree(b); });
  old2new.assign(static_cast<std::size_t>(n), 0);
  for (index_t i = 0; i < n; ++i) old2new[order[i]] = i;
  graph::csr<vid> r;
  r.num_vertices = n;
  r.offsets.assign(static_cast<std::size_t>(n + 1), 0);
  for (index_t i = 0; i < n; ++i) r.offsets[i + 1] = r.offsets[i] + g.degree(order[i]);
  r.columns.resize(g.columns.size());
  r.weights.resize(g.weights.size());
#pragma omp parallel for schedule(dynamic, 1024)
  for (index_t i = 0; i < n; ++i) {
    const index_t o = order[i];
    index_t at = r.offsets[i];
    for (index_t k = g.offsets[o]; k < g.offsets[o + 1]; ++k, ++at) {
      r.columns[at] = static_cast<vid>(old2new[g.columns[k]]);
      r.weights[at] = g.weights[k];
    }
  }
  return r;
}

/// The phase trace of the last search, summed per phase kind and input-size class, with the
/// inputs each kind took in all (vertices, list entries or chunks) against the graph's n: for the
/// light and heavy lists, how often a vertex was queued on average.
void print_trace(const std::vector<sc::phase_record>& t, index_t n, double gather_gs, bool each) {
  static const char* names[6] = {"scan", "light", "light-chunks", "heavy", "heavy-chunks", "pull"};
  // size classes: < 1024, < 32768, >= 32768 inputs (vertices, entries or chunks)
  double ms[6][3] = {}, total = 0, inputs[6] = {}, arcs[6] = {}, cand[6] = {}, impr[6] = {}, crit[6] = {};
  int count[6][3] = {};
  for (const auto& r : t) {
    if (r.phase < 0 || r.phase > 5) continue;
    const int c = r.size < 1024 ? 0 : r.size < 32768 ? 1 : 2;
    ms[r.phase][c] += r.us / 1e3;
    ++count[r.phase][c];
    total += r.us / 1e3;
    inputs[r.phase] += static_cast<double>(r.size);
    arcs[r.phase] += static_cast<double>(r.arcs);
    cand[r.phase] += static_cast<double>(r.candidates);
    impr[r.phase] += static_cast<double>(r.improved);
    crit[r.phase] += static_cast<double>(r.max_step_arcs);
  }
  std::printf("       trace (last key, %.3f ms in %zu phases; per kind: phases/ms with input <1K | <32K | >=32K; "
              "inputs in all, / n; arcs visited, candidates, improvements in all; the phases' busiest warp steps "
              "in arcs, summed):\n",
              total, t.size());
  for (int p = 0; p < 6; ++p)
    std::printf("         %-13s %4d/%7.3f | %4d/%7.3f | %4d/%7.3f   %12.0f  %6.3f  %12.0f %12.0f %12.0f %10.0f\n",
                names[p], count[p][0], ms[p][0], count[p][1], ms[p][1], count[p][2], ms[p][2], inputs[p],
                inputs[p] / static_cast<double>(n), arcs[p], cand[p], impr[p], crit[p]);
  if (each) {  // one line per phase
    std::printf("       phases: step kind size us arcs candidates improved busiest-step-arcs\n");
    for (std::size_t k = 0; k < t.size(); ++k)
      std::printf("         %4zu %-13s %10lld %9.1f %11lld %10lld %10lld %8lld\n", k,
                  t[k].phase >= 0 && t[k].phase <= 5 ? names[t[k].phase] : "?", static_cast<long long>(t[k].size),
                  t[k].us, static_cast<long long>(t[k].arcs), static_cast<long long>(t[k].candidates),
                  static_cast<long long>(t[k].improved), static_cast<long long>(t[k].max_step_arcs));
  }
  // Every light arc reads its target's word at a random position: compare with the random-read
  // rate measured over an array of the same size.
  const double light_ms = ms[1][0] + ms[1][1] + ms[1][2] + ms[2][0] + ms[2][1] + ms[2][2];
  if (light_ms > 0)
    std::printf("       light and light-chunk phases: %.0f arcs in %.3f ms, %.2f G arcs/s = %.1f%% of the random "
                "8-byte read rate (%.2f G/s)\n",
                arcs[1] + arcs[2], light_ms, (arcs[1] + arcs[2]) / light_ms / 1e6,
                gather_gs > 0 ? 100.0 * (arcs[1] + arcs[2]) / light_ms / 1e6 / gather_gs : 0.0, gather_gs);
}

double copy_bandwidth_gbs(std::size_t bytes) {
  gpu::device_buffer<unsigned char> da, db;
  try {
    da = gpu::device_buffer<unsigned char>(bytes);
    db = gpu::device_buffer<unsigned char>(bytes);
  } catch (const resource_error&) {
    return 0;
  }
  void* a = da.data();
  void* b = db.data();
  cudaMemset(a, 1, bytes);
  cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice);
  cudaDeviceSynchronize();
  double best = 1e30;
  for (int i = 0; i < 5; ++i) {
    const double t0 = wall_time();
    cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice);
    cudaDeviceSynchronize();
    best = std::min(best, wall_time() - t0);
  }
  return 2.0 * static_cast<double>(bytes) / best / 1e9;  // read + write
}

}  // namespace

int main(int argc, char** argv) try {
  std::vector<std::int64_t> scales = {20, 22};
  int nroots = 16, cpu_roots = 0, validate_first = 1 << 30;
  std::string variants_s = "adaptive,baseline,trace,baseline+trace,vpl=1,ilp=1,binary,nolean,norows,qbits,chunk=2048,blocks=3,delta=0.1";
  std::string json_path;
  bool relabel_too = false, relabel_all = false, skip_orig = false, no_validate = false, trace_phases = false;
  cli::parser p("bench_sssp_gpu", "Graph500 SSSP (kernel 3) on one GPU: harmonic-mean GTEPS per variant");
  p.option("--scales", scales, "SCALEs to run (comma-separated)");
  p.option("--roots", nroots, "search keys per SCALE (Graph500: 64)");
  p.option("--variants", variants_s, "engine variants, comma-separated: adaptive|baseline|host|bf|profile|trace|qbits|norows|unsorted|nofilter|binary|gallop|nolean|ilp=K|vpl=B|chunk=N|lrow=N|grab=N|inter[=N]|pf=F|dscale=F|pull=F|delta=X|blocks=N|grow=N joined by +");
  p.option("--cpu-roots", cpu_roots, "also time the CPU engine on this many keys (0: no)");
  p.flag("--relabel", relabel_too, "also run the first variant on the degree-relabelled graph (the pipeline's layout)");
  p.flag("--relabel-all", relabel_all, "run every variant on the degree-relabelled graph too (implies --relabel)");
  p.flag("--skip-orig", skip_orig, "with --relabel: do not run the generator's ids");
  p.flag("--trace-phases", trace_phases, "trace variants: also print every phase of the last key");
  p.flag("--no-validate", no_validate, "skip host validation");
  p.option("--validate-first", validate_first, "validate at most this many searches of the first variant (default: all)");
  p.option("--json", json_path, "write every figure to this file");
  p.parse(argc, argv);
  if (p.help_requested()) {
    std::puts(p.help().c_str());
    return 0;
  }
  std::vector<variant> variants;
  for (std::size_t at = 0; at <= variants_s.size();) {
    const std::size_t end = std::min(variants_s.find(',', at), variants_s.size());
    variants.push_back(parse_variant(variants_s.substr(at, end - at)));
    at = end + 1;
  }
  int dev = 0;
  cudaDeviceProp prop{};
  if (cudaGetDevice(&dev) != cudaSuccess || cudaGetDeviceProperties(&prop, dev) != cudaSuccess) {
    std::fprintf(stderr, "bench_sssp_gpu: no CUDA device\n");
    return 1;
  }
  const double bw = copy_bandwidth_gbs(std::size_t{1} << 30);
  std::printf("device: %s, %d SMs, %.1f GiB; device-to-device copy %.0f GB/s (read+write)\n", prop.name,
              prop.multiProcessorCount, static_cast<double>(prop.totalGlobalMem) / (1 << 30), bw);
  std::printf("host: %d OpenMP threads\n", omp_get_max_threads());
  json::value out = json::value::make_object();
  out["device"] = prop.name;
  out["copy_bandwidth_gbs"] = bw;
  json::value rows = json::value::make_array();
  bool all_valid = true;

  std::printf("%-6s %-8s %-22s %10s %10s %10s %10s %8s %8s %8s %10s %s\n", "SCALE", "graph", "variant", "hmean_GTEPS",
              "min_ms", "med_ms", "max_ms", "buckets", "lights", "phases", "stream_ms", "valid");
  for (const auto scale64 : scales) {
    graph::kronecker_params kp;
    kp.scale = static_cast<int>(scale64);
    double t0 = wall_time();
    graph::csr<vid> g0;
    {
      const auto el = graph::generate_kronecker(kp);
      const double tgen = wall_time() - t0;
      t0 = wall_time();
      g0 = graph::build_csr<vid>(el);
      std::fprintf(stderr, "SCALE %d: generated %lld edges in %.1f s, CSR %lld arcs in %.1f s\n", kp.scale,
                   static_cast<long long>(el.size()), tgen, static_cast<long long>(g0.num_arcs()), wall_time() - t0);
    }
    const auto roots0 = graph::pick_search_keys(kp, nroots, [&](std::int64_t v) { return g0.degree(v) > 0; });
    // Time to read every arc (column + weight) once at the measured copy bandwidth (a floor).
    const double stream_ms =
        bw > 0 ? static_cast<double>(g0.num_arcs()) * (sizeof(vid) + sizeof(float)) / (bw / 2 * 1e9) * 1e3 : 0;
    // Random 8-byte reads per second over an array as large as the engine's packed words.
    const double gather_gs = random_gather_rate(static_cast<std::size_t>(g0.num_vertices));
    std::printf("SCALE %d: random 8-byte reads over %lld words: %.2f G/s\n", kp.scale,
                static_cast<long long>(g0.num_vertices), gather_gs);

    struct labelled {
      std::string name;
      const graph::csr<vid>* g;
      std::vector<index_t> roots;
      std::vector<variant> vars;
      const device_maps* maps;  ///< relabelled: the output is mapped back to g0's ids (timed)
    };
    std::vector<labelled> graphs;
    if (relabel_all) relabel_too = true;
    if (!(skip_orig && relabel_too))
      graphs.push_back({"orig", &g0, std::vector<index_t>(roots0.begin(), roots0.end()), variants, nullptr});
    graph::csr<vid> g1;
    std::unique_ptr<device_maps> maps1;
    if (relabel_too) {
      std::vector<index_t> o2n;
      g1 = relabel(g0, o2n);
      maps1 = std::make_unique<device_maps>(o2n, g1);
      std::vector<index_t> r1;
      for (auto r : roots0) r1.push_back(o2n[r]);
      graphs.push_back(
          {"relabel", &g1, r1, relabel_all ? variants : std::vector<variant>{variants.front()}, maps1.get()});
    }
    for (const auto& lg : graphs) {
      const graph::csr<vid>& g = *lg.g;
      const sc::device_csr<vid> dg(g);
      for (std::size_t vi = 0; vi < lg.vars.size(); ++vi) {
        const variant& var = lg.vars[vi];
        sc::engine<vid> eng(dg.view(), var.opt);
        if (lg.maps) eng.report_original_ids(lg.maps->ids());
        eng.run(lg.roots[0]);  // warm-up (untimed, as the reference's)
        std::vector<double> secs, edges;
        std::int64_t buckets = 0, lights = 0, phases = 0;
        double phase_ms[6] = {0, 0, 0, 0, 0, 0};
        int validated = 0, failed = 0;
        std::string first_error;
        std::vector<std::int64_t> parent(static_cast<std::size_t>(g.num_vertices));
        std::vector<float> dist(static_cast<std::size_t>(g.num_vertices));
        for (std::size_t k = 0; k < lg.roots.size(); ++k) {
          eng.prepare();  // clean_shortest: untimed, as in the reference and the pipeline
          const double ts = wall_time();
          eng.run(lg.roots[k]);
          const double t = wall_time() - ts;
          const index_t ne = eng.traversed_edges();
          secs.push_back(t);
          edges.push_back(static_cast<double>(ne));
          const auto st = eng.last_stats();
          buckets += st.buckets;
          lights += st.light_steps;
          phases += st.steps;
          for (int i = 0; i < 6; ++i) phase_ms[i] += st.phase_ms[i];
          if (!no_validate && (k == 0 || (vi == 0 && static_cast<int>(k) < validate_first))) {
            eng.copy_parents(parent);
            eng.copy_distances(dist);
            // With maps the output is in g0's ids (the relabelling is invisible, as in the pipeline).
            const std::string e = lg.maps ? validate(g0, roots0[k], parent, dist, ne) : validate(g, lg.roots[k], parent, dist, ne);
            ++validated;
            if (!e.empty()) {
              ++failed;
              if (first_error.empty()) first_error = "root " + std::to_string(lg.roots[k]) + ": " + e;
            }
          }
        }
        all_valid = all_valid && failed == 0;
        const auto ts = summarize_teps(secs, edges);
        const auto tsum = summarize(secs);
        const double nr = static_cast<double>(lg.roots.size());
        std::printf("%-6d %-8s %-22s %10.2f %10.3f %10.3f %10.3f %8.1f %8.1f %8.1f %10.3f %d/%d%s%s\n", kp.scale,
                    lg.name.c_str(), var.name.c_str(), ts.harmonic_mean / 1e9, tsum.min * 1e3, tsum.median * 1e3,
                    tsum.max * 1e3, static_cast<double>(buckets) / nr, static_cast<double>(lights) / nr,
                    static_cast<double>(phases) / nr, stream_ms, validated - failed, validated,
                    failed ? " FAILED " : "", first_error.c_str());
        if (var.opt.trace) print_trace(eng.last_trace(), g.num_vertices, gather_gs, trace_phases);
        if (var.opt.profile)
          std::printf(
              "       profile (mean ms per search): scan %.3f light %.3f light-chunks %.3f heavy %.3f heavy-chunks %.3f "
              "pull %.3f\n",
              phase_ms[0] / nr, phase_ms[1] / nr, phase_ms[2] / nr, phase_ms[3] / nr, phase_ms[4] / nr, phase_ms[5] / nr);
        std::fflush(stdout);
        json::value r = json::value::make_object();
        r["scale"] = kp.scale;
        r["graph"] = lg.name;
        r["variant"] = var.name;
        r["engine"] = eng.description();
        r["harmonic_mean_teps"] = ts.harmonic_mean;
        r["min_teps"] = ts.min;
        r["max_teps"] = ts.max;
        r["seconds"] = secs;
        r["nedge"] = edges;
        r["mean_buckets"] = static_cast<double>(buckets) / nr;
        r["mean_light_steps"] = static_cast<double>(lights) / nr;
        r["mean_phases"] = static_cast<double>(phases) / nr;
        r["stream_once_ms"] = stream_ms;
        r["random_read_gs"] = gather_gs;
        r["phase_ms"] = std::vector<double>(phase_ms, phase_ms + 6);
        r["validated"] = validated;
        r["failed"] = failed;
        r["first_error"] = first_error;
        rows.push_back(std::move(r));
      }
    }
#if defined(GPU500_BENCH_HAVE_CPU_SSSP)
    if (cpu_roots > 0) {
      sssp::cpu_engine<vid> cpu(g0.view());
      std::vector<double> secs, edges;
      for (int k = 0; k < cpu_roots && k < static_cast<int>(roots0.size()); ++k) {
        cpu.prepare();  // untimed, as the pipeline does
        const double ts = wall_time();
        cpu.run(roots0[k]);
        secs.push_back(wall_time() - ts);
        edges.push_back(static_cast<double>(cpu.traversed_edges()));
      }
      const auto ts = summarize_teps(secs, edges);
      std::printf("%-6d %-8s %-22s %10.3f %10.3f %10s %10s   (CPU engine, %d threads, %d keys)\n", kp.scale, "orig",
                  "cpu", ts.harmonic_mean / 1e9, summarize(secs).min * 1e3, "-", "-", omp_get_max_threads(),
                  static_cast<int>(secs.size()));
      json::value r = json::value::make_object();
      r["scale"] = kp.scale;
      r["variant"] = "cpu";
      r["harmonic_mean_teps"] = ts.harmonic_mean;
      r["seconds"] = secs;
      rows.push_back(std::move(r));
    }
#endif
  }
  out["runs"] = std::move(rows);
  out["all_valid"] = all_valid;
  if (!json_path.empty()) json::write_file(json_path, out);
  std::printf("validation: %s\n", all_valid ? "all validated searches passed" : "FAILURES (see above)");
  return all_valid ? 0 : 1;
} catch (const usage_error& e) {
  std::fprintf(stderr, "bench_sssp_gpu: %s\n", e.what());
  return 2;
} catch (const std::exception& e) {
  std::fprintf(stderr, "bench_sssp_gpu: %s\n", e.what());
  return 1;
}
