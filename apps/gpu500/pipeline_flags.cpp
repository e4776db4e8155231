// Backend and technique flags of the Graph500 pipelines (see pipeline_flags.hpp).
#include "pipeline_flags.hpp"

#include <span>

#include "gpu500/core/device.hpp"
#include "gpu500/core/error.hpp"

namespace gpu500::app {

void pipeline_flags::add(cli::parser& p) {
  p.option("--backend", backend, "auto|cpu|cuda (auto: the GPU when present)");
  p.option("--vertex-bits", cpu.vertex_bits, "CPU backend vertex id width: 64 (default) or 32");
  bfs::add_cpu_options(p, cpu.bfs);
  add_sssp(p);
#if GPU500_HAVE_CUDA
  graph500::add_cuda_options(p, cuda);
#endif
}

std::unique_ptr<graph500::pipeline> pipeline_flags::make(const graph::kronecker_params& gp) {
  apply_sssp(parse_backend(backend));
#if GPU500_HAVE_CUDA
  if (parse_backend(backend) == gpu500::backend::cuda) return graph500::make_cuda_pipeline(gp, cuda);
#else
  parse_backend(backend);  // rejects unknown names
#endif
  return graph500::make_cpu_pipeline(gp, cpu);
}

std::unique_ptr<graph500::pipeline> pipeline_flags::make(graph::edge_list el) {
  apply_sssp(parse_backend(backend));
#if GPU500_HAVE_CUDA
  if (parse_backend(backend) == gpu500::backend::cuda) return graph500::make_cuda_pipeline(std::move(el), cuda);
#else
  parse_backend(backend);
#endif
  return graph500::make_cpu_pipeline(std::move(el), cpu);
}

// ---- SSSP (kernel 3) flags: one name per knob on both backends ------------------------------

void pipeline_flags::add_sssp(cli::parser& p) {
  parser_ = &p;
  auto& c = cpu.sssp;
  p.option(
      "--sssp",
      [this](const std::string& v) {
        if (v != "delta" && v != "bellman-ford")
          throw usage_error("--sssp: expected delta or bellman-ford, got '" + v + "'");
        sssp_bellman_ford_ = v == "bellman-ford";
      },
      "SSSP algorithm: delta (delta-stepping, Meyer & Sanders; default) or bellman-ford (CUDA only)", "NAME");
  p.option(
      "--sssp-delta", [&c](const std::string& v) { c.delta = static_cast<float>(cli::parse_double(v, "--sssp-delta")); },
      "SSSP bucket width (default <= 0: adaptive, from the mean weight and degree)", "X");
  p.option("--sssp-threads", c.threads, "CPU SSSP: OpenMP threads (default 0: the OpenMP default)");
  p.flag("--sssp-no-light-heavy", c.no_light_heavy, "CPU SSSP: relax every arc in the bucket phase (no light/heavy split)");
  p.flag("--sssp-no-relabel", c.no_relabel, "CPU SSSP: keep the graph's vertex ids (default: by decreasing degree)");
#if GPU500_HAVE_CUDA
  p.flag("--sssp-no-sorted-rows", cuda.sssp.unsorted_rows,
         "CUDA SSSP: no weight-sorted copy of the rows (less memory, slower)");
  p.flag("--sssp-no-persistent", sssp_no_persistent_,
         "CUDA SSSP: a host loop of one launch per phase instead of the persistent cooperative kernel");
  p.flag("--sssp-no-pull", sssp_no_pull_, "CUDA SSSP: no pull (bottom-up) passes; every heavy arc is pushed");
#endif
}

void pipeline_flags::apply_sssp(gpu500::backend b) {
  static const char* const cpu_only[] = {"--sssp-threads", "--sssp-no-light-heavy", "--sssp-no-relabel"};
  static const char* const cuda_only[] = {"--sssp-no-sorted-rows", "--sssp-no-persistent", "--sssp-no-pull"};
  const bool on_cuda = b == gpu500::backend::cuda;
  const auto wrong = [&](const std::string& flag) {
    return usage_error(flag + " applies to the " + (on_cuda ? "CPU" : "CUDA") + " backend only (--backend " +
                       (on_cuda ? "cpu" : "cuda") + ")");
  };
  if (parser_ != nullptr)
    for (const char* f : on_cuda ? std::span<const char* const>(cpu_only) : std::span<const char* const>(cuda_only))
      if (parser_->given(f)) throw wrong(f);
  if (sssp_bellman_ford_ && !on_cuda) throw wrong("--sssp bellman-ford");
#if GPU500_HAVE_CUDA
  auto& g = cuda.sssp;
  g.delta = cpu.sssp.delta;
  if (sssp_bellman_ford_) g.algo = sssp::cuda::algorithm::bellman_ford;
  if (sssp_no_persistent_) g.loop = sssp::cuda::loop_kind::host;
  if (sssp_no_pull_) g.pull_above = g.pull_first = 0;
#endif
}

}  // namespace gpu500::app
