// gpu500 bellman-ford: paper 000's experiment — dense Bellman-Ford on random graphs with the
// serial and OpenMP CPU engines and the naive / reduce / coarse kernels in CUDA and OpenCL.
// Every result is verified (distances exactly equal to the oracle's, predecessors equal to the
// first engine's, whose tree passes the certificate check) before it is reported.
#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "command.hpp"
#include "gpu500/bellman_ford/bellman_ford.hpp"
#include "gpu500/config.hpp"
#include "gpu500/core/cli.hpp"
#include "gpu500/core/device.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/core/json.hpp"
#include "gpu500/core/timer.hpp"

namespace {
using namespace gpu500;
namespace bf = gpu500::bellman_ford;

struct measurement {
  index_t n = 0;
  std::string engine, variant;
  bool cpu = false;  // a CPU engine (serial, OpenMP)
  int group = 0;
  bf::schedule schedule = bf::schedule::launch;
  std::string detail;     // the engine's words on how it ran the schedule (after the timed rounds)
  std::string solve_detail;  // the same after the last solve, when it differs (a trace of its own rounds)
  bf::result r;           // the fastest repetition (by time with transfers)
  double per_round = 0;   // steady-state seconds per round (kernels only)
  double paper = 0;       // the paper's N-1 rounds + both transfers (measured or projected)
  bool verified = false;
  std::string failure;
};

bool is_cpu(const bf::engine& e) { return e.kind() == bf::engine_kind::serial || e.kind() == bf::engine_kind::openmp; }

/// "a,b,,c" -> {"a", "b", "", "c"}; "" -> {""}.
std::vector<std::string> split_commas(const std::string& s) {
  std::vector<std::string> out;
  for (std::size_t pos = 0; pos <= s.size();) {
    const std::size_t c = std::min(s.find(',', pos), s.size());
    out.push_back(s.substr(pos, c - pos));
    pos = c + 1;
  }
  return out;
}

std::vector<std::int64_t> parse_list(const std::string& s, const char* what) {
  std::vector<std::int64_t> out;
  for (const auto& x : split_commas(s)) out.push_back(cli::parse_int(x, what));
  return out;
}

json::value to_json(const measurement& m, double matrix_bytes) {
  json::value v;
  v["n"] = m.n;
  v["engine"] = m.engine;
  v["variant"] = m.variant;
  v["group"] = m.group;
  v["schedule"] = bf::schedule_name(m.schedule);
  if (!m.detail.empty()) v["schedule_detail"] = m.detail;
  if (!m.solve_detail.empty()) v["solve_schedule_detail"] = m.solve_detail;
  v["status"] = bf::status_name(m.r.st);
  v["rounds"] = m.r.rounds;
  v["seconds_with_transfers"] = m.r.seconds_with_transfers();
  v["seconds_rounds"] = m.r.t_rounds;
  v["seconds_upload"] = m.r.t_upload;
  v["seconds_init"] = m.r.t_init;
  v["seconds_download"] = m.r.t_download;
  v["seconds_per_round"] = m.per_round;
  v["matrix_gbs_per_round"] = m.per_round > 0 ? matrix_bytes / m.per_round / 1e9 : 0.0;
  v["seconds_paper_n_minus_1_rounds"] = m.paper;
  v["verified"] = m.verified;
  if (!m.failure.empty()) v["failure"] = m.failure;
  return v;
}

}  // namespace

