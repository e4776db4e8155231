// A short DGEMM probe: the rate at which this process's BLAS runs HPL's trailing update, to size
// the CPU backend's default N by time (src/hpl/setup.cpp).
#pragma once

namespace gpu500::hpl::detail {

/// Flop/s of this process's BLAS on a rank-256 update of a 1024 x 1024 block (the shape of HPL's
/// trailing update at the CPU's NB): the best of three after one untimed call, about 0.05 s with
/// OpenBLAS on two cores, 1 s with the reference BLAS.
double dgemm_rate_probe();

}  // namespace gpu500::hpl::detail
