// gpu500 hpl-mxp: HPL-MxP, the mixed-precision HPL (LU without pivoting in low precision, GMRES
// refinement in FP64) in one process or on a P x Q grid of MPI processes (one GPU each on the
// CUDA backend); without -N the largest N that fits the memory.
// Parses the options and calls hpl_mxp::run_program (gpu500/hpl_mxp/mxp.hpp).
#include <cstdio>
#include <string>

#include "command.hpp"
#include "gpu500/core/cli.hpp"
#include "gpu500/core/device.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/hpl_mxp/mxp.hpp"

GPU500_COMMAND(hpl_mxp, "Mixed-precision HPL (HPL-MxP): low-precision LU, FP64 GMRES") {
  using namespace gpu500;
  hpl_mxp::program_settings s;
  std::int64_t n = 0;
  std::string backend_s = "auto", precision_s;
  bool no_nccl = false;
  cli::parser cp("gpu500 hpl-mxp", "HPL-MxP: solve the reference's diagonally dominant system in mixed precision.");
  cp.option("-N", n, "problem size (default: the largest that fits the memory)")
      .option("-NB", s.opt.nb, "block size (default: 2048 on an H100/H200, 1024 on other GPUs, 256 on cpu)")
      .option("-P", s.opt.p, "process rows (1; P x Q > 1: under mpirun -np P*Q, one GPU per process on cuda)")
      .option("-Q", s.opt.q, "process columns (1)")
      .option("--backend", backend_s, "auto|cpu|cuda (auto: cuda when a GPU is present)")
      .option("--precision", precision_s, "bf16|fp16|fp32|fp8: trailing-update inputs (default bf16 on cuda, fp32 on cpu; fp8: cuda, NB a multiple of 16, not a valid submission)")
      .option("--max-iters", s.opt.max_iters, "GMRES iterations at most (default 50)")
      .flag("--share-gpus", s.share_gpus, "cuda grid: let more processes than GPUs on a node share them")
      .flag("--no-nccl", no_nccl, "cuda grid: broadcasts by MPI instead of NCCL")
      .flag("--quiet", s.quiet, "no stage lines on stderr")
      .output_file("--json", s.json_path, "write the result to this JSON file");
  cp.parse(args);
  if (cp.help_requested()) {
    std::fputs(cp.help().c_str(), stdout);
    return 0;
  }
  if (cp.given("-N") && n < 0) throw usage_error("hpl-mxp: -N must be >= 0, got " + std::to_string(n));
  if (s.opt.p < 1 || s.opt.q < 1) throw usage_error("hpl-mxp: -P and -Q must be >= 1");
  s.opt.be = parse_backend(backend_s);
  for (const char* flag : {"--share-gpus", "--no-nccl"})
    if (cp.given(flag) && s.opt.be != backend::cuda)
      throw usage_error(std::string("hpl-mxp: ") + flag + " applies to the CUDA backend only (backend: " +
                        backend_name(s.opt.be) + ")");
  s.opt.prec = precision_s.empty() ? (s.opt.be == backend::cuda ? hpl_mxp::precision::bf16 : hpl_mxp::precision::fp32)
                                   : hpl_mxp::parse_precision(precision_s, "--precision");
  s.opt.n = n;
  s.opt.nccl = !no_nccl;
  s.auto_n = !cp.given("-N");
  s.auto_nb = !cp.given("-NB");
  return hpl_mxp::run_program(s);
}
