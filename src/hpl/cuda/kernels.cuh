// Device kernels of the HPL CUDA backend (internal): the generator, the row-swap gather/scatter
// and the residual reductions. Launch policies live in one struct per kernel.
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

namespace gpu500::hpl::detail::gpu {

/// [A | b] (n x (n+1), column-major, leading dimension lda) generated on the device.
void generate(double* a, std::int64_t lda, std::int64_t n, cudaStream_t s);

/// For every column in [c0, c1): new A(dest[i], c) = old A(src[i], c), i < npairs (all sources
/// read before any destination is written).
void swap_rows(double* a, std::int64_t lda, std::int64_t c0, std::int64_t c1, const std::int64_t* dest,
               const std::int64_t* src, int npairs, cudaStream_t s);

/// Residual pieces: rows[i] = sum_j A(i,j) x_j - b_i and rowabs[i] = sum_j |A(i,j)| (j < n);
/// colabs[j] = sum_i |A(i,j)|.
void residual_parts(const double* a, std::int64_t lda, std::int64_t n, const double* x, double* rows,
                    double* rowabs, double* colabs, cudaStream_t s);

}  // namespace gpu500::hpl::detail::gpu
