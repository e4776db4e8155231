// Private: the dense Bellman-Ford benchmark's measurements and their report (the printed tables
// and the JSON document of `gpu500 bellman-ford`); benchmark.cpp measures, report.cpp writes.
#pragma once

#include <string>
#include <vector>

#include "gpu500/bellman_ford/benchmark.hpp"
#include "gpu500/core/json.hpp"

namespace gpu500::bellman_ford {

/// One engine / variant / schedule / M at one N.
struct measurement {
  index_t n = 0;
  std::string engine, variant;
  bool cpu = false;  // a CPU engine (serial, OpenMP)
  int group = 0;
  bellman_ford::schedule schedule = bellman_ford::schedule::launch;
  std::string detail;        // the engine's words on how it ran the schedule (after the timed rounds)
  std::string solve_detail;  // the same after the last solve, when it differs (a trace of its own rounds)
  result r;                  // the fastest repetition (by time with transfers)
  double per_round = 0;      // steady-state seconds per round (kernels only)
  double paper = 0;          // the paper's N-1 rounds + both transfers (measured or projected)
  bool verified = false;
  std::string failure;
};

/// Prints the run's lines and tables in order and collects the JSON document.
class report {
 public:
  /// Prints the configuration line.
  report(const benchmark_options& o, int omp_threads);
  void engine_line(const char* name, const std::string& description);
  void copy_bandwidth(const bellman_ford::copy_bandwidth& bw);
  void host_bandwidth(double gbs, std::size_t probe_bytes);
  void table_header(bool have_cuda);
  /// One N's rows (speed-ups within the N) and its JSON entry.
  void size_results(index_t n, const dense_matrix& g, const std::vector<measurement>& here, double setup_seconds,
                    double pin_seconds, const char* cuda_upload_from);
  void sweep_header(index_t n);
  void sweep_result(const measurement& m);
  /// The bandwidth summaries and the verdict; writes the JSON file. True when all verified.
  bool finish();

 private:
  const benchmark_options& o_;
  int omp_threads_;
  json::value out_;
  bellman_ford::copy_bandwidth bw_;
  double host_bw_ = 0;
  std::vector<measurement> results_;
  bool all_verified_ = true;
};

}  // namespace gpu500::bellman_ford
