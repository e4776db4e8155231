// CUDA kernels of dense Bellman-Ford (paper 000): BF_Naive, BF_Reduce, BF_Reduce_Coarse.
// Layering: launch policies (one struct per kernel) -> thin __global__ -> device helpers.
// Every kernel computes one Jacobi round for its vertices (see bellman_ford.hpp):
//   best = min_j cur[j] + w(j, v) with the smallest j on ties; if best < cur[v] then
//   next[v] = best, pred[v] = j, *changed = 1; else next[v] = cur[v].
// Buffers: cur/next hold ld floats (padding = +inf, never written); the matrix has pitch ld.
#pragma once

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace gpu500::bellman_ford::cuda {

/// Launch policy of BF_Naive: threads per block (one thread per vertex).
struct naive_policy {
  static constexpr int block_threads = 128;
};
/// Launch policy of BF_Reduce and BF_Reduce_Coarse: one block of M threads per vertex, M chosen
/// at run time; shared memory holds M (min, argmin) pairs (the paper's two local buffers).
struct reduce_policy {
  static constexpr int max_group = 1024;
  static std::size_t shared_bytes(int group) { return static_cast<std::size_t>(group) * (sizeof(float) + sizeof(int)); }
};

/// The skip schedule's bookkeeping: one byte per line of 32 sources (128 bytes of a by_target
/// row), in three rotating arrays. Round r reads lines[r % 3] (sources whose distance fell in
/// round r - 1; after init: the source's line), marks lines[(r + 1) % 3] and clears
/// lines[(r + 2) % 3], which round r - 1 read and round r + 1 will mark.
struct skip_lines {
  static constexpr int shift = 5;  // 32 sources per line
  const unsigned char* read;
  unsigned char* mark;
  unsigned char* clear;
  int count;  // lines = ld / 32
};

/// Launch policy of the resident schedule: up to `max_threads` per block, a warp per vertex; a block holds
/// `rows` rows of the by_target matrix, both distance vectors, its rows' predecessors, two
/// vectors of change flags (one per block of the cluster) and two mbarriers in shared memory.
struct resident_policy {
  static constexpr int max_threads = 1024;  // a launch chooses 512 or 1024 (resident_plan)
  static constexpr int max_cluster = 16;
  /// Byte offset of the mbarriers (8-byte aligned) after the floats and ints.
  __host__ __device__ static std::size_t barrier_offset(std::size_t rows, std::size_t ld) {
    const std::size_t b = (rows * ld + 2 * ld) * sizeof(float) + (rows + 2 * max_cluster) * sizeof(int);
    return (b + 7) / 8 * 8;
  }
  static std::size_t shared_bytes(std::size_t rows, std::size_t ld) { return barrier_offset(rows, ld) + 2 * 8; }
};

/// Shared memory of resident_warp_kernel: both distance vectors, the block's predecessors, two
/// mbarriers. The rows live in registers.
struct resident_warp_policy {
  static constexpr int threads = 512;
  static constexpr int warps = threads / 32;
  static constexpr int max_rows_per_warp = 4;
  __host__ __device__ static std::size_t barrier_offset(std::size_t rows, std::size_t ld) {
    return (2 * ld * sizeof(float) + rows * sizeof(int) + 7) / 8 * 8;
  }
  static std::size_t shared_bytes(std::size_t rows, std::size_t ld) { return barrier_offset(rows, ld) + 2 * 8; }
};

/// How the blocks of a resident launch exchange a round's distances (see resident_kernel).
enum class exchange { grid, cluster_pull, cluster_async };

/// Arguments of resident_kernel. Block b owns vertices [b * rows, min(n, (b + 1) * rows)).
struct resident_args {
  const float* wt;   // by_target matrix, pitch ld
  std::size_t ld;
  int n, rows, source, limit, early_exit;
  float* dist;       // results: final distances (ld floats)
  int* pred;         // results: predecessors
  float* xchg;       // cooperative grid only: 2 x ld floats, padding +inf
  int* gflags;       // cooperative grid only: 3 change flags, zero at launch (init_kernel)
  int* outcome;      // [0] rounds run, [1] whether the last round changed a distance
  long long* trace;  // optional (nullptr: off): thread 0 of block 0's clock cycles summed over the
                     // rounds per phase (resident_phase), then the rounds
};

/// Phases of a resident round as the trace counts them (thread 0 of block 0's view).
enum resident_phase { ph_compute, ph_block_flag, ph_send, ph_wait, ph_flags, ph_count };

// ---- device helpers ---------------------------------------------------------------------

/// Fold candidate (c, j) into (best, arg). Callers visit j in ascending order, so the strict '<'
/// keeps the smallest j among equal candidates.
__device__ __forceinline__ void fold(float& best, int& arg, float c, int j) {
  if (c < best) {
    best = c;
    arg = j;
  }
}

/// The tie rule between two partial results: smaller value, then smaller index.
__device__ __forceinline__ bool better(float od, int oj, float bd, int bj) { return od < bd || (od == bd && oj < bj); }

/// Fold the four candidates d + w of sources j .. j + 3 into (best, arg): a two-level tree
/// (lower index first on ties), then one fold, so the dependency chain is 3 steps, not 4.
__device__ __forceinline__ void fold4(float& best, int& arg, float4 d, float4 w, int j) {
  const float c0 = d.x + w.x, c1 = d.y + w.y, c2 = d.z + w.z, c3 = d.w + w.w;
  const bool h1 = c1 < c0, h3 = c3 < c2;
  const float m01 = h1 ? c1 : c0, m23 = h3 ? c3 : c2;
  const int a01 = h1 ? j + 1 : j, a23 = h3 ? j + 3 : j + 2;
  const bool h = m23 < m01;
  fold(best, arg, h ? m23 : m01, h ? a23 : a01);
}

/// Tree reduction of the block's (best, arg) pairs in shared memory: log2(M) halving steps.
/// The result is valid in thread 0. M = blockDim.x, a power of two.
__device__ __forceinline__ void block_argmin(float& best, int& arg, float* sd, int* sj) {
  const int t = threadIdx.x;
  sd[t] = best;
  sj[t] = arg;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s && better(sd[t + s], sj[t + s], sd[t], sj[t])) {
      sd[t] = sd[t + s];
      sj[t] = sj[t + s];
    }
    __syncthreads();
  }
  best = sd[0];
  arg = sj[0];
}

