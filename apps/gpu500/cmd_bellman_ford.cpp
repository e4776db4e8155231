// gpu500 bellman-ford: the dense Bellman-Ford experiment (gpu500/bellman_ford/benchmark.hpp):
// parses the options and runs bellman_ford::run_benchmark.
#include <cstdio>
#include <string>

#include "command.hpp"
#include "gpu500/bellman_ford/benchmark.hpp"
#include "gpu500/bellman_ford/dense_graph.hpp"
#include "gpu500/core/cli.hpp"
#include "gpu500/core/cuda_arch.hpp"
#include "gpu500/core/device.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/core/json.hpp"

GPU500_COMMAND(bellman_ford, "Dense Bellman-Ford (Liu et al.): naive/reduce/coarse on CPU, CUDA, OpenCL") {
  using namespace gpu500;
  namespace bf = gpu500::bellman_ford;
  bf::benchmark_options o;
  std::string variant = "all", schedules = "launch,skip,resident", backend = "all", exchange = "warp", isa = "auto";
  std::vector<std::int64_t> sizes{2048}, sweep, sweep_n;
  std::int64_t seed = 1, source = 0;
  bool no_page_lock = false;
  cli::parser p("gpu500 bellman-ford",
                "Dense Bellman-Ford (Liu et al.: OpenCL, parallel min-reduction) on seeded random graphs: every engine\n"
                "and variant, verified against an O(N^2) Dijkstra oracle, timed with and without transfers.");
  p.option("--n", sizes, "vertex counts, comma-separated (default 2048; the paper's: 256,...,8192)");
  p.option("--variant", variant, "naive|reduce|coarse|all: the GPU kernels (default all)");
  p.option("--group", o.group, "M: work-group size of reduce/coarse, a power of two (default 256)");
  p.option("--schedules", schedules, "coarse on GPUs: launch (a launch per round), skip (unchanged sources not read), resident (one launch); default launch,skip,resident");
  p.option("--resident-cluster", o.engines.resident_cluster, "CUDA resident schedule: -1 automatic, 16, 8 or 4 (one cluster of that many blocks), 0 (cooperative grid); default -1");
  p.option("--resident-exchange", exchange, "CUDA resident schedule, one cluster: warp (warps send to blocks), async (blocks send to blocks) or pull (barrier, then loads); default warp");
  p.option("--backend", backend, "cpu|cuda|opencl|all, comma-separated (default all that are present)");
  p.option("--cpu-isa", isa, "CPU engines' instruction set: auto (the widest this CPU has), avx512, avx2 or baseline (default auto)");
  p.option("--density", o.graph.density, "probability of each edge (default 0.5)");
  p.option("--wmin", o.graph.wmin, "smallest integer weight (default 1)");
  p.option("--wmax", o.graph.wmax, "largest integer weight (default 100)");
  p.flag("--negative", o.graph.negative, "reweight with random potentials: negative edges, no negative cycle");
  p.option("--seed", seed, "generator seed (default 1)");
  p.option("--source", source, "source vertex (default 0)");
  p.flag("--full-rounds", o.full_rounds, "run the paper's N-1 rounds instead of stopping at convergence");
  p.flag("--no-page-lock", no_page_lock, "CUDA: upload from pageable host memory (default: matrices page-locked, untimed)");
  p.option("--repeat", o.repeat, "timed repetitions, best kept (default 3 for N <= 4096, else 1)");
  p.option("--sweep", sweep, "M values to sweep for reduce/coarse on each GPU backend, e.g. 32,64,...,1024 (default none)");
  p.option("--sweep-n", sweep_n, "the Ns of the M sweep, each among --n (default the largest --n)");
  p.option("--cl-platform", o.engines.cl_platform, "OpenCL platform index (default: the first with a GPU)");
  p.option("--cl-device", o.engines.cl_device, "OpenCL device index in that platform (default: the first GPU)");
  p.option("--json", o.json_path, "write every figure to this JSON file (default none)");
  p.parse(args);
  if (p.help_requested()) {
    std::fputs(p.help().c_str(), stdout);
    return 0;
  }
  o.sizes.assign(sizes.begin(), sizes.end());
  if (variant != "all") o.variants = {bf::parse_variant(variant)};
  o.schedules = bf::parse_schedules(schedules);
  o.backends = bf::parse_backends(backend);
  if (o.backends.wants_cuda() && cuda_available()) check_cuda_devices();  // before any kernel: one clear line
  o.engines.resident_exchange = bf::parse_exchange(exchange);
  o.engines.isa = bf::parse_cpu_isa(isa);
  o.graph.seed = static_cast<std::uint64_t>(seed);
  o.source = source;
  o.page_lock = !no_page_lock;
  o.sweep_groups.assign(sweep.begin(), sweep.end());
  o.sweep_sizes.assign(sweep_n.begin(), sweep_n.end());
  if (!o.json_path.empty()) json::check_writable(o.json_path, "--json");
  if (p.given("--repeat") && o.repeat < 1) throw usage_error("bellman-ford: --repeat must be >= 1");
  if (p.given("--group") && (o.group < 1 || (o.group & (o.group - 1)) != 0))  // in any build, GPU or not
    throw usage_error("bellman-ford: group size M must be a power of two; got " + std::to_string(o.group));
  for (const auto n : sizes) {  // the graphs' parameters, before the report's first line
    auto g = o.graph;
    g.n = n;
    bf::check_params(g);
  }
  bf::check_applicable(o, [&](const char* flag) { return p.given(flag); });
  return bf::run_benchmark(o) ? 0 : 1;
}
