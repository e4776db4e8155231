// The dense Bellman-Ford benchmark's report: the configuration and bandwidth lines, one table row
// per measurement with its speed-ups over the serial / OpenMP / naive rows of the same N (per round
// and for the paper's N-1 rounds plus transfers), the M sweep, the rounds against one read of the
// matrix at the copy (GPU) or host read (CPU) bandwidth, the verdict, and the same figures as JSON.
#include "report.hpp"

#include "gpu500/core/device.hpp"

#include <cstdio>

namespace gpu500::bellman_ford {

namespace {

json::value to_json(const measurement& m, double matrix_bytes) {
  json::value v;
  v["n"] = m.n;
  v["engine"] = m.engine;
  v["variant"] = m.variant;
  v["group"] = m.group;
  v["schedule"] = schedule_name(m.schedule);
  if (!m.detail.empty()) v["schedule_detail"] = m.detail;
  if (!m.solve_detail.empty()) v["solve_schedule_detail"] = m.solve_detail;
  v["status"] = status_name(m.r.st);
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

double matrix_bytes_of(index_t n) { return static_cast<double>(n) * static_cast<double>(n) * sizeof(float); }

}  // namespace

report::report(const benchmark_options& o, int omp_threads) : o_(o), omp_threads_(omp_threads) {
  const graph_params& g = o.graph;
  out_["command"] = "bellman-ford";
  out_["config"]["density"] = g.density;
  out_["config"]["wmin"] = g.wmin;
  out_["config"]["wmax"] = g.wmax;
  out_["config"]["negative"] = g.negative;
  out_["config"]["seed"] = g.seed;
  out_["config"]["source"] = o.source;
  out_["config"]["group"] = o.group;
  out_["config"]["full_rounds"] = o.full_rounds;
  out_["config"]["omp_threads"] = omp_threads;
  std::printf("bellman-ford: density %.3g, integer weights [%d, %d]%s, seed %lld, source %lld, %s\n", g.density, g.wmin,
              g.wmax, g.negative ? " reweighted by potentials (negative edges)" : "", static_cast<long long>(g.seed),
              static_cast<long long>(o.source), o.full_rounds ? "the paper's N-1 rounds" : "early exit at convergence");
}

void report::engine_line(const char* name, const std::string& description) {
  std::printf("engine %-7s %s\n", name, description.c_str());
  out_["engines"].push_back(json::value(description));
}

void report::copy_bandwidth(const bellman_ford::copy_bandwidth& bw) {
  bw_ = bw;
  std::printf("cuda device copy bandwidth (1 GiB cudaMemcpy D2D): %.1f GB/s copied = %.1f GB/s read+write\n",
              bw.copy_gbs, bw.traffic_gbs);
  out_["copy_bandwidth"]["copy_gbs"] = bw.copy_gbs;
  out_["copy_bandwidth"]["traffic_gbs"] = bw.traffic_gbs;
}

void report::host_bandwidth(double gbs, std::size_t probe_bytes) {
  host_bw_ = gbs;
  std::printf("host memory read bandwidth (%s, %d OpenMP threads): %.1f GB/s\n",
              human_bytes(static_cast<double>(probe_bytes)).c_str(), omp_threads_, gbs);
  out_["host_read_gbs"] = gbs;
}

void report::table_header(bool have_cuda) {
  if (have_cuda)
    std::printf("cuda uploads from %s host memory\n", o_.page_lock ? "page-locked (cudaHostRegister, untimed)" : "pageable");
  std::printf("\n%6s %-7s %-15s %5s %6s %12s %11s %10s %10s %8s %22s %22s\n", "N", "engine", "variant", "M", "rounds",
              "total ms", "rounds ms", "upload ms", "round us", "GB/s", "x serial/omp/naive", "paper x serial/omp/naive");
}

void report::size_results(index_t n, const dense_matrix& g, const std::vector<measurement>& here, double setup_seconds,
                          double pin_seconds, const char* cuda_upload_from) {
  const double matrix_bytes = matrix_bytes_of(n);
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
  jn["setup_seconds"] = setup_seconds;
  jn["pin_seconds"] = pin_seconds;
  jn["cuda_upload_from"] = cuda_upload_from;
  index_t edges = 0;
#pragma omp parallel for reduction(+ : edges)
  for (index_t j = 0; j < n; ++j)
    for (index_t v = 0; v < n; ++v) edges += g.weight(j, v) != inf;
  jn["edges"] = edges;
  for (const auto& m : here) {
    all_verified_ = all_verified_ && m.verified;
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
    if (m.engine == "cuda" && bw_.traffic_gbs > 0)
      jm["round_over_matrix_read_at_copy_bw"] = m.per_round / (matrix_bytes / (bw_.traffic_gbs * 1e9));
    if (m.cpu && host_bw_ > 0)
      jm["round_over_matrix_read_at_host_bw"] = m.per_round / (matrix_bytes / (host_bw_ * 1e9));
    jn["results"].push_back(std::move(jm));
    results_.push_back(m);
  }
  jn["paper_time_kind"] = o_.full_rounds ? "measured" : "projected: transfers + (N-1) x measured seconds per round";
  out_["sizes"].push_back(std::move(jn));
}

void report::sweep_header(index_t n) {
  std::printf("\nsweep of M at N=%lld (kernels only, per round):\n", static_cast<long long>(n));
}

void report::sweep_result(const measurement& m) {
  all_verified_ = all_verified_ && m.verified;
  const double matrix_bytes = matrix_bytes_of(m.n);
  std::printf("  %-7s %-7s M=%5d rounds %3lld  round %10.2f us  %8.1f GB/s%s\n", m.engine.c_str(), m.variant.c_str(),
              m.group, static_cast<long long>(m.r.rounds), m.per_round * 1e6, matrix_bytes / m.per_round / 1e9,
              m.verified ? "" : "  UNVERIFIED");
  json::value jm = to_json(m, matrix_bytes);
  if (m.engine == "cuda" && bw_.traffic_gbs > 0)
    jm["round_over_matrix_read_at_copy_bw"] = m.per_round / (matrix_bytes / (bw_.traffic_gbs * 1e9));
  out_["sweep"].push_back(std::move(jm));
}

bool report::finish() {
  // The memory-bound figure: a round against one read of the matrix at the copy bandwidth.
  if (bw_.traffic_gbs > 0) {
    std::printf("\nround time / (matrix bytes / %.0f GB/s copy bandwidth, read+write):\n", bw_.traffic_gbs);
    for (const auto& m : results_)
      if (m.engine == "cuda" && m.n >= 4096) {
        const double read = static_cast<double>(m.n) * static_cast<double>(m.n) * 4 / (bw_.traffic_gbs * 1e9);
        std::printf("  N=%-6lld %-15s %.3f (%.1f us per round, matrix read %.1f us)\n", static_cast<long long>(m.n),
                    m.variant.c_str(), m.per_round / read, m.per_round * 1e6, read * 1e6);
      }
  }
  if (host_bw_ > 0) {
    std::printf("\nround time / (matrix bytes / %.0f GB/s host read bandwidth):\n", host_bw_);
    for (const auto& m : results_)
      if (m.cpu && m.n >= 4096)
        std::printf("  N=%-6lld %-7s %.3f (%.1f us per round)\n", static_cast<long long>(m.n), m.engine.c_str(),
                    m.per_round / (static_cast<double>(m.n) * static_cast<double>(m.n) * 4 / (host_bw_ * 1e9)),
                    m.per_round * 1e6);
  }
  out_["verified"] = all_verified_;
  std::printf("\nverification: %s\n", all_verified_ ? "all results equal the oracle" : "FAILED");
  if (!o_.json_path.empty()) json::write_file(o_.json_path, out_);
  return all_verified_;
}

}  // namespace gpu500::bellman_ford
