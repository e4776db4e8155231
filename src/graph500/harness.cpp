// The Graph500 benchmark loop and its output block (after the reference's src/main.c), with the
// GreenGraph500 energy window (--energy, docs/energy.md) and the per-root progress lines.
#include "gpu500/graph500/harness.hpp"

#include <cmath>
#include <cstdarg>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "gpu500/core/error.hpp"
#include "gpu500/core/stats.hpp"
#include "gpu500/core/timer.hpp"

namespace gpu500::graph500 {

double energy_figures::teps_per_watt() const {
  return joules > 0 ? edges / joules : std::numeric_limits<double>::quiet_NaN();
}

std::size_t edge_list_bytes(const graph::kronecker_params& p) {
  return static_cast<std::size_t>(p.num_edges()) * (2 * sizeof(std::int64_t) + (p.weights ? sizeof(float) : 0));
}

namespace {

void progress(const run_config& cfg, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
void progress(const run_config& cfg, const char* fmt, ...) {
  if (!cfg.progress) return;
  va_list ap;
  va_start(ap, fmt);
  std::vfprintf(stderr, fmt, ap);
  va_end(ap);
  std::fflush(stderr);
}

enum class kernel { bfs, sssp };

/// Validates the last search (the pipeline compares the kernel's nedge); returns false (and fills r.failure) when validation fails.
bool validated(pipeline& p, kernel k, index_t root, run_result& r, double* seconds) {
  stopwatch sw;
  const validation v = k == kernel::bfs ? p.validate_bfs(root) : p.validate_sssp(root);
  *seconds = sw.seconds();
  if (!v.ok) {
    r.valid = false;
    r.failure = std::string(k == kernel::bfs ? "BFS" : "SSSP") + " from root " + std::to_string(root) +
                " failed validation: " + v.message;
    return false;
  }
  return true;
}

bool run_kernel(pipeline& p, kernel k, const run_config& cfg, run_result& r, kernel_figures& f) {
  const char* name = k == kernel::bfs ? "bfs" : "sssp";
  // Untimed warm-up from the first key, validated (Graph500 3.0).
  {
    const index_t root = r.roots.front();
    k == kernel::bfs ? p.bfs(root) : p.sssp(root);
    double vs = 0;
    if (cfg.validate && !validated(p, k, root, r, &vs)) return false;
  }
  const stopwatch phase;
  const std::size_t n = r.roots.size();
  for (std::size_t i = 0; i < n; ++i) {
    const index_t root = r.roots[i];
    const double t = k == kernel::bfs ? p.bfs(root) : p.sssp(root);
    const index_t ne = k == kernel::bfs ? p.bfs_nedge() : p.sssp_nedge();
    f.seconds.push_back(t);
    f.nedge.push_back(static_cast<double>(ne));
    double vs = -1;
    if (cfg.validate && !validated(p, k, root, r, &vs)) return false;
    f.validate_seconds.push_back(vs);
    // Time left in this phase: the mean time per key so far (search, validation, bookkeeping).
    const double left = phase.seconds() / static_cast<double>(i + 1) * static_cast<double>(n - i - 1);
    progress(cfg, "%s %zu/%zu: root %lld, %g s, %lld edges, %.4g GTEPS%s, ~%.3g s left\n", name, i + 1, n,
             static_cast<long long>(root), t, static_cast<long long>(ne), ne / t * 1e-9,
             cfg.validate ? ", valid" : "", left);
  }
  return true;
}

double over_ranks(const std::function<double(double)>& op, double x) { return op ? op(x) : x; }

/// GreenGraph500's energy loop: whole passes over the keys (the timed searches' nedge counted
/// again, the outputs validated already) until the window reaches energy_window_seconds.
void energy_window(pipeline& p, kernel k, const run_config& cfg, energy::meter& m, kernel_figures& f,
                   const std::vector<std::int64_t>& roots) {
  const char* name = k == kernel::bfs ? "bfs" : "sssp";
  energy_figures& e = f.energy;
  m.start();
  double elapsed = 0, shown = -1;
  do {
    for (std::size_t i = 0; i < roots.size(); ++i) {
      k == kernel::bfs ? p.bfs(roots[i]) : p.sssp(roots[i]);
      e.edges += f.nedge[i];
    }
    e.searches += static_cast<long long>(roots.size());
    ++e.passes;
    elapsed = over_ranks(cfg.max_over_ranks, m.sample());  // every rank decides alike
    if (elapsed - shown >= 0.5 || elapsed >= energy_window_seconds) {  // a line per half second at most
      progress(cfg, "%s energy window: pass %d, %.3g of %g s\n", name, e.passes, elapsed, energy_window_seconds);
      shown = elapsed;
    }
  } while (elapsed < energy_window_seconds);
  const energy::window w = m.stop();
  e.seconds = over_ranks(cfg.max_over_ranks, w.seconds);
  e.joules = over_ranks(cfg.sum_over_ranks, w.joules);
  e.measured = true;
}

/// The energy meter of the run (with cfg.energy), or nullptr and r.energy_unavailable, with one
/// stderr line from the lead process. Over MPI every rank must have a counter.
std::unique_ptr<energy::meter> open_meter(const run_config& cfg, run_result& r) {
  if (!cfg.energy) return nullptr;
  std::string why;
  std::unique_ptr<energy::counter> c = energy::open_counter(cfg.energy_source, &why);
  const double missing = over_ranks(cfg.sum_over_ranks, c ? 0.0 : 1.0);
  if (missing == 0) {
    r.energy_meter = c->name();
    return std::make_unique<energy::meter>(std::move(c));
  }
  r.energy_unavailable = c ? "energy is unavailable on " + std::to_string(static_cast<long long>(missing)) + " rank(s)" : why;
  if (cfg.lead) std::fprintf(stderr, "graph500: energy not measured: %s\n", r.energy_unavailable.c_str());
  return nullptr;
}

// The reference's key field: the key left-justified in 32 characters.
void line(std::FILE* out, const char* key, const char* fmt, double v) {
  std::fprintf(out, "%-32s", key);
  std::fprintf(out, fmt, v);
  std::fputc('\n', out);
}
void line_int(std::FILE* out, const char* key, long long v) { std::fprintf(out, "%-32s%lld\n", key, v); }

void print_stats(std::FILE* out, const char* prefix, const char* suffix, const summary& s, const char* fmt) {
  const char* names[] = {"min", "firstquartile", "median", "thirdquartile", "max", "mean", "stddev"};
  const double vals[] = {s.min, s.first_quartile, s.median, s.third_quartile, s.max, s.mean, s.stddev};
  char key[64];
  for (int i = 0; i < 7; ++i) {
    std::snprintf(key, sizeof key, "%s%s_%s:", prefix, names[i], suffix);
    line(out, key, fmt, vals[i]);
  }
}

void print_teps(std::FILE* out, const char* prefix, const kernel_figures& f) {
  const teps_summary t = summarize_teps(f.seconds, f.nedge);
  const char* names[] = {"min", "firstquartile", "median", "thirdquartile", "max"};
  const double vals[] = {t.min, t.first_quartile, t.median, t.third_quartile, t.max};
  char key[64];
  for (int i = 0; i < 5; ++i) {
    std::snprintf(key, sizeof key, "%s%s_TEPS:", prefix, names[i]);
    line(out, key, "%g", vals[i]);
  }
  std::snprintf(key, sizeof key, "%sharmonic_mean_TEPS:     !", prefix);
  line(out, key, "%g", t.harmonic_mean);
  std::snprintf(key, sizeof key, "%sharmonic_stddev_TEPS:", prefix);
  line(out, key, "%g", t.harmonic_stddev);
}

// GreenGraph500's figures of a kernel's energy window, in the block's key format.
void print_energy(std::FILE* out, const char* prefix, const energy_figures& e) {
  char key[64];
  const auto row = [&](const char* name, const char* fmt, double v) {
    std::snprintf(key, sizeof key, "%s%s:", prefix, name);
    line(out, key, fmt, v);
  };
  row("energy_window_time", "%g", e.seconds);
  row("energy_searches", "%.0f", static_cast<double>(e.searches));
  row("energy_joules", "%g", e.joules);
  row("average_power_watts", "%g", e.watts());
  row("TEPS_per_watt", "%g", e.teps_per_watt());
}

summary validate_summary(const run_config& cfg, const kernel_figures& f) {
  if (!cfg.validate) {
    summary s;
    s.min = s.first_quartile = s.median = s.third_quartile = s.max = s.mean = -1;
    s.stddev = 0;
    return s;
  }
  return summarize(f.validate_seconds);
}

/// Figures for a kernel that did not run (SKIP_BFS): zeros, as the reference's untouched arrays.
kernel_figures zeros_like(const kernel_figures& other) {
  kernel_figures z;
  z.seconds.assign(other.nedge.size(), 0.0);
  z.nedge = other.nedge;
  z.validate_seconds.assign(other.nedge.size(), 0.0);
  return z;
}

/// The reference's search keys (graph::pick_search_keys). With cfg.distinct_roots, the first key
/// whose candidates all fail counts the vertices with an edge, and if there are fewer of them
/// than keys asked the run stops with a usage_error instead of drawing N candidates for every
/// remaining key.
std::vector<std::int64_t> search_keys(const pipeline& p, const run_config& cfg) {
  const auto has_edges = [&](std::int64_t v) { return p.has_edges(v); };
  bool counted = false;
  const auto on_exhausted = [&] {
    if (!cfg.distinct_roots || counted) return;
    const std::int64_t n = cfg.graph.num_vertices();
    std::int64_t with_edges = 0;
    for (std::int64_t v = 0; v < n; ++v) with_edges += p.has_edges(v) ? 1 : 0;
    if (with_edges < cfg.num_roots)
      throw usage_error("--roots " + std::to_string(cfg.num_roots) + " exceeds the " + std::to_string(with_edges) +
                        " vertices with an edge (of " + std::to_string(n) + ")");
    counted = true;
  };
  return graph::pick_search_keys(cfg.graph, cfg.num_roots, has_edges, on_exhausted);
}

}  // namespace

run_result run(pipeline& p, const run_config& cfg) {
  GPU500_EXPECTS(cfg.num_roots >= 1, "at least one search key");
  GPU500_EXPECTS(cfg.run_bfs || cfg.run_sssp, "nothing to run");
  run_result r;
  progress(cfg, "graph500: SCALE %d, edgefactor %d, %s\n", cfg.graph.scale, cfg.graph.edgefactor, p.description().c_str());
  r.generation_seconds = p.generate();
  progress(cfg, "graph_generation: %g s\n", r.generation_seconds);
  r.construction_seconds = p.construct();
  progress(cfg, "construction_time: %g s\n", r.construction_seconds);
  r.roots = search_keys(p, cfg);
  const std::unique_ptr<energy::meter> meter = open_meter(cfg, r);  // after kernel 1: the device is chosen
  if (cfg.run_bfs) {
    if (!run_kernel(p, kernel::bfs, cfg, r, r.bfs)) return r;
    if (meter) energy_window(p, kernel::bfs, cfg, *meter, r.bfs, r.roots);
  }
  if (cfg.run_sssp) {
    if (!run_kernel(p, kernel::sssp, cfg, r, r.sssp)) return r;
    if (meter) energy_window(p, kernel::sssp, cfg, *meter, r.sssp, r.roots);
  }
  if (!cfg.run_bfs) r.bfs = zeros_like(r.sssp);
  return r;
}

run_result run_and_report(pipeline& p, run_config cfg, std::FILE* out, const std::string& json_path,
                          const dist::communicator& comm) {
  const bool root = comm.rank() == 0;
  cfg.num_processes = comm.size();
  cfg.progress = cfg.progress && root;
  cfg.lead = root;
  if (comm.size() > 1) {  // the energy window: every rank's counter summed, the slowest rank's seconds
    cfg.sum_over_ranks = [&comm](double x) { return comm.allreduce(x, dist::reduce_op::sum); };
    cfg.max_over_ranks = [&comm](double x) { return comm.allreduce(x, dist::reduce_op::max); };
  }
  run_result r = run(p, cfg);
  json::value trace;  // collective over ranks: every rank's seconds of each level
  if (!json_path.empty()) trace = p.trace();
  if (root) {
    print_output_block(out, cfg, r);
    std::fflush(out);
    if (!json_path.empty()) {
      json::value j = to_json(cfg, r, p);
      if (trace.is_object()) j["trace"] = std::move(trace);
      json::write_file(json_path, j);
    }
  }
  if (!r.valid) throw error(r.failure);
  return r;
}

void select_kernels(run_config& cfg, const std::string& kernels) {
  if (kernels == "bfs,sssp" || kernels == "sssp,bfs") {
    cfg.run_bfs = cfg.run_sssp = true;
  } else if (kernels == "bfs") {
    cfg.run_bfs = true;
    cfg.run_sssp = false;
  } else if (kernels == "sssp") {
    cfg.run_bfs = false;
    cfg.run_sssp = true;
  } else {
    throw usage_error("kernels: expected bfs,sssp | bfs | sssp, got '" + kernels + "'");
  }
}

void apply_environment(run_config& cfg) {
  if (std::getenv("SKIP_BFS") != nullptr) cfg.run_bfs = false;
  if (std::getenv("SKIP_VALIDATION") != nullptr) cfg.validate = false;
}

void print_output_block(std::FILE* out, const run_config& cfg, const run_result& r) {
  if (!r.valid) {
    std::fprintf(out, "No results printed for invalid run.\n");
    return;
  }
  line_int(out, "SCALE:", cfg.graph.scale);
  line_int(out, "edgefactor:", cfg.graph.edgefactor);
  line_int(out, "NBFS:", cfg.num_roots);
  line(out, "graph_generation:", "%g", r.generation_seconds);
  line_int(out, "num_mpi_processes:", cfg.num_processes);
  line(out, "construction_time:", "%g", r.construction_seconds);
  print_stats(out, "bfs  ", "time", summarize(r.bfs.seconds), "%g");
  if (cfg.run_sssp) print_stats(out, "sssp ", "time", summarize(r.sssp.seconds), "%g");
  // One shared nedge block: the SSSP loop's counts when it ran (identical: same component).
  const kernel_figures& ne = cfg.run_sssp ? r.sssp : r.bfs;
  print_stats(out, "", "nedge", summarize(ne.nedge), "%.11g");
  print_teps(out, "bfs  ", r.bfs);
  if (cfg.run_sssp) print_teps(out, "sssp ", r.sssp);
  print_stats(out, "bfs  ", "validate", validate_summary(cfg, r.bfs), "%g");
  if (cfg.run_sssp) print_stats(out, "sssp ", "validate", validate_summary(cfg, r.sssp), "%g");
  if (r.bfs.energy.measured || r.sssp.energy.measured) std::fprintf(out, "%-32s%s\n", "energy_meter:", r.energy_meter.c_str());
  if (r.bfs.energy.measured) print_energy(out, "bfs  ", r.bfs.energy);
  if (r.sssp.energy.measured) print_energy(out, "sssp ", r.sssp.energy);
  std::fflush(out);
}

json::value to_json(const run_config& cfg, const run_result& r, const pipeline& p) {
  json::value j;
  j["benchmark"] = "graph500";
  j["backend"] = p.description();
  j["vertex_id_bits"] = p.vertex_bits();
  j["SCALE"] = cfg.graph.scale;
  j["edgefactor"] = cfg.graph.edgefactor;
  j["seeds"] = std::vector<std::int64_t>{static_cast<std::int64_t>(cfg.graph.seed1), static_cast<std::int64_t>(cfg.graph.seed2)};
  j["initiator"] = std::vector<int>{cfg.graph.a, cfg.graph.b, cfg.graph.c};
  j["NBFS"] = cfg.num_roots;
  j["num_mpi_processes"] = cfg.num_processes;
  j["validated"] = cfg.validate;
  j["valid"] = r.valid;
  if (!r.valid) j["failure"] = r.failure;
  j["graph_generation"] = r.generation_seconds;
  j["construction_time"] = r.construction_seconds;
  j["roots"] = r.roots;
  if (cfg.energy) {
    j["energy_meter"] = r.energy_meter.empty() ? json::value(nullptr) : json::value(r.energy_meter);
    if (!r.energy_unavailable.empty()) j["energy_unavailable"] = r.energy_unavailable;
  }
  auto kernel_json = [&](const kernel_figures& f) {
    json::value k;
    k["time"] = f.seconds;
    k["nedge"] = f.nedge;
    k["validate_time"] = f.validate_seconds;
    if (!f.seconds.empty()) {
      const teps_summary t = summarize_teps(f.seconds, f.nedge);
      k["harmonic_mean_TEPS"] = t.harmonic_mean;
      k["harmonic_stddev_TEPS"] = t.harmonic_stddev;
      k["min_TEPS"] = t.min;
      k["median_TEPS"] = t.median;
      k["max_TEPS"] = t.max;
      const summary s = summarize(f.seconds);
      k["mean_time"] = s.mean;
      k["median_time"] = s.median;
    }
    if (f.energy.measured) {
      json::value e;
      e["window_time"] = f.energy.seconds;
      e["passes"] = f.energy.passes;
      e["searches"] = f.energy.searches;
      e["edges"] = f.energy.edges;
      e["joules"] = f.energy.joules;
      e["average_power_watts"] = f.energy.watts();
      e["TEPS_per_watt"] = f.energy.teps_per_watt();
      k["energy"] = e;
    }
    return k;
  };
  if (cfg.run_bfs) j["bfs"] = kernel_json(r.bfs);
  if (cfg.run_sssp) j["sssp"] = kernel_json(r.sssp);
  return j;
}

}  // namespace gpu500::graph500