/// Write vertex v's new distance (and predecessor when it improved); true when it improved.
__device__ __forceinline__ bool commit(int v, float best, int arg, const float* __restrict__ cur,
                                       float* __restrict__ next, int* __restrict__ pred, int* __restrict__ changed) {
  const float old = cur[v];
  if (best < old) {
    next[v] = best;
    pred[v] = arg;
    *changed = 1;  // every writer stores the same value
    return true;
  }
  next[v] = old;
  return false;
}

/// Floats as unsigned integers in the same order (no NaN here), and back: what redux.sync
/// compares.
__device__ __forceinline__ unsigned ordered_key(float x) {
  const unsigned bits = __float_as_uint(x);
  return (bits & 0x80000000u) ? ~bits : (bits | 0x80000000u);
}
__device__ __forceinline__ float from_ordered_key(unsigned key) {
  return __uint_as_float((key & 0x80000000u) ? (key & 0x7fffffffu) : ~key);
}

/// Warp-wide (min, argmin) by two redux.sync reductions: the smallest value, then the smallest
/// index among the lanes holding it: the tie rule of `better`. Every lane ends with the result.
/// -0 counts as +0 (they are equal values, and the fold keeps the first of equals).
__device__ __forceinline__ void warp_argmin(float& best, int& arg) {
  const unsigned key = ordered_key(best == 0.0f ? 0.0f : best);
  const unsigned low = __reduce_min_sync(0xffffffffu, key);
  arg = static_cast<int>(__reduce_min_sync(0xffffffffu, key == low ? static_cast<unsigned>(arg) : 0xffffffffu));
  best = from_ordered_key(low);
}

/// dist = +inf but dist(source) = 0 in both vectors (padding included), pred = -1, the change
/// flag and the resident grid's three flags zero, the skip lines cleared but the source's line,
/// the resident exchange vectors +inf.
__global__ void init_kernel(float* __restrict__ cur, float* __restrict__ next, int* __restrict__ pred,
                            int* __restrict__ changed, int* __restrict__ gflags, unsigned char* __restrict__ lines,
                            float* __restrict__ xchg, int ld, int source) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float inf = __int_as_float(0x7f800000);
  if (i < ld) {
    cur[i] = next[i] = i == source ? 0.0f : inf;
    pred[i] = -1;
  }
  if (i < 2 * ld) xchg[i] = inf;
  if (i < 3 * (ld >> skip_lines::shift)) lines[i] = i == (source >> skip_lines::shift) ? 1 : 0;
  if (i == 0) *changed = 0;
  if (i < 3) gflags[i] = 0;
}

// ---- kernels ----------------------------------------------------------------------------

/// BF_Naive: thread v loops over column v of the by_source matrix (row j = out-edges of j).
__global__ void naive_kernel(const float* __restrict__ w, std::size_t ld, int n, const float* __restrict__ cur,
                             float* __restrict__ next, int* __restrict__ pred, int* __restrict__ changed) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  float best = __int_as_float(0x7f800000);
  int arg = n;
  const float* col = w + v;
#pragma unroll 4
  for (int j = 0; j < n; ++j) fold(best, arg, __ldg(cur + j) + __ldg(col + static_cast<std::size_t>(j) * ld), j);
  (void)commit(v, best, arg, cur, next, pred, changed);
}

