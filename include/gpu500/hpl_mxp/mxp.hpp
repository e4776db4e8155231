// gpu500/hpl_mxp/mxp.hpp — HPL-MxP, the mixed-precision HPL (hpl-mxp.org rules; the HPL-AI
// reference implementation of Tsai, Luszczek and Dongarra): solve A x = b for the reference's
// diagonally dominant matrix (gpu500/hpl_mxp/matgen.hpp) by
//   1. LU without pivoting in low precision: FP32 blocked right-looking LU whose trailing
//      updates take BF16, FP16, FP32 or FP8 (E4M3, per-tensor scales; not a valid submission
//      under the rules) inputs with FP32 accumulation (CUDA), or FP32 throughout (CPU, OpenBLAS);
//   2. iterative refinement in FP64: restarted flexible GMRES (Saad) preconditioned by the
//      low-precision factors, until the backward error
//        ||A x - b||_oo / (||A||_oo ||x||_oo + ||b||_oo) / (N eps),  eps = 2^-53,
//      is below the rules' threshold, 16.
// Performance is HPL-MxP's: (2/3 N^3 + 3/2 N^2) / (LU time + refinement time); generation is
// untimed, as in HPL. Either backend runs in one process or on a P x Q grid of MPI processes
// (CUDA: one GPU each).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gpu500/core/types.hpp"
#include "gpu500/hpl_mxp/matgen.hpp"

namespace gpu500::hpl_mxp {

/// The input type of the trailing-matrix GEMMs (the matrix itself is kept in FP32). fp8 is
/// E4M3 (3 mantissa bits, largest value 448) with a scale per panel copy, CUDA only (cuBLASLt,
/// a GPU of compute capability 8.9 or newer, NB a multiple of 16).
enum class precision { bf16, fp16, fp32, fp8 };
const char* precision_name(precision p);
/// "bf16|fp16|fp32|fp8" -> precision; throws usage_error naming `flag` otherwise.
precision parse_precision(const std::string& s, const std::string& flag);
/// The rules (hpl-mxp.org) accept results computed in at least 16 bits: false for fp8, whose
/// runs are reported (PASSED / FAILED by the backward error) but marked as no valid submission.
bool valid_for_submission(precision p);
/// cuBLASLt's FP8 GEMM takes k (here NB) a multiple of this.
inline constexpr int fp8_nb_multiple = 16;

inline constexpr double threshold = 16.0;    ///< the rules' bound on the backward error
inline constexpr int default_max_iters = 50; ///< the reference's GMRES iteration limit
inline constexpr int gmres_restart = 20;     ///< Krylov vectors per GMRES cycle

struct options {
  std::int64_t n = 0;     ///< order of A
  int nb = 256;           ///< block size of the LU
  int p = 1, q = 1;       ///< process grid over MPI (P Q = the number of processes; CUDA: a GPU each)
  backend be = backend::cpu;
  precision prec = precision::fp32;
  int max_iters = default_max_iters;     ///< GMRES iterations (preconditioned products) at most
  int device = 0;                        ///< CUDA device ordinal
  bool nccl = true;                      ///< CUDA grid: NCCL between GPUs (else MPI) where each process has its own GPU
  diagonal diag = diagonal::reference;   ///< test matrices only: diagonal::zero must FAIL
  bool progress = false;                 ///< stage lines on stderr
};

struct result {
  std::int64_t n = 0;
  int nb = 0;
  backend be = backend::cpu;
  precision prec = precision::fp32;
  double t_generate = 0;  ///< untimed: A (FP32 copy, diagonal, norms) and b
  double t_lu = 0;        ///< the low-precision LU
  double t_refine = 0;    ///< GMRES up to the converged x, the final residual included
  double t_total = 0;     ///< t_lu + t_refine: HPL-MxP's time
  double gflops = 0;      ///< (2/3 N^3 + 3/2 N^2) / t_total
  double lu_gflops = 0;   ///< 2/3 N^3 / t_lu
  int iterations = 0;     ///< GMRES iterations done
  int restarts = 0;       ///< GMRES cycles started
  double norm_r = 0, norm_a = 0, norm_x = 0, norm_b = 0;  ///< infinity norms
  double backward_error = 0;  ///< ||Ax-b|| / (||A|| ||x|| + ||b||) / (N eps)
  bool passed = false;        ///< backward_error < threshold (NaN fails)
  std::vector<double> x;      ///< the solution (host memory)
};

/// The operation count HPL-MxP credits: 2/3 N^3 + 3/2 N^2.
double flop_count(std::int64_t n);
/// The scaled backward error of the rules (eps = 2^-53; 0 for n = 0).
double backward_error(double norm_r, double norm_a, double norm_x, double norm_b, std::int64_t n);

/// Throws usage_error when an option is out of range or cannot apply to the backend (the CPU
/// backend has FP32 only; fp8 needs NB a multiple of 16 and a GPU of compute capability 8.9 or
/// newer), resource_error when the problem cannot fit in memory.
void check_options(const options& o);

/// One solve: generate, factor, refine, check. Never hangs: GMRES stops after max_iters.
result solve(const options& o);

/// Bytes one process of a P x Q grid needs (device memory on CUDA, host memory on the CPU; the
/// process holding the most: row and column 0).
std::int64_t bytes_needed(backend be, precision p, std::int64_t n, int nb, int nprow = 1, int npcol = 1);
/// The largest N, a multiple of nb, whose bytes_needed fits memory_bytes (one process's) less a
/// margin (as gpu500 hpl: max(6 %, 2 GiB) of a GPU, half of the host's available memory).
std::int64_t choose_n(backend be, precision p, std::int64_t memory_bytes, int nb, int nprow = 1, int npcol = 1);
/// The default NB of a backend on this process's device.
int default_nb(backend be, int device);

/// The `gpu500 hpl-mxp` run: fills in N (choose_n on this device's free memory) and NB when 0,
/// solves, prints the result block on stdout and writes json_path when not empty (rank 0 of a
/// grid). Initialises MPI when compiled with it. Returns 0 when the backward error passed, 1
/// when it failed.
struct program_settings {
  options opt;
  bool auto_n = false;     ///< N from the memory
  bool auto_nb = false;    ///< NB from default_nb
  bool quiet = false;      ///< no stage lines on stderr
  bool share_gpus = false; ///< CUDA grid: more processes on a node than GPUs may share them
  std::string json_path;
};
int run_program(program_settings s);

}  // namespace gpu500::hpl_mxp
