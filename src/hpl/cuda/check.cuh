// The CUDA backend's residual check (internal; check.cu): 1 x 1 on the whole [A | b] in device
// memory, P x Q on each process's local part (reduced over the grid by finish_check).
#pragma once

#include <cstdint>
#include <vector>

#include "gpu500/hpl/pdgesv.hpp"
#include "kernels.cuh"

namespace gpu500::hpl::detail {

/// Fills the norms, resid, checked and passed of r for x against [A | b] (n x (n+1), leading
/// dimension lda, device memory).
void cuda_check(const params& prm, const double* a, std::int64_t lda, const std::vector<double>& x, test_result& r);

/// The same on a P x Q grid: a is this process's regenerated local part (shape sh), x the whole
/// solution; collective over the grid.
void check_dist(const params& prm, const grid& g, const kernels::local_shape& sh, const double* a,
                const std::vector<double>& x, test_result& r);

}  // namespace gpu500::hpl::detail
