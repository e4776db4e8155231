// Backend and technique flags of the Graph500 pipelines (see pipeline_flags.hpp).
#include "pipeline_flags.hpp"

#include "gpu500/core/device.hpp"

namespace gpu500::app {

void pipeline_flags::add(cli::parser& p) {
  p.option("--backend", backend, "auto|cpu|cuda (auto: the GPU when present)");
  p.option("--vertex-bits", cpu.vertex_bits, "CPU backend vertex id width: 64 (default) or 32");
  bfs::add_cpu_options(p, cpu.bfs);
  sssp::add_cpu_options(p, cpu.sssp);
#if GPU500_HAVE_CUDA
  graph500::add_cuda_options(p, cuda);
#endif
}

std::unique_ptr<graph500::pipeline> pipeline_flags::make(const graph::kronecker_params& gp) {
#if GPU500_HAVE_CUDA
  if (parse_backend(backend) == gpu500::backend::cuda) return graph500::make_cuda_pipeline(gp, cuda);
#else
  parse_backend(backend);  // rejects unknown names
#endif
  return graph500::make_cpu_pipeline(gp, cpu);
}

std::unique_ptr<graph500::pipeline> pipeline_flags::make(graph::edge_list el) {
#if GPU500_HAVE_CUDA
  if (parse_backend(backend) == gpu500::backend::cuda) return graph500::make_cuda_pipeline(std::move(el), cuda);
#else
  parse_backend(backend);
#endif
  return graph500::make_cpu_pipeline(std::move(el), cpu);
}

}  // namespace gpu500::app