GPU500_COMMAND(bellman_ford, "Dense Bellman-Ford (paper 000): naive/reduce/coarse on CPU, CUDA, OpenCL") {
  std::string sizes = "2048", variants = "all", backend = "all", json_path, sweep, schedules = "launch,skip,resident";
  int group = 256, repeat = 0, cl_platform = -1, cl_device = -1, wmin = 1, wmax = 100, resident_cluster = -1,
      resident_rows = 0, resident_threads = 512, resident_per_warp = 0;
  std::string resident_exchange = "warp", cpu_isa = "auto";
  bool resident_trace = false, resident_smem_rows = false;
  std::int64_t seed = 1, source = 0, cpu_parallel_work = 131072;
  std::string sweep_sizes;
  double density = 0.5;
  bool full_rounds = false, negative = false, pageable = false;
  cli::parser p("gpu500 bellman-ford",
                "Dense Bellman-Ford (paper 000) on seeded random graphs: every engine and variant, verified\n"
                "against an O(N^2) Dijkstra oracle, timed with and without transfers.");
  p.option("--n", sizes, "vertex counts, comma-separated (default 2048; paper: 256,...,8192)");
  p.option("--variant", variants, "naive|reduce|coarse|all (GPU kernels; default all)");
  p.option("--group", group, "M: work-group size of reduce/coarse, a power of two (default 256)");
  p.option("--schedules", schedules,
           "schedules of the coarse variant where the engine has them: launch (the paper's: a launch per round),\n"
           "skip (a launch per round, unchanged sources' segments not read), resident (all rounds in one\n"
           "launch, small N); comma-separated (default launch,skip,resident); other variants: launch");
  p.option("--resident-cluster", resident_cluster,
           "CUDA resident schedule: -1 automatic, 16, 8 or 4 (one cluster of that many blocks), 0 (cooperative grid)");
  p.option("--resident-exchange", resident_exchange,
           "CUDA resident schedule, one cluster: warp (each warp sends its rows' distances to every block; rows in\n"
           "registers only, else async), async (each block sends its part and a flag after a block barrier; both\n"
           "with remote stores counted on mbarriers) or pull (cluster barrier, then loads); default warp");
  p.option("--resident-rows-per-warp", resident_per_warp,
           "CUDA resident schedule, warp exchange: rows per warp, 1, 2 or 4 (0: automatic; a warp per that many rows)");
  p.option("--resident-threads", resident_threads, "CUDA resident schedule: threads per block, 512 or 1024 (default 512)");
  p.flag("--resident-smem-rows", resident_smem_rows,
         "CUDA resident schedule: keep the rows in shared memory even where they fit in registers");
  p.flag("--resident-trace", resident_trace, "CUDA resident schedule: clock cycles per phase of a round, in the detail");
  p.option("--resident-rows", resident_rows,
           "CUDA resident schedule, cooperative grid: rows per block (0: automatic, at most one block per SM)");
  p.option("--backend", backend, "cpu|cuda|opencl|all, comma-separated (default all that are present)");
  p.option("--cpu-isa", cpu_isa,
           "CPU engines' instruction set: auto (the widest this CPU has), avx512, avx2 or baseline (default auto)");
  p.option("--cpu-parallel-work", cpu_parallel_work,
           "OpenMP engine: the smallest round (N^2 relaxations) spread over all threads; smaller ones run on one\n"
           "thread (0: always spread; default 131072)");
  p.option("--density", density, "probability of each edge (default 0.5)");
  p.option("--wmin", wmin, "smallest integer weight (default 1)");
  p.option("--wmax", wmax, "largest integer weight (default 100)");
  p.flag("--negative", negative, "reweight with random potentials: negative edges, no negative cycle");
  p.option("--seed", seed, "generator seed (default 1)");
  p.option("--source", source, "source vertex (default 0)");
  p.flag("--full-rounds", full_rounds, "run the paper's N-1 rounds instead of stopping at convergence");
  p.flag("--pageable", pageable, "do not page-lock the host matrices (CUDA uploads from pageable memory)");
  p.option("--repeat", repeat, "timed repetitions, best kept (default 3 for N <= 4096, else 1)");
  p.option("--sweep", sweep, "M values to sweep for reduce/coarse on each GPU backend, e.g. 32,64,...,1024");
  p.option("--sweep-n", sweep_sizes, "the Ns (comma-separated, among --n) of the M sweep (default: the largest --n)");
  p.option("--cl-platform", cl_platform, "OpenCL platform index (default: the first with a GPU)");
  p.option("--cl-device", cl_device, "OpenCL device index in that platform (default: the first GPU)");
  p.option("--json", json_path, "write every figure to this JSON file");
  p.parse(args);
  if (p.help_requested()) {
    std::fputs(p.help().c_str(), stdout);
    return 0;
  }

  const auto ns = parse_list(sizes, "--n");
  for (auto n : ns)
    if (n < 1 || n > 65536) throw usage_error("--n: each N must lie in [1, 65536]");
  std::vector<bf::variant> vars;
  if (variants == "all") vars = {bf::variant::naive, bf::variant::reduce, bf::variant::coarse};
  else vars = {bf::parse_variant(variants)};
  std::vector<bf::schedule> scheds;
  for (const auto& x : split_commas(schedules)) scheds.push_back(bf::parse_schedule(x));
  std::vector<std::int64_t> sweep_groups;
  if (!sweep.empty()) sweep_groups = parse_list(sweep, "--sweep");
  const std::vector<std::int64_t> sweep_ns =
      sweep_sizes.empty() ? std::vector<std::int64_t>{*std::max_element(ns.begin(), ns.end())} : parse_list(sweep_sizes, "--sweep-n");

  // Engines, CPU first: the serial engine's result is the reference for predecessors.
  bf::engine_config ecfg;
  ecfg.cl_platform = cl_platform;
  ecfg.cl_device = cl_device;
  ecfg.resident_cluster = resident_cluster;
  ecfg.resident_rows = resident_rows;
  if (resident_exchange == "warp") ecfg.resident_exchange = bf::engine_config::exchange::warp;
  else if (resident_exchange == "async") ecfg.resident_exchange = bf::engine_config::exchange::async;
  else if (resident_exchange == "pull") ecfg.resident_exchange = bf::engine_config::exchange::pull;
  else throw usage_error("--resident-exchange: expected warp, async or pull; got '" + resident_exchange + "'");
  ecfg.resident_trace = resident_trace;
  ecfg.resident_threads = resident_threads;
  ecfg.resident_rows_per_warp = resident_per_warp;
  ecfg.resident_registers = !resident_smem_rows;
  ecfg.cpu_parallel_work = cpu_parallel_work;
  if (cpu_isa == "auto") ecfg.isa = bf::engine_config::cpu_isa::automatic;
  else if (cpu_isa == "avx512") ecfg.isa = bf::engine_config::cpu_isa::avx512;
  else if (cpu_isa == "avx2") ecfg.isa = bf::engine_config::cpu_isa::avx2;
  else if (cpu_isa == "baseline") ecfg.isa = bf::engine_config::cpu_isa::baseline;
  else throw usage_error("--cpu-isa: expected auto, avx512, avx2 or baseline; got '" + cpu_isa + "'");
  std::vector<std::unique_ptr<bf::engine>> engines;
  const bool all = backend == "all";
  auto wants = [&](const char* b) { return all || ("," + backend + ",").find(std::string(",") + b + ",") != std::string::npos; };
  for (const auto& b : all ? std::vector<std::string>{} : split_commas(backend))
    if (b != "cpu" && b != "cuda" && b != "opencl")
      throw usage_error("--backend: expected cpu, cuda, opencl or all (comma-separated); got '" + b + "'");
  if (wants("cpu")) {
    engines.push_back(bf::make_engine(bf::engine_kind::serial, ecfg));
    engines.push_back(bf::make_engine(bf::engine_kind::openmp, ecfg));
  }
  if (wants("cuda") && (!all || cuda_available())) engines.push_back(bf::make_engine(bf::engine_kind::cuda, ecfg));
  if (wants("opencl") && (!all || GPU500_HAVE_OPENCL)) {
    try {
      engines.push_back(bf::make_engine(bf::engine_kind::opencl, ecfg));
    } catch (const usage_error& e) {
      if (!all) throw;
      std::fprintf(stderr, "bellman-ford: OpenCL skipped: %s\n", e.what());
    }
  }
  if (engines.empty()) throw usage_error("--backend: expected cpu, cuda, opencl or all; got '" + backend + "'");

  json::value out;
  out["command"] = "bellman-ford";
  out["config"]["density"] = density;
  out["config"]["wmin"] = wmin;
  out["config"]["wmax"] = wmax;
  out["config"]["negative"] = negative;
  out["config"]["seed"] = seed;
  out["config"]["source"] = source;
  out["config"]["group"] = group;
  out["config"]["full_rounds"] = full_rounds;
  out["config"]["omp_threads"] = omp_get_max_threads();
  std::printf("bellman-ford: density %.3g, integer weights [%d, %d]%s, seed %lld, source %lld, %s\n", density, wmin,
              wmax, negative ? " reweighted by potentials (negative edges)" : "", static_cast<long long>(seed),
              static_cast<long long>(source), full_rounds ? "the paper's N-1 rounds" : "early exit at convergence");
  for (const auto& e : engines) {
    std::printf("engine %-7s %s\n", bf::engine_name(e->kind()), e->description().c_str());
    out["engines"].push_back(json::value(e->description()));
  }
  bool have_cuda = false;
  for (const auto& e : engines) have_cuda = have_cuda || e->kind() == bf::engine_kind::cuda;
  bf::copy_bandwidth bw;
  if (have_cuda) {
    bw = bf::cuda_copy_bandwidth(std::size_t{1} << 30);
    std::printf("cuda device copy bandwidth (1 GiB cudaMemcpy D2D): %.1f GB/s copied = %.1f GB/s read+write\n",
                bw.copy_gbs, bw.traffic_gbs);
    out["copy_bandwidth"]["copy_gbs"] = bw.copy_gbs;
    out["copy_bandwidth"]["traffic_gbs"] = bw.traffic_gbs;
  }
  // The CPU engines' limit: the host's memory read bandwidth (what a round over a matrix that
  // does not fit in the caches can reach at best).
  double host_bw = 0;
  if (wants("cpu")) {
    host_bw = bf::host_read_bandwidth(std::size_t{1} << 30);
    std::printf("host memory read bandwidth (1 GiB, %d OpenMP threads): %.1f GB/s\n", omp_get_max_threads(), host_bw);
    out["host_read_gbs"] = host_bw;
  }

  bool all_verified = true;
  std::vector<measurement> results;
  auto verify = [&](measurement& m, const std::vector<float>& oracle, const bf::result* ref, const bf::dense_matrix& g) {
    if (m.r.st != bf::status::ok) m.failure = "reported a negative cycle; the generator makes none";
    else if (m.r.dist != oracle) {
      for (std::size_t v = 0; v < oracle.size(); ++v)
        if (m.r.dist[v] != oracle[v]) {
          m.failure = "dist(" + std::to_string(v) + ") = " + std::to_string(m.r.dist[v]) + ", oracle " + std::to_string(oracle[v]);
          break;
        }
    } else if (ref && m.r.pred != ref->pred) m.failure = "predecessors differ from the reference engine's";
    else if (ref && m.r.rounds != ref->rounds) m.failure = "round count differs from the reference engine's";
    else if (!ref) m.failure = bf::check_shortest_paths(g, source, m.r.dist, m.r.pred);
    m.verified = m.failure.empty();
    if (!m.verified) {
      all_verified = false;
      std::printf("VERIFICATION FAILED: N=%lld %s %s M=%d: %s\n", static_cast<long long>(m.n), m.engine.c_str(),
                  m.variant.c_str(), m.group, m.failure.c_str());
    }
  };
  // Seconds per round: the skip schedule (whose rounds after convergence would read nothing)
  // averages the solve's own rounds; every other engine and schedule times k back-to-back rounds
  // without flag reads (k launches, one resident launch of k rounds, or k CPU rounds after one
  // untimed round: the solve's first round would also count waking OpenMP's sleeping threads).
  auto per_round_time = [&](bf::engine& e, const measurement& m, bf::variant v, int grp, bf::schedule sc) {
    if (m.r.rounds == 0 || sc == bf::schedule::skip) return m.r.t_rounds / std::max<index_t>(1, m.r.rounds);
    const double est = m.r.t_rounds / static_cast<double>(m.r.rounds);
    if (is_cpu(e)) {
      const int k = static_cast<int>(std::min(std::max(0.03 / std::max(est, 1e-7), 3.0), 2000.0));
      (void)bf::time_rounds(e, v, grp, 1);
      return bf::time_rounds(e, v, grp, k) / k;
    }
    // ~30 ms of rounds; a resident launch of up to 20000 rounds, so that its launch and the read
    // of its outcome (~10-20 us) stay under 1% of a sub-microsecond round.
    const double want = std::max(0.03 / std::max(est, 1e-7), 5.0);
    if (sc == bf::schedule::resident) {
      const int k = static_cast<int>(std::min(want, 20000.0));
      return bf::time_resident_rounds(e, v, source, k) / k;
    }
    const int k = static_cast<int>(std::min(want, 500.0));
    return bf::time_rounds(e, v, grp, k) / k;
  };

  if (have_cuda)
    std::printf("cuda uploads from %s host memory\n", pageable ? "pageable" : "page-locked (cudaHostRegister, untimed)");
  std::printf("\n%6s %-7s %-15s %5s %6s %12s %11s %10s %10s %8s %22s %22s\n", "N", "engine", "variant", "M", "rounds",
              "total ms", "rounds ms", "upload ms", "round us", "GB/s", "x serial/omp/naive", "paper x serial/omp/naive");
  std::map<index_t, std::vector<float>> oracles;
  for (const auto n : ns) {
    GPU500_EXPECTS(source < n, "--source must be below every N");
    bf::graph_params gp{n, density, wmin, wmax, negative, static_cast<std::uint64_t>(seed)};
    std::vector<float> pot;
    stopwatch sw;
    const bf::dense_matrix g = bf::generate(gp, &pot);
    // Oracle: Dijkstra; with potentials, Dijkstra on the un-reweighted graph, shifted back.
    std::vector<float> oracle;
    if (negative) {
      gp.negative = false;
      oracle = bf::dijkstra(bf::generate(gp), source);
      for (std::size_t v = 0; v < oracle.size(); ++v)
        if (oracle[v] != bf::inf) oracle[v] = oracle[v] + pot[static_cast<std::size_t>(source)] - pot[v];
    } else {
      oracle = bf::dijkstra(g, source);
    }
    bf::dense_matrix gt;
    for (const auto& e : engines)
      if (!is_cpu(*e) && std::find(vars.begin(), vars.end(), bf::variant::coarse) != vars.end() && gt.n == 0)
        gt = bf::transpose(g);
    const double setup_s = sw.seconds();
    // Page-lock the host matrices for CUDA (outside the timed regions, like an allocation);
    // declared after g and gt, so unregistered before they are freed.
    sw.restart();
    std::optional<bf::pinned_host> pin_g, pin_gt;
    if (have_cuda && !pageable) {
      pin_g.emplace(g);
      if (gt.n) pin_gt.emplace(gt);
    }
    const double pin_s = sw.seconds();
    const bool pinned = pin_g && pin_g->active();
    const double matrix_bytes = static_cast<double>(n) * static_cast<double>(n) * sizeof(float);
    const int reps = repeat > 0 ? repeat : (n <= 4096 ? 3 : 1);
    std::vector<measurement> here;
    std::optional<bf::result> reference;  // the first verified result: predecessors to match
    for (auto& e : engines) {
      const std::vector<bf::variant> evars = is_cpu(*e) ? std::vector<bf::variant>{bf::variant::naive} : vars;
      const std::vector<bf::schedule> escheds = is_cpu(*e) ? std::vector<bf::schedule>{bf::schedule::launch} : scheds;
      for (const auto v : evars) {
        for (const auto sc : escheds) {
          if (!e->supports(sc, v, n)) continue;
          measurement m;
          m.n = n;
          m.engine = bf::engine_name(e->kind());
          m.cpu = is_cpu(*e);
          m.variant = m.cpu ? "cpu" : bf::variant_name(v);
          if (sc != bf::schedule::launch) m.variant += std::string("/") + bf::schedule_name(sc);
          m.schedule = sc;
          m.group = m.cpu ? 1 : (v == bf::variant::naive ? 0 : sc == bf::schedule::resident ? 32 : group);
          const bf::dense_matrix& input = bf::layout_for(e->kind(), v) == bf::layout::by_source ? g : gt;
          bf::run_options o{v, group, full_rounds, source};
          o.sched = sc;
          for (int rep = 0; rep < reps; ++rep) {
            bf::result r = bf::run(*e, input, o);
            if (rep == 0 || r.seconds_with_transfers() < m.r.seconds_with_transfers()) m.r = std::move(r);
          }
          // With --resident-trace, the trace of the solve's own rounds (early ones improve
          // distances); the detail after the timing below describes k rounds, nearly all quiet.
          m.solve_detail = e->schedule_detail(sc, v, n);
          verify(m, oracle, reference ? &*reference : nullptr, g);
          if (!reference && m.verified) reference = m.r;
          measurement& mm = here.emplace_back(std::move(m));
          mm.per_round = per_round_time(*e, mm, v, group, sc);
          mm.detail = e->schedule_detail(sc, v, n);  // after the runs: a trace describes the last
          if (mm.solve_detail == mm.detail) mm.solve_detail.clear();
          const double transfers = mm.r.t_upload + mm.r.t_init + mm.r.t_download;
          mm.paper = full_rounds ? mm.r.seconds_with_transfers() : transfers + static_cast<double>(n - 1) * mm.per_round;
        }
      }
    }
    // Speed-ups within this N.
    auto find = [&](const std::string& eng, const std::string& var) -> const measurement* {
      for (const auto& m : here)
        if (m.engine == eng && m.variant == var) return &m;
      return nullptr;
    };
    const measurement* serial = find("serial", "cpu");
    const measurement* omp = find("openmp", "cpu");
    auto ratio = [](const measurement* base, double mine, double measurement::*field) {
      return base && mine > 0 ? base->*field / mine : 0.0;
    };
    json::value jn;
    jn["n"] = n;
    jn["setup_seconds"] = setup_s;
    jn["pin_seconds"] = pin_s;
    jn["cuda_upload_from"] = have_cuda ? (pinned ? "page-locked host memory" : "pageable host memory") : "n/a";
    index_t edges = 0;
#pragma omp parallel for reduction(+ : edges)
    for (index_t j = 0; j < n; ++j)
      for (index_t v = 0; v < n; ++v) edges += g.weight(j, v) != bf::inf;
    jn["edges"] = edges;
    for (auto& m : here) {
      const measurement* naive = find(m.engine, "naive");
      const double xs = ratio(serial, m.per_round, &measurement::per_round);
      const double xo = ratio(omp, m.per_round, &measurement::per_round);
      const double xn = ratio(naive, m.per_round, &measurement::per_round);
      const double ps = ratio(serial, m.paper, &measurement::paper);
      const double po = ratio(omp, m.paper, &measurement::paper);
      const double pn = ratio(naive, m.paper, &measurement::paper);
      char a[64], b[64];
      std::snprintf(a, sizeof a, "%.1f/%.1f/%.2f", xs, xo, xn);
      std::snprintf(b, sizeof b, "%.1f/%.1f/%.2f", ps, po, pn);
      std::printf("%6lld %-7s %-15s %5d %6lld %12.3f %11.3f %10.3f %10.2f %8.1f %22s %22s%s\n", static_cast<long long>(n),
                  m.engine.c_str(), m.variant.c_str(), m.group, static_cast<long long>(m.r.rounds),
                  m.r.seconds_with_transfers() * 1e3, m.r.t_rounds * 1e3, m.r.t_upload * 1e3, m.per_round * 1e6,
                  matrix_bytes / m.per_round / 1e9, a, b, m.verified ? "" : "  UNVERIFIED");
      json::value jm = to_json(m, matrix_bytes);
      jm["speedup_per_round"]["vs_serial"] = xs;
      jm["speedup_per_round"]["vs_openmp"] = xo;
      jm["speedup_per_round"]["vs_naive"] = xn;
      jm["speedup_paper"]["vs_serial"] = ps;
      jm["speedup_paper"]["vs_openmp"] = po;
      jm["speedup_paper"]["vs_naive"] = pn;
      jm["speedup_with_transfers_early_exit"]["vs_serial"] =
          serial ? serial->r.seconds_with_transfers() / m.r.seconds_with_transfers() : 0.0;
      jm["speedup_with_transfers_early_exit"]["vs_openmp"] =
          omp ? omp->r.seconds_with_transfers() / m.r.seconds_with_transfers() : 0.0;
      if (m.engine == "cuda" && bw.traffic_gbs > 0)
        jm["round_over_matrix_read_at_copy_bw"] = m.per_round / (matrix_bytes / (bw.traffic_gbs * 1e9));
      if (m.cpu && host_bw > 0)
        jm["round_over_matrix_read_at_host_bw"] = m.per_round / (matrix_bytes / (host_bw * 1e9));
      jn["results"].push_back(std::move(jm));
      results.push_back(m);
    }
    jn["paper_time_kind"] = full_rounds ? "measured" : "projected: transfers + (N-1) x measured seconds per round";
    out["sizes"].push_back(std::move(jn));
    oracles[n] = std::move(oracle);

    // The sweep of M at sweep_n, per GPU backend, on the matrix already built.
    if (std::find(sweep_ns.begin(), sweep_ns.end(), n) != sweep_ns.end() && !sweep_groups.empty()) {
      std::printf("\nsweep of M at N=%lld (kernels only, per round):\n", static_cast<long long>(n));
      for (auto& e : engines) {
        if (is_cpu(*e)) continue;
        for (const auto v : {bf::variant::reduce, bf::variant::coarse}) {
          const bf::dense_matrix& input = bf::layout_for(e->kind(), v) == bf::layout::by_source ? g : gt;
          if (input.n == 0) continue;
          e->upload(input);
          for (const auto mg : sweep_groups) {
            const int grp = static_cast<int>(mg);
            if (grp > e->max_group()) continue;
            measurement m;
            m.n = n;
            m.engine = bf::engine_name(e->kind());
            m.variant = bf::variant_name(v);
            m.group = grp;
            m.r = bf::solve(*e, n, {v, grp, full_rounds, source});
            verify(m, oracles[n], reference ? &*reference : nullptr, g);
            m.per_round = per_round_time(*e, m, v, grp, bf::schedule::launch);
            std::printf("  %-7s %-7s M=%5d rounds %3lld  round %10.2f us  %8.1f GB/s%s\n", m.engine.c_str(),
                        m.variant.c_str(), grp, static_cast<long long>(m.r.rounds), m.per_round * 1e6,
                        matrix_bytes / m.per_round / 1e9, m.verified ? "" : "  UNVERIFIED");
            json::value jm = to_json(m, matrix_bytes);
            if (m.engine == "cuda" && bw.traffic_gbs > 0)
              jm["round_over_matrix_read_at_copy_bw"] = m.per_round / (matrix_bytes / (bw.traffic_gbs * 1e9));
            out["sweep"].push_back(std::move(jm));
          }
        }
      }
    }
    oracles.erase(n);
  }

  // The memory-bound figure: a round against one read of the matrix at the copy bandwidth.
  if (bw.traffic_gbs > 0) {
    std::printf("\nround time / (matrix bytes / %.0f GB/s copy bandwidth, read+write):\n", bw.traffic_gbs);
    for (const auto& m : results)
      if (m.engine == "cuda" && m.n >= 4096) {
        const double read = static_cast<double>(m.n) * static_cast<double>(m.n) * 4 / (bw.traffic_gbs * 1e9);
        std::printf("  N=%-6lld %-15s %.3f (%.1f us per round, matrix read %.1f us)\n", static_cast<long long>(m.n),
                    m.variant.c_str(), m.per_round / read, m.per_round * 1e6, read * 1e6);
      }
  }
  if (host_bw > 0) {
    std::printf("\nround time / (matrix bytes / %.0f GB/s host read bandwidth):\n", host_bw);
    for (const auto& m : results)
      if (m.cpu && m.n >= 4096)
        std::printf("  N=%-6lld %-7s %.3f (%.1f us per round)\n", static_cast<long long>(m.n), m.engine.c_str(),
                    m.per_round / (static_cast<double>(m.n) * static_cast<double>(m.n) * 4 / (host_bw * 1e9)),
                    m.per_round * 1e6);
  }
  out["verified"] = all_verified;
  std::printf("\nverification: %s\n", all_verified ? "all results equal the oracle" : "FAILED");
  if (!json_path.empty()) json::write_file(json_path, out);
  return all_verified ? 0 : 1;
}
