// gpu500/hpl/program.hpp — the whole `gpu500 hpl` run as one library call.
//
// run_program runs every test of an HPL.dat (or the one test of the short form -N ...) in
// netlib's order on the P x Q grids it names: it initialises MPI when compiled with it (a 1 x 1
// grid needs no mpirun), checks that the grids fit the processes and that every setting applies
// to the backend and to the grids (check_settings), places the process (one per GPU, a slice of
// the node's cores: gpu500/dist/placement.hpp), fills in the device's defaults and N when not
// given (gpu500/hpl/defaults.hpp), prints the HPL.out layout (rank 0), a progress line on stderr
// (unless quiet) and writes the JSON result and per-iteration timing files when asked.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpu500/core/types.hpp"
#include "gpu500/hpl/dat.hpp"

namespace gpu500::hpl {

/// A short-form N meaning "the largest N that fits" (choose_n in gpu500/hpl/defaults.hpp).
inline constexpr std::int64_t auto_n = -1;

struct program_settings {
  std::string input;                 ///< HPL.dat path; empty: ./HPL.dat (unless short_form)
  std::optional<params> short_form;  ///< the short form: exactly this one test (n may be auto_n)
  bool nb_default = false;           ///< short form without -NB: NB from the defaults table
  backend be = backend::cpu;         ///< resolved (never "auto")
  // CUDA techniques; unset = the device's default (gpu500/hpl/defaults.hpp).
  bool no_swap_stream = false;                ///< P = 1: swaps and DTRSM on the update stream
  bool no_cuda_aware_mpi = false;             ///< Q > 1: panel broadcast through host memory
  bool no_nccl = false;                       ///< P x Q: MPI between the GPUs instead of NCCL
  std::optional<std::int64_t> tail_getrf;     ///< 1 x 1: cuSOLVER tail rows (0 = off)
  std::optional<std::int64_t> gpu_panel;      ///< panels of <= this many rows by cuSOLVER
  std::optional<bool> gpu_panel_first;        ///< the first panel by cuSOLVER too
  std::optional<std::int64_t> panel_gemm_gpu; ///< 1 x 1: GPU DGEMMs inside CPU panels from this width
  bool share_gpus = false;   ///< CUDA: more ranks than GPUs on a node may share them
  bool quiet = false;        ///< no progress line
  bool tune = false;         ///< run_tune instead of run_program
  std::string tune_output = "HPL.dat.tuned";  ///< run_tune's HPL.dat
  std::string json_path;    ///< every result as JSON
  std::string timing_path;  ///< per-iteration times as JSON
};

/// Throws usage_error (one line naming the setting) when a value is out of range, when a CUDA
/// setting is given with another backend, or when a setting cannot apply to a grid of `tests`
/// (the 1 x 1 techniques on a P x Q > 1 grid; --no-cuda-aware-mpi without a grid of Q > 1).
void check_settings(const program_settings& s, const std::vector<params>& tests);

/// The --tune search (src/hpl/tune.cpp): on the short form's grid, at -N (or a quarter of the
/// default N), every NB of {NB/2, NB, 3 NB/2} (NB = -NB or the device's default, rounded to 32)
/// with the device's panel options on and off (CUDA 1 x 1), one line per trial (TFLOP/s,
/// residual); writes an HPL.dat with the best NB at the full N to tune_output. Returns 0, or 1
/// when no trial passed.
int run_tune(const program_settings& s);

/// Runs every test. Returns 0 when every checked test passed, 1 when a residual check failed;
/// bad input throws usage_error, a matrix that does not fit throws resource_error.
int run_program(const program_settings& s);

}  // namespace gpu500::hpl
