// gpu500 hpl: netlib HPL 2.3 — HPL.dat in (or the short form -N -NB -P -Q; without -N and
// HPL.dat the largest N that fits), HPL.out layout out; --tune searches NB and the panel options.
// Parses the options and calls hpl::run_program (gpu500/hpl/program.hpp), which runs every test.
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "command.hpp"
#include "gpu500/core/atomic_file.hpp"
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
  bool first_on = false, first_off = false;
  auto variant = [](auto& target, auto from_code, const char* flag, std::vector<std::string> names) {
    return [&target, from_code, flag, names](const std::string& v) { target = from_code(hpl::variant_code(v, flag, names)); };
  };
  auto count = [](std::optional<std::int64_t>& target, const char* flag) {
    return [&target, flag](const std::string& v) { target = cli::parse_int(v, flag); };
  };
  cli::parser cp("gpu500 hpl", "HPL 2.3: solve a dense random system, print the HPL.out layout.");
  cp.option("-i|--input", s.input, "HPL.dat file (default: ./HPL.dat unless -N is given)")
      .option("-N", n, "short form: problem size (default without HPL.dat: the largest that fits the memory)")
      .option("-NB", prm.nb, "short form: block size (default: the device's, 1024 on an H100/H200, else 192)")
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
      .flag("--no-swap-stream", s.no_swap_stream, "CUDA, P = 1: swaps and DTRSM on the update stream (no overlap)")
      .option("--tail-getrf", count(s.tail_getrf, "--tail-getrf"),
              "CUDA 1x1: cuSOLVER getrf+getrs finish the trailing matrix of at most this many rows (default 32768 on H100/H200, else N/3; 0 = off)", "N")
      .option("--gpu-panel", count(s.gpu_panel, "--gpu-panel"),
              "CUDA: panels of at most this many rows factored on the GPU by cuSOLVER (P > 1: over NCCL; default on H100/H200: every panel; else 0 = off)", "N")
      .flag("--gpu-panel-first", first_on, "CUDA: the first panel factored on the GPU by cuSOLVER too (default: on H100/H200)")
      .flag("--no-gpu-panel-first", first_off, "CUDA: the first panel factored on the CPU (default on other devices)")
      .option("--panel-gemm-gpu", count(s.panel_gemm_gpu, "--panel-gemm-gpu"),
              "CUDA 1x1: DGEMMs inside CPU panels with both widths >= this run on the GPU (0 = off, the default: every panel is on the GPU on H100/H200; 256 was best with --gpu-panel 56000)", "N")
      .flag("--no-cuda-aware-mpi", s.no_cuda_aware_mpi, "CUDA, Q > 1: broadcast panels through host memory")
      .flag("--no-nccl", s.no_nccl, "CUDA, P x Q: exchange through MPI instead of NCCL between the GPUs")
      .flag("--share-gpus", s.share_gpus, "CUDA: let more processes than GPUs on a node share them (default: an error)")
      .flag("--quiet", s.quiet, "no progress line on stderr")
      .flag("--tune", s.tune, "search NB and the panel options at -N (default N/4), write the best as an HPL.dat")
      .output_file("--tune-output", s.tune_output, "--tune: the HPL.dat written (default HPL.dat.tuned)")
      .output_file("--json", s.json_path, "write every result to this JSON file")
      .output_file("--timing", s.timing_path, "write per-iteration panel/swap/bcast/update times (JSON)");
  cp.parse(args);
  if (cp.help_requested()) {
    std::fputs(cp.help().c_str(), stdout);
    return 0;
  }
  if (first_on && first_off) throw usage_error("hpl: give --gpu-panel-first or --no-gpu-panel-first, not both");
  if (first_on || first_off) s.gpu_panel_first = first_on;
  if (cp.given("--tune-output") && !s.tune) throw usage_error("hpl: --tune-output needs --tune");
  atomic_file::check_distinct({{"-i", s.input}, {"HPL.dat", s.input.empty() && !cp.given("-N") ? "HPL.dat" : ""}},
                              {{"--json", s.json_path}, {"--timing", s.timing_path},
                               {"--tune-output", s.tune ? s.tune_output : ""}});
  if (cp.given("-N") && n < 0) throw usage_error("hpl: -N must be >= 0, got " + std::to_string(n));
  if (prm.swap_threshold < 0)
    throw usage_error("hpl: --swap-threshold must be >= 0, got " + std::to_string(prm.swap_threshold));
  prm.n = cp.given("-N") ? n : hpl::auto_n;
  s.nb_default = !cp.given("-NB");
  if (cp.given("-N") || (s.input.empty() && !std::filesystem::exists("HPL.dat"))) s.short_form = prm;
  else
    for (const char* f : {"-NB", "-P", "-Q", "--pmap", "--pfact", "--rfact", "--nbmin", "--ndiv", "--bcast", "--swap",
                          "--swap-threshold", "--depth", "--threshold"})
      if (cp.given(f)) throw usage_error(std::string("hpl: ") + f + " belongs to the short form (-N); HPL.dat sets it");
  s.be = parse_backend(backend_s);
  return hpl::run_program(s);
}
