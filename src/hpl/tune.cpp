// `gpu500 hpl --tune` (run_tune, gpu500/hpl/program.hpp): a short search over NB around the
// device's default and the panel options on/off (CUDA), at -N or a quarter of the default
// N; one line per trial on stdout (rank 0), the winner written as an HPL.dat at the full N.
#include <algorithm>
#include <cstdio>
#include <vector>

#include "gpu500/core/atomic_file.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/hpl/grid.hpp"
#include "gpu500/hpl/program.hpp"
#include "setup.hpp"

namespace gpu500::hpl {
namespace {

struct trial {
  int nb = 0;
  bool panel_options = false;  // the table's panel options (CUDA) or none
  double gflops = 0;
  bool passed = false;
};

// NB/2, NB, 3 NB/2, each rounded to a multiple of 32 when it is at least 32.
std::vector<int> nb_set(int nb) {
  std::vector<int> out;
  for (int v : {nb / 2, nb, nb + nb / 2}) {
    if (v >= 32) v = v / 32 * 32;
    if (v >= 1 && std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
  }
  return out;
}

// The panel options of the table as flags: all four on 1 x 1, the GPU-panel ones on larger grids.
std::string panel_flags(const tuned_defaults& d, bool one, std::int64_t n) {
  const std::string gpu = "--gpu-panel " + std::to_string(d.gpu_panel == every_panel ? n : d.gpu_panel) +
                          (d.gpu_panel_first ? " --gpu-panel-first" : " --no-gpu-panel-first");
  if (!one) return gpu;
  return "--tail-getrf " + (d.tail_getrf ? std::to_string(*d.tail_getrf) : std::string("N/3")) + " " + gpu +
         " --panel-gemm-gpu " + std::to_string(d.panel_gemm_gpu);
}

}  // namespace

int run_tune(const program_settings& s) {
  if (!s.short_form)
    throw usage_error(s.input.empty() ? "hpl: --tune takes the short form, but ./HPL.dat is in this directory and would be "
                                        "read: give -N (or run where no HPL.dat is)"
                                      : "hpl: --tune takes the short form (-N or no N), not an HPL.dat");
  if (!s.json_path.empty() || !s.timing_path.empty()) throw usage_error("hpl: --tune writes no --json or --timing");
  detail::mpi_session mpi;
  const auto setup = detail::set_up(s, mpi);
  const params base = detail::resolve_short_form(s, setup, mpi);  // the full N (auto or -N)
  params sized = base;
  if (s.short_form->n == auto_n) sized.n = std::max<std::int64_t>(base.nb, base.n / 4);
  check_settings(s, {sized});
  const bool one = base.p * base.q == 1;
  const tuned_defaults d = defaults_for_grid(setup.cls, base.p, base.q);
  const bool has_panel = s.be == backend::cuda &&
                         (d.gpu_panel > 0 || d.gpu_panel_first || d.panel_gemm_gpu > 0 || d.tail_getrf.has_value());
  std::vector<trial> trials;
  for (int nb : nb_set(base.nb))
    for (bool on : has_panel ? std::vector<bool>{true, false} : std::vector<bool>{false}) trials.push_back({nb, on});
  const auto g = grid::create(base.p, base.q, base.pmap_col_major);
  const run_options opt = detail::base_options(s);
  if (mpi.rank == 0)
    std::printf("hpl --tune: %zu trials at N = %lld on %d x %d (%s)\n", trials.size(), static_cast<long long>(sized.n),
                base.p, base.q, device_class_name(setup.cls));
  for (auto& t : trials) {
    params prm = sized;
    prm.nb = t.nb;
    program_settings ps = s;
    if (has_panel && !t.panel_options) {  // everything the user left unset: off
      if (!ps.tail_getrf) ps.tail_getrf = 0;
      if (!ps.gpu_panel) ps.gpu_panel = 0;
      if (!ps.gpu_panel_first) ps.gpu_panel_first = false;
      if (!ps.panel_gemm_gpu) ps.panel_gemm_gpu = 0;
    }
    const auto r = run_test(prm, g, detail::test_options(ps, opt, setup.cls, prm));
    t.gflops = r.gflops;
    t.passed = !r.checked || r.passed;
    if (mpi.rank == 0 && g.in_grid)
      std::printf("hpl --tune: NB %5d%s: %10.4f TFLOP/s, %8.3f s, resid %.3e %s\n", t.nb,
                  has_panel ? (t.panel_options ? ", panel options on " : ", panel options off") : "",
                  t.gflops / 1000, r.time, r.resid, t.passed ? "PASSED" : "FAILED");
    std::fflush(stdout);
  }
  const trial* best = nullptr;
  for (const auto& t : trials)
    if (t.passed && (best == nullptr || t.gflops > best->gflops)) best = &t;
  if (best == nullptr) return 1;
  if (mpi.rank == 0) {
    params w = base;
    w.nb = best->nb;
    const std::string off = one ? "--tail-getrf 0 --gpu-panel 0 --no-gpu-panel-first --panel-gemm-gpu 0"
                                : "--gpu-panel 0 --no-gpu-panel-first";
    const std::string flags = has_panel && best->panel_options ? panel_flags(d, one, w.n) : has_panel ? off : "";
    const std::string comment = "gpu500 hpl --tune: best NB " + std::to_string(best->nb) +
                                (flags.empty() ? "" : ", with " + flags);
    atomic_file::write_whole(s.tune_output, format_dat(single(w), comment), "--tune-output ");
    std::printf("hpl --tune: best NB %d%s (%.4f TFLOP/s); %s written for N = %lld%s%s\n", best->nb,
                has_panel ? (best->panel_options ? " with the panel options" : " without the panel options") : "",
                best->gflops / 1000, s.tune_output.c_str(), static_cast<long long>(w.n),
                flags.empty() ? "" : "; run it with ", flags.c_str());
  }
  return 0;
}

}  // namespace gpu500::hpl