/// BF_Reduce: block v; thread t folds j = t, t+M, ... of column v (strided loads), then the tree.
__global__ void reduce_kernel(const float* __restrict__ w, std::size_t ld, int n, const float* __restrict__ cur,
                              float* __restrict__ next, int* __restrict__ pred, int* __restrict__ changed) {
  extern __shared__ float smem[];
  const int v = blockIdx.x, t = threadIdx.x, m = blockDim.x;
  float best = __int_as_float(0x7f800000);
  int arg = n;
  const float* col = w + v;
  for (int j = t; j < n; j += m) fold(best, arg, __ldg(cur + j) + __ldg(col + static_cast<std::size_t>(j) * ld), j);
  block_argmin(best, arg, smem, reinterpret_cast<int*>(smem + m));
  if (t == 0) (void)commit(v, best, arg, cur, next, pred, changed);
}

/// BF_Reduce_Coarse: block v reads row v of the by_target matrix (in-edges of v), contiguous:
/// thread t loads float4 number t, t+M, ... (coalesced 16-byte loads; ld is a multiple of 4 and
/// padding is +inf, so no tail), then the tree. Matrix loads are streaming (__ldcs) so that the
/// distance vector, which every block reads, stays in cache. With Skip, quads of lines whose
/// sources did not change in the previous round are not read (see skip_lines); the lines are
/// kept up to date either way.
template <bool Skip>
__global__ void coarse_kernel(const float* __restrict__ wt, std::size_t ld, int n, const float* __restrict__ cur,
                              float* __restrict__ next, int* __restrict__ pred, int* __restrict__ changed,
                              skip_lines lines) {
  extern __shared__ float smem[];
  const int v = blockIdx.x, t = threadIdx.x, m = blockDim.x;
  float best = __int_as_float(0x7f800000);
  int arg = n;
  const float4* row = reinterpret_cast<const float4*>(wt + static_cast<std::size_t>(v) * ld);
  const float4* c4 = reinterpret_cast<const float4*>(cur);
  const int quads = static_cast<int>(ld / 4);
#pragma unroll 4
  for (int q = t; q < quads; q += m) {
    if (Skip && !__ldg(lines.read + (q >> (skip_lines::shift - 2)))) continue;
    const float4 a = __ldcs(row + q);
    const float4 d = __ldg(c4 + q);
    const int j = 4 * q;
    fold(best, arg, d.x + a.x, j);
    fold(best, arg, d.y + a.y, j + 1);
    fold(best, arg, d.z + a.z, j + 2);
    fold(best, arg, d.w + a.w, j + 3);
  }
  block_argmin(best, arg, smem, reinterpret_cast<int*>(smem + m));
  if (t == 0) {
    if (commit(v, best, arg, cur, next, pred, changed)) lines.mark[v >> skip_lines::shift] = 1;
    if (v < lines.count) lines.clear[v] = 0;
  }
}

// ---- distributed shared memory and mbarrier primitives (sm_90) -----------------------------

__device__ __forceinline__ unsigned smem_address(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

/// The shared::cluster address of the same shared-memory location in block `rank`.
__device__ __forceinline__ unsigned cluster_address(unsigned local, unsigned rank) {
  unsigned r;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(local), "r"(rank));
  return r;
}

/// Asynchronous remote store that counts its bytes on the receiving block's mbarrier.
__device__ __forceinline__ void store_async(unsigned addr, unsigned v, unsigned bar) {
  asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [%0], %1, [%2];" ::"r"(addr), "r"(v), "r"(bar)
               : "memory");
}
__device__ __forceinline__ void store_async(unsigned addr, float4 v, unsigned bar) {
  asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.b32 [%0], {%1, %2, %3, %4}, [%5];" ::"r"(addr),
               "r"(__float_as_uint(v.x)), "r"(__float_as_uint(v.y)), "r"(__float_as_uint(v.z)),
               "r"(__float_as_uint(v.w)), "r"(bar)
               : "memory");
}
__device__ __forceinline__ void store_async(unsigned addr, float2 v, unsigned bar) {
  asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.b32 [%0], {%1, %2}, [%3];" ::"r"(addr),
               "r"(__float_as_uint(v.x)), "r"(__float_as_uint(v.y)), "r"(bar)
               : "memory");
}
__device__ __forceinline__ void barrier_init(unsigned bar, unsigned arrivals) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(arrivals) : "memory");
}
/// The two mbarriers at bars and bars + 8 (one per vector parity), each completing a phase after
/// `arrivals` arrivals (and its announced bytes), made visible to the cluster. One thread calls it.
__device__ __forceinline__ void barrier_init_pair(unsigned bars, unsigned arrivals) {
  barrier_init(bars, arrivals);
  barrier_init(bars + 8, arrivals);
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}
/// One arrival that also announces `bytes` of asynchronous stores for the current phase.
__device__ __forceinline__ void barrier_expect(unsigned bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes) : "memory");
}
/// The warp-wide minimum by one redux.sync on order-preserving keys (no NaN here); every lane
/// gets it. -0 and +0 are equal values (a later comparison cannot tell them apart).
__device__ __forceinline__ float warp_min(float x) {
  return from_ordered_key(__reduce_min_sync(0xffffffffu, ordered_key(x)));
}

