// python/src/benchmarks.cpp — whole benchmark runs as functions: Graph500 (graph500::run on the
// backend's pipeline, the record of `gpu500 graph500 --json`) and HPL (hpl::run_program, the
// record of `gpu500 hpl --json`), each returned as the JSON text the CLI writes. Nothing is
// printed by graph500(); hpl() prints the HPL.out layout on stdout as the CLI does.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "core.hpp"
#include "gpu500/config.hpp"
#include "gpu500/core/device.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/core/json.hpp"
#include "gpu500/core/provenance.hpp"
#include "gpu500/graph500/cpu_pipeline.hpp"
#include "gpu500/graph500/harness.hpp"
#include "gpu500/hpl/program.hpp"
#if GPU500_HAVE_CUDA
#include "gpu500/graph500/cuda_pipeline.hpp"
#endif

namespace gpu500::python {
namespace {

std::string graph500_run(int scale, int edgefactor, const std::string& backend, std::optional<int> roots,
                         std::uint64_t seed1, std::uint64_t seed2, const std::string& kernels, bool validate) {
  graph::kronecker_params gp;
  gp.scale = scale;
  gp.edgefactor = edgefactor;
  gp.seed1 = seed1;
  gp.seed2 = seed2;
  graph500::run_config cfg;
  graph500::select_kernels(cfg, kernels);
  cfg.validate = validate;
  cfg.progress = false;
  if (roots && (*roots < 1 || *roots > 1 << 20)) throw usage_error("roots must be in 1..1048576");
  cfg.num_roots = roots.value_or(64);
  gp.weights = cfg.run_sssp;
  gp.check();
  cfg.distinct_roots = roots.has_value();
  if (cfg.distinct_roots && cfg.num_roots > gp.num_vertices())
    throw usage_error("roots " + std::to_string(cfg.num_roots) + " exceeds the 2^SCALE = " +
                      std::to_string(gp.num_vertices()) + " vertices");
  cfg.graph = gp;
  const std::string be = resolve_backend(backend);
  cfg.energy_source = be == "cuda" ? energy::source::gpu : energy::source::host;
  json::value j;
  {
    nb::gil_scoped_release unlocked;
    std::unique_ptr<graph500::pipeline> pipe;
#if GPU500_HAVE_CUDA
    if (be == "cuda") pipe = graph500::make_cuda_pipeline(gp, graph500::cuda_options{});
#endif
    if (!pipe) pipe = graph500::make_cpu_pipeline(gp, graph500::cpu_pipeline_options{});
    const graph500::run_result r = graph500::run(*pipe, cfg);
    if (!r.valid) throw error(r.failure);
    j = graph500::to_json(cfg, r, *pipe);
    if (json::value t = pipe->trace(); t.is_object()) j["trace"] = std::move(t);
  }
  j["provenance"] = provenance::to_json(provenance::current());
  return j.dump();
}

int hpl_run(std::optional<std::int64_t> n, std::optional<int> nb, const std::string& backend,
            const std::string& json_path) {
  hpl::program_settings s;
  hpl::params prm;  // the short form's defaults: netlib's sample HPL.dat
  if (n && *n < 0) throw usage_error("hpl: n must be >= 0, got " + std::to_string(*n));
  prm.n = n.value_or(hpl::auto_n);
  if (nb) prm.nb = *nb;
  s.nb_default = !nb.has_value();
  s.short_form = prm;
  s.be = parse_backend(backend);
  s.quiet = true;
  s.json_path = json_path;
  nb::gil_scoped_release unlocked;
  return hpl::run_program(s);
}

}  // namespace

void bind_benchmarks(nb::module_& m) {
  m.def("graph500", &graph500_run, nb::arg("scale"), nb::arg("edgefactor") = 16, nb::arg("backend") = "auto",
        nb::arg("roots").none() = nb::none(), nb::arg("seed1") = 2, nb::arg("seed2") = 3,
        nb::arg("kernels") = "bfs,sssp", nb::arg("validate") = true,
        "A Graph500 run: the record of `gpu500 graph500 --json` as JSON text");
  m.def("hpl", &hpl_run, nb::arg("n").none() = nb::none(), nb::arg("nb").none() = nb::none(),
        nb::arg("backend") = "auto", nb::arg("json_path"),
        "An HPL run of the short form (one test on a 1 x 1 grid), its record written to json_path; "
        "returns 0 when the residual check passed");
}

}  // namespace gpu500::python
