// The resident schedule of coarse dense Bellman-Ford, warps exchanging: one cluster whose rows
// live in registers (N <= 512), every warp sending its rows' new distances straight to every
// block. See resident_warp_kernel below.
#pragma once

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstddef>

#include "cluster_ops.cuh"
#include "policies.cuh"
#include "resident_common.cuh"
#include "warp_ops.cuh"

namespace gpu500::bellman_ford::cuda {

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