/// H consecutive floats as one asynchronous remote store (4 H bytes, 4 H-byte aligned).
template <int H>
__device__ __forceinline__ void store_async_values(unsigned addr, const float* v, unsigned bar) {
  if constexpr (H == 1) store_async(addr, __float_as_uint(v[0]), bar);
  else if constexpr (H == 2) store_async(addr, make_float2(v[0], v[1]), bar);
  else store_async(addr, make_float4(v[0], v[1], v[2], v[3]), bar);
}
/// The same H floats into this block's shared memory.
template <int H>
__device__ __forceinline__ void store_shared_values(float* to, const float* v) {
  if constexpr (H == 1) *to = v[0];
  else if constexpr (H == 2) *reinterpret_cast<float2*>(to) = make_float2(v[0], v[1]);
  else *reinterpret_cast<float4*>(to) = make_float4(v[0], v[1], v[2], v[3]);
}

/// One plain arrival (release at CTA scope: the arriving thread's earlier shared-memory stores
/// are visible to the threads that then see the phase complete).
__device__ __forceinline__ void barrier_arrive(unsigned bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
}
/// Waits until the phase with the given parity has completed (acquire at cluster scope).
__device__ __forceinline__ void barrier_wait(unsigned bar, unsigned parity) {
  unsigned done = 0;
  do {
    asm volatile(
        "{\n .reg .pred p;\n mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], %2;\n"
        " selp.u32 %0, 1, 0, p;\n}"
        : "=r"(done)
        : "r"(bar), "r"(parity)
        : "memory");
  } while (!done);
}

/// A resident block's start: both distance vectors (ld floats each) +inf but the source's 0,
/// its rows' predecessors -1.
__device__ __forceinline__ void resident_init_vectors(const resident_args& a, float* dist, int* pred) {
  const float inf = __int_as_float(0x7f800000);
  for (int j = static_cast<int>(threadIdx.x); j < static_cast<int>(2 * a.ld); j += static_cast<int>(blockDim.x))
    dist[j] = j == a.source ? 0.0f : inf;
  for (int r = static_cast<int>(threadIdx.x); r < a.rows; r += static_cast<int>(blockDim.x)) pred[r] = -1;
}

/// The resident trace's clock (on in thread 0 of block 0 only): mark(phase) adds the cycles
/// since the previous mark to that phase; `iterations` counts the round loop's passes (the warp
/// exchange runs one more than it counts as rounds when it stops early).
struct phase_clock {
  bool on;
  long long tick = 0, spent[ph_count] = {};
  int iterations = 0;
  __device__ explicit phase_clock(bool tracing) : on(tracing) {
    if (on) tick = clock64();
  }
  __device__ __forceinline__ void mark(int phase) {
    if (on) {
      const long long now = clock64();
      spent[phase] += now - tick;
      tick = now;
    }
  }
};

/// The end of a resident solve, after the block's last barrier: the phase trace (from the
/// tracing thread), the block's distances from `fin` and predecessors, and block 0's outcome.
__device__ __forceinline__ void resident_finish(const resident_args& a, const phase_clock& clock, int rounds, bool last,
                                                const float* fin, const int* pred, int v0, int mine) {
  if (clock.on) {
#pragma unroll
    for (int i = 0; i < ph_count; ++i) a.trace[i] = clock.spent[i];
    a.trace[ph_count] = clock.iterations;
  }
  for (int r = static_cast<int>(threadIdx.x); r < mine; r += static_cast<int>(blockDim.x)) {
    a.dist[v0 + r] = fin[v0 + r];
    a.pred[v0 + r] = pred[r];
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    a.outcome[0] = rounds;
    a.outcome[1] = last ? 1 : 0;
  }
}

