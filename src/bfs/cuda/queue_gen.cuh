// src/bfs/cuda/queue_gen.cuh — Enterprise's queue generation (Liu & Huang, SC'15): the frontier
// and unvisited queues of a level, built without atomics.
//
// A count pass has each warp count, per class, the items of its contiguous tile (coalesced reads,
// per-lane counters summed by shuffles); a CUB prefix sum over the per-warp counts (host side, in
// the engine) gives every warp its offsets; a write pass puts each item at its warp's offset plus
// its ballot rank. Tiles are contiguous, so every queue comes out sorted. Classes 0..3 are the
// frontier by degree, 4..5 the unvisited vertices (< 32 arcs, >= 32 arcs), written class-major
// into one buffer; a seventh slot counts the frontier hubs for the bottom-up cache (hub_mode).
#pragma once

#include <cstdint>

#include "gpu500/core/cuda/launch.cuh"
#include "gpu500/core/types.hpp"
#include "policy.cuh"

namespace gpu500::bfs::cuda::detail {

/// What a generation pass reads: vertex ids [0, count) (list == nullptr) or list[0, count).
template <class V>
struct gen_source {
  const V* list;
  index_t count;
};

template <class V>
struct gen_params {
  const std::int32_t* depth;
  const index_t* offsets;
  gen_source<V> src;
  std::int32_t level;     ///< depth of the frontier being collected
  bool wb;                ///< split by degree (else: class 0 and class 4 only)
  index_t sorted_deg32;   ///< >= 0: graph is degree-sorted and ids < sorted_deg32 have degree >= 32
  index_t hub_threshold, priority_degree;
  index_t extreme;        ///< degree above which a frontier vertex goes to the grid queue
  index_t warps;          ///< warps of the generation grid
  index_t tile;           ///< items per warp (multiple of 32)
  hub_mode hubs;          ///< how the hub list is built
  V* hub_list;            ///< its entries (capacity hub_cap)
  index_t hub_cap;
};

__device__ __forceinline__ int frontier_class(index_t d, bool wb, index_t extreme) {
  if (!wb) return 0;
  return d < bfs_policy::small_max ? 0 : d < bfs_policy::middle_max ? 1 : d <= extreme ? 2 : 3;
}

/// Class of item v of status s = depth[v] (or -1): frontier classes need the degree; unvisited ones
/// use the id prefix of a degree-sorted graph when there is one (no offsets read for the many
/// unvisited vertices).
template <class V>
__device__ __forceinline__ int item_class(const gen_params<V>& p, V v, std::int32_t s, index_t& deg) {
  deg = 0;
  if (s == p.level) {
    deg = p.offsets[static_cast<index_t>(v) + 1] - p.offsets[v];
    return frontier_class(deg, p.wb, p.extreme);
  }
  if (s != -1) return -1;
  if (p.sorted_deg32 >= 0) return (p.wb && static_cast<index_t>(v) < p.sorted_deg32) ? 5 : 4;
  const index_t d = p.offsets[static_cast<index_t>(v) + 1] - p.offsets[v];
  if (d == 0) return -1;  // isolated: never reached, never a parent
  return (p.wb && d >= bfs_policy::small_max) ? 5 : 4;
}

template <class V>
__device__ __forceinline__ V item_at(const gen_source<V>& s, index_t i) {
  return s.list ? s.list[i] : static_cast<V>(i);
}

/// Both generation passes walk their warp's tile in steps of gen_unroll x 32 items, issuing the
/// loads of a whole step (items, then their status) before classifying any of them: a scan is
/// latency-bound otherwise (one 128-byte load in flight per warp). Items come out in tile order.
constexpr int gen_unroll = bfs_policy::gen_unroll;

template <class V>
struct gen_step {
  V v[gen_unroll];
  std::int32_t s[gen_unroll];  ///< status, or -2 past the tile's end
};

template <class V>
__device__ __forceinline__ void load_step(const gen_params<V>& p, index_t base, index_t hi, int lane, gen_step<V>& st) {
#pragma unroll
  for (int u = 0; u < gen_unroll; ++u) {
    const index_t i = base + u * 32 + lane;
    st.v[u] = i < hi ? item_at(p.src, i) : V{};
  }
#pragma unroll
  for (int u = 0; u < gen_unroll; ++u) {
    const index_t i = base + u * 32 + lane;
    st.s[u] = i < hi ? p.depth[st.v[u]] : -2;
  }
}

/// Calls f(v, class, degree) for every item of this warp's tile, in tile order (class -1: skipped).
template <class V, class F>
__device__ __forceinline__ void for_each_item(const gen_params<V>& p, index_t warp, int lane, F&& f) {
  const index_t lo = warp * p.tile, hi = p.src.count < lo + p.tile ? p.src.count : lo + p.tile;
  for (index_t base = lo; base < hi; base += 32 * gen_unroll) {
    gen_step<V> step;
    load_step(p, base, hi, lane, step);
#pragma unroll
    for (int u = 0; u < gen_unroll; ++u) {
      index_t deg = 0;
      const int k = step.s[u] == -2 ? -1 : item_class(p, step.v[u], step.s[u], deg);
      f(step.v[u], k, deg);
    }
  }
}

/// Count pass: per-warp class counts of a contiguous tile (and of the frontier hubs), frontier
/// statistics summed per block before the global atomics (one set per block, not per warp: the
/// totals are a handful of hot addresses); in hub_mode::atomic also the hub list.
template <class V>
__global__ void gen_count_kernel(gen_params<V> p, index_t* counts, gen_totals* tot) {
  constexpr int S = bfs_policy::slots;
  __shared__ ull block_tot[S + 3];
  if (threadIdx.x < S + 3) block_tot[threadIdx.x] = 0;
  __syncthreads();
  const index_t warp = gpu::global_warp_id();
  const int lane = gpu::lane_id();
  if (warp < p.warps) {  // warp-uniform
    // Per-lane counts (no votes per item), summed over the warp once at the end.
    unsigned c[S] = {0, 0, 0, 0, 0, 0, 0};
    unsigned nf = 0, fh = 0;
    ull mf = 0;
    for_each_item(p, warp, lane, [&](V v, int k, index_t deg) {
#pragma unroll
      for (int q = 0; q < bfs_policy::classes; ++q) c[q] += k == q;
      const bool front = k >= 0 && k < 4;
      const bool cand = front && deg >= p.priority_degree;
      if (front) {
        ++nf;
        mf += static_cast<ull>(deg);
        fh += deg >= p.hub_threshold;
      }
      c[bfs_policy::hub_slot] += cand;
      if (p.hubs == hub_mode::atomic) {  // uniform: one atomic per warp step, none once the list is full
        const unsigned cm = __ballot_sync(0xffffffffu, cand);
        if (cm) {
          ull at = 0;
          if (lane == 0)
            at = *reinterpret_cast<volatile ull*>(&tot->hub_count) < static_cast<ull>(p.hub_cap)
                     ? atomicAdd(&tot->hub_count, static_cast<ull>(__popc(cm)))
                     : static_cast<ull>(p.hub_cap);
          at = __shfl_sync(0xffffffffu, at, 0) + __popc(cm & ((1u << lane) - 1u));
          if (cand && at < static_cast<ull>(p.hub_cap)) p.hub_list[at] = v;
        }
      }
    });
    for (int o = 16; o > 0; o >>= 1) {
      nf += __shfl_down_sync(0xffffffffu, nf, o);
      mf += __shfl_down_sync(0xffffffffu, mf, o);
      fh += __shfl_down_sync(0xffffffffu, fh, o);
#pragma unroll
      for (int q = 0; q < S; ++q) c[q] += __shfl_down_sync(0xffffffffu, c[q], o);
    }
    if (lane == 0) {
#pragma unroll
      for (int q = 0; q < S; ++q) {
        counts[q * p.warps + warp] = c[q];
        if (c[q]) atomicAdd(&block_tot[q], static_cast<ull>(c[q]));
      }
      if (nf) {
        atomicAdd(&block_tot[S], static_cast<ull>(nf));
        atomicAdd(&block_tot[S + 1], mf);
        atomicAdd(&block_tot[S + 2], static_cast<ull>(fh));
      }
    }
  }
  __syncthreads();
  if (threadIdx.x < S + 3) {
    const ull x = block_tot[threadIdx.x];
    const int i = threadIdx.x;
    if (x) {
      if (i < bfs_policy::classes)
        atomicAdd(&tot->cls[i], x);
      else if (i == bfs_policy::hub_slot) {
        if (p.hubs == hub_mode::scanned) atomicAdd(&tot->hub_count, x);
      } else
        atomicAdd(i == S ? &tot->nf : i == S + 1 ? &tot->mf : &tot->fh, x);
    }
  }
}

/// Write pass: the same tiles; each item goes to its warp's offset + its rank (ballot prefix). With
/// the hub slot in `want` (hub_mode::scanned), frontier hubs also go to the hub list, the first
/// hub_cap of them, at positions from the same scan (no atomics).
template <class V>
__global__ void gen_write_kernel(gen_params<V> p, const index_t* offsets_scanned, unsigned want, V* out) {
  const index_t warp = gpu::global_warp_id();
  const int lane = gpu::lane_id();
  if (warp >= p.warps) return;
  index_t pos[bfs_policy::slots];
#pragma unroll
  for (int q = 0; q < bfs_policy::slots; ++q) pos[q] = offsets_scanned[q * p.warps + warp];
  pos[bfs_policy::hub_slot] -= offsets_scanned[bfs_policy::hub_slot * p.warps];  // list positions from 0
  const unsigned lt = (1u << lane) - 1u;
  for_each_item(p, warp, lane, [&](V v, int k, index_t deg) {
#pragma unroll
    for (int q = 0; q < bfs_policy::classes; ++q) {
      if (!((want >> q) & 1u)) continue;  // uniform: only the wanted classes need positions
      const unsigned m = __ballot_sync(0xffffffffu, k == q);
      if (k == q) out[pos[q] + __popc(m & lt)] = v;
      pos[q] += __popc(m);
    }
    if ((want >> bfs_policy::hub_slot) & 1u) {
      const bool cand = k >= 0 && k < 4 && deg >= p.priority_degree;
      const unsigned m = __ballot_sync(0xffffffffu, cand);
      const index_t at = pos[bfs_policy::hub_slot] + __popc(m & lt);
      if (cand && at < p.hub_cap) p.hub_list[at] = v;
      pos[bfs_policy::hub_slot] += __popc(m);
    }
  });
}

}  // namespace gpu500::bfs::cuda::detail
