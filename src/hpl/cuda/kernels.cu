// Device kernels of the HPL CUDA backend (see kernels.cuh).
#include "kernels.cuh"

#include <algorithm>

#include "gpu500/core/cuda_check.cuh"
#include "gpu500/hpl/matgen.hpp"

namespace gpu500::hpl::detail::gpu {
namespace {

// Generator: one thread per run of `rows_per_thread` consecutive rows of one column; a jump to
// the run's first state, then consecutive LCG steps.
struct generate_policy {
  static constexpr int block = 256;
  static constexpr int rows_per_thread = 32;
};
__global__ void generate_kernel(double* a, std::int64_t lda, std::int64_t n, std::int64_t runs_per_col,
                                std::int64_t total) {
  for (std::int64_t t = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; t < total;
       t += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const std::int64_t j = t / runs_per_col, i0 = (t % runs_per_col) * generate_policy::rows_per_thread;
    std::uint64_t x = lcg_state(1 + static_cast<std::uint64_t>(i0) + static_cast<std::uint64_t>(j) * n);
    const std::int64_t i1 = i0 + generate_policy::rows_per_thread < n ? i0 + generate_policy::rows_per_thread : n;
    double* col = a + j * lda;
    for (std::int64_t i = i0; i < i1; ++i) {
      col[i] = lcg_value(x);
      x = lcg_a * x + lcg_c;
    }
  }
}

// Row swaps: one block per column; the block reads every source row into shared memory, then
// writes every destination (so overlapping source/destination sets are safe).
struct swap_policy {
  static constexpr int block = 256;
};
__global__ void swap_kernel(double* a, std::int64_t lda, std::int64_t c0, std::int64_t c1, const std::int64_t* dest,
                            const std::int64_t* src, int npairs) {
  extern __shared__ double buf[];
  for (std::int64_t c = c0 + blockIdx.x; c < c1; c += gridDim.x) {
    double* col = a + c * lda;
    for (int i = threadIdx.x; i < npairs; i += blockDim.x) buf[i] = col[src[i]];
    __syncthreads();
    for (int i = threadIdx.x; i < npairs; i += blockDim.x) col[dest[i]] = buf[i];
    __syncthreads();
  }
}

// Residual rows: one thread per row, walking the columns (consecutive threads read consecutive
// rows: coalesced).
struct rows_policy {
  static constexpr int block = 128;
};
__global__ void rows_kernel(const double* a, std::int64_t lda, std::int64_t n, const double* x, double* rows,
                            double* rowabs) {
  const std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  double s = 0, s_abs = 0;
  for (std::int64_t j = 0; j < n; ++j) {
    const double v = a[i + j * lda];
    s += v * x[j];
    s_abs += fabs(v);
  }
  rows[i] = s - a[i + n * lda];
  rowabs[i] = s_abs;
}

// Column sums of |A|: one block per column, a shared-memory tree reduction.
struct cols_policy {
  static constexpr int block = 256;
};
__global__ void cols_kernel(const double* a, std::int64_t lda, std::int64_t n, double* colabs) {
  __shared__ double part[cols_policy::block];
  for (std::int64_t j = blockIdx.x; j < n; j += gridDim.x) {
    double s = 0;
    for (std::int64_t i = threadIdx.x; i < n; i += blockDim.x) s += fabs(a[i + j * lda]);
    part[threadIdx.x] = s;
    __syncthreads();
    for (int w = cols_policy::block / 2; w > 0; w >>= 1) {
      if (threadIdx.x < w) part[threadIdx.x] += part[threadIdx.x + w];
      __syncthreads();
    }
    if (threadIdx.x == 0) colabs[j] = part[0];
    __syncthreads();
  }
}

int grid_for(std::int64_t items, int block) {
  return static_cast<int>(std::min<std::int64_t>((items + block - 1) / block, 1 << 20));
}

}  // namespace

void generate(double* a, std::int64_t lda, std::int64_t n, cudaStream_t s) {
  if (n <= 0) return;
  const std::int64_t runs = (n + generate_policy::rows_per_thread - 1) / generate_policy::rows_per_thread;
  const std::int64_t total = runs * (n + 1);
  generate_kernel<<<grid_for(total, generate_policy::block), generate_policy::block, 0, s>>>(a, lda, n, runs, total);
  GPU500_CUDA_CHECK_LAUNCH();
}

void swap_rows(double* a, std::int64_t lda, std::int64_t c0, std::int64_t c1, const std::int64_t* dest,
               const std::int64_t* src, int npairs, cudaStream_t s) {
  if (c1 <= c0 || npairs == 0) return;
  const int blocks = static_cast<int>(std::min<std::int64_t>(c1 - c0, 1 << 16));
  swap_kernel<<<blocks, swap_policy::block, sizeof(double) * npairs, s>>>(a, lda, c0, c1, dest, src, npairs);
  GPU500_CUDA_CHECK_LAUNCH();
}

void residual_parts(const double* a, std::int64_t lda, std::int64_t n, const double* x, double* rows, double* rowabs,
                    double* colabs, cudaStream_t s) {
  if (n <= 0) return;
  rows_kernel<<<grid_for(n, rows_policy::block), rows_policy::block, 0, s>>>(a, lda, n, x, rows, rowabs);
  GPU500_CUDA_CHECK_LAUNCH();
  cols_kernel<<<static_cast<int>(std::min<std::int64_t>(n, 1 << 16)), cols_policy::block, 0, s>>>(a, lda, n, colabs);
  GPU500_CUDA_CHECK_LAUNCH();
}

}  // namespace gpu500::hpl::detail::gpu
