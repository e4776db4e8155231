// Internal entry points of the HPL backends and of the independent residual check.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "gpu500/hpl/pdgesv.hpp"

namespace gpu500::hpl::detail {

/// The local part of [A | b] on one process.
struct local_matrix : local_layout {
  std::vector<double> a;
  double* col(std::int64_t j) { return a.data() + j * lda; }
};

/// Allocate (lda: local rows rounded up to ALIGN, never a power of two, as HPL) and generate.
local_matrix make_local(const params& prm, const grid& g);

/// CPU solve in place; on return every process holds the whole solution x (length n).
/// Returns the number of zero pivots met.
int cpu_pdgesv(const params& prm, const grid& g, local_matrix& m, std::vector<double>& x,
               std::vector<iter_time>* iters, const std::function<void(std::int64_t)>& progress = {});

/// Residual check on the regenerated local matrix (no BLAS, no solver code): fills the norms,
/// resid, checked and passed of r. x is the whole solution on every process.
void check_cpu(const params& prm, const grid& g, const std::vector<double>& x, test_result& r);

/// The reductions and norms of the residual check from one process's local pieces: rows[0, mp)
/// = sum over its local columns of A of A(i,j) x_j, minus b_i where it holds b; rows[mp, 2mp) =
/// sum_j |A(i,j)|; cols (local columns of A) = sum_i |A(i,j)| over its rows; bmax = max |b_i| it
/// holds. Collective over the grid.
void finish_check(const params& prm, const grid& g, std::vector<double>& rows, std::vector<double> cols, double bmax,
                  const std::vector<double>& x, test_result& r);

/// Name, total and free memory (bytes) of device `ordinal`, which becomes the current device
/// (only this process's own GPU gets a context). Zeros without CUDA.
struct cuda_device_facts {
  std::string name;
  std::int64_t total = 0, free = 0;
};
cuda_device_facts cuda_device(int ordinal);

/// CUDA backend on any P x Q grid, 1 x 1 included, one process per GPU (src/hpl/cuda/solver.cu):
/// every process keeps its local part of [A | b] on its GPU; fills time (max over the grid), x
/// (the whole solution, every process), the norms and the residual (checked on the GPUs by own
/// kernels, reduced with finish_check).
void cuda_run(const params& prm, const grid& g, const run_options& opt, test_result& r);

}  // namespace gpu500::hpl::detail
