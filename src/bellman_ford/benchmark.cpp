// The dense Bellman-Ford experiment (see gpu500/bellman_ford/benchmark.hpp): builds the engines,
// and per N draws the graph, computes the oracle, runs every engine / variant / schedule (best of
// the repetitions), verifies each result, times the steady-state round and runs the M sweep.
// The tables and the JSON document are written by report.cpp.
#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "engines.hpp"
#include "gpu500/bellman_ford/benchmark.hpp"
#include "gpu500/config.hpp"
#include "gpu500/core/device.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/core/timer.hpp"
#include "report.hpp"

namespace gpu500::bellman_ford {

namespace {

std::vector<std::string> split_commas(const std::string& s) {
  std::vector<std::string> out;
  for (std::size_t pos = 0; pos <= s.size();) {
    const std::size_t c = std::min(s.find(',', pos), s.size());
    out.push_back(s.substr(pos, c - pos));
    pos = c + 1;
  }
  return out;
}

bool is_cpu(const engine& e) { return e.kind() == engine_kind::serial || e.kind() == engine_kind::openmp; }

/// Engines, CPU first: the serial engine's result is the reference for predecessors.
std::vector<std::unique_ptr<engine>> make_engines(const benchmark_options& o) {
  std::vector<std::unique_ptr<engine>> engines;
  const backend_set& b = o.backends;
  if (b.wants_cpu()) {
    engines.push_back(make_engine(engine_kind::serial, o.engines));
    engines.push_back(make_engine(engine_kind::openmp, o.engines));
  }
  if (b.wants_cuda() && (!b.all || cuda_available())) engines.push_back(make_engine(engine_kind::cuda, o.engines));
  if (b.wants_opencl() && (!b.all || GPU500_HAVE_OPENCL)) {
    try {
      engines.push_back(make_engine(engine_kind::opencl, o.engines));
    } catch (const usage_error& e) {
      if (!b.all) throw;
      std::fprintf(stderr, "bellman-ford: OpenCL skipped: %s\n", e.what());
    }
  }
  if (engines.empty()) throw usage_error("--backend: no engine to run");
  return engines;
}

/// Fills m.failure / m.verified: distances against the oracle, then predecessors and rounds
/// against the reference result, or (no reference yet) the certificate check.
void verify(measurement& m, const std::vector<float>& oracle, const result* ref, const dense_matrix& g,
            index_t source) {
  if (m.r.st != status::ok) m.failure = "reported a negative cycle; the generator makes none";
  else if (m.r.dist != oracle) {
    for (std::size_t v = 0; v < oracle.size(); ++v)
      if (m.r.dist[v] != oracle[v]) {
        m.failure = "dist(" + std::to_string(v) + ") = " + std::to_string(m.r.dist[v]) + ", oracle " + std::to_string(oracle[v]);
        break;
      }
  } else if (ref && m.r.pred != ref->pred) m.failure = "predecessors differ from the reference engine's";
  else if (ref && m.r.rounds != ref->rounds) m.failure = "round count differs from the reference engine's";
  else if (!ref) m.failure = check_shortest_paths(g, source, m.r.dist, m.r.pred);
  m.verified = m.failure.empty();
  if (!m.verified)
    std::printf("VERIFICATION FAILED: N=%lld %s %s M=%d: %s\n", static_cast<long long>(m.n), m.engine.c_str(),
                m.variant.c_str(), m.group, m.failure.c_str());
}

/// Seconds per round: the skip schedule (whose rounds after convergence would read nothing)
/// averages the solve's own rounds; every other engine and schedule times k back-to-back rounds
/// without flag reads (k launches, one resident launch of k rounds, or k CPU rounds after one
/// untimed round: the solve's first round would also count waking OpenMP's sleeping threads).
double per_round_time(engine& e, const measurement& m, variant v, int grp, schedule sc, index_t source) {
  if (m.r.rounds == 0 || sc == schedule::skip) return m.r.t_rounds / std::max<index_t>(1, m.r.rounds);
  const double est = m.r.t_rounds / static_cast<double>(m.r.rounds);
  if (is_cpu(e)) {
    const int k = static_cast<int>(std::min(std::max(0.03 / std::max(est, 1e-7), 3.0), 2000.0));
    (void)time_rounds(e, v, grp, 1);
    return time_rounds(e, v, grp, k) / k;
  }
  // ~30 ms of rounds; a resident launch of up to 20000 rounds, so that its launch and the read
  // of its outcome (~10-20 us) stay under 1% of a sub-microsecond round.
  const double want = std::max(0.03 / std::max(est, 1e-7), 5.0);
  if (sc == schedule::resident) {
    const int k = static_cast<int>(std::min(want, 20000.0));
    return time_resident_rounds(e, v, source, k) / k;
  }
  const int k = static_cast<int>(std::min(want, 500.0));
  return time_rounds(e, v, grp, k) / k;
}

/// The graph of one N, its transpose (when a GPU engine runs coarse) and the oracle's distances.
struct instance {
  dense_matrix g, gt;
  std::vector<float> oracle;
  double setup_seconds = 0;
};

instance make_instance(const benchmark_options& o, index_t n, bool need_transpose) {
  instance in;
  graph_params gp = o.graph;
  gp.n = n;
  std::vector<float> pot;
  stopwatch sw;
  in.g = generate(gp, &pot);
  // Oracle: Dijkstra; with potentials, Dijkstra on the un-reweighted graph, shifted back.
  if (gp.negative) {
    gp.negative = false;
    in.oracle = dijkstra(generate(gp), o.source);
    for (std::size_t v = 0; v < in.oracle.size(); ++v)
      if (in.oracle[v] != inf) in.oracle[v] = in.oracle[v] + pot[static_cast<std::size_t>(o.source)] - pot[v];
  } else {
    in.oracle = dijkstra(in.g, o.source);
  }
  if (need_transpose) in.gt = transpose(in.g);
  in.setup_seconds = sw.seconds();
  return in;
}

}  // namespace

backend_set parse_backends(const std::string& s) {
  backend_set b;
  if (s == "all") return b;
  b.all = false;
  for (const auto& x : split_commas(s)) {
    if (x == "cpu") b.cpu = true;
    else if (x == "cuda") b.cuda = true;
    else if (x == "opencl") b.opencl = true;
    else throw usage_error("--backend: expected cpu, cuda, opencl or all (comma-separated); got '" + x + "'");
  }
  return b;
}

std::vector<schedule> parse_schedules(const std::string& s) {
  std::vector<schedule> out;
  for (const auto& x : split_commas(s)) out.push_back(parse_schedule(x));
  return out;
}

engine_config::exchange parse_exchange(const std::string& s) {
  if (s == "warp") return engine_config::exchange::warp;
  if (s == "async") return engine_config::exchange::async;
  if (s == "pull") return engine_config::exchange::pull;
  throw usage_error("--resident-exchange: expected warp, async or pull; got '" + s + "'");
}

engine_config::cpu_isa parse_cpu_isa(const std::string& s) {
  if (s == "auto") return engine_config::cpu_isa::automatic;
  if (s == "avx512") return engine_config::cpu_isa::avx512;
  if (s == "avx2") return engine_config::cpu_isa::avx2;
  if (s == "baseline") return engine_config::cpu_isa::baseline;
  throw usage_error("--cpu-isa: expected auto, avx512, avx2 or baseline; got '" + s + "'");
}

void check_applicable(const benchmark_options& o, const std::function<bool(const char*)>& given) {
  const auto has = [](const auto& xs, auto x) { return std::find(xs.begin(), xs.end(), x) != xs.end(); };
  const backend_set& b = o.backends;
  const bool gpu = b.wants_cuda() || b.wants_opencl();
  const bool coarse = has(o.variants, variant::coarse);
  const auto rule = [&](const char* flag, bool applies, const char* needs) {
    if (given(flag) && !applies) throw usage_error(std::string(flag) + ": applies only " + needs);
  };
  rule("--group", gpu && (coarse || has(o.variants, variant::reduce)), "to the reduce or coarse variant on a GPU backend");
  rule("--schedules", gpu && coarse, "to the coarse variant on a GPU backend");
  const bool resident = b.wants_cuda() && coarse && has(o.schedules, schedule::resident);
  rule("--resident-cluster", resident, "to the resident schedule of the coarse variant on CUDA");
  rule("--resident-exchange", resident, "to the resident schedule of the coarse variant on CUDA");
  rule("--cpu-isa", b.wants_cpu(), "to the CPU backend");
  rule("--cl-platform", b.wants_opencl(), "to the OpenCL backend");
  rule("--cl-device", b.wants_opencl(), "to the OpenCL backend");
  rule("--no-page-lock", b.wants_cuda(), "to the CUDA backend");
  rule("--sweep", gpu, "to a GPU backend");
  rule("--sweep-n", !o.sweep_groups.empty(), "with --sweep");
  for (const auto n : o.sweep_sizes)
    if (!has(o.sizes, n)) throw usage_error("--sweep-n: " + std::to_string(n) + " is not among --n");
}

bool run_benchmark(const benchmark_options& o) {
  for (auto n : o.sizes)
    if (n < 1 || n > 65536) throw usage_error("--n: each N must lie in [1, 65536]");
  if (o.sizes.empty() || o.variants.empty() || o.schedules.empty())
    throw usage_error("bellman-ford: no size, variant or schedule to run");
  const std::vector<index_t> sweep_ns =
      o.sweep_sizes.empty() ? std::vector<index_t>{*std::max_element(o.sizes.begin(), o.sizes.end())} : o.sweep_sizes;
  for (const auto n : o.sizes)
    if (o.source < 0 || o.source >= n) throw usage_error("--source must lie in [0, N) for every --n");
  auto engines = make_engines(o);
  // The group size against each GPU engine's limit, before anything is printed.
  const bool grouped = std::any_of(o.variants.begin(), o.variants.end(), [](variant v) { return v != variant::naive; });
  for (const auto& e : engines)
    if (grouped && !is_cpu(*e))
      detail::check_group(o.group, e->max_group(), (std::string("bellman-ford ") + engine_name(e->kind())).c_str());
  bool have_cuda = false, any_gpu = false;
  for (const auto& e : engines) {
    have_cuda = have_cuda || e->kind() == engine_kind::cuda;
    any_gpu = any_gpu || !is_cpu(*e);
  }
  const bool coarse = std::find(o.variants.begin(), o.variants.end(), variant::coarse) != o.variants.end();
  // Host memory, before anything is printed: the matrices one N holds at once (the graph; with
  // --negative the oracle's un-reweighted copy; the transpose a GPU engine's coarse variant reads).
  const int matrices = 1 + (o.graph.negative ? 1 : 0) + (any_gpu && coarse ? 1 : 0);
  for (const auto n : o.sizes) {
    const double ld = static_cast<double>(padded_ld(n));
    check_host_memory(matrices * ld * ld * sizeof(float),
                      "bellman-ford: N = " + std::to_string(n) + " (" + std::to_string(matrices) + " dense matri" +
                          (matrices > 1 ? "ces" : "x") + " of float)");
    // A CUDA engine holds the matrix (or its transpose) on the device.
    if (have_cuda)
      cuda_check_device_memory(ld * ld * sizeof(float),
                               "bellman-ford: N = " + std::to_string(n) + " (a dense matrix of float on the device)");
  }
  if (have_cuda) cuda_check_device_memory(2.0 * (std::size_t{1} << 30), "bellman-ford: the device copy probe (2 x 1 GiB)");

  // The host bandwidth probe reads 1 GiB (past any cache), or a quarter of the memory available
  // where that is less, 64 MiB at the least; it is freed before the first matrix is made.
  const std::size_t probe_bytes = static_cast<std::size_t>(
      std::clamp<std::int64_t>(host_available_memory() / 4, std::int64_t{64} << 20, std::int64_t{1} << 30));
  if (o.backends.wants_cpu()) check_host_memory(static_cast<double>(probe_bytes), "bellman-ford: the host bandwidth probe");
  report rep(o, omp_get_max_threads());
  for (const auto& e : engines) rep.engine_line(engine_name(e->kind()), e->description());
  if (have_cuda) rep.copy_bandwidth(cuda_copy_bandwidth(std::size_t{1} << 30));
  // The CPU engines' limit: the host's memory read bandwidth (what a round over a matrix that
  // does not fit in the caches can reach at best).
  if (o.backends.wants_cpu()) rep.host_bandwidth(host_read_bandwidth(probe_bytes), probe_bytes);
  rep.table_header(have_cuda);

  for (const auto n : o.sizes) {
    GPU500_EXPECTS(o.source < n, "--source must be below every N");
    const instance in = make_instance(o, n, any_gpu && coarse);
    // Page-lock the host matrices for CUDA (outside the timed regions, like an allocation);
    // declared after the instance, so unregistered before its matrices are freed.
    stopwatch sw;
    std::optional<detail::pinned_host> pin_g, pin_gt;
    if (have_cuda && o.page_lock) {
      pin_g.emplace(in.g);
      if (in.gt.n) pin_gt.emplace(in.gt);
    }
    const double pin_s = sw.seconds();
    const bool pinned = pin_g && pin_g->active();
    const int reps = o.repeat > 0 ? o.repeat : (n <= 4096 ? 3 : 1);
    std::vector<measurement> here;
    std::optional<result> reference;  // the first verified result: predecessors to match
    for (auto& e : engines) {
      const std::vector<variant> evars = is_cpu(*e) ? std::vector<variant>{variant::naive} : o.variants;
      const std::vector<schedule> escheds = is_cpu(*e) ? std::vector<schedule>{schedule::launch} : o.schedules;
      for (const auto v : evars) {
        for (const auto sc : escheds) {
          if (!e->supports(sc, v, n)) continue;
          measurement m;
          m.n = n;
          m.engine = engine_name(e->kind());
          m.cpu = is_cpu(*e);
          m.variant = m.cpu ? "cpu" : variant_name(v);
          if (sc != schedule::launch) m.variant += std::string("/") + schedule_name(sc);
          m.schedule = sc;
          m.group = m.cpu ? 1 : (v == variant::naive ? 0 : sc == schedule::resident ? 32 : o.group);
          const dense_matrix& input = layout_for(e->kind(), v) == layout::by_source ? in.g : in.gt;
          run_options ro{v, o.group, o.full_rounds, o.source};
          ro.sched = sc;
          for (int r = 0; r < reps; ++r) {
            result x = run(*e, input, ro);
            if (r == 0 || x.seconds_with_transfers() < m.r.seconds_with_transfers()) m.r = std::move(x);
          }
          // With engine_config::resident_trace, the trace of the solve's own rounds (early ones
          // improve distances); the detail after the timing below describes k rounds, nearly all quiet.
          m.solve_detail = e->schedule_detail(sc, v, n);
          verify(m, in.oracle, reference ? &*reference : nullptr, in.g, o.source);
          if (!reference && m.verified) reference = m.r;
          measurement& mm = here.emplace_back(std::move(m));
          mm.per_round = per_round_time(*e, mm, v, o.group, sc, o.source);
          mm.detail = e->schedule_detail(sc, v, n);  // after the runs: a trace describes the last
          if (mm.solve_detail == mm.detail) mm.solve_detail.clear();
          const double transfers = mm.r.t_upload + mm.r.t_init + mm.r.t_download;
          mm.paper = o.full_rounds ? mm.r.seconds_with_transfers()
                                   : transfers + static_cast<double>(n - 1) * mm.per_round;
        }
      }
    }
    rep.size_results(n, in.g, here, in.setup_seconds, pin_s,
                     have_cuda ? (pinned ? "page-locked host memory" : "pageable host memory") : "n/a");

    // The sweep of M at the sweep's Ns, per GPU backend, on the matrix already built.
    if (std::find(sweep_ns.begin(), sweep_ns.end(), n) != sweep_ns.end() && !o.sweep_groups.empty()) {
      rep.sweep_header(n);
      for (auto& e : engines) {
        if (is_cpu(*e)) continue;
        for (const auto v : {variant::reduce, variant::coarse}) {
          const dense_matrix& input = layout_for(e->kind(), v) == layout::by_source ? in.g : in.gt;
          if (input.n == 0) continue;
          e->upload(input);
          for (const int grp : o.sweep_groups) {
            if (grp > e->max_group()) continue;
            measurement m;
            m.n = n;
            m.engine = engine_name(e->kind());
            m.variant = variant_name(v);
            m.group = grp;
            m.r = solve(*e, n, {v, grp, o.full_rounds, o.source});
            verify(m, in.oracle, reference ? &*reference : nullptr, in.g, o.source);
            m.per_round = per_round_time(*e, m, v, grp, schedule::launch, o.source);
            rep.sweep_result(m);
          }
        }
      }
    }
  }
  return rep.finish();
}

}  // namespace gpu500::bellman_ford
