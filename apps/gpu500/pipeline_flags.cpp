// Backend and technique flags of the Graph500 pipelines (see pipeline_flags.hpp).
#include "pipeline_flags.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <thread>
#include <type_traits>

#include "gpu500/core/device.hpp"
#include "gpu500/core/error.hpp"

namespace gpu500::app {
namespace {

// The flags of one backend's engines only (the other backend refuses them).
const char* const bfs_cpu_only[] = {"--bfs-threads", "--no-direction-optimizing"};
const char* const bfs_cuda_only[] = {"--bfs",          "--no-ts",          "--no-wb",          "--no-hc",
                                     "--no-hub-cache", "--no-device-loop", "--no-bitmap",      "--no-sort",
                                     "--hub-threshold", "--priority-degree", "--gamma",        "--bfs-sm-share",
                                     "--device"};
const char* const sssp_cpu_only[] = {"--sssp-threads", "--sssp-no-light-heavy", "--sssp-no-relabel"};
const char* const sssp_cuda_only[] = {"--sssp-no-sorted-rows", "--sssp-no-persistent", "--sssp-no-pull",
                                      "--sssp-no-device-loop"};

// A numeric option checked while parsing: `ok(value)` or a usage_error saying `want`.
template <class T, class Ok>
std::function<void(const std::string&)> checked(T& target, const char* flag, const char* want, Ok ok) {
  return [&target, flag, want, ok](const std::string& v) {
    const double x = std::is_integral_v<T> ? static_cast<double>(cli::parse_int(v, flag)) : cli::parse_double(v, flag);
    if (!ok(x)) throw usage_error(std::string(flag) + " must be " + want + ", got '" + v + "'");
    target = static_cast<T>(x);
  };
}
// An OpenMP team: 0 (the default team) up to four threads a core of this host. More only slows a
// search down, and tens of thousands of threads fail to start (or exhaust the memory for their
// stacks) before the search does anything.
std::function<void(const std::string&)> team_size(int& target, const char* flag) {
  return [&target, flag](const std::string& v) {
    const std::int64_t x = cli::parse_int(v, flag);
    const int cores = std::max(1u, std::thread::hardware_concurrency());
    const int most = 4 * cores;
    if (x < 0 || x > most)
      throw usage_error(std::string(flag) + " must be in 0.." + std::to_string(most) + " on this host (4 threads a core, " +
                        std::to_string(cores) + " cores), got '" + v + "'");
    target = static_cast<int>(x);
  };
}

}  // namespace

void pipeline_flags::add(cli::parser& p, bool bfs, bool sssp) {
  p.option("--backend", backend, "auto|cpu|cuda (auto: the GPU when present; for a search on a graph of paths and cycles, the CPU)");
  engine_flags_first_ = p.option_count();
  add_graph(p);
  if (bfs) add_bfs(p);
  if (sssp) add_sssp(p);
  engine_flags_last_ = p.option_count();
}

std::unique_ptr<graph500::pipeline> pipeline_flags::make(const graph::kronecker_params& gp) {
  apply_bfs(parse_backend(backend));
  apply_sssp(parse_backend(backend));
#if GPU500_HAVE_CUDA
  if (parse_backend(backend) == gpu500::backend::cuda) return graph500::make_cuda_pipeline(gp, cuda);
#else
  parse_backend(backend);  // rejects unknown names
#endif
  return graph500::make_cpu_pipeline(gp, cpu);
}

gpu500::backend pipeline_flags::search_backend(const graph::edge_list& el) const {
  const gpu500::backend b = parse_backend(backend);
  bool cuda_flag = sssp_bellman_ford_;
  for (const auto& list : {std::span<const char* const>(bfs_cuda_only), std::span<const char* const>(sssp_cuda_only)})
    for (const char* f : list) cuda_flag = cuda_flag || (parser_ != nullptr && parser_->given(f));
  if (backend != "auto" || cuda_flag) return b;
  return graph::auto_search_backend(b, el.src.data(), el.dst.data(), el.size(), el.num_vertices);
}

std::unique_ptr<graph500::pipeline> pipeline_flags::make(graph::edge_list el) {
  const gpu500::backend be = search_backend(el);
  apply_bfs(be);
  apply_sssp(be);
  // A directed search runs top-down only and never pulls: the knobs of those steps would do nothing.
  static const char* const undirected_only[] = {"--bfs-alpha", "--bfs-beta", "--no-direction-optimizing", "--no-hc",
                                                "--no-hub-cache", "--no-bitmap", "--hub-threshold",
                                                "--priority-degree", "--gamma", "--sssp-no-pull"};
  if (directed_ && parser_ != nullptr)
    for (const char* f : undirected_only)
      if (parser_->given(f))
        throw usage_error(std::string(f) + " tunes the bottom-up or pull steps, which a directed search (--directed) "
                          "never runs: it follows arcs top-down only");
  cpu.directed = directed_;
#if GPU500_HAVE_CUDA
  cuda.directed = directed_;
  if (be == gpu500::backend::cuda) return graph500::make_cuda_pipeline(std::move(el), cuda);
#endif
  return graph500::make_cpu_pipeline(std::move(el), cpu);
}

// ---- Graph and BFS (kernel 2) flags: one name per knob on both backends ----------------------

void pipeline_flags::add_graph(cli::parser& p) {
  parser_ = &p;
  p.option("--vertex-bits", checked(vertex_bits_, "--vertex-bits", "32 or 64", [](double x) { return x == 32 || x == 64; }),
           "vertex id width, 32 or 64 (default: 64 on cpu; on cuda 32 when it fits)", "N");
#if GPU500_HAVE_CUDA
  p.flag("--no-sort", cuda.no_sort, "CUDA: no VS-Graph500 degree-sorted relabelling and neighbour order");
  p.option("--device", checked(cuda.device, "--device", "in 0..1023", [](double x) { return x >= 0 && x <= 1023; }),
           "CUDA device ordinal (default 0)", "N");
#endif
}

void pipeline_flags::add_bfs(cli::parser& p) {
  parser_ = &p;
  const auto positive = [](double x) { return x > 0; };
  p.option("--bfs-alpha", checked(bfs_alpha_, "--bfs-alpha", "> 0", positive),
           "BFS: go bottom-up when frontier arcs > unexplored arcs / alpha (Beamer; default 15 on cpu, 60 on cuda)", "X");
  p.option("--bfs-beta", checked(bfs_beta_, "--bfs-beta", "> 0", positive),
           "BFS: back to top-down when the frontier falls below vertices / beta (default 18 on cpu, 24 on cuda)", "X");
  p.option("--bfs-threads", team_size(cpu.bfs.threads, "--bfs-threads"),
           "CPU BFS: OpenMP threads (default 0: the OpenMP default)", "N");
  p.flag("--no-direction-optimizing", cpu.bfs.top_down_only, "CPU BFS: top-down steps only (no bottom-up switching)");
#if GPU500_HAVE_CUDA
  auto& b = cuda.bfs;
  p.option(
      "--bfs",
      [this, &b](const std::string& v) {
        const bool bl = v == "baseline" || v == "bl";
        if (!bl && v != "enterprise") throw usage_error("--bfs: expected enterprise or baseline, got '" + v + "'");
        b.no_ts = b.no_wb = b.no_hc = b.no_hub_cache = b.no_device_loop = bl;
        cuda.no_sort = bl;
      },
      "CUDA BFS: enterprise (Enterprise, Liu & Huang, SC'15, every technique; default) or baseline (every one off)",
      "NAME");
  p.flag("--no-ts", b.no_ts, "CUDA BFS: no prefix-sum queues (the baseline's status-array scan each level)");
  p.flag("--no-wb", b.no_wb, "CUDA BFS: no degree classes (one CTA per queued vertex)");
  p.flag("--no-hc", b.no_hc, "CUDA BFS: Beamer's alpha/beta switch instead of gamma, and no hub cache");
  p.flag("--no-hub-cache", b.no_hub_cache, "CUDA BFS: no shared-memory cache of frontier hubs (VS-Graph500) in bottom-up");
  p.flag("--no-device-loop", b.no_device_loop, "CUDA BFS: every level from the host (no device-side loop for small and middling frontiers)");
  p.flag("--no-bitmap", b.no_bitmap, "CUDA BFS: bottom-up reads neighbours' depth instead of a bitmap of the visited vertices");
  const auto degree_ok = [](double x) { return x >= 1 && x <= INT32_MAX; };
  p.option("--hub-threshold", checked(b.hub_threshold, "--hub-threshold", ">= 1", degree_ok),
           "CUDA BFS: degree of a hub for gamma (default 100)", "N");
  p.option("--priority-degree", checked(b.priority_degree, "--priority-degree", ">= 1", degree_ok),
           "CUDA BFS: degree of the cached key vertices (default 100)", "N");
  p.option("--gamma", checked(b.gamma, "--gamma", "in [0, 1]", [](double x) { return x >= 0 && x <= 1; }),
           "CUDA BFS: go bottom-up when this fraction of the hubs is in the frontier (default 0.30)", "X");
  p.option("--bfs-sm-share", checked(b.grid_sm_share, "--bfs-sm-share", "in (0, 1]", [](double x) { return x > 0 && x <= 1; }),
           "CUDA BFS: size the search's grids for this share of the SMs, in (0, 1] (default 1); below 1 fewer warps "
           "are in flight: less power, less speed (docs/energy.md)",
           "X");
#endif
}

void pipeline_flags::apply_bfs(gpu500::backend b) {
  static const char* const engine_flags[] = {"--bfs-alpha", "--bfs-beta", "--bfs-threads", "--no-direction-optimizing",
                                             "--bfs", "--no-ts", "--no-wb", "--no-hc", "--no-hub-cache",
                                             "--no-device-loop", "--no-bitmap", "--hub-threshold",
                                             "--priority-degree", "--gamma", "--bfs-sm-share"};
  if (!bfs_runs_)
    for (const char* f : engine_flags)
      if (parser_ && parser_->given(f)) throw usage_error(std::string(f) + " applies to BFS, which this run does not do");
  const bool on_cuda = b == gpu500::backend::cuda;
  for (const char* f : on_cuda ? std::span<const char* const>(bfs_cpu_only) : std::span<const char* const>(bfs_cuda_only))
    if (parser_ && parser_->given(f))
      throw usage_error(std::string(f) + " applies to the " + (on_cuda ? "CPU" : "CUDA") + " backend only (--backend " +
                        (on_cuda ? "cpu" : "cuda") + ")");
  const bool given_alpha = parser_ && parser_->given("--bfs-alpha"), given_beta = parser_ && parser_->given("--bfs-beta");
  if (given_alpha) cpu.bfs.alpha = bfs_alpha_;
  if (given_beta) cpu.bfs.beta = bfs_beta_;
  if (vertex_bits_ != 0) cpu.vertex_bits = vertex_bits_;
#if GPU500_HAVE_CUDA
  if (given_alpha) cuda.bfs.alpha = bfs_alpha_;
  if (given_beta) cuda.bfs.beta = bfs_beta_;
  cuda.vertex_bits = vertex_bits_;
#endif
}

// ---- SSSP (kernel 3) flags: one name per knob on both backends ------------------------------

void pipeline_flags::add_sssp(cli::parser& p) {
  parser_ = &p;
  auto& c = cpu.sssp;
  p.option(
      "--sssp",
      [this](const std::string& v) {
        if (v != "delta" && v != "bellman-ford")
          throw usage_error("--sssp: expected delta or bellman-ford, got '" + v + "'");
        sssp_bellman_ford_ = v == "bellman-ford";
      },
      "SSSP algorithm: delta (delta-stepping, Meyer & Sanders; default) or bellman-ford (CUDA only)", "NAME");
  p.option(
      "--sssp-delta", [&c](const std::string& v) { c.delta = static_cast<float>(cli::parse_double(v, "--sssp-delta")); },
      "SSSP bucket width (default <= 0: adaptive, from the mean weight and degree)", "X");
  p.option("--sssp-threads", team_size(c.threads, "--sssp-threads"),
           "CPU SSSP: OpenMP threads (default 0: the OpenMP default)", "N");
  p.flag("--sssp-no-light-heavy", c.no_light_heavy, "CPU SSSP: relax every arc in the bucket phase (no light/heavy split)");
  p.flag("--sssp-no-relabel", c.no_relabel, "CPU SSSP: keep the graph's vertex ids (default: by decreasing degree)");
#if GPU500_HAVE_CUDA
  p.flag("--sssp-no-sorted-rows", cuda.sssp.unsorted_rows,
         "CUDA SSSP: no weight-sorted copy of the rows (less memory, slower)");
  p.flag("--sssp-no-persistent", sssp_no_persistent_,
         "CUDA SSSP: a host loop of one launch per phase instead of the persistent cooperative kernel");
  p.flag("--sssp-no-pull", sssp_no_pull_, "CUDA SSSP: no pull (bottom-up) passes; every heavy arc is pushed");
  p.flag("--sssp-no-device-loop", cuda.sssp.no_device_loop,
         "CUDA SSSP: every search in the bucket loop (no near-far device loop while the frontiers are small)");
#endif
}

void pipeline_flags::apply_sssp(gpu500::backend b) {
  const bool on_cuda = b == gpu500::backend::cuda;
  const auto wrong = [&](const std::string& flag) {
    return usage_error(flag + " applies to the " + (on_cuda ? "CPU" : "CUDA") + " backend only (--backend " +
                       (on_cuda ? "cpu" : "cuda") + ")");
  };
  static const char* const engine_flags[] = {"--sssp", "--sssp-delta", "--sssp-threads", "--sssp-no-light-heavy",
                                             "--sssp-no-relabel", "--sssp-no-sorted-rows", "--sssp-no-persistent",
                                             "--sssp-no-pull", "--sssp-no-device-loop"};
  if (!sssp_runs_ && parser_ != nullptr)
    for (const char* f : engine_flags)
      if (parser_->given(f)) throw usage_error(std::string(f) + " applies to SSSP, which this run does not do");
  if (parser_ != nullptr)
    for (const char* f : on_cuda ? std::span<const char* const>(sssp_cpu_only) : std::span<const char* const>(sssp_cuda_only))
      if (parser_->given(f)) throw wrong(f);
  if (sssp_bellman_ford_ && !on_cuda) throw wrong("--sssp bellman-ford");
#if GPU500_HAVE_CUDA
  auto& g = cuda.sssp;
  g.delta = cpu.sssp.delta;
  if (sssp_bellman_ford_) g.algo = sssp::cuda::algorithm::bellman_ford;
  if (sssp_no_persistent_) g.loop = sssp::cuda::loop_kind::host;
  if (sssp_no_pull_) g.pull_above = g.pull_first = 0;
#endif
}

}  // namespace gpu500::app
