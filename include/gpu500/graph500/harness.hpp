// gpu500/graph500/harness.hpp — the Graph500 3.0 benchmark run, backend-independent.
//
// generate (untimed, reported) -> kernel 1 (timed) -> 64 search keys (the reference's stream) ->
// an untimed, validated warm-up search -> 64 timed BFS -> 64 timed SSSP, each validated ->
// statistics computed as the reference computes them -> the reference's output block on stdout.
// With --energy, after each kernel's timed searches its keys are searched again (untimed for
// Graph500, validated already) in whole passes until the window reaches energy_window_seconds,
// the energy counters read before and after (GreenGraph500; docs/energy.md).
#pragma once

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "gpu500/core/energy.hpp"
#include "gpu500/core/json.hpp"
#include "gpu500/dist/comm.hpp"
#include "gpu500/graph/kronecker.hpp"
#include "gpu500/graph500/pipeline.hpp"

namespace gpu500::graph500 {

struct run_config {
  graph::kronecker_params graph;
  int num_roots = 64;
  /// num_roots distinct keys with an edge or a usage_error (--roots given); otherwise a graph with
  /// fewer such vertices repeats keys, as the reference does.
  bool distinct_roots = false;
  bool run_bfs = true;   ///< false: SKIP_BFS
  bool run_sssp = true;  ///< false: BFS only (the reference's graph500_reference_bfs: 34 lines)
  bool validate = true;  ///< false: SKIP_VALIDATION (validate figures print as -1)
  bool progress = true;  ///< per-root lines (with the time left) on stderr
  int num_processes = 1;
  bool energy = false;  ///< measure each kernel's energy over a window of repeated searches
  energy::source energy_source = energy::source::host;
  bool lead = true;  ///< this process writes the run's one-off stderr lines (rank 0 over MPI)
  /// Over MPI ranks (collective): a value's sum and max over the ranks; unset: the value itself.
  std::function<double(double)> sum_over_ranks, max_over_ranks;
};

/// The shortest energy window (seconds): whole passes over the search keys are repeated until the
/// counters have run this long. The counters advance in discrete steps (RAPL's about every
/// millisecond, NVML's more coarsely), and one step is then a small part of the window.
inline constexpr double energy_window_seconds = 1.0;

/// A kernel's energy window (summed over the ranks' counters; seconds the slowest rank's).
struct energy_figures {
  bool measured = false;
  int passes = 0;
  long long searches = 0;
  double seconds = 0, joules = 0;
  double edges = 0;  ///< input edges traversed by the window's searches (their nedge, summed)
  [[nodiscard]] double watts() const { return seconds > 0 ? joules / seconds : 0; }
  /// (edges / seconds) / watts = edges per joule; NaN when the counters did not advance.
  [[nodiscard]] double teps_per_watt() const;
};

struct kernel_figures {
  std::vector<double> seconds, nedge, validate_seconds;
  energy_figures energy;
};

struct run_result {
  double generation_seconds = 0, construction_seconds = 0;
  std::vector<std::int64_t> roots;
  kernel_figures bfs, sssp;
  bool valid = true;
  std::string failure;  ///< the first validation failure
  std::string energy_meter;        ///< the counter read (with cfg.energy), e.g. "NVML, GPU 0000:1B:00.0"
  std::string energy_unavailable;  ///< why energy was not measured (with cfg.energy)
};

/// Runs the benchmark on a pipeline.
run_result run(pipeline& p, const run_config& cfg);
/// run() on the ranks of comm (collective; one process: the one-rank communicator), then rank 0's
/// output block on `out` and, when json_path is not empty, every figure with the pipeline's
/// per-level trace to that file; the progress lines on rank 0 only, the energy window summed over
/// the ranks. Throws gpu500::error, on every rank, naming the first validation failure when the
/// run is invalid.
run_result run_and_report(pipeline& p, run_config cfg, std::FILE* out, const std::string& json_path,
                          const dist::communicator& comm = {});

/// Sets run_bfs / run_sssp from "bfs,sssp" (or "sssp,bfs"), "bfs" or "sssp" (usage_error otherwise).
void select_kernels(run_config& cfg, const std::string& kernels);
/// The reference's environment switches: SKIP_BFS (no BFS) and SKIP_VALIDATION.
void apply_environment(run_config& cfg);

/// The reference's stdout block (55 lines with SSSP, 34 without), or its one invalid-run line.
void print_output_block(std::FILE* out, const run_config& cfg, const run_result& r);

/// Every figure, for --json.
json::value to_json(const run_config& cfg, const run_result& r, const pipeline& p);

/// Bytes the host needs for the edge list of the run (12 bytes packed per edge as the reference,
/// ours keeps 20: two int64 ids and a float weight).
std::size_t edge_list_bytes(const graph::kronecker_params& p);

}  // namespace gpu500::graph500
