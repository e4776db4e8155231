// The `gpu500 hpl` run (gpu500/hpl/program.hpp): settings checks, MPI set-up, the loop over the
// tests in netlib's order, the HPL.out layout on rank 0, the JSON result and timing files.
#include "gpu500/hpl/program.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

#include "gpu500/config.hpp"
#include "gpu500/core/device.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/core/json.hpp"
#include "gpu500/dist/comm.hpp"
#include "gpu500/hpl/defaults.hpp"
#include "gpu500/hpl/grid.hpp"
#include "gpu500/hpl/pdgesv.hpp"
#include "gpu500/hpl/report.hpp"
#include "progress.hpp"
#include "setup.hpp"

namespace gpu500::hpl {
namespace {

json::value result_json(const test_result& r) {
  auto o = json::value::make_object();
  o["tv"] = tv_code(r.prm);
  o["n"] = r.prm.n;
  o["nb"] = r.prm.nb;
  o["p"] = r.prm.p;
  o["q"] = r.prm.q;
  o["time_s"] = r.time;
  o["gflops"] = r.gflops;
  o["resid"] = r.resid;
  o["checked"] = r.checked;
  o["passed"] = r.passed;
  o["norm_a_inf"] = r.norm_a_inf;
  o["norm_a_1"] = r.norm_a_1;
  o["norm_x_inf"] = r.norm_x_inf;
  o["norm_b_inf"] = r.norm_b;
  o["norm_r_inf"] = r.norm_r;
  if (!r.gpu_exchange.empty()) o["gpu_exchange"] = r.gpu_exchange;
  return o;
}

json::value timing_json(const test_result& r) {
  auto t = result_json(r);
  auto& its = t["iterations"];
  its = json::value::make_array();
  for (const auto& i : r.iters) {
    auto o = json::value::make_object();
    o["k"] = i.k;
    o["panel_s"] = i.panel;
    o["swap_s"] = i.swap;
    o["bcast_s"] = i.bcast;
    o["update_s"] = i.update;
    o["total_s"] = i.total;
    o["host_wait_s"] = i.wait;
    o["gpu_gap_s"] = i.gap;
    o["panel_gpu_s"] = i.panel_gpu;
    its.push_back(o);
  }
  return t;
}

// The short form's values, each against its least value, in one line naming the flag.
void check_short_form(const params& p) {
  const struct {
    const char* flag;
    std::int64_t value, least;
  } checks[] = {{"-N", p.n, 0},          {"-NB", p.nb, 1},       {"-P", p.p, 1},         {"-Q", p.q, 1},
                {"--nbmin", p.nbmin, 1}, {"--ndiv", p.ndiv, 2}, {"--depth", p.depth, 0}};
  for (const auto& c : checks)
    if (c.value < c.least && !(std::string(c.flag) == "-N" && c.value == auto_n))
      throw usage_error(std::string("hpl: ") + c.flag + " must be >= " + std::to_string(c.least) + ", got " +
                        std::to_string(c.value));
}

// Every test's matrix part against the memory this process sizes N against (the device's free
// memory on CUDA, the host's available memory on the CPU), before anything is printed: a lower
// bound of what the solver allocates, so a run this refuses could not have run. In doubles: N up
// to 2^63 - 1 squares to about 7e38 bytes, far from overflow (an int64 product overflows at N = 3.04e9).
void check_memory(const program_settings& s, const detail::run_setup& setup, const std::vector<params>& tests) {
  const std::int64_t avail = memory_for_sizing(s.be, setup.place.gpu, setup.place.local_size);
  if (avail <= 0) return;
  for (const auto& t : tests) {
    const double n = static_cast<double>(t.n);
    const double need = 8.0 * n * (n + 1.0) / (static_cast<double>(t.p) * static_cast<double>(t.q));
    note_memory_estimate(need, "hpl: N = " + std::to_string(t.n));
    if (need > static_cast<double>(avail))
      throw resource_error("hpl: N = " + std::to_string(t.n) + " on a " + std::to_string(t.p) + " x " +
                           std::to_string(t.q) + " grid needs at least " + human_bytes(need) + " per process, " +
                           human_bytes(static_cast<double>(avail)) + " available");
  }
}

dat_file read_input(const program_settings& s, const std::optional<params>& short_form) {
  if (!short_form) return read_dat(s.input.empty() ? "HPL.dat" : s.input);
  if (!s.input.empty()) throw usage_error("hpl: give either -i HPL.dat or -N, not both");
  const params& p = *short_form;
  check_short_form(p);
  params q = p;
  q.swap_threshold = std::max(0, q.swap_threshold);
  return single(q);
}

// One line on stderr: the device class and the defaults its tests take (what the user left unset).
void print_defaults(device_class cls, const program_settings& s, const std::vector<params>& tests) {
  // The grid whose defaults are shown: 1 x 1 if a test runs on it, else the first test's.
  int p = tests.empty() ? 1 : tests.front().p, q = tests.empty() ? 1 : tests.front().q;
  for (const auto& t : tests)
    if (t.p * t.q == 1) p = q = 1;
  const bool one = p * q == 1;
  const tuned_defaults d = defaults_for_grid(cls, p, q);
  std::string line = std::string("hpl: defaults for ") + device_class_name(cls) + ", " +
                     (one ? std::string("1 x 1") : std::to_string(p) + " x " + std::to_string(q)) + " (" + d.measured + "):";
  if (s.nb_default) line += " NB " + std::to_string(d.nb);
  auto add = [&line](const char* flag, bool given, const std::string& v) {
    if (!given) line += std::string(" ") + flag + " " + v;
  };
  if (one) add("--tail-getrf", s.tail_getrf.has_value(), d.tail_getrf ? std::to_string(*d.tail_getrf) : "N/3");
  add("--gpu-panel", s.gpu_panel.has_value(), d.gpu_panel == every_panel ? "N (every panel)" : std::to_string(d.gpu_panel));
  add("--gpu-panel-first", s.gpu_panel_first.has_value(), d.gpu_panel_first ? "on" : "off");
  if (one) add("--panel-gemm-gpu", s.panel_gemm_gpu.has_value(), std::to_string(d.panel_gemm_gpu));
  std::fprintf(stderr, "%s\n", line.c_str());
}

}  // namespace

void check_settings(const program_settings& s, const std::vector<params>& tests) {
  if (s.tail_getrf.value_or(0) < 0 || s.gpu_panel.value_or(0) < 0 || s.panel_gemm_gpu.value_or(0) < 0 ||
      s.panel_gemm_gpu.value_or(0) > INT32_MAX)
    throw usage_error("hpl: need --tail-getrf >= 0, --gpu-panel >= 0 and --panel-gemm-gpu >= 0");
  // Where each CUDA setting applies: any grid, a 1 x 1 grid, grids with P = 1 (the swap
  // pipeline: every row local), grids with Q > 1 (the panel broadcast), grids larger than 1 x 1
  // (the exchanges between GPUs).
  enum class scope { any, one_by_one, p_one, q_many, many };
  struct setting {
    const char* flag;
    bool given;
    scope where;
  };
  const setting cuda_settings[] = {
      {"--no-swap-stream", s.no_swap_stream, scope::p_one},
      {"--tail-getrf", s.tail_getrf.has_value(), scope::one_by_one},
      {"--gpu-panel", s.gpu_panel.has_value(), scope::any},
      {"--gpu-panel-first", s.gpu_panel_first.value_or(false), scope::any},
      {"--no-gpu-panel-first", !s.gpu_panel_first.value_or(true), scope::any},
      {"--share-gpus", s.share_gpus, scope::any},
      {"--panel-gemm-gpu", s.panel_gemm_gpu.has_value(), scope::one_by_one},
      {"--no-cuda-aware-mpi", s.no_cuda_aware_mpi, scope::q_many},
      {"--no-nccl", s.no_nccl, scope::many},
  };
  bool any_q = false, any_many = false;
  for (const auto& t : tests) any_q = any_q || t.q > 1, any_many = any_many || t.p * t.q > 1;
  auto grid_text = [](const params& t) { return std::to_string(t.p) + " x " + std::to_string(t.q); };
  for (const auto& c : cuda_settings) {
    if (!c.given) continue;
    const std::string flag = std::string("hpl: ") + c.flag;
    if (s.be != backend::cuda)
      throw usage_error(flag + " applies to the CUDA backend only (backend: " + backend_name(s.be) + ")");
    for (const auto& t : tests) {
      if (c.where == scope::one_by_one && t.p * t.q > 1)
        throw usage_error(flag + " applies to a 1 x 1 grid only (grid " + grid_text(t) + ")");
      if (c.where == scope::p_one && t.p > 1)
        throw usage_error(flag + " applies to grids with P = 1 only (the swap pipeline; grid " + grid_text(t) + ")");
    }
    if (c.where == scope::q_many && !any_q)
      throw usage_error(flag + " applies to grids with Q > 1 only (panel broadcast)");
    if (c.where == scope::many && !any_many)
      throw usage_error(flag + " applies to grids larger than 1 x 1 only (exchanges between GPUs)");
  }
}

int run_program(const program_settings& s) {
  if (s.tune) return run_tune(s);
  if (s.short_form) check_short_form(*s.short_form);
  if (s.short_form && s.short_form->n != auto_n) check_settings(s, expand(read_input(s, s.short_form)));
  detail::mpi_session mpi;
  const int rank = mpi.rank, world = mpi.size;
  const auto setup = detail::set_up(s, mpi);
  std::optional<params> short_form;
  if (s.short_form) short_form = detail::resolve_short_form(s, setup, mpi);
  const dat_file dat = read_input(s, short_form);
  if (rank == 0 && !short_form && s.input.empty())  // read without being named: say so
    std::fprintf(stderr, "hpl: reading ./HPL.dat, found in this directory (-N runs the short form instead)\n");
  if (rank == 0)  // every rank parsed the file; one says what netlib's fallbacks changed
    for (const auto& w : dat.warnings) std::fprintf(stderr, "hpl: %s\n", w.c_str());
  const auto tests = expand(dat);
  check_settings(s, tests);
  const run_options opt = detail::base_options(s);
  for (std::size_t i = 0; i < dat.ps.size(); ++i)  // netlib checks max(P*Q) before any test
    if (static_cast<long>(dat.ps[i]) * dat.qs[i] > world)
      throw usage_error("hpl: process grid " + std::to_string(dat.ps[i]) + " x " + std::to_string(dat.qs[i]) +
                        " needs " + std::to_string(static_cast<long>(dat.ps[i]) * dat.qs[i]) + " processes, " +
                        std::to_string(world) + " running (use mpirun -np)");
  check_memory(s, setup, tests);
  std::FILE* out = nullptr;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> owned(nullptr, &std::fclose);
  if (rank == 0) {
    if (dat.device_out == 6) out = stdout;
    else if (dat.device_out == 7) out = stderr;
    else {
      owned.reset(std::fopen(dat.output_file.c_str(), "w"));
      if (!owned) throw usage_error("hpl: cannot open output file '" + dat.output_file + "'");
      out = owned.get();
    }
    print_header(out, dat);
  }
  std::vector<test_result> results;
  auto js = json::value::make_object();
  js["benchmark"] = "hpl";
  js["backend"] = backend_name(opt.be);
  if (opt.be == backend::cuda && rank == 0) print_defaults(setup.cls, s, tests);
  std::string exchange_said;  // the GPUs' exchange, said on stderr once per kind
  auto& tjs_tests = js["tests"];
  auto tjs = json::value::make_array();
  bool first = true;
  for (const auto& prm : tests) {
    const auto g = grid::create(prm.p, prm.q, prm.pmap_col_major);
    run_options o = detail::test_options(s, opt, setup.cls, prm);
    std::optional<detail::progress_meter> meter;
    if (rank == 0 && !s.quiet) meter.emplace(prm.n, prm.nb, stderr, detail::is_terminal(stderr));
    o.progress = detail::progress_callback(meter ? &*meter : nullptr);
    dist::fault_point("hpl-test");  // tests of the abort rule only (off unless the environment asks)
    auto r = run_test(prm, g, o);
    if (meter) meter->finish();
    if (!g.in_grid) continue;
    if (rank == 0 && !r.gpu_exchange.empty() && r.gpu_exchange != exchange_said) {
      exchange_said = r.gpu_exchange;
      std::fprintf(stderr, "hpl: %d x %d grid of GPU processes; exchanges between the GPUs: %s\n", prm.p, prm.q,
                   exchange_said == "nccl"             ? "NCCL, device to device"
                   : exchange_said == "cuda-aware-mpi" ? "CUDA-aware MPI (panels), pinned host memory (swaps)"
                                                       : "through pinned host memory");
    }
    if (rank == 0) {
      print_result(out, r, dat.threshold > 0 || first);
      first = false;
      tjs_tests.push_back(result_json(r));
      if (opt.timing) tjs.push_back(timing_json(r));
    }
    results.push_back(std::move(r));
  }
  if (rank == 0) {
    print_summary(out, results, dat.threshold);
    if (!s.json_path.empty()) json::write_file(s.json_path, js);
    if (!s.timing_path.empty()) {
      auto t = json::value::make_object();
      t["benchmark"] = "hpl-timing";
      t["backend"] = backend_name(opt.be);
      t["tests"] = tjs;
      json::write_file(s.timing_path, t);
    }
  }
  int failed = 0;
  for (const auto& r : results)
    if (r.checked && !r.passed) ++failed;
  return failed ? 1 : 0;
}

}  // namespace gpu500::hpl
