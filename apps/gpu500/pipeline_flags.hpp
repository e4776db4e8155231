// The backend choice and every engine's flags, shared by the commands that build a Graph500
// pipeline (graph500, bfs, sssp): one place registers them and picks the pipeline.
#pragma once

#include <memory>
#include <string>

#include "gpu500/config.hpp"
#include "gpu500/core/cli.hpp"
#include "gpu500/graph/edge_list.hpp"
#include "gpu500/graph/kronecker.hpp"
#include "gpu500/graph500/cpu_pipeline.hpp"
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

  /// --backend, --vertex-bits and the CPU (and CUDA) engines' technique flags.
  void add(cli::parser& p);
  /// The pipeline of the chosen backend for a Kronecker graph, or over a given edge list.
  std::unique_ptr<graph500::pipeline> make(const graph::kronecker_params& gp);
  std::unique_ptr<graph500::pipeline> make(graph::edge_list el);
};

}  // namespace gpu500::app
