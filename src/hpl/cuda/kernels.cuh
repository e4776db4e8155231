// Device kernels of the HPL CUDA backend (internal): the generator, the row-swap gather/scatter
// and the residual reductions. Launch policies live in one struct per kernel.
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include "gpu500/hpl/grid.hpp"

namespace gpu500::hpl::detail::kernels {

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

/// The local part of [A | b] of one process (gpu500/hpl/grid.hpp).
using local_shape = local_layout;
void generate_local(double* a, const local_shape& sh, cudaStream_t s);

/// out[r (nc+1) + 1 + c] = A(rows[r], c0 + c) for r < nrec, c < nc (slot r (nc+1) is left for
/// the record's code, written by the host).
void gather_rows(const double* a, std::int64_t lda, std::int64_t c0, std::int64_t nc, const std::int64_t* rows,
                 int nrec, double* out, cudaStream_t s);
/// For i < nput: record rec[i] of `in` (layout of gather_rows) goes to A(tgt[i], c0 + c) when
/// tgt[i] >= 0, else to row -tgt[i]-1 of u (leading dimension ldu, columns c < nc).
void scatter_rows(const double* in, std::int64_t nc, const std::int64_t* rec, const std::int64_t* tgt, int nput,
                  double* a, std::int64_t lda, std::int64_t c0, double* u, std::int64_t ldu, cudaStream_t s);

/// Residual pieces of the local part (columns of A only, not b): rows[i] = sum_j A(i,j) x(J),
/// rows[mp + i] = sum_j |A(i,j)| over the nqa local columns j of A (J their global index, x the
/// whole solution); cols[j] = sum_i |A(i,j)| over the mp local rows.
void residual_local(const double* a, const local_shape& sh, std::int64_t nqa, const double* x, double* rows,
                    double* cols, cudaStream_t s);

}  // namespace gpu500::hpl::detail::kernels