/// The resident schedule: every round of coarse Bellman-Ford in one launch. Per round and vertex
/// v (a warp), the same Jacobi step as coarse_kernel from the shared-memory copy of row v. Each
/// block writes its vertices' new distances into its own copy of the next vector; the blocks
/// then complete each other's copies:
///  - cluster_async (the grid is ONE cluster): every block sends its part and its change flag
///    to every other block with asynchronous remote stores counted on the receiver's mbarrier
///    (one per vector); a block waits for its own mbarrier only: data arrival is the barrier.
///    A block overwrites another's vector (k + 1) & 1 in round k + 2 only after receiving that
///    block's round-(k + 1) part, sent after it finished reading the vector in round k + 1;
///  - cluster_pull (ONE cluster): the cluster barrier, then every block loads the other parts;
///  - grid (cooperative): new distances go through `xchg` in global memory, the round ends at a
///    grid barrier and every block copies the new vector in.
///
/// Q > 0 (one cluster with asynchronous stores, 512 threads, ld <= 128 Q, at most two rows per
/// warp): the
/// block's rows live in registers instead of shared memory (a lane holds quads lane + 32 i,
/// i < Q, of each of its warp's rows), and a warp loads its Q quads of the distance vector
/// once for both rows; the round then reads shared memory only for the distances.
template <exchange X, int Q = 0>
__global__ void __launch_bounds__(Q > 0 ? 512 : resident_policy::max_threads) resident_kernel(resident_args a) {
  static_assert(Q == 0 || X == exchange::cluster_async, "register rows: the asynchronous cluster only");
  namespace cg = cooperative_groups;
  constexpr bool cluster_mode = X != exchange::grid;
  constexpr int max_cluster = resident_policy::max_cluster;
  extern __shared__ float4 resident_smem[];
  const std::size_t ld = a.ld;
  float* slice = reinterpret_cast<float*>(resident_smem);
  float* dist = slice + static_cast<std::size_t>(a.rows) * ld;  // [2][ld]
  int* pred = reinterpret_cast<int*>(dist + 2 * ld);            // [rows]
  int* flags = pred + a.rows;                                    // [2][max_cluster]: block i changed a distance
  const unsigned bars = smem_address(reinterpret_cast<char*>(resident_smem) +
                                     resident_policy::barrier_offset(static_cast<std::size_t>(a.rows), ld));
  const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
  const int b = blockIdx.x, blocks = gridDim.x;
  const int v0 = b * a.rows;
  const int mine = max(0, min(a.rows, a.n - v0));
  const float inf = __int_as_float(0x7f800000);
  const int quads = static_cast<int>(ld / 4);

  const float4* src = reinterpret_cast<const float4*>(a.wt + static_cast<std::size_t>(v0) * ld);
  const int warps = static_cast<int>(blockDim.x >> 5);
  const float4 inf4 = make_float4(inf, inf, inf, inf);
  float4 wreg[Q > 0 ? 2 : 1][Q > 0 ? Q : 1];
  if constexpr (Q > 0) {
#pragma unroll
    for (int h = 0; h < 2; ++h)
#pragma unroll
      for (int i = 0; i < Q; ++i) {
        const int r = warp + h * warps, q = lane + 32 * i;
        wreg[h][i] = r < mine && q < quads ? __ldcs(src + static_cast<std::size_t>(r) * quads + q) : inf4;
      }
  } else {
    for (int i = t; i < mine * quads; i += blockDim.x) resident_smem[i] = __ldcs(src + i);
  }
  resident_init_vectors(a, dist, pred);
  // cluster_async: the bytes a block receives per round (the others' parts in 16-byte chunks,
  // rows being a multiple of 4, and their flags).
  unsigned expected = 0;
  if constexpr (X == exchange::cluster_async) {
    for (int i = 0; i < blocks; ++i)
      if (i != b) expected += 16u * static_cast<unsigned>((max(0, min(a.rows, a.n - i * a.rows)) + 3) / 4) + 4u;
    if (t == 0) barrier_init_pair(bars, 1);
  }
  if constexpr (cluster_mode) cg::this_cluster().sync();  // no block is written before it started
  else __syncthreads();
  // cluster_async: this thread's message of every round (the same each round): a 16-byte chunk of
  // the block's part, or its flag, to one other block; addresses for both vector parities.
  const int per = (mine + 3) / 4 + 1;  // chunks of 4 distances, then the flag
  const int messages = (blocks - 1) * per;
  unsigned to_data0 = 0, to_data1 = 0, to_bar0 = 0, to_bar1 = 0;  // scalars: no local-memory array
  int chunk = -1;
  if (X == exchange::cluster_async && t < messages) {
    const int d = t / per;
    chunk = t - d * per;
    const unsigned rank = static_cast<unsigned>(d < b ? d : d + 1);
    const auto target = [&](int p) {
      return cluster_address(chunk + 1 < per ? smem_address(dist + p * ld + v0 + 4 * chunk)
                                             : smem_address(flags + p * max_cluster + b),
                             rank);
    };
    to_bar0 = cluster_address(bars, rank);
    to_bar1 = cluster_address(bars + 8, rank);
    to_data0 = target(0);
    to_data1 = target(1);
  }
  phase_clock clock(a.trace != nullptr && b == 0 && t == 0);
  const auto mark = [&](int phase) { clock.mark(phase); };

  int rounds = 0;
  bool last = false;
  for (int k = 0; k < a.limit; ++k) {
    const float* cur = dist + (k & 1) * ld;
    float* nxt = dist + ((k + 1) & 1) * ld;
    const unsigned bar = bars + 8 * ((k + 1) & 1);  // counts the stores into nxt
    if (X == exchange::cluster_async && t == 0) barrier_expect(bar, expected);
    bool any = false;
    // Vertex v0 + r's Jacobi step from the warp's reduced (best, arg).
    const auto commit_row = [&](int r, float best, int arg) {
      const int v = v0 + r;
      const float old = cur[v];
      const bool improved = best < old;
      any = any || improved;
      if (improved && lane == 0) pred[r] = arg;
      const float val = improved ? best : old;
      if constexpr (cluster_mode) {
        if (lane == 0) nxt[v] = val;
      } else {
        if (lane == 0) a.xchg[((k + 1) & 1) * ld + v] = val;
      }
    };
    const float4* c4 = reinterpret_cast<const float4*>(cur);
    if constexpr (Q > 0) {
      // Both rows' folds and reductions in straight-line code, so that their chains overlap; a
      // row past the block's end holds +inf and is not committed.
      float4 cq[Q];
#pragma unroll
      for (int i = 0; i < Q; ++i) cq[i] = lane + 32 * i < quads ? c4[lane + 32 * i] : inf4;
      float best[2] = {inf, inf};
      int arg[2] = {a.n, a.n};
#pragma unroll
      for (int i = 0; i < Q; ++i)
#pragma unroll
        for (int h = 0; h < 2; ++h) fold4(best[h], arg[h], cq[i], wreg[h][i], 4 * (lane + 32 * i));
#pragma unroll
      for (int h = 0; h < 2; ++h) warp_argmin(best[h], arg[h]);
#pragma unroll
      for (int h = 0; h < 2; ++h)
        if (warp + h * warps < mine) commit_row(warp + h * warps, best[h], arg[h]);
    } else {
      for (int r = warp; r < mine; r += warps) {
        const float4* row = reinterpret_cast<const float4*>(slice + static_cast<std::size_t>(r) * ld);
        float best = inf;
        int arg = a.n;
#pragma unroll 4
        for (int q = lane; q < quads; q += 32) fold4(best, arg, c4[q], row[q], 4 * q);
        warp_argmin(best, arg);
        commit_row(r, best, arg);
      }
    }
    mark(ph_compute);
    const int block_any = __syncthreads_or(any);
    mark(ph_block_flag);
    int* slot = flags + ((k + 1) & 1) * max_cluster;
    bool changed = false;
    if constexpr (X == exchange::cluster_async) {
      slot[b] = block_any;  // every thread stores the same value
      const bool odd = ((k + 1) & 1) != 0;
      if (chunk >= 0) {
        const unsigned to = odd ? to_data1 : to_data0, tb = odd ? to_bar1 : to_bar0;
        if (chunk + 1 < per) store_async(to, *reinterpret_cast<const float4*>(nxt + v0 + 4 * chunk), tb);
        else store_async(to, static_cast<unsigned>(block_any), tb);
      }
      mark(ph_send);
      barrier_wait(bar, static_cast<unsigned>((k >> 1) & 1));
      mark(ph_wait);
      changed = __any_sync(0xffffffffu, lane < blocks && slot[lane] != 0);
    } else if constexpr (X == exchange::cluster_pull) {
      // Own part and flag are local; the barrier publishes them; then pull every other part.
      // A block writes part (k + 1) & 1 and its flag again only in round k + 2, after the
      // next barrier, which no block passes before it has finished these loads.
      if (t == 0) slot[0] = block_any;
      cg::cluster_group cluster = cg::this_cluster();
      mark(ph_send);
      cluster.sync();
      mark(ph_wait);
      for (int j = t; j < a.n; j += blockDim.x) {
        const int owner = j / a.rows;
        if (owner != b) nxt[j] = cluster.map_shared_rank(nxt, owner)[j];
      }
      const int f = t < blocks ? *cluster.map_shared_rank(slot, t) : 0;
      changed = __syncthreads_or(f) != 0;
    } else {
      if (t == 0) {
        if (block_any) atomicOr(a.gflags + k % 3, 1);
        if (b == 0) a.gflags[(k + 1) % 3] = 0;  // read last after round k - 2; next set in round k + 1
      }
      mark(ph_send);
      cg::this_grid().sync();
      mark(ph_wait);
      changed = __ldcg(a.gflags + k % 3) != 0;
      const float* in = a.xchg + ((k + 1) & 1) * ld;
      for (int j = t; j < a.n; j += blockDim.x) nxt[j] = __ldcg(in + j);
      __syncthreads();
    }
    rounds = k + 1;
    last = changed;
    mark(ph_flags);
    if (a.early_exit && !changed) break;
  }
  if constexpr (cluster_mode) cg::this_cluster().sync();  // nothing in flight to a block that exits
  else __syncthreads();
  clock.iterations = rounds;
  resident_finish(a, clock, rounds, last, dist + (rounds & 1) * ld, pred, v0, mine);
}

