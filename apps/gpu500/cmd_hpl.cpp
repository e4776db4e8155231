// gpu500 hpl: netlib HPL 2.3 — HPL.dat in (or the short form -N -NB -P -Q), HPL.out layout out.
// Runs every combination of the file in netlib's order; initialises MPI itself when compiled
// with MPI (a 1 x 1 grid needs no mpirun).
#include <cstdio>
#include <fstream>
#include <memory>

#include "command.hpp"
#include "gpu500/config.hpp"
#include "gpu500/core/cli.hpp"
#include "gpu500/core/device.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/core/json.hpp"
#include "gpu500/hpl/dat.hpp"
#include "gpu500/hpl/pdgesv.hpp"
#include "gpu500/hpl/report.hpp"

#if GPU500_HAVE_MPI
#include <mpi.h>
#endif

namespace {
using namespace gpu500;

int code_or_name(const std::string& v, const char* what, std::initializer_list<const char*> names) {
  int i = 0;
  for (const char* n : names) {
    if (v == n) return i;
    ++i;
  }
  return static_cast<int>(cli::parse_int(v, what));
}

struct mpi_session {
  bool owned = false;
  mpi_session() {
#if GPU500_HAVE_MPI
    int init = 0;
    MPI_Initialized(&init);
    if (!init) {
      int provided = 0;
      MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
      owned = true;
    }
#endif
  }
  ~mpi_session() {
#if GPU500_HAVE_MPI
    int fin = 0;
    MPI_Finalized(&fin);
    if (owned && !fin) MPI_Finalize();
#endif
  }
};

json::value result_json(const hpl::test_result& r) {
  auto o = json::value::make_object();
  o["tv"] = hpl::tv_code(r.prm);
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
  return o;
}

}  // namespace

