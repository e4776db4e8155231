// The Graph500 run over MPI ranks and its report (see gpu500/graph500/mpi_pipeline.hpp): every
// rank runs the same harness (its pipeline methods are collective), rank 0 alone prints the
// output block, the progress lines and the JSON, which also holds the per-level trace of the
// last BFS and SSSP; and, in a build without CUDA, the CUDA factory's refusal.
#include <cstdio>

#include "gpu500/config.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/graph500/harness.hpp"
#include "gpu500/graph500/mpi_pipeline.hpp"

namespace gpu500::graph500 {

run_result run_and_report_distributed(mpi_pipeline& p, run_config cfg, const dist::communicator& comm, std::FILE* out,
                                      const std::string& json_path) {
  const bool root = comm.rank() == 0;
  cfg.num_processes = comm.size();
  cfg.progress = cfg.progress && root;
  cfg.lead = root;
  // The energy window: every rank's counter summed, the slowest rank's seconds.
  cfg.sum_over_ranks = [&comm](double x) { return comm.allreduce(x, dist::reduce_op::sum); };
  cfg.max_over_ranks = [&comm](double x) { return comm.allreduce(x, dist::reduce_op::max); };
  run_result r = run(p, cfg);
  json::value trace;  // collective: every rank's seconds of each level
  if (!json_path.empty()) trace = p.trace();
  if (root) {
    print_output_block(out, cfg, r);
    std::fflush(out);
    if (!json_path.empty()) {
      json::value j = to_json(cfg, r, p);
      j["trace"] = std::move(trace);
      json::write_file(json_path, j);
    }
  }
  if (!r.valid) throw error(r.failure);
  return r;
}

#if !GPU500_HAVE_CUDA
std::unique_ptr<mpi_pipeline> make_mpi_cuda_pipeline(const dist::communicator&, const graph::kronecker_params&,
                                                     const mpi_options&) {
  throw usage_error("this build has no CUDA backend");
}
#endif

}  // namespace gpu500::graph500
