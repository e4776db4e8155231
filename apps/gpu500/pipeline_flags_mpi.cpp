// The flags of a Graph500 run over several MPI ranks and the choice of its pipeline (see
// pipeline_flags.hpp): which engine flags the distributed pipelines implement, the three that
// only they use (--share-gpus, --no-nccl, --no-cuda-aware-mpi), --one-rank-partition (that
// pipeline for one process), and each rank's OpenMP team.
#include <algorithm>
#include <iterator>
#include <string>

#include "gpu500/core/error.hpp"
#include "gpu500/dist/host_threads.hpp"
#include "pipeline_flags.hpp"

namespace gpu500::app {

namespace {
// The engine flags (of add_bfs / add_sssp) the distributed pipelines implement; any other engine
// flag given is refused. (The host and CUDA BFS and SSSP are one engine each at every rank count,
// so each of their flags is here; --no-bitmap is refused over several ranks below.)
constexpr const char* distributed_engine_flags[] = {
    "--vertex-bits",   "--no-direction-optimizing", "--bfs-alpha",      "--bfs-beta",     "--bfs-threads",
    "--bfs",           "--no-ts",                   "--no-wb",          "--no-hc",        "--no-hub-cache",
    "--no-device-loop", "--no-bitmap",              "--hub-threshold",  "--priority-degree", "--gamma",
    "--bfs-sm-share",  "--sssp",                    "--sssp-delta",     "--sssp-threads", "--sssp-no-light-heavy",
    "--sssp-no-relabel", "--sssp-no-pull",          "--sssp-no-sorted-rows", "--sssp-no-persistent",
    "--sssp-no-device-loop"};
}  // namespace

void pipeline_flags::add_distributed(cli::parser& p) {
  parser_ = &p;
  p.flag("--share-gpus", share_gpus_,
         "over MPI ranks, CUDA: let several ranks of a host share one GPU (default: one GPU per rank)");
  p.flag("--no-nccl", no_nccl_,
         "over MPI ranks, CUDA: exchange through MPI, not NCCL (default: NCCL when each rank has its own GPU)");
  p.flag("--no-cuda-aware-mpi", no_cuda_aware_mpi_,
         "over MPI ranks, CUDA: exchange through page-locked host buffers even where MPI reads device memory");
  p.flag("--one-rank-partition", one_rank_partition_,
         "run one process through the pipeline over MPI ranks, as a partition of one rank (its engines, "
         "to compare them with the one-process engines; over several ranks that pipeline runs anyway)");
}

void pipeline_flags::check_single_process() const {
  if (parser_ == nullptr) return;
  for (const char* f : {"--share-gpus", "--no-nccl", "--no-cuda-aware-mpi"})
    if (parser_->given(f)) throw usage_error(std::string(f) + " applies to runs over several MPI ranks (mpirun -np R, R > 1)");
}

std::unique_ptr<graph500::mpi_pipeline> pipeline_flags::make_distributed(const dist::communicator& comm,
                                                                         const graph::kronecker_params& gp) {
  const gpu500::backend b = parse_backend(backend);
  const std::string over = " does not apply to a run over " + std::to_string(comm.size()) + " MPI ranks";
  // The backend's own checks first, as on one rank (a flag of the other backend's engine, an
  // engine flag of a kernel the run does not do).
  apply_bfs(b);
  apply_sssp(b);
  if (parser_ != nullptr) {
    // The two flags of the one-process CUDA pipeline that the pipeline over ranks cannot honour.
    if (parser_->given("--device"))
      throw usage_error("--device" + over + ": each rank takes the GPU of its rank on its host (rank k of a host, "
                        "GPU k), as CUDA_VISIBLE_DEVICES or the ranks' placement choose");
    if (parser_->given("--no-sort"))
      throw usage_error("--no-sort" + over + ": the CUDA BFS over ranks always walks its rows in degree order "
                        "within each rank's block of vertices");
    for (const std::string& f : parser_->given_between(engine_flags_first_, engine_flags_last_))
      if (std::find(std::begin(distributed_engine_flags), std::end(distributed_engine_flags), f) ==
          std::end(distributed_engine_flags))
        throw usage_error(f + over);
    if (comm.size() > 1 && parser_->given("--no-bitmap"))
      throw usage_error("--no-bitmap" + over + ": a rank learns the other ranks' frontier from the gathered visited "
                        "bitmap, so the CUDA BFS over ranks always reads it");
    if (b != gpu500::backend::cuda)
      for (const char* f : {"--share-gpus", "--no-nccl", "--no-cuda-aware-mpi"})
        if (parser_->given(f)) throw usage_error(std::string(f) + " applies to the CUDA backend only (--backend cuda)");
  }
  // OpenMP inside each rank: the host's cores shared by its ranks unless OMP_NUM_THREADS says
  // otherwise, with a warning where that oversubscribes the host (dist/host_threads.hpp).
  (void)dist::share_host_cores(comm);
  // The host backend takes the options of one process as they are: one pipeline at every rank count.
  if (b != gpu500::backend::cuda) return graph500::make_cpu_pipeline(comm, gp, cpu);
  graph500::mpi_options o;
  o.vertex_bits = vertex_bits_;
#if GPU500_HAVE_CUDA
  o.cuda_bfs = cuda.bfs;
  o.cuda_sssp = cuda.sssp;
#endif
  o.share_gpus = share_gpus_;
  o.host_staging = no_cuda_aware_mpi_;
  o.no_nccl = no_nccl_;
  return graph500::make_mpi_cuda_pipeline(comm, gp, o);
}

}  // namespace gpu500::app