/// The resident schedule with warp-to-block exchange (one cluster, rows in registers, N <= 512).
/// Warp w of a block owns its rows H w .. H w + H - 1 (vertices v0 + H w + h) and keeps their
/// quads lane + 32 i, i < Q, in registers. Per round the same Jacobi step as coarse_kernel:
///  - the warp folds the minimum only (an add and a min per entry), reduces it with one
///    redux.sync, and looks for the predecessor only when the row improves (a warp-uniform
///    branch, rare after the first rounds): the lanes whose own minimum is the row's minimum scan
///    their entries for the first equal one, and the smallest such index wins: the fold's tie rule;
///  - no block barrier and no change flags: lane l sends the warp's H new distances (one 4H-byte
///    message) to block l with an asynchronous remote store counted on that block's mbarrier;
///    lane 0 writes them into its own block's vector and arrives on its own mbarrier (release). A
///    block's phase completes when every warp of the block has arrived (warp 0's arrival also
///    announces the bytes the other blocks send) and every byte has landed, so seeing it complete
///    means the whole next vector is in the block's shared memory;
///  - whether round k changed a distance: every warp holds the whole vector of round k in
///    registers (it folds it) and compares it with the vector of round k + 1 when it loads that
///    one, so every warp of every block reaches the same verdict from the same data (a changed
///    distance strictly fell, so the vectors differ exactly when round k changed one).
/// Reuse of a vector: block X overwrites vector (k + 1) & 1 of block Y in round k only after it
/// has received all of round k - 1, i.e. after every warp of Y sent its round-(k - 1) values,
/// which it computed from its loads of that vector; a mbarrier is reused two rounds later, after
/// its previous phase completed, for the same reason.
/// A message may carry rows past N (the last block's, +inf, into the padding, which is +inf).
template <int Q, int H>
__global__ void __launch_bounds__(resident_warp_policy::threads) resident_warp_kernel(resident_args a) {
  namespace cg = cooperative_groups;
  static_assert(H == 1 || H == 2 || H == 4, "1, 2 or 4 rows per warp");
  extern __shared__ float4 resident_smem[];
  const std::size_t ld = a.ld;
  float* dist = reinterpret_cast<float*>(resident_smem);  // [2][ld]
  int* pred = reinterpret_cast<int*>(dist + 2 * ld);       // [rows]
  const unsigned bars = smem_address(reinterpret_cast<char*>(resident_smem) +
                                     resident_warp_policy::barrier_offset(static_cast<std::size_t>(a.rows), ld));
  const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
  const int b = blockIdx.x, blocks = gridDim.x;  // the grid is one cluster
  const int v0 = b * a.rows;
  const int mine = max(0, min(a.rows, a.n - v0));
  const int r0 = H * warp;  // the warp's first row
  const float inf = __int_as_float(0x7f800000);
  const float4 inf4 = make_float4(inf, inf, inf, inf);
  const int quads = static_cast<int>(ld / 4);

  const float4* src = reinterpret_cast<const float4*>(a.wt + static_cast<std::size_t>(v0) * ld);
  float4 wreg[H][Q];
#pragma unroll
  for (int h = 0; h < H; ++h)
#pragma unroll
    for (int i = 0; i < Q; ++i) {
      const int r = r0 + h, q = lane + 32 * i;
      wreg[h][i] = r < mine && q < quads ? __ldcs(src + static_cast<std::size_t>(r) * quads + q) : inf4;
    }
  resident_init_vectors(a, dist, pred);
  if (t == 0) barrier_init_pair(bars, blockDim.x >> 5);  // every warp arrives once per round
  cg::this_cluster().sync();  // no block is written before it started
  // This lane's message of every round: the warp's rows to block `lane` (another block), at the
  // addresses of both vector parities.
  const bool owns = r0 < mine;
  const bool sends = owns && lane < blocks && lane != b;
  unsigned to_data0 = 0, to_data1 = 0, to_bar0 = 0, to_bar1 = 0;
  if (sends) {
    to_data0 = cluster_address(smem_address(dist + v0 + r0), static_cast<unsigned>(lane));
    to_data1 = cluster_address(smem_address(dist + ld + v0 + r0), static_cast<unsigned>(lane));
    to_bar0 = cluster_address(bars, static_cast<unsigned>(lane));
    to_bar1 = cluster_address(bars + 8, static_cast<unsigned>(lane));
  }
  unsigned expected = 0;  // bytes from the other blocks: H values per warp that owns a row
  for (int i = 0; i < blocks; ++i)
    if (i != b) expected += 4u * H * static_cast<unsigned>((max(0, min(a.rows, a.n - i * a.rows)) + H - 1) / H);
  phase_clock clock(a.trace != nullptr && b == 0 && t == 0);
  const auto mark = [&](int phase) { clock.mark(phase); };

  // cq: the vector round k reads (quads lane + 32 i); prev: the one round k - 1 read.
  // Deferred verdict (below) while prev fits in registers: at Q H = 8 (two rows of 512 floats)
  // it would spill at 512 threads, so there the verdict comes when the next vector is loaded.
  constexpr bool defer = Q * H < 8;
  float4 cq[Q], prev[Q];
  const auto load = [&](const float* vec, float4* to) {
    const float4* v4 = reinterpret_cast<const float4*>(vec);
#pragma unroll
    for (int i = 0; i < Q; ++i) to[i] = lane + 32 * i < quads ? v4[lane + 32 * i] : inf4;
  };
  // Whether cq and prev differ anywhere, i.e. whether round k - 1 changed a distance.
  const auto differs = [&] {
    bool d = false;
#pragma unroll
    for (int i = 0; i < Q; ++i)
      d = d || cq[i].x != prev[i].x || cq[i].y != prev[i].y || cq[i].z != prev[i].z || cq[i].w != prev[i].w;
    return __any_sync(0xffffffffu, d);
  };
  load(dist, cq);
  int rounds = 0;
  bool last = false;
  // Deferred: round k's verdict on round k - 1 is reached while round k's messages travel (off
  // the critical path). When round k - 1 changed nothing, round k recomputed the same vector (so
  // it changed nothing either: no predecessor written, its messages carry the values already in
  // place); the loop then stops after receiving them, counting k rounds. Not deferred: the
  // verdict on round k right after loading its vector.
  for (int k = 0; k < a.limit; ++k) {
    clock.iterations = k + 1;
    const bool odd = ((k + 1) & 1) != 0;  // the parity of the next vector
    const float* cur = dist + (k & 1) * ld;
    float* nxt = dist + (odd ? ld : 0);
    const unsigned bar = bars + (odd ? 8u : 0u);
    float val[H], low[H];
#pragma unroll
    for (int h = 0; h < H; ++h) {
      val[h] = owns ? cur[v0 + r0 + h] : inf;  // the old distance (+inf past the rows)
      low[h] = inf;
    }
#pragma unroll
    for (int i = 0; i < Q; ++i)
#pragma unroll
      for (int h = 0; h < H; ++h)
        low[h] = fminf(low[h], fminf(fminf(cq[i].x + wreg[h][i].x, cq[i].y + wreg[h][i].y),
                                     fminf(cq[i].z + wreg[h][i].z, cq[i].w + wreg[h][i].w)));
#pragma unroll
    for (int h = 0; h < H; ++h) {
      const float best = warp_min(low[h]);
      if (best < val[h]) {  // warp-uniform; never for a row past the block's end (+inf)
        val[h] = best;
        int arg = a.n;
        if (low[h] == best) {  // this lane holds a minimal entry: its first one
#pragma unroll
          for (int i = Q - 1; i >= 0; --i) {
            const int j = 4 * (lane + 32 * i);
            if (cq[i].w + wreg[h][i].w == best) arg = j + 3;
            if (cq[i].z + wreg[h][i].z == best) arg = j + 2;
            if (cq[i].y + wreg[h][i].y == best) arg = j + 1;
            if (cq[i].x + wreg[h][i].x == best) arg = j;
          }
        }
        arg = static_cast<int>(__reduce_min_sync(0xffffffffu, static_cast<unsigned>(arg)));
        if (lane == 0) pred[r0 + h] = arg;
      }
    }
    mark(ph_compute);
    if (sends) store_async_values<H>(odd ? to_data1 : to_data0, val, odd ? to_bar1 : to_bar0);
    if (lane == 0) {
      if (owns) store_shared_values<H>(nxt + v0 + r0, val);
      if (warp == 0) barrier_expect(bar, expected);
      else barrier_arrive(bar);
    }
    mark(ph_send);
    const bool quiet = defer && k > 0 && !differs();  // round k - 1 changed nothing
    mark(ph_flags);
    barrier_wait(bar, static_cast<unsigned>((k >> 1) & 1));
    mark(ph_wait);
    if (a.early_exit && quiet) {
      rounds = k;
      last = false;
      break;
    }
#pragma unroll
    for (int i = 0; i < Q; ++i) prev[i] = cq[i];
    load(nxt, cq);
    rounds = k + 1;
    mark(ph_compute);
    if constexpr (!defer) {
      last = differs();
      mark(ph_flags);
      if (a.early_exit && !last) break;
    }
  }
  if (defer && rounds == a.limit && rounds > 0) last = differs();  // the last round's verdict
  cg::this_cluster().sync();  // every block's predecessors written; nothing in flight
  resident_finish(a, clock, rounds, last, dist + (rounds & 1) * ld, pred, v0, mine);
}

}  // namespace gpu500::bellman_ford::cuda
