// python/src/benchmarks.cpp — whole benchmark runs as functions: Graph500 (graph500::run on the
// backend's pipeline; the record of `gpu500 graph500 --json`, returned as JSON text), HPL
// (hpl::run_program) and HPL-MxP (hpl_mxp::run_program), whose records are written to a JSON file
// as by the CLI's --json. graph500() prints nothing on stdout; hpl() and hpl_mxp() print their
// result blocks there as the CLI does. Progress: given a callable, each run prints the CLI's
// progress lines, and the C stream stderr is pointed for the run's length at a stream whose
// every line is handed to the callable (under the GIL, from the thread that printed it); the
// descriptor 2 and Python's sys.stderr are untouched. The GIL is released during every run.
//
// MPI: the HPL and HPL-MxP programs initialise MPI when nobody has (a one-rank world) and
// finalise what they initialised, after which MPI cannot start again in the process; so the
// module initialises it itself before the first such run (it is then never the programs' to
// finalise) and finalises it when the interpreter exits (gpu500/__init__.py registers
// finalize_mpi).
#include <cstdint>
#include <cstdio>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "core.hpp"
#include "gpu500/config.hpp"
#include "gpu500/core/device.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/core/json.hpp"
#include "gpu500/core/provenance.hpp"
#include "gpu500/dist/comm.hpp"
#include "gpu500/graph500/cpu_pipeline.hpp"
#include "gpu500/graph500/harness.hpp"
#include "gpu500/hpl/program.hpp"
#include "gpu500/hpl_mxp/mxp.hpp"
#if GPU500_HAVE_CUDA
#include "gpu500/graph500/cuda_pipeline.hpp"
#endif

namespace gpu500::python {
namespace {

/// For its lifetime, the C stream stderr writes to a stream that hands each complete line to
/// `sink` (a Python callable; None: stderr is left alone). An exception the sink raised is kept
/// and raised by finish() after the run; later lines are dropped. stderr is one variable of the
/// process: runs that hand their lines over take turns (one_at_a_time, waited for without the
/// GIL, which the running one needs for its sink).
class progress_lines {
 public:
  explicit progress_lines(nb::object sink) : sink_(std::move(sink)) {
    if (sink_.is_none()) return;
#ifdef __GLIBC__
    {
      nb::gil_scoped_release unlocked;
      turn_ = std::unique_lock<std::mutex>(one_at_a_time());
    }
    cookie_io_functions_t io{};
    io.write = &progress_lines::write;
    stream_ = fopencookie(this, "w", io);
    if (!stream_) return;
    std::setvbuf(stream_, nullptr, _IOLBF, 4096);
    std::fflush(stderr);
    saved_ = stderr;
    stderr = stream_;  // glibc's stderr is an ordinary variable (the GNU C Library manual, 12.2)
#endif
  }
  ~progress_lines() { restore(); }
  progress_lines(const progress_lines&) = delete;
  progress_lines& operator=(const progress_lines&) = delete;

  [[nodiscard]] bool active() const { return stream_ != nullptr; }

  /// Puts stderr back and hands over a last unterminated line; raises what the sink raised.
  void finish() {
    restore();
    if (failure_) std::rethrow_exception(failure_);
  }

 private:
  static std::mutex& one_at_a_time() {
    static std::mutex m;
    return m;
  }

  void restore() {
    if (!stream_) return;
    std::fflush(stream_);
    stderr = saved_;
    std::fclose(stream_);
    stream_ = nullptr;
    if (turn_.owns_lock()) turn_.unlock();
    if (!partial_.empty()) emit(std::string(std::move(partial_)));
  }

  void emit(std::string line) {
    if (failure_) return;
    nb::gil_scoped_acquire locked;
    try {
      sink_(std::move(line));
    } catch (...) {
      failure_ = std::current_exception();
    }
  }

  static ssize_t write(void* cookie, const char* buf, size_t size) {
    auto* self = static_cast<progress_lines*>(cookie);
    self->partial_.append(buf, size);
    for (std::size_t nl; (nl = self->partial_.find('\n')) != std::string::npos;) {
      std::string line = self->partial_.substr(0, nl);
      self->partial_.erase(0, nl + 1);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      self->emit(std::move(line));
    }
    return static_cast<ssize_t>(size);
  }

