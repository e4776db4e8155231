// gpu500/bellman_ford/benchmark.hpp — the dense Bellman-Ford experiment of `gpu500 bellman-ford`:
// the comparison of Liu et al. (dense Bellman-Ford in OpenCL, parallel min-reduction) of the serial and
// OpenMP CPU engines with the naive / reduce / coarse kernels in CUDA and OpenCL, on seeded random
// graphs, extended by the skip and resident schedules of the coarse kernel.
//
// Every result is verified (distances exactly equal to the Dijkstra oracle's, predecessors and
// round count equal to the first verified engine's, whose tree passes the certificate check)
// before it is reported. Per N the run prints one table row per engine, variant and schedule:
// rounds, time with transfers, time of the rounds, upload time, steady-state time per round, the
// matrix bytes per round over that time, and speed-ups over the serial / OpenMP / naive rows, per
// round and for the paper's N-1 rounds plus both transfers (measured with full_rounds, else
// projected). The JSON file holds every figure (see docs/bellman-ford.md).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "gpu500/bellman_ford/bellman_ford.hpp"

namespace gpu500::bellman_ford {

/// Which backends a benchmark runs. `all`: every backend present (OpenCL is skipped with a
/// message when it has no device); otherwise exactly the named ones (a missing one is an error).
struct backend_set {
  bool all = true;
  bool cpu = false, cuda = false, opencl = false;
  [[nodiscard]] bool wants_cpu() const { return all || cpu; }
  [[nodiscard]] bool wants_cuda() const { return all || cuda; }
  [[nodiscard]] bool wants_opencl() const { return all || opencl; }
};
/// "all" or a comma-separated list of cpu, cuda, opencl; throws usage_error otherwise.
backend_set parse_backends(const std::string& s);
/// "launch,skip,resident" (any of them, comma-separated) -> schedules; throws usage_error otherwise.
std::vector<schedule> parse_schedules(const std::string& s);
/// "warp|async|pull" -> engine_config::exchange; throws usage_error otherwise.
engine_config::exchange parse_exchange(const std::string& s);
/// "auto|avx512|avx2|baseline" -> engine_config::cpu_isa; throws usage_error otherwise.
engine_config::cpu_isa parse_cpu_isa(const std::string& s);

struct benchmark_options {
  std::vector<index_t> sizes{2048};  ///< vertex counts, each in [1, 65536]
  std::vector<variant> variants{variant::naive, variant::reduce, variant::coarse};  ///< GPU kernels
  int group = 256;  ///< M of reduce / coarse (the resident schedule always uses a warp per vertex)
  std::vector<schedule> schedules{schedule::launch, schedule::skip, schedule::resident};  ///< coarse only
  backend_set backends;
  engine_config engines;  ///< instruction set, OpenCL device, the resident schedule's launch
  graph_params graph;     ///< density, weights, potentials, seed (graph.n is ignored: see sizes)
  index_t source = 0;
  bool full_rounds = false;  ///< the paper's N-1 rounds instead of stopping at convergence
  bool page_lock = true;     ///< page-lock the host matrices for CUDA uploads (outside the timing)
  int repeat = 0;            ///< timed repetitions, best kept (0: 3 for N <= 4096, else 1)
  std::vector<int> sweep_groups;     ///< M values to sweep for reduce / coarse on each GPU backend
  std::vector<index_t> sweep_sizes;  ///< the Ns of that sweep (empty: the largest of sizes)
  std::string json_path;             ///< "" or where the JSON goes
};

/// Throws usage_error when an option that was given (given("--flag") says so) cannot apply to
/// the configuration o chooses: e.g. --group without a reduce or coarse variant on a GPU backend,
/// --resident-cluster without the resident schedule on CUDA, --cpu-isa without the CPU backend,
/// --sweep-n without --sweep or naming an N that is not run.
void check_applicable(const benchmark_options& o, const std::function<bool(const char*)>& given);

/// Runs the experiment, printing its tables to stdout and writing the JSON file when asked.
/// Returns true when every result was verified. Throws usage_error on options that are out of
/// range or name a backend this build or host lacks.
bool run_benchmark(const benchmark_options& o);

}  // namespace gpu500::bellman_ford