GPU500_COMMAND(hpl, "Solve a dense linear system (HPL 2.3)") {
  std::string input, backend_s = "auto", json_path, timing_path;
  std::int64_t n = -1;
  int nb = 192, p = 1, q = 1, nbmin = 4, ndiv = 2, depth = 1, swap_thr = 64;
  std::string pfact = "right", rfact = "crout", bc = "1ringM", sw = "mix", pmap = "row";
  double threshold = 16.0, seg_first = 0.125, seg_growth = 2.0;
  bool no_swap_stream = false, host_mpi = false, gpu_panel_first = false, panel_up_all = false;
  std::int64_t tail_getrf = -1, gpu_panel = 0;
  int panel_gemm_gpu = 0;
  cli::parser cp("gpu500 hpl", "HPL 2.3: solve a dense random system, print the HPL.out layout.");
  cp.option("-i|--input", input, "HPL.dat file (default: ./HPL.dat unless -N is given)")
      .option("-N", n, "short form: problem size")
      .option("-NB", nb, "short form: block size (192)")
      .option("-P", p, "short form: process rows (1)")
      .option("-Q", q, "short form: process columns (1)")
      .option("--pmap", pmap, "row|col process mapping (row)")
      .option("--pfact", pfact, "left|crout|right or 0|1|2 (right)")
      .option("--rfact", rfact, "left|crout|right or 0|1|2 (crout)")
      .option("--nbmin", nbmin, "recursion stop width (4)")
      .option("--ndiv", ndiv, "panels in recursion (2)")
      .option("--bcast", bc, "1ring|1ringM|2ring|2ringM|long|longM or 0..5 (1ringM)")
      .option("--swap", sw, "binexch|long|mix or 0..2 (mix)")
      .option("--swap-threshold", swap_thr, "mix threshold in columns (64)")
      .option("--depth", depth, "look-ahead depth (1)")
      .option("--threshold", threshold, "residual threshold (16.0)")
      .option("--backend", backend_s, "auto|cpu|cuda (auto)")
      .option("--seg-first", seg_first, "CUDA: first update segment, fraction of the columns (0.125)")
      .option("--seg-growth", seg_growth, "CUDA: segment growth factor (2)")
      .flag("--no-swap-stream", no_swap_stream, "CUDA: run swaps and DTRSM on the update stream (no overlap)")
      .option("--tail-getrf", tail_getrf,
              "CUDA 1x1: cuSOLVER getrf+getrs finish the trailing matrix once it has at most this many rows "
              "(default: the problem size / 3; 0 = off)")
      .option("--gpu-panel", gpu_panel,
              "CUDA 1x1: panels of at most this many rows are factored on the GPU by cuSOLVER (0 = off)")
      .flag("--gpu-panel-first", gpu_panel_first, "CUDA 1x1: factor the first panel on the GPU too (cuSOLVER)")
      .option("--panel-gemm-gpu", panel_gemm_gpu,
              "CUDA 1x1: inside a CPU panel, the recursion's trailing DGEMMs with both widths >= this run on "
              "the GPU (0 = off)")
      .flag("--panel-up-all", panel_up_all,
            "CUDA 1x1, with --panel-gemm-gpu: copy the whole factored panel up (ablation of sending only what changed)")
      .flag("--host-mpi", host_mpi, "CUDA, Q > 1: broadcast panels through host memory even with CUDA-aware MPI")
      .option("--json", json_path, "write every result to this JSON file")
      .option("--timing", timing_path, "write per-iteration panel/swap/bcast/update times (JSON)");
  cp.parse(args);
  if (cp.help_requested()) {
    std::fputs(cp.help().c_str(), stdout);
    return 0;
  }
  hpl::dat_file dat;
  if (n >= 0) {
    if (!input.empty()) throw usage_error("hpl: give either -i HPL.dat or -N, not both");
    if (nb < 1 || p < 1 || q < 1 || nbmin < 1 || ndiv < 2 || depth < 0)
      throw usage_error("hpl: need NB >= 1, P >= 1, Q >= 1, NBMIN >= 1, NDIV >= 2, DEPTH >= 0");
    hpl::params prm;
    prm.n = n;
    prm.nb = nb;
    prm.p = p;
    prm.q = q;
    prm.pmap_col_major = code_or_name(pmap, "--pmap", {"row", "col"}) == 1;
    prm.pfact = hpl::fact_from_code(code_or_name(pfact, "--pfact", {"left", "crout", "right"}));
    prm.rfact = hpl::fact_from_code(code_or_name(rfact, "--rfact", {"left", "crout", "right"}));
    prm.nbmin = nbmin;
    prm.ndiv = ndiv;
    prm.bc = hpl::bcast_from_code(code_or_name(bc, "--bcast", {"1ring", "1ringM", "2ring", "2ringM", "long", "longM"}));
    prm.swp = hpl::swap_from_code(code_or_name(sw, "--swap", {"binexch", "long", "mix"}));
    prm.swap_threshold = std::max(0, swap_thr);
    prm.depth = depth;
    prm.threshold = threshold;
    dat = hpl::single(prm);
  } else {
    dat = hpl::read_dat(input.empty() ? "HPL.dat" : input);
  }
  hpl::run_options opt;
  opt.be = parse_backend(backend_s);  // auto: cuda when a GPU is present (any grid: one process per GPU)
  opt.seg_first = seg_first;
  opt.seg_growth = seg_growth;
  opt.swap_stream = !no_swap_stream;
  opt.device_mpi = !host_mpi;
  opt.tail_getrf = tail_getrf;  // -1: N/3 of each test (resolved per test below)
  opt.gpu_panel = gpu_panel;
  opt.panel_gemm_gpu = panel_gemm_gpu;
  opt.gpu_panel_first = gpu_panel_first;
  opt.panel_up_all = panel_up_all;
  opt.timing = !timing_path.empty();
  if (!(seg_first > 0 && seg_first <= 1) || !(seg_growth >= 1))
    throw usage_error("hpl: need 0 < --seg-first <= 1 and --seg-growth >= 1");
  if (tail_getrf < -1 || gpu_panel < 0 || panel_gemm_gpu < 0)
    throw usage_error("hpl: need --tail-getrf >= 0, --gpu-panel >= 0 and --panel-gemm-gpu >= 0");

  mpi_session mpi;
  const int rank = app::world_rank();
  int world = 1;
#if GPU500_HAVE_MPI
  MPI_Comm_size(MPI_COMM_WORLD, &world);
#endif
  for (std::size_t i = 0; i < dat.ps.size(); ++i)  // netlib checks max(P*Q) before any test
    if (static_cast<long>(dat.ps[i]) * dat.qs[i] > world)
      throw usage_error("hpl: process grid " + std::to_string(dat.ps[i]) + " x " + std::to_string(dat.qs[i]) +
                        " needs " + std::to_string(static_cast<long>(dat.ps[i]) * dat.qs[i]) + " processes, " +
                        std::to_string(world) + " running (use mpirun -np)");
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
    hpl::print_header(out, dat);
  }
  std::vector<hpl::test_result> results;
  auto js = json::value::make_object();
  js["benchmark"] = "hpl";
  js["backend"] = backend_name(opt.be);
  if (opt.be == backend::cuda && world > 1) {
    const bool dev = opt.device_mpi && hpl::device_mpi_available();
    js["panel_broadcast"] = dev ? "gpu-to-gpu" : "host";
    if (rank == 0)
      std::fprintf(stderr, "hpl: %d processes, one GPU each (node-local rank mod devices); panel broadcast %s\n",
                   world, dev ? "GPU to GPU (CUDA-aware MPI, where every rank has it)" : "through pinned host memory");
  }
  auto& tests = js["tests"];
  auto tjs = json::value::make_array();
  bool first = true;
  for (const auto& prm : hpl::expand(dat)) {
    const auto g = hpl::grid::create(prm.p, prm.q, prm.pmap_col_major);
    hpl::run_options o = opt;
    if (o.tail_getrf < 0) o.tail_getrf = prm.n / 3;  // default: the last third by cuSOLVER (measured: docs/hpl.md)
    auto r = hpl::run_test(prm, g, o);
    if (!g.in_grid) continue;
    if (rank == 0) {
      hpl::print_result(out, r, dat.threshold > 0 || first);
      first = false;
      tests.push_back(result_json(r));
      if (opt.timing) {
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
        tjs.push_back(t);
      }
    }
    results.push_back(std::move(r));
  }
  if (rank == 0) {
    hpl::print_summary(out, results, dat.threshold);
    if (!json_path.empty()) json::write_file(json_path, js);
    if (!timing_path.empty()) {
      auto t = json::value::make_object();
      t["benchmark"] = "hpl-timing";
      t["backend"] = backend_name(opt.be);
      t["tests"] = tjs;
      json::write_file(timing_path, t);
    }
  }
  int failed = 0;
  for (const auto& r : results)
    if (r.checked && !r.passed) ++failed;
  return failed ? 1 : 0;
}