  nb::object sink_;
  std::FILE* stream_ = nullptr;
  std::FILE* saved_ = nullptr;
  std::string partial_;
  std::exception_ptr failure_;
  std::unique_lock<std::mutex> turn_;
};

/// MPI started by the module (see the file's comment), or null.
dist::mpi_session* module_mpi = nullptr;

void ensure_mpi() {
  if (!module_mpi) module_mpi = new dist::mpi_session();
}

void finalize_mpi() {
  delete module_mpi;
  module_mpi = nullptr;
}

std::string graph500_run(int scale, int edgefactor, const std::string& backend, std::optional<int> roots,
                         std::uint64_t seed1, std::uint64_t seed2, const std::string& kernels, bool validate, nb::object progress) {
  graph::kronecker_params gp;
  gp.scale = scale;
  gp.edgefactor = edgefactor;
  gp.seed1 = seed1;
  gp.seed2 = seed2;
  graph500::run_config cfg;
  graph500::select_kernels(cfg, kernels);
  cfg.validate = validate;
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
  progress_lines lines(std::move(progress));
  cfg.progress = lines.active();
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
  lines.finish();
  j["provenance"] = provenance::to_json(provenance::current());
  return j.dump();
}

/// An HPL or HPL-MxP program run (settings s, quiet unless progress is a callable), MPI started
/// by the module, the GIL released: its exit status.
template <class Settings, class Program>
int run_program(Settings s, nb::object progress, Program program) {
  ensure_mpi();
  progress_lines lines(std::move(progress));
  s.quiet = !lines.active();
  int rc = 0;
  {
    nb::gil_scoped_release unlocked;
    rc = program(s);
  }
  lines.finish();
  return rc;
}

int hpl_run(std::optional<std::int64_t> n, std::optional<int> nb, const std::string& backend,
            const std::string& json_path, nb::object progress) {
  hpl::program_settings s;
  hpl::params prm;  // the short form's defaults: netlib's sample HPL.dat
  if (n && *n < 0) throw usage_error("hpl: n must be >= 0, got " + std::to_string(*n));
  prm.n = n.value_or(hpl::auto_n);
  if (nb) prm.nb = *nb;
  s.nb_default = !nb.has_value();
  s.short_form = prm;
  s.be = parse_backend(backend);
  s.json_path = json_path;
  return run_program(s, std::move(progress), [](const hpl::program_settings& ps) { return hpl::run_program(ps); });
}

int hpl_mxp_run(std::optional<std::int64_t> n, std::optional<int> nb, const std::string& backend,
                const std::string& precision, int max_iters, const std::string& json_path, nb::object progress) {
  hpl_mxp::program_settings s;
  if (n && *n < 0) throw usage_error("hpl_mxp: n must be >= 0, got " + std::to_string(*n));
  if (nb && *nb < 1) throw usage_error("hpl_mxp: nb must be >= 1, got " + std::to_string(*nb));
  if (max_iters < 1) throw usage_error("hpl_mxp: max_iters must be >= 1, got " + std::to_string(max_iters));
  s.opt.be = parse_backend(backend);
  s.opt.prec = precision.empty() ? (s.opt.be == backend::cuda ? hpl_mxp::precision::bf16 : hpl_mxp::precision::fp32)
                                 : hpl_mxp::parse_precision(precision, "precision");
  s.opt.n = n.value_or(0);
  if (nb) s.opt.nb = *nb;
  s.opt.max_iters = max_iters;
  s.auto_n = !n.has_value();
  s.auto_nb = !nb.has_value();
  s.json_path = json_path;
  return run_program(s, std::move(progress), [](const hpl_mxp::program_settings& ps) { return hpl_mxp::run_program(ps); });
}

}  // namespace

void bind_benchmarks(nb::module_& m) {
  m.def("graph500", &graph500_run, nb::arg("scale"), nb::arg("edgefactor") = 16, nb::arg("backend") = "auto",
        nb::arg("roots").none() = nb::none(), nb::arg("seed1") = 2, nb::arg("seed2") = 3,
        nb::arg("kernels") = "bfs,sssp", nb::arg("validate") = true, nb::arg("progress").none() = nb::none(),
        "A Graph500 run: the record of `gpu500 graph500 --json` as JSON text");
  m.def("hpl", &hpl_run, nb::arg("n").none() = nb::none(), nb::arg("nb").none() = nb::none(),
        nb::arg("backend") = "auto", nb::arg("json_path"), nb::arg("progress").none() = nb::none(),
        "An HPL run of the short form (one test on a 1 x 1 grid), its record written to json_path; "
        "returns 0 when the residual check passed");
  m.def("hpl_mxp", &hpl_mxp_run, nb::arg("n").none() = nb::none(), nb::arg("nb").none() = nb::none(),
        nb::arg("backend") = "auto", nb::arg("precision") = "", nb::arg("max_iters") = hpl_mxp::default_max_iters,
        nb::arg("json_path"), nb::arg("progress").none() = nb::none(),
        "An HPL-MxP run in one process, its record written to json_path; returns 0 when the backward "
        "error passed");
  m.def("finalize_mpi", &finalize_mpi, "Finalises MPI when the module initialised it (at the interpreter's exit)");
}

}  // namespace gpu500::python
