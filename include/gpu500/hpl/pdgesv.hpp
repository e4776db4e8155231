// gpu500/hpl/pdgesv.hpp — one HPL test: generate [A|b], solve (HPL_pdgesv), check the residual.
//
// The solve is a blocked right-looking LU with row partial pivoting on [A|b] distributed
// 2-D block-cyclically over the grid, recursive panel factorisation (PFACT/RFACT, NBMIN, NDIV),
// look-ahead DEPTH 0 or 1, the six panel broadcasts, binary-exchange / long / mix row swaps, and
// the back substitution U x = y. The CPU backend uses OpenBLAS; the CUDA backend keeps the
// matrix on the GPU(s) (one process per GPU on a P x Q grid) and factors panels on the CPU
// (the HPL paper (ISCAS)).
// Time is the wall time of the solve, maximised over ranks; Gflops = (2/3 N^3 + 3/2 N^2)/time/1e9.
// The residual ||Ax-b||oo / (eps (||A||oo ||x||oo + ||b||oo) N), eps = 2^-53, is computed on a
// regenerated [A|b] by code that shares nothing with the solver; PASSED iff < threshold.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "gpu500/core/types.hpp"
#include "gpu500/hpl/dat.hpp"
#include "gpu500/hpl/grid.hpp"

namespace gpu500::hpl {

struct run_options {
  backend be = backend::cpu;
  double seg_first = 0.125;   ///< CUDA, P = 1: first swap/update segment, fraction of the trailing columns
  double seg_growth = 2.0;    ///< CUDA, P = 1: growth factor of the segments
  bool swap_stream = true;    ///< CUDA, P = 1: swaps + DTRSM on their own high-priority stream
  bool device_mpi = true;     ///< CUDA, Q > 1: panel broadcast GPU to GPU when MPI is CUDA-aware
  bool nccl = true;           ///< CUDA, P x Q: panel broadcast and row swaps GPU to GPU by NCCL when
                              ///< every process has its own GPU (and the build has NCCL)
  std::int64_t tail_getrf = 0;  ///< CUDA 1 x 1: once the trailing matrix has at most this many rows,
                                ///< cuSOLVER getrf + getrs finish it on the GPU (no more CPU panels); 0 = off
  std::int64_t gpu_panel = 0;   ///< CUDA: panels of at most this many rows (global) are factored on the GPU by
                                ///< cuSOLVER getrf on a high-priority stream instead of the CPU; P > 1: over NCCL
                                ///< only (the panel gathered on one GPU); 0 = off
  bool gpu_panel_first = false;  ///< CUDA: the first panel (no update to hide it) on the GPU as well
  bool panel_up_all = false;  ///< with panel_gemm_gpu: copy the whole factored panel up, as without it (ablation)
  int panel_gemm_gpu = 0;     ///< CUDA 1 x 1: inside a CPU panel, the recursion's trailing DGEMMs whose two
                              ///< widths (K and the updated columns) are both >= this run on the GPU; 0 = off
  bool gather_x = false;      ///< return the whole solution in test_result::x (tests)
  bool timing = false;        ///< record per-iteration times
  /// Called on every rank after each panel iteration with the number of columns factored so far
  /// (n at the end); host side only, for a progress meter. Empty: not called.
  std::function<void(std::int64_t columns_done)> progress;
};

/// Per-iteration times (seconds) for the balance-point analysis.
/// CPU backend: panel factorisation, panel broadcast, row swaps, DTRSM + DGEMM update.
/// CUDA backend: panel = CPU factorisation of the next panel; wait = host time waiting for that
/// panel to come down (GPU still busy); update = span of the iteration on the GPU's update
/// stream (swaps, DTRSM, DGEMM); gap = idle time of the update stream before the next
/// iteration (the GPU waiting for the CPU).
struct iter_time {
  std::int64_t k = 0;  ///< first column of the panel
  double panel = 0, swap = 0, bcast = 0, update = 0, total = 0;
  double wait = 0, gap = 0;
  double panel_gpu = 0;  ///< CUDA, --panel-gemm-gpu: the part of `panel` spent in the GPU DGEMMs (copies, swaps, DGEMM)
};

struct test_result {
  params prm;
  bool skipped = false;
  std::string skip_reason;
  double time = 0, gflops = 0;
  std::string start_time, end_time;  ///< ctime() text, with its newline
  bool checked = false, passed = false;
  double resid = 0;
  double norm_r = 0, norm_a_inf = 0, norm_a_1 = 0, norm_x_inf = 0, norm_x_1 = 0, norm_b = 0;
  std::vector<double> x;  ///< with run_options::gather_x
  std::string gpu_exchange;  ///< CUDA, grids larger than 1 x 1: how the GPUs exchanged ("nccl", "cuda-aware-mpi", "host")
  long panel_gemms_gpu = 0;  ///< CUDA 1 x 1, --panel-gemm-gpu: DGEMMs of CPU panels run on the GPU in the solve
  std::vector<iter_time> iters;
};

/// HPL's flop count for order n.
inline double hpl_flops(double n) { return (2.0 / 3.0 * n + 1.5) * n * n; }

/// Run one test on the grid (collective over the grid's ranks; idle ranks return skipped).
test_result run_test(const params& prm, const grid& g, const run_options& opt);

}  // namespace gpu500::hpl
