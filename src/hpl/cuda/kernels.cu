// Device kernels of the HPL CUDA backend (see kernels.cuh): the jump-ahead generator (whole and
// block-cyclic local matrix), the row-swap kernel, the gather / scatter of the distributed row
// swaps and the residual reductions; each kernel's launch shape lives in its policy struct.
#include "kernels.cuh"

#include <algorithm>

#include "gpu500/core/cuda/launch.cuh"
#include "gpu500/hpl/matgen.hpp"

namespace gpu500::hpl::detail::kernels {
namespace {

namespace core = ::gpu500::gpu;

// Generator: one thread per run of `rows_per_thread` consecutive rows of one column; a jump to
// the run's first state, then consecutive LCG steps.
struct generate_policy {
  static constexpr int block = 256;
  static constexpr int rows_per_thread = 32;
};
__global__ void generate_kernel(double* a, std::int64_t lda, std::int64_t n, std::int64_t runs_per_col,
                                std::int64_t total) {
  for (const index_t t : core::grid_stride(total)) {
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
  const index_t i = core::global_thread_id();
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

struct cols_policy {
  static constexpr int block = 256;
};

// Local generator: one thread per run of up to 32 consecutive local rows of one local column
// that stay inside one nb-block (so their global rows are consecutive too).
struct generate_local_policy {
  static constexpr int block = 256;
  static constexpr int rows_per_thread = 32;
};
__global__ void generate_local_kernel(double* a, local_shape sh, std::int64_t runs_per_block, std::int64_t runs_per_col,
                                      std::int64_t total) {
  for (const index_t t : core::grid_stride(total)) {
    const std::int64_t lj = t / runs_per_col, rem = t % runs_per_col;
    const std::int64_t blk = rem / runs_per_block, r0 = (rem % runs_per_block) * generate_local_policy::rows_per_thread;
    const std::int64_t li0 = blk * sh.nb + r0;
    if (li0 >= sh.mp) continue;
    const std::int64_t li1 = min(min(blk * sh.nb + sh.nb, li0 + generate_local_policy::rows_per_thread), sh.mp);
    const std::int64_t gi = ((li0 / sh.nb) * sh.p + sh.myrow) * sh.nb + li0 % sh.nb;
    const std::int64_t gj = ((lj / sh.nb) * sh.q + sh.mycol) * sh.nb + lj % sh.nb;
    std::uint64_t x = lcg_state(1 + static_cast<std::uint64_t>(gi) + static_cast<std::uint64_t>(gj) * sh.n);
    double* col = a + lj * sh.lda;
    for (std::int64_t i = li0; i < li1; ++i) {
      col[i] = lcg_value(x);
      x = lcg_a * x + lcg_c;
    }
  }
}

// Row gather / scatter of the distributed row swaps: one thread per element, the column index
// fastest (the record buffer is written / read contiguously).
struct rows_io_policy {
  static constexpr int block = 256;
};
__global__ void gather_rows_kernel(const double* a, std::int64_t lda, std::int64_t c0, std::int64_t nc,
                                   const std::int64_t* rows, std::int64_t total, double* out) {
  for (const index_t t : core::grid_stride(total)) {
    const std::int64_t r = t / nc, c = t % nc;
    out[r * (nc + 1) + 1 + c] = a[rows[r] + (c0 + c) * lda];
  }
}
__global__ void scatter_rows_kernel(const double* in, std::int64_t nc, const std::int64_t* rec, const std::int64_t* tgt,
                                    std::int64_t total, double* a, std::int64_t lda, std::int64_t c0, double* u,
                                    std::int64_t ldu) {
  for (const index_t t : core::grid_stride(total)) {
    const std::int64_t i = t / nc, c = t % nc;
    const double v = in[rec[i] * (nc + 1) + 1 + c];
    const std::int64_t d = tgt[i];
    if (d >= 0) a[d + (c0 + c) * lda] = v;
    else u[(-d - 1) + c * ldu] = v;
  }
}

// Local residual rows: one thread per local row over the local columns of A.
__global__ void rows_local_kernel(const double* a, local_shape sh, std::int64_t nqa, const double* x, double* rows) {
  const index_t i = core::global_thread_id();
  if (i >= sh.mp) return;
  double s = 0, s_abs = 0;
  for (std::int64_t j = 0; j < nqa; ++j) {
    const double v = a[i + j * sh.lda];
    s += v * x[((j / sh.nb) * sh.q + sh.mycol) * sh.nb + j % sh.nb];
    s_abs += fabs(v);
  }
  rows[i] = s;
  rows[sh.mp + i] = s_abs;
}
// Column sums of |A| over mp rows: one block per column, a shared-memory tree reduction.
__global__ void cols_local_kernel(const double* a, std::int64_t lda, std::int64_t mp, std::int64_t nqa, double* cols) {
  __shared__ double part[cols_policy::block];
  for (std::int64_t j = blockIdx.x; j < nqa; j += gridDim.x) {
    double s = 0;
    for (std::int64_t i = threadIdx.x; i < mp; i += blockDim.x) s += fabs(a[i + j * lda]);
    part[threadIdx.x] = s;
    __syncthreads();
    for (int w = cols_policy::block / 2; w > 0; w >>= 1) {
      if (threadIdx.x < w) part[threadIdx.x] += part[threadIdx.x + w];
      __syncthreads();
    }
    if (threadIdx.x == 0) cols[j] = part[0];
    __syncthreads();
  }
}

// Grids of the element-wise kernels: one thread per item, at most 2^20 blocks (grid-stride).
constexpr unsigned max_blocks = 1u << 20;
unsigned blocks_for(std::int64_t items, int block) { return core::grid_blocks(items, block, 1, max_blocks); }
// Kernels with one block per column: at most 2^16 blocks (block-stride over the columns).
unsigned column_blocks(std::int64_t columns) { return static_cast<unsigned>(std::min<std::int64_t>(columns, 1 << 16)); }

}  // namespace

void generate(double* a, std::int64_t lda, std::int64_t n, cudaStream_t s) {
  if (n <= 0) return;
  const std::int64_t runs = core::ceil_div(n, generate_policy::rows_per_thread);
  const std::int64_t total = runs * (n + 1);
  core::launch(generate_kernel, blocks_for(total, generate_policy::block), generate_policy::block, 0, s, a, lda, n,
               runs, total);
}

void swap_rows(double* a, std::int64_t lda, std::int64_t c0, std::int64_t c1, const std::int64_t* dest,
               const std::int64_t* src, int npairs, cudaStream_t s) {
  if (c1 <= c0 || npairs == 0) return;
  core::launch(swap_kernel, column_blocks(c1 - c0), swap_policy::block, sizeof(double) * npairs, s, a, lda, c0, c1,
               dest, src, npairs);
}

void residual_parts(const double* a, std::int64_t lda, std::int64_t n, const double* x, double* rows, double* rowabs,
                    double* colabs, cudaStream_t s) {
  if (n <= 0) return;
  core::launch(rows_kernel, blocks_for(n, rows_policy::block), rows_policy::block, 0, s, a, lda, n, x, rows, rowabs);
  core::launch(cols_local_kernel, column_blocks(n), cols_policy::block, 0, s, a, lda, n, n, colabs);
}

void generate_local(double* a, const local_shape& sh, cudaStream_t s) {
  if (sh.mp <= 0 || sh.nq <= 0) return;
  const std::int64_t rpb = core::ceil_div(sh.nb, generate_local_policy::rows_per_thread);
  const std::int64_t rpc = rpb * core::ceil_div(sh.mp, sh.nb);
  const std::int64_t total = rpc * sh.nq;
  core::launch(generate_local_kernel, blocks_for(total, generate_local_policy::block), generate_local_policy::block, 0,
               s, a, sh, rpb, rpc, total);
}

void gather_rows(const double* a, std::int64_t lda, std::int64_t c0, std::int64_t nc, const std::int64_t* rows,
                 int nrec, double* out, cudaStream_t s) {
  const std::int64_t total = nc * nrec;
  if (total <= 0) return;
  core::launch(gather_rows_kernel, blocks_for(total, rows_io_policy::block), rows_io_policy::block, 0, s, a, lda, c0,
               nc, rows, total, out);
}

void scatter_rows(const double* in, std::int64_t nc, const std::int64_t* rec, const std::int64_t* tgt, int nput,
                  double* a, std::int64_t lda, std::int64_t c0, double* u, std::int64_t ldu, cudaStream_t s) {
  const std::int64_t total = nc * nput;
  if (total <= 0) return;
  core::launch(scatter_rows_kernel, blocks_for(total, rows_io_policy::block), rows_io_policy::block, 0, s, in, nc,
               rec, tgt, total, a, lda, c0, u, ldu);
}

void residual_local(const double* a, const local_shape& sh, std::int64_t nqa, const double* x, double* rows,
                    double* cols, cudaStream_t s) {
  if (sh.mp > 0)
    core::launch(rows_local_kernel, blocks_for(sh.mp, rows_policy::block), rows_policy::block, 0, s, a, sh, nqa, x,
                 rows);
  if (nqa > 0) core::launch(cols_local_kernel, column_blocks(nqa), cols_policy::block, 0, s, a, sh.lda, sh.mp, nqa, cols);
}

}  // namespace gpu500::hpl::detail::kernels
