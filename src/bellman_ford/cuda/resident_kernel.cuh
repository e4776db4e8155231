// The resident schedule of coarse dense Bellman-Ford, blocks exchanging: every round in one launch,
// as one thread-block cluster (asynchronous remote stores or barrier and loads) or as a
// cooperative grid (global exchange vectors and a grid barrier). See resident_kernel below.
#pragma once

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstddef>

#include "cluster_ops.cuh"
#include "policies.cuh"
#include "resident_common.cuh"
#include "warp_ops.cuh"

namespace gpu500::bellman_ford::cuda {

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

}  // namespace gpu500::bellman_ford::cuda
