// The two backends of HPL-MxP (internal): each generates the reference matrix, factors it in low
// precision, refines with gmres.hpp and fills a result (times, iterations, norms, backward error).
#pragma once

#include "gpu500/hpl_mxp/mxp.hpp"

namespace gpu500::hpl_mxp::detail {

result solve_cpu(const options& o);
/// The CPU backend on a P x Q grid of MPI processes (o.p o.q > 1; collective).
result solve_cpu_grid(const options& o);
/// Throws usage_error when the program was built without the CUDA backend.
result solve_cuda(const options& o);

/// Stage lines on stderr ("hpl-mxp: <what>") when o.progress.
void stage(const options& o, const char* what);

}  // namespace gpu500::hpl_mxp::detail
