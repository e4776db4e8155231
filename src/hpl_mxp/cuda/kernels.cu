// Device kernels of the HPL-MxP CUDA backend (see kernels.cuh); each kernel's launch shape is in
// its policy struct, every launch goes through gpu::launch (checked).
#include "kernels.cuh"

#include <cuda_fp8.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "gpu500/core/cuda/launch.cuh"
#include "gpu500/core/cuda/memory.hpp"
#include "gpu500/hpl/grid.hpp"
#include "gpu500/hpl_mxp/matgen.hpp"

namespace gpu500::hpl_mxp::detail::cuda {
namespace {

namespace core = ::gpu500::gpu;

struct walk_policy {
  static constexpr int block = 256;
  static constexpr std::int64_t target_threads = std::int64_t{1} << 20;  // ~4 waves on an H100
};
struct elementwise_policy {
  static constexpr int block = 256;
};
struct norm_policy {
  static constexpr int block = 256;
  static constexpr unsigned max_blocks = norm_scratch_size - 1;
};
struct small_lu_policy {
  static constexpr int block = 256;
};
// FP8 copies: 32 x 32 tiles, a block of 32 x 8 threads (each thread 4 entries of a tile), the
// amax reduction's blocks one partial maximum each.
struct fp8_policy {
  static constexpr int tile = 32, block = 256, rows_per_pass = block / tile;
  static constexpr unsigned max_blocks = fp8_scratch_floats;
  static constexpr unsigned max_convert_blocks = 65536;
};

__global__ void combine_kernel(std::int64_t n, std::int64_t chunks, const double* partial, double alpha,
                               const double* b, double* y) {
  for (const index_t i : core::grid_stride(n)) {
    double sum = 0;
    for (std::int64_t c = 0; c < chunks; ++c) sum += partial[c * n + i];
    y[i] = (b ? b[i] : 0.0) + alpha * sum;
  }
}

// Thread t's local row li and chunk of local columns (local_layout): consecutive threads take
// consecutive rows; the chunk's columns are consecutive global columns from gj0.
struct local_walk {
  std::int64_t li, gi, lj0, gj0, width;
  __device__ local_walk(const local_layout& l, std::int64_t t) {
    li = t % l.mp;
    lj0 = (t / l.mp) * l.width;
    gi = hpl::global_of(li, l.nb, l.myrow, l.p);
    gj0 = hpl::global_of(lj0, l.nb, l.mycol, l.q);
    width = l.nq - lj0 < l.width ? l.nq - lj0 : l.width;
  }
};

__global__ void generate_local_kernel(float* a, local_layout l, hpl::lcg_jump by_n, double* own, double* partial) {
  for (const index_t t : core::grid_stride(l.mp * l.chunks())) {
    const local_walk lw(l, t);
    row_walk w(l.n, lw.gi, lw.gj0, by_n);
    double sum = 0;
    for (std::int64_t j = 0; j < lw.width; ++j, w.next()) {
      const double v = w.value();
      a[(lw.lj0 + j) * l.lld + lw.li] = static_cast<float>(v);
      sum += fabs(v);
      if (lw.gj0 + j == lw.gi) own[lw.li] = v;
    }
    partial[(t / l.mp) * l.mp + lw.li] = sum;
  }
}

__global__ void local_diagonal_kernel(float* a, local_layout l, const double* diag) {
  for (const index_t li : core::grid_stride(l.mp)) {
    const std::int64_t gi = hpl::global_of(li, l.nb, l.myrow, l.p);
    if (hpl::owner_of(gi, l.nb, l.q) == l.mycol) a[hpl::local_of(gi, l.nb, l.q) * l.lld + li] = static_cast<float>(diag[gi]);
  }
}

__global__ void local_matvec_kernel(local_layout l, hpl::lcg_jump by_n, const double* diag, const double* v,
                                    double* partial) {
  for (const index_t t : core::grid_stride(l.mp * l.chunks())) {
    const local_walk lw(l, t);
    row_walk w(l.n, lw.gi, lw.gj0, by_n);
    double sum = 0;
    for (std::int64_t j = 0; j < lw.width; ++j, w.next()) {
      const std::int64_t gj = lw.gj0 + j;
      sum += (gj == lw.gi ? diag[gj] : w.value()) * v[gj];
    }
    partial[(t / l.mp) * l.mp + lw.li] = sum;
  }
}

__device__ __forceinline__ void store_low(__nv_bfloat16& d, float v) { d = __float2bfloat16_rn(v); }
__device__ __forceinline__ void store_low(__half& d, float v) { d = __float2half_rn(v); }

template <class T>
__global__ void convert_kernel(const float* src, std::int64_t lds, std::int64_t rows, std::int64_t cols, T* dst,
                               std::int64_t ldd, float scale) {
  for (const index_t t : core::grid_stride(rows * cols)) {
    const std::int64_t i = t % rows, j = t / rows;
    store_low(dst[j * ldd + i], src[j * lds + i] * scale);
  }
}

__global__ void to_float_kernel(const double* src, float* dst, std::int64_t n) {
  for (const index_t i : core::grid_stride(n)) dst[i] = static_cast<float>(src[i]);
}
__global__ void to_double_kernel(const float* src, double* dst, std::int64_t n) {
  for (const index_t i : core::grid_stride(n)) dst[i] = static_cast<double>(src[i]);
}

// max with NaN propagation.
__device__ __forceinline__ double nan_max(double a, double b) { return (a != a || b != b) ? a + b : fmax(a, b); }

// Each block reduces its grid-stride share to out[blockIdx.x]; with abs_values, of |v|.
__global__ void max_kernel(const double* v, std::int64_t n, bool abs_values, double* out) {
  __shared__ double buf[norm_policy::block];
  double m = 0;
  for (const index_t i : core::grid_stride(n)) m = nan_max(m, abs_values ? fabs(v[i]) : v[i]);
  buf[threadIdx.x] = m;
  __syncthreads();
  for (int half = blockDim.x / 2; half > 0; half /= 2) {
    if (static_cast<int>(threadIdx.x) < half) buf[threadIdx.x] = nan_max(buf[threadIdx.x], buf[threadIdx.x + half]);
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = buf[0];
}

// The tiles of a rows x cols block (fp8_policy::tile square, the last ones partial), in
// column-major tile order: tile t covers rows (t % xtiles) * tile.., columns (t / xtiles) * tile...
struct tile_grid {
  std::int64_t rows, cols, xtiles, count;
  __host__ __device__ tile_grid(std::int64_t r, std::int64_t c)
      : rows(r), cols(c), xtiles((r + fp8_policy::tile - 1) / fp8_policy::tile),
        count(xtiles * ((c + fp8_policy::tile - 1) / fp8_policy::tile)) {}
};

__device__ __forceinline__ float nan_max_f(float a, float b) { return (a != a || b != b) ? a + b : fmaxf(a, b); }

// The block's maximum of v over blockDim.x threads (the result in thread 0).
__device__ float block_max(float v) {
  __shared__ float buf[fp8_policy::block];
  buf[threadIdx.x] = v;
  __syncthreads();
  for (int half = blockDim.x / 2; half > 0; half /= 2) {
    if (static_cast<int>(threadIdx.x) < half) buf[threadIdx.x] = nan_max_f(buf[threadIdx.x], buf[threadIdx.x + half]);
    __syncthreads();
  }
  return buf[0];
}

// Each block: the largest |entry| of its tiles (block-strided over the tiles) into out[blockIdx.x].
__global__ void amax_kernel(const float* src, std::int64_t lds, tile_grid g, float* out) {
  const int tx = static_cast<int>(threadIdx.x) % fp8_policy::tile, ty = static_cast<int>(threadIdx.x) / fp8_policy::tile;
  float m = 0.0f;
  for (std::int64_t t = blockIdx.x; t < g.count; t += gridDim.x) {
    const std::int64_t i = (t % g.xtiles) * fp8_policy::tile + tx, j0 = (t / g.xtiles) * fp8_policy::tile;
    if (i >= g.rows) continue;
    for (int jj = ty; jj < fp8_policy::tile && j0 + jj < g.cols; jj += fp8_policy::rows_per_pass)
      m = nan_max_f(m, fabsf(src[(j0 + jj) * lds + i]));
  }
  m = block_max(m);
  if (threadIdx.x == 0) out[blockIdx.x] = m;
}

// One block: the partial maxima to the scale, 2^ceil(log2(amax / 448)) computed exactly with
// frexp (at least 2^-126, a normal float); 1 for amax 0; NaN for NaN or infinite amax.
__global__ void fp8_scale_kernel(const float* partial, int count, float* scale) {
  float m = 0.0f;
  for (int b = threadIdx.x; b < count; b += blockDim.x) m = nan_max_f(m, partial[b]);
  m = block_max(m);
  if (threadIdx.x != 0) return;
  if (!(m <= 3.402823466e38f)) {
    *scale = __int_as_float(0x7fffffff);  // NaN: every converted entry NaN
  } else if (m == 0.0f) {
    *scale = 1.0f;
  } else {
    int e = 0;
    const float f = frexpf(m / 448.0f, &e);  // m / 448 = f 2^e, f in [0.5, 1)
    if (f == 0.5f) e -= 1;                   // an exact power of two
    *scale = ldexpf(1.0f, e < -126 ? -126 : e);
  }
}

__device__ __forceinline__ std::uint8_t to_e4m3(float v) {
  return static_cast<std::uint8_t>(__nv_cvt_float_to_fp8(v, __NV_SATFINITE, __NV_E4M3));
}

// dst(i, j) = src(i, j) / scale, tile by tile (reads and writes along columns: coalesced).
__global__ void fp8_copy_kernel(const float* src, std::int64_t lds, tile_grid g, std::uint8_t* dst, std::int64_t ldd,
                                const float* scale) {
  const float inv = 1.0f / *scale;  // a power of two: exact
  const int tx = static_cast<int>(threadIdx.x) % fp8_policy::tile, ty = static_cast<int>(threadIdx.x) / fp8_policy::tile;
  for (std::int64_t t = blockIdx.x; t < g.count; t += gridDim.x) {
    const std::int64_t i = (t % g.xtiles) * fp8_policy::tile + tx, j0 = (t / g.xtiles) * fp8_policy::tile;
    if (i >= g.rows) continue;
    for (int jj = ty; jj < fp8_policy::tile && j0 + jj < g.cols; jj += fp8_policy::rows_per_pass)
      dst[(j0 + jj) * ldd + i] = to_e4m3(src[(j0 + jj) * lds + i] * inv);
  }
}

// dst(j, i) = src(i, j) / scale for i < rows, 0 for rows <= i < g.rows (the padding): a tile of
// src read along its columns into shared memory, written along the rows of dst.
__global__ void fp8_transpose_kernel(const float* src, std::int64_t lds, std::int64_t rows, tile_grid g,
                                     std::uint8_t* dst, std::int64_t ldd, const float* scale) {
  __shared__ float tile[fp8_policy::tile][fp8_policy::tile + 1];
  const float inv = 1.0f / *scale;
  const int tx = static_cast<int>(threadIdx.x) % fp8_policy::tile, ty = static_cast<int>(threadIdx.x) / fp8_policy::tile;
  for (std::int64_t t = blockIdx.x; t < g.count; t += gridDim.x) {
    const std::int64_t i0 = (t % g.xtiles) * fp8_policy::tile, j0 = (t / g.xtiles) * fp8_policy::tile;
    for (int jj = ty; jj < fp8_policy::tile; jj += fp8_policy::rows_per_pass) {
      const std::int64_t i = i0 + tx, j = j0 + jj;
      tile[jj][tx] = i < rows && j < g.cols ? src[j * lds + i] * inv : 0.0f;
    }
    __syncthreads();
    for (int ii = ty; ii < fp8_policy::tile; ii += fp8_policy::rows_per_pass) {
      const std::int64_t i = i0 + ii, j = j0 + tx;
      if (i < g.rows && j < g.cols) dst[i * ldd + j] = to_e4m3(tile[tx][ii]);
    }
    __syncthreads();  // the tile is rewritten next
  }
}

// LU without pivoting of an m x m block (m <= small_lu_block) in shared memory, one CTA.
__global__ void small_lu_kernel(float* a, std::int64_t lda, int m) {
  __shared__ float s[small_lu_block][small_lu_block + 1];
  for (int t = threadIdx.x; t < m * m; t += blockDim.x) s[t % m][t / m] = a[(t / m) * lda + t % m];
  __syncthreads();
  for (int k = 0; k < m; ++k) {
    const float piv = s[k][k];
    for (int i = k + 1 + threadIdx.x; i < m; i += blockDim.x) s[i][k] /= piv;
    __syncthreads();
    const int r = m - k - 1;
    for (int t = threadIdx.x; t < r * r; t += blockDim.x) {
      const int i = k + 1 + t % r, j = k + 1 + t / r;
      s[i][j] -= s[i][k] * s[k][j];
    }
    __syncthreads();
  }
  for (int t = threadIdx.x; t < m * m; t += blockDim.x) a[(t / m) * lda + t % m] = s[t % m][t / m];
}

unsigned elementwise_grid(std::int64_t items) { return core::grid_blocks(items, elementwise_policy::block); }

}  // namespace

local_layout local_layout_of(std::int64_t n, std::int64_t nb, int myrow, int mycol, int p, int q) {
  local_layout l;
  l.n = n;
  l.nb = std::max<std::int64_t>(1, nb);
  l.myrow = myrow;
  l.mycol = mycol;
  l.p = p;
  l.q = q;
  l.mp = hpl::numroc(n, l.nb, myrow, p);
  l.nq = hpl::numroc(n, l.nb, mycol, q);
  l.lld = cuda_leading_dimension(l.mp);
  l.width = l.nb;
  if (q == 1 && l.mp > 0 && l.nq > 0) {
    const std::int64_t chunks = std::clamp<std::int64_t>((walk_policy::target_threads + l.mp - 1) / l.mp, 1,
                                                         std::min(max_walk_chunks, l.nq));
    l.width = (l.nq + chunks - 1) / chunks;
  }
  return l;
}

void generate_local(float* a, const local_layout& l, double* rowabs, double* own, double* partial, cudaStream_t s) {
  if (l.mp == 0) return;
  core::fill_bytes_async(own, 0, sizeof(double) * static_cast<std::size_t>(l.mp), s);
  const hpl::lcg_jump by_n = hpl::lcg_jump_by(static_cast<std::uint64_t>(l.n));
  if (l.nq > 0)
    core::launch(generate_local_kernel, core::grid_blocks(l.mp * l.chunks(), walk_policy::block), walk_policy::block,
                 0, s, a, l, by_n, own, partial);
  core::launch(combine_kernel, elementwise_grid(l.mp), elementwise_policy::block, 0, s, l.mp, l.chunks(),
               static_cast<const double*>(partial), 1.0, static_cast<const double*>(nullptr), rowabs);
}

void set_local_diagonal(float* a, const local_layout& l, const double* diag, cudaStream_t s) {
  if (l.mp > 0 && l.nq > 0)
    core::launch(local_diagonal_kernel, elementwise_grid(l.mp), elementwise_policy::block, 0, s, a, l, diag);
}

void local_matvec(const local_layout& l, const double* diag, const double* v, double alpha, const double* b, double* y,
                  double* partial, cudaStream_t s) {
  if (l.mp == 0) return;
  const hpl::lcg_jump by_n = hpl::lcg_jump_by(static_cast<std::uint64_t>(l.n));
  if (l.nq > 0)
    core::launch(local_matvec_kernel, core::grid_blocks(l.mp * l.chunks(), walk_policy::block), walk_policy::block, 0,
                 s, l, by_n, diag, v, partial);
  core::launch(combine_kernel, elementwise_grid(l.mp), elementwise_policy::block, 0, s, l.mp, l.chunks(),
               static_cast<const double*>(partial), alpha, b, y);
}

template <class T>
void convert_block(const float* src, std::int64_t lds, std::int64_t rows, std::int64_t cols, T* dst,
                   std::int64_t ldd, float scale, cudaStream_t s) {
  if (rows <= 0 || cols <= 0) return;
  core::launch(convert_kernel<T>, elementwise_grid(rows * cols), elementwise_policy::block, 0, s, src, lds, rows,
               cols, dst, ldd, scale);
}
template void convert_block<__nv_bfloat16>(const float*, std::int64_t, std::int64_t, std::int64_t, __nv_bfloat16*,
                                           std::int64_t, float, cudaStream_t);
template void convert_block<__half>(const float*, std::int64_t, std::int64_t, std::int64_t, __half*, std::int64_t,
                                    float, cudaStream_t);

void fp8_scale(const float* src, std::int64_t lds, std::int64_t rows, std::int64_t cols, float* scratch, float* scale,
               cudaStream_t s) {
  const tile_grid g(std::max<std::int64_t>(rows, 0), std::max<std::int64_t>(cols, 0));
  const unsigned blocks = static_cast<unsigned>(std::clamp<std::int64_t>(g.count, 1, fp8_policy::max_blocks));
  core::launch(amax_kernel, blocks, fp8_policy::block, 0, s, src, lds, g, scratch);
  core::launch(fp8_scale_kernel, 1u, fp8_policy::block, 0, s, static_cast<const float*>(scratch),
               static_cast<int>(blocks), scale);
}

void convert_fp8(const float* src, std::int64_t lds, std::int64_t rows, std::int64_t cols, bool transpose,
                 std::int64_t padded_rows, std::uint8_t* dst, std::int64_t ldd, const float* scale, cudaStream_t s) {
  if (rows <= 0 || cols <= 0) return;
  const tile_grid g(transpose ? std::max(rows, padded_rows) : rows, cols);
  const unsigned blocks = static_cast<unsigned>(std::clamp<std::int64_t>(g.count, 1, fp8_policy::max_convert_blocks));
  if (transpose)
    core::launch(fp8_transpose_kernel, blocks, fp8_policy::block, 0, s, src, lds, rows, g, dst, ldd, scale);
  else
    core::launch(fp8_copy_kernel, blocks, fp8_policy::block, 0, s, src, lds, g, dst, ldd, scale);
}

void to_float(const double* src, float* dst, std::int64_t n, cudaStream_t s) {
  if (n > 0) core::launch(to_float_kernel, elementwise_grid(n), elementwise_policy::block, 0, s, src, dst, n);
}
void to_double(const float* src, double* dst, std::int64_t n, cudaStream_t s) {
  if (n > 0) core::launch(to_double_kernel, elementwise_grid(n), elementwise_policy::block, 0, s, src, dst, n);
}

double norm_inf(const double* v, std::int64_t n, double* scratch, cudaStream_t s) {
  if (n == 0) return 0.0;
  const unsigned blocks = core::grid_blocks(n, norm_policy::block, 1, norm_policy::max_blocks);
  core::launch(max_kernel, blocks, norm_policy::block, 0, s, v, n, true, scratch);
  core::launch(max_kernel, 1u, norm_policy::block, 0, s, static_cast<const double*>(scratch),
               static_cast<std::int64_t>(blocks), false, scratch + norm_policy::max_blocks);
  double out = 0;
  core::copy_bytes_async(&out, scratch + norm_policy::max_blocks, sizeof(double), s);
  core::synchronize(s);
  return out;
}

void small_lu(float* a, std::int64_t lda, int m, cudaStream_t s) {
  if (m > 0) core::launch(small_lu_kernel, 1u, small_lu_policy::block, 0, s, a, lda, m);
}

}  // namespace gpu500::hpl_mxp::detail::cuda
