// gpu500/hpl/device.hpp — HPL's system and its residual check in GPU memory (CUDA builds).
//
// The CUDA backend's own generator and check, public so that a benchmark can solve the same
// system with another GPU solver (e.g. cuSOLVER getrf + getrs) and judge it the HPL way:
//   generate_on_device  [A | b] of order n (n x (n+1), column-major, leading dimension lda >= n)
//                       written into device memory `a`, bit for bit the matrix of
//                       gpu500/hpl/matgen.hpp;
//   check_on_device     the norms and HPL's scaled residual of x (host, length n) against the
//                       [A | b] in device memory (regenerate it first: solvers overwrite it).
// Without the CUDA backend both throw usage_error.
#pragma once

#include <cstdint>
#include <vector>

#include "gpu500/hpl/pdgesv.hpp"

namespace gpu500::hpl {

void generate_on_device(double* a, std::int64_t lda, std::int64_t n);
void check_on_device(const params& prm, const double* a, std::int64_t lda, const std::vector<double>& x,
                     test_result& r);

}  // namespace gpu500::hpl
