// The backend choice and every engine's flags, shared by the commands that build a Graph500
// pipeline (graph500, bfs, sssp): one place registers them and picks the pipeline.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "gpu500/config.hpp"
#include "gpu500/core/cli.hpp"
#include "gpu500/core/device.hpp"
#include "gpu500/graph/edge_list.hpp"
#include "gpu500/graph/kronecker.hpp"
#include "gpu500/graph500/cpu_pipeline.hpp"
#include "gpu500/dist/comm.hpp"
#include "gpu500/graph500/mpi_pipeline.hpp"
#include "gpu500/graph500/pipeline.hpp"
#if GPU500_HAVE_CUDA
#include "gpu500/graph500/cuda_pipeline.hpp"
#endif

namespace gpu500::app {

struct pipeline_flags {
  std::string backend = "auto";
  graph500::cpu_pipeline_options cpu;
#if GPU500_HAVE_CUDA
  graph500::cuda_options cuda;
#endif

  /// --backend, the graph's flags (--vertex-bits; --device, --no-sort with CUDA) and the CPU (and
  /// CUDA) engines' technique flags of the kernels the command can run (bfs, sssp): a command's
  /// --help lists only what it accepts. The parser must outlive the calls to make(), which check
  /// the flags given against the chosen backend.
  void add(cli::parser& p, bool bfs = true, bool sssp = true);
  /// Whether the run does BFS (kernel 2); when it does not, a BFS engine flag is a usage_error.
  void set_bfs_runs(bool on) { bfs_runs_ = on; }
  /// Whether the run does SSSP (kernel 3); when it does not, an SSSP engine flag is a usage_error.
  void set_sssp_runs(bool on) { sssp_runs_ = on; }
  /// Whether the given edge list's edges are arcs (--directed): make(edge_list) then builds a
  /// directed pipeline, and the flags that tune only the bottom-up step or the pull (which a
  /// directed search never runs) are a usage_error.
  void set_directed(bool on) { directed_ = on; }
  /// The pipeline of the chosen backend for a Kronecker graph, or over a given edge list.
  std::unique_ptr<graph500::pipeline> make(const graph::kronecker_params& gp);
  std::unique_ptr<graph500::pipeline> make(graph::edge_list el);
  /// The backend of the searches on el: as --backend names it; "auto" with a GPU takes the CPU
  /// backend for a graph of paths and cycles (graph::chain_like: a level of a vertex or two costs
  /// the GPU more than a host core; docs/bfs-gpu.md), unless a flag of the CUDA engines was given.
  [[nodiscard]] gpu500::backend search_backend(const graph::edge_list& el) const;

  /// The flags of a run over several MPI ranks (--share-gpus, --no-cuda-aware-mpi) and
  /// --one-rank-partition; graph500 only.
  void add_distributed(cli::parser& p);
  /// The distributed pipeline of the chosen backend over comm (more than one rank, or one with
  /// --one-rank-partition). The engine flags it does not implement are a usage_error.
  std::unique_ptr<graph500::mpi_pipeline> make_distributed(const dist::communicator& comm,
                                                           const graph::kronecker_params& gp);
  /// Whether --share-gpus was given (ranks of a node on fewer GPUs).
  [[nodiscard]] bool shares_gpus() const { return share_gpus_; }
  /// Whether --one-rank-partition was given: one process runs the pipeline over ranks.
  [[nodiscard]] bool one_rank_partition() const { return one_rank_partition_; }
  /// On one rank: refuses the flags that only a run over several ranks uses.
  void check_single_process() const;

 private:
  /// The flags of the graph whatever the kernel: --vertex-bits and, with CUDA, --device, --no-sort.
  void add_graph(cli::parser& p);
  /// The BFS flags (--bfs-alpha, ... of both engines) and, in apply_bfs, the graph's; apply_bfs() checks
  /// them against the chosen backend (a flag of the other backend's engine is a usage_error) and
  /// sets the options.
  void add_bfs(cli::parser& p);
  void apply_bfs(gpu500::backend b);
  const cli::parser* parser_ = nullptr;  ///< the command's parser (for the flags given)
  std::size_t engine_flags_first_ = 0, engine_flags_last_ = 0;  ///< add_bfs/add_sssp's options in it
  int vertex_bits_ = 0;                  ///< 0: the backend's default
  bool bfs_runs_ = true, sssp_runs_ = true;
  double bfs_alpha_ = 0, bfs_beta_ = 0;
  /// The SSSP flags (--sssp, --sssp-delta, ... of both engines); apply_sssp() checks them against
  /// the chosen backend (a flag of the other backend's engine is a usage_error) and sets the options.
  void add_sssp(cli::parser& p);
  void apply_sssp(gpu500::backend b);
  bool sssp_bellman_ford_ = false, sssp_no_persistent_ = false, sssp_no_pull_ = false;
  bool share_gpus_ = false, no_nccl_ = false, no_cuda_aware_mpi_ = false, one_rank_partition_ = false;
  bool directed_ = false;
};

}  // namespace gpu500::app
