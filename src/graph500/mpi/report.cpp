// The Graph500 run over MPI ranks and its report (see gpu500/graph500/mpi_pipeline.hpp): every
// rank runs the same harness (its pipeline methods are collective), rank 0 alone prints the
// output block, the progress lines and the JSON, which also holds the per-level trace of the
// last BFS and SSSP.
#include <cstdio>

#include "gpu500/core/error.hpp"
#include "gpu500/graph500/harness.hpp"
#include "gpu500/graph500/mpi_pipeline.hpp"
#include "local_graph.hpp"

namespace gpu500::graph500 {

namespace mpi {

json::value search_trace(const dist::communicator& c, const std::vector<dist::level_record>* bfs,
                         const std::vector<dist::level_record>* sssp, float sssp_delta) {
  json::value j;
  j["bfs"] = bfs ? dist::to_json(c, *bfs) : json::value::make_array();
  j["sssp"] = sssp ? dist::to_json(c, *sssp) : json::value::make_array();
  if (sssp) j["sssp_delta"] = static_cast<double>(sssp_delta);  // the (first) bucket width
  return j;
}

}  // namespace mpi

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

}  // namespace gpu500::graph500
