// gpu500 hpl: netlib HPL 2.3 — HPL.dat in (or the short form -N -NB -P -Q), HPL.out layout out.
// Parses the options and calls hpl::run_program (gpu500/hpl/program.hpp), which runs every test.
#include <cstdio>
#include <string>
#include <vector>

#include "command.hpp"
#include "gpu500/core/cli.hpp"
#include "gpu500/core/device.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/hpl/program.hpp"

GPU500_COMMAND(hpl, "Solve a dense linear system (HPL 2.3)") {
  using namespace gpu500;
  hpl::program_settings s;
  hpl::params prm;  // the short form's defaults: netlib's sample HPL.dat
  std::int64_t n = -1;
  std::string backend_s = "auto";
  auto variant = [](auto& target, auto from_code, const char* flag, std::vector<std::string> names) {
    return [&target, from_code, flag, names](const std::string& v) { target = from_code(hpl::variant_code(v, flag, names)); };
  };
  auto count = [](std::optional<std::int64_t>& target, const char* flag) {
    return [&target, flag](const std::string& v) { target = cli::parse_int(v, flag); };
  };
  cli::parser cp("gpu500 hpl", "HPL 2.3: solve a dense random system, print the HPL.out layout.");
  cp.option("-i|--input", s.input, "HPL.dat file (default: ./HPL.dat unless -N is given)")
      .option("-N", n, "short form: problem size")
      .option("-NB", prm.nb, "short form: block size (192)")
      .option("-P", prm.p, "short form: process rows (1)")
      .option("-Q", prm.q, "short form: process columns (1)")
      .option("--pmap", variant(prm.pmap_col_major, [](int c) { return c == 1; }, "--pmap", {"row", "col"}),
              "short form: row|col process mapping (row)")
      .option("--pfact", variant(prm.pfact, hpl::fact_from_code, "--pfact", {"left", "crout", "right"}),
              "short form: left|crout|right or 0|1|2 (right)")
      .option("--rfact", variant(prm.rfact, hpl::fact_from_code, "--rfact", {"left", "crout", "right"}),
              "short form: left|crout|right or 0|1|2 (crout)")
      .option("--nbmin", prm.nbmin, "short form: recursion stop width (4)")
      .option("--ndiv", prm.ndiv, "short form: panels in recursion (2)")
      .option("--bcast", variant(prm.bc, hpl::bcast_from_code, "--bcast", {"1ring", "1ringM", "2ring", "2ringM", "long", "longM"}),
              "short form: 1ring|1ringM|2ring|2ringM|long|longM or 0..5 (1ringM)")
      .option("--swap", variant(prm.swp, hpl::swap_from_code, "--swap", {"binexch", "long", "mix"}),
              "short form: binexch|long|mix or 0..2 (mix)")
      .option("--swap-threshold", prm.swap_threshold, "short form: mix threshold in columns (64)")
      .option("--depth", prm.depth, "short form: look-ahead depth (1)")
      .option("--threshold", prm.threshold, "short form: residual threshold (16.0)")
      .option("--backend", backend_s, "auto|cpu|cuda (auto: cuda when a GPU is present)")
      .flag("--no-swap-stream", s.no_swap_stream, "CUDA 1x1: swaps and DTRSM on the update stream (no overlap)")
      .option("--tail-getrf", count(s.tail_getrf, "--tail-getrf"),
              "CUDA 1x1: cuSOLVER getrf+getrs finish the trailing matrix of at most this many rows (default N/3; 0 = off)", "N")
      .option("--gpu-panel", count(s.gpu_panel, "--gpu-panel"),
              "CUDA 1x1: panels of at most this many rows factored on the GPU by cuSOLVER (default 0 = off)", "N")
      .flag("--gpu-panel-first", s.gpu_panel_first, "CUDA 1x1: the first panel factored on the GPU by cuSOLVER too")
      .option("--panel-gemm-gpu", count(s.panel_gemm_gpu, "--panel-gemm-gpu"),
              "CUDA 1x1: DGEMMs inside CPU panels with both widths >= this run on the GPU (default 0 = off)", "N")
      .flag("--no-cuda-aware-mpi", s.no_cuda_aware_mpi, "CUDA, Q > 1: broadcast panels through host memory")
      .option("--json", s.json_path, "write every result to this JSON file")
      .option("--timing", s.timing_path, "write per-iteration panel/swap/bcast/update times (JSON)");
  cp.parse(args);
  if (cp.help_requested()) {
    std::fputs(cp.help().c_str(), stdout);
    return 0;
  }
  prm.n = n;
  if (cp.given("-N")) s.short_form = prm;
  else
    for (const char* f : {"-NB", "-P", "-Q", "--pmap", "--pfact", "--rfact", "--nbmin", "--ndiv", "--bcast", "--swap",
                          "--swap-threshold", "--depth", "--threshold"})
      if (cp.given(f)) throw usage_error(std::string("hpl: ") + f + " belongs to the short form (-N); HPL.dat sets it");
  s.be = parse_backend(backend_s);
  return hpl::run_program(s);
}
