// Enterprise BFS on the GPU (Liu & Huang, SC'15) with VS-Graph500's priority cache of hubs.
// The algorithm, the techniques and their flags are described in gpu500/bfs/cuda.hpp.
//
// Layering: engine::run (host level loop, direction decisions) -> launch helpers (launch policy in
// bfs_policy) -> thin __global__ kernels -> device helpers (in_frontier, warp tiles).
// Queue buffer layout: one buffer of n ids per side (ping-pong); a generation pass writes its
// classes one after the other (class-major), so classes 0..3 (frontier by degree) form the whole
// frontier list and classes 4..5 the unvisited queue.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cub/block/block_scan.cuh>
#include <cub/device/device_scan.cuh>
#include <limits>

#include "gpu500/bfs/cuda.hpp"
#include "gpu500/core/cli.hpp"
#include "gpu500/core/cuda/check.cuh"
#include "gpu500/core/error.hpp"
#include "gpu500/graph/cuda.hpp"

namespace gpu500::bfs::cuda {

using graph::csr_view;
using graph::cuda::device_buffer;
using ull = unsigned long long;

namespace {

struct bfs_policy {
  static constexpr int block = 256;         ///< threads per CTA of every kernel but the loop
  static constexpr int gen_blocks_per_sm = 8;
  static constexpr int expand_blocks_per_sm = 8;
  static constexpr int loop_block = 1024;   ///< the single-CTA device loop
  static constexpr int cache_bytes = 16384; ///< shared-memory hub cache per CTA
  static constexpr int classes = 6;         ///< frontier by degree (0..3), unvisited (4: < 32, 5: >= 32)
  static constexpr int hub_slot = 6;        ///< counted with the classes: frontier hubs for the bottom-up cache
  static constexpr int slots = 7;           ///< per-warp counts of one generation pass
  static constexpr int bu_unroll = 4;       ///< bottom-up: arcs (thread) / 32-arc rounds (warp) loaded at once
  static constexpr int bu_probe = 4;        ///< bottom-up warp class: arcs each lane probes in its own row first
  static constexpr int map_ilp = 4;         ///< parents to original ids: vertices per thread, loads together
  static constexpr index_t small_max = 32, middle_max = 256;  ///< (the CTA/grid boundary is an option)
};

/// Totals of one count pass (device side; copied to pinned host memory once per level).
struct gen_totals {
  ull cls[bfs_policy::classes];
  ull nf, mf, fh;      ///< frontier vertices, their arcs, their hubs
  ull hub_count;       ///< frontier key vertices (degree >= priority_degree); the list keeps the first hub_cap
};

/// How the generation passes build the list of frontier hubs for the bottom-up cache.
enum class hub_mode : int {
  none = 0,
  atomic = 1,  ///< the count pass appends them (one atomic per warp step; BL, which has no write pass)
  scanned = 2  ///< counted as a seventh class and written by the write pass at scanned positions
};

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
constexpr int gen_unroll = 4;

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
  const index_t warp = (static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  const int lane = threadIdx.x & 31;
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
  const index_t warp = (static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  const int lane = threadIdx.x & 31;
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

// ---------------------------------------------------------------------------------------------
// Top-down expansion of frontier level L: unvisited neighbours get depth L + 1 and a parent. Racing
// writers all write L + 1 and a frontier parent, so no atomics are needed (benign races).

template <class V>
__device__ __forceinline__ void visit(const csr_view<V>& g, std::int32_t* depth, V* parent, V u, index_t e,
                                      std::int32_t next) {
  const V v = g.columns[e];
  if (depth[v] == -1) {
    depth[v] = next;
    parent[v] = u;
  }
}

// Each class has a body over its share of the launch (block b of nb) so that a kernel of its own
// and the fused top-down kernel (classes 0..2 in one launch, blocks dealt by class) run the same
// code. Bottom-up keeps a kernel per class on two streams: one kernel holding both bodies took
// 117-147 us (ncu, SCALE 22, level 2, H100), more than the two kernels' 44 + 79 us back to back.

template <class V>
__device__ __forceinline__ void td_thread_body(const csr_view<V>& g, const V* q, index_t qn, std::int32_t* depth,
                                               V* parent, std::int32_t next, index_t b, index_t nb) {
  for (index_t i = b * blockDim.x + threadIdx.x; i < qn; i += nb * blockDim.x) {
    const V u = q[i];
    for (index_t e = g.offsets[u], end = g.offsets[static_cast<index_t>(u) + 1]; e < end; ++e)
      visit(g, depth, parent, u, e, next);
  }
}

template <class V>
__device__ __forceinline__ void td_warp_body(const csr_view<V>& g, const V* q, index_t qn, std::int32_t* depth,
                                             V* parent, std::int32_t next, index_t b, index_t nb) {
  const int lane = threadIdx.x & 31;
  const index_t warps = (nb * blockDim.x) >> 5;
  for (index_t i = (b * blockDim.x + threadIdx.x) >> 5; i < qn; i += warps) {
    const V u = q[i];
    for (index_t e = g.offsets[u] + lane, end = g.offsets[static_cast<index_t>(u) + 1]; e < end; e += 32)
      visit(g, depth, parent, u, e, next);
  }
}

/// One CTA per queued vertex (q == nullptr: BL, every vertex of [0, n) whose depth is L).
template <class V>
__device__ __forceinline__ void td_cta_body(const csr_view<V>& g, const V* q, index_t qn, std::int32_t* depth,
                                            V* parent, std::int32_t next, index_t b, index_t nb) {
  for (index_t i = b; i < qn; i += nb) {
    const V u = q ? q[i] : static_cast<V>(i);
    if (!q && depth[u] != next - 1) continue;  // uniform: a frontier vertex's depth does not change
    for (index_t e = g.offsets[u] + threadIdx.x, end = g.offsets[static_cast<index_t>(u) + 1]; e < end;
         e += blockDim.x)
      visit(g, depth, parent, u, e, next);
  }
}

template <class V>
__global__ void td_thread_kernel(csr_view<V> g, const V* q, index_t qn, std::int32_t* depth, V* parent,
                                 std::int32_t next) {
  td_thread_body(g, q, qn, depth, parent, next, blockIdx.x, gridDim.x);
}

template <class V>
__global__ void td_warp_kernel(csr_view<V> g, const V* q, index_t qn, std::int32_t* depth, V* parent,
                               std::int32_t next) {
  td_warp_body(g, q, qn, depth, parent, next, blockIdx.x, gridDim.x);
}

template <class V>
__global__ void td_cta_kernel(csr_view<V> g, const V* q, index_t qn, std::int32_t* depth, V* parent,
                              std::int32_t next) {
  td_cta_body(g, q, qn, depth, parent, next, blockIdx.x, gridDim.x);
}

/// Blocks of each class in a fused class launch. Blocks are dealt round-robin over the classes that
/// still have blocks, so every class runs from the first wave on (as on separate streams); a class
/// given blocks in sequence would wait for the one before it whenever their grids fill the GPU.
struct class_blocks {
  unsigned b[3] = {0, 0, 0};
  [[nodiscard]] unsigned total() const { return b[0] + b[1] + b[2]; }
};

/// Class of launch block `blk` and its index `idx` among that class's blocks.
__device__ __forceinline__ int class_of_block(const class_blocks& cb, index_t blk, index_t& idx) {
  index_t left[3] = {cb.b[0], cb.b[1], cb.b[2]};
  index_t base = 0;  // blocks each remaining class received in earlier rounds
  for (int round = 0; round < 3; ++round) {
    int k = 0;
    index_t m = 0;
    for (int c = 0; c < 3; ++c)
      if (left[c] > 0) {
        ++k;
        m = (m == 0 || left[c] < m) ? left[c] : m;
      }
    if (k == 0) break;
    if (blk < k * m) {
      int j = static_cast<int>(blk % k);
      idx = base + blk / k;
      for (int c = 0; c < 3; ++c)
        if (left[c] > 0 && j-- == 0) return c;
    }
    blk -= k * m;
    base += m;
    for (int c = 0; c < 3; ++c) left[c] = left[c] > 0 ? left[c] - m : 0;
  }
  idx = 0;
  return -1;  // not reached: blk < total()
}

/// Top-down classes 0..2 (queue q = thread class, then warp class, then CTA class) in one launch.
template <class V>
__global__ void td_fused_kernel(csr_view<V> g, const V* q, index_t n0, index_t n1, index_t n2, class_blocks cb,
                                std::int32_t* depth, V* parent, std::int32_t next) {
  index_t b = 0;
  const int c = class_of_block(cb, blockIdx.x, b);
  if (c == 0)
    td_thread_body(g, q, n0, depth, parent, next, b, cb.b[0]);
  else if (c == 1)
    td_warp_body(g, q + n0, n1, depth, parent, next, b, cb.b[1]);
  else if (c == 2)
    td_cta_body(g, q + n0 + n1, n2, depth, parent, next, b, cb.b[2]);
}

/// The grid queue: pref[i] = arcs of the queue's vertices before i (pref[0] = 0).
template <class V>
__global__ void queue_degrees_kernel(const index_t* offsets, const V* q, index_t qn, index_t* pref) {
  for (index_t i = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < qn;
       i += static_cast<index_t>(gridDim.x) * blockDim.x)
    pref[i + 1] = offsets[static_cast<index_t>(q[i]) + 1] - offsets[q[i]];
  if (blockIdx.x == 0 && threadIdx.x == 0) pref[0] = 0;
}

/// Largest j in [0, n) with pref[j] <= k (the queue entry that owns arc k of the concatenation).
template <class P>
__device__ __forceinline__ index_t owner_of(const P* pref, index_t n, index_t k) {
  index_t lo = 0, hi = n - 1;
  while (lo < hi) {
    const index_t mid = lo + (hi - lo + 1) / 2;
    if (static_cast<index_t>(pref[mid]) <= k)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

/// The whole grid on the concatenated neighbour lists of the grid queue: thread k takes arcs
/// k, k + G, ... and finds its vertex by binary search in pref (edge-balanced, no vertex serialised).
template <class V>
__global__ void td_grid_kernel(csr_view<V> g, const V* q, index_t qn, const index_t* pref, std::int32_t* depth,
                               V* parent, std::int32_t next) {
  const index_t total = pref[qn];
  for (index_t k = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; k < total;
       k += static_cast<index_t>(gridDim.x) * blockDim.x) {
    const index_t j = owner_of(pref, qn, k);
    const V u = q[j];
    visit(g, depth, parent, u, g.offsets[u] + (k - pref[j]), next);
  }
}

// ---------------------------------------------------------------------------------------------
// Bottom-up at level L: an unvisited vertex looks for a neighbour of depth L and stops at the first.

template <class V>
struct bu_params {
  csr_view<V> g;
  std::int32_t* depth;
  V* parent;
  std::int32_t level;  ///< frontier depth; discoveries get level + 1
  const V* hub_list;   ///< frontier hubs (null: no cache)
  const gen_totals* tot;
  const std::uint32_t* visited;  ///< bit v: v was visited before this level (null: read depth)
};

template <class V>
constexpr int cache_slots = bfs_policy::cache_bytes / static_cast<int>(sizeof(V));

/// Fill this CTA's direct-mapped cache of frontier hubs: table[h mod slots] = h (misses fall back to
/// the global status array, so collisions only cost speed).
template <class V>
__device__ __forceinline__ void load_cache(const bu_params<V>& p, V* table) {
  constexpr int S = cache_slots<V>;
  for (int i = threadIdx.x; i < S; i += blockDim.x) table[i] = static_cast<V>(-1);
  __syncthreads();
  if (p.hub_list) {
    const ull n = p.tot->hub_count < static_cast<ull>(S) ? p.tot->hub_count : static_cast<ull>(S);
    for (ull i = threadIdx.x; i < n; i += blockDim.x) {
      const V h = p.hub_list[i];
      table[static_cast<index_t>(h) & (S - 1)] = h;
    }
  }
  __syncthreads();
}

template <class V, bool Cache>
__device__ __forceinline__ bool in_frontier(const bu_params<V>& p, const V* table, V u) {
  if constexpr (Cache) {
    if (table[static_cast<index_t>(u) & (cache_slots<V> - 1)] == u) return true;
  }
  // For a vertex still unvisited at this level every visited neighbour has depth == level (a
  // neighbour of smaller depth would have reached it earlier), so the bitmap of the vertices visited
  // before the level -- n/8 bytes, L2-resident where the status array is not -- answers the same.
  if (p.visited) {
    const auto i = static_cast<index_t>(u);
    return (p.visited[i >> 5] >> (i & 31)) & 1u;
  }
  return p.depth[u] == p.level;
}

/// visited[w] bit b = depth[32 w + b] != -1 for the vertices [0, n), 0 beyond. Each lane reads four
/// statuses with one 16-byte load (two loads in flight per step); 8 lanes make a word.
__global__ void visited_bits_kernel(const std::int32_t* depth, index_t n, std::uint32_t* visited) {
  const int lane = threadIdx.x & 31;
  const index_t words = (n + 31) / 32;
  const index_t warps = (static_cast<index_t>(gridDim.x) * blockDim.x) >> 5;
  constexpr int per_step = 2;  // 4-word groups per warp and step
  for (index_t g = ((static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5) * per_step;
       g * 4 < words; g += warps * per_step) {
    int4 s[per_step];
#pragma unroll
    for (int k = 0; k < per_step; ++k) {
      const index_t v = (g + k) * 128 + 4 * lane;  // first of this lane's four vertices
      if (v + 3 < n) {
        s[k] = *reinterpret_cast<const int4*>(depth + v);
      } else {
        s[k].x = v < n ? depth[v] : -1;
        s[k].y = v + 1 < n ? depth[v + 1] : -1;
        s[k].z = v + 2 < n ? depth[v + 2] : -1;
        s[k].w = -1;
      }
    }
#pragma unroll
    for (int k = 0; k < per_step; ++k) {
      unsigned bits = (s[k].x != -1 ? 1u : 0u) | (s[k].y != -1 ? 2u : 0u) | (s[k].z != -1 ? 4u : 0u) |
                      (s[k].w != -1 ? 8u : 0u);
      bits <<= 4 * (lane & 7);
      bits |= __shfl_xor_sync(0xffffffffu, bits, 1);
      bits |= __shfl_xor_sync(0xffffffffu, bits, 2);
      bits |= __shfl_xor_sync(0xffffffffu, bits, 4);
      const index_t w = (g + k) * 4 + (lane >> 3);
      if ((lane & 7) == 0 && w < words) visited[w] = bits;
    }
  }
}

template <class V, bool Cache>
__device__ __forceinline__ void bu_thread_body(const bu_params<V>& p, const V* table, const V* q, index_t qn,
                                               index_t b, index_t nb) {
  for (index_t i = b * blockDim.x + threadIdx.x; i < qn; i += nb * blockDim.x) {
    const V v = q[i];
    const index_t end = p.g.offsets[static_cast<index_t>(v) + 1];
    // bu_unroll arcs per step, their loads issued together (a row is a chain of dependent loads
    // otherwise); any frontier neighbour is a valid parent, the first of the step is taken.
    for (index_t e = p.g.offsets[v]; e < end; e += bfs_policy::bu_unroll) {
      V u[bfs_policy::bu_unroll];
      bool hit[bfs_policy::bu_unroll];
#pragma unroll
      for (int j = 0; j < bfs_policy::bu_unroll; ++j) u[j] = e + j < end ? p.g.columns[e + j] : V{};
#pragma unroll
      for (int j = 0; j < bfs_policy::bu_unroll; ++j) hit[j] = e + j < end && in_frontier<V, Cache>(p, table, u[j]);
      int f = -1;
#pragma unroll
      for (int j = bfs_policy::bu_unroll - 1; j >= 0; --j) f = hit[j] ? j : f;
      if (f >= 0) {
        V par = u[0];
#pragma unroll
        for (int j = 1; j < bfs_policy::bu_unroll; ++j) par = f == j ? u[j] : par;
        p.depth[v] = p.level + 1;
        p.parent[v] = par;
        break;
      }
    }
  }
}

/// The whole warp on one row from arc `from`: the first 32 arcs, then bu_unroll x 32 arcs per step
/// with their loads issued together; the first lane with a hit records the parent.
template <class V, bool Cache>
__device__ __forceinline__ void bu_warp_row(const bu_params<V>& p, const V* table, V v, index_t from, index_t end,
                                            int lane) {
  for (index_t base = from, width = 32; base < end; base += width, width = 32 * bfs_policy::bu_unroll) {
    V u[bfs_policy::bu_unroll];
    bool hit[bfs_policy::bu_unroll];
#pragma unroll
    for (int j = 0; j < bfs_policy::bu_unroll; ++j) {
      const index_t e = base + j * 32 + lane;
      u[j] = (j * 32 < width && e < end) ? p.g.columns[e] : V{};
    }
#pragma unroll
    for (int j = 0; j < bfs_policy::bu_unroll; ++j) {
      const index_t e = base + j * 32 + lane;
      hit[j] = j * 32 < width && e < end && in_frontier<V, Cache>(p, table, u[j]);
    }
    V par{};
    bool any = false;
#pragma unroll
    for (int j = bfs_policy::bu_unroll - 1; j >= 0; --j) {
      par = hit[j] ? u[j] : par;
      any = any || hit[j];
    }
    const unsigned m = __ballot_sync(0xffffffffu, any);
    if (m) {
      if (lane == __ffs(m) - 1) {
        p.depth[v] = p.level + 1;
        p.parent[v] = par;
      }
      return;
    }
  }
}

/// The bottom-up warp class (rows of >= 32 arcs). Probe (the default): each lane first probes its
/// own row's first arcs; !Probe (--no-lane-probe): a warp per row from its first arc. Two kernels,
/// so that each keeps its own register budget.
template <class V, bool Cache, bool Probe>
__device__ __forceinline__ void bu_warp_body(const bu_params<V>& p, const V* table, const V* q, index_t qn,
                                             index_t b, index_t nb) {
  const int lane = threadIdx.x & 31;
  const index_t warps = (nb * blockDim.x) >> 5;
  const index_t warp = (b * blockDim.x + threadIdx.x) >> 5;
  if constexpr (!Probe) {  // a warp per row from its first arc
    for (index_t i = warp; i < qn; i += warps) {
      const V v = q[i];
      bu_warp_row<V, Cache>(p, table, v, p.g.offsets[v], p.g.offsets[static_cast<index_t>(v) + 1], lane);
    }
  } else {
    // Lane probe: a warp takes 32 rows, each lane tests the first bu_probe arcs of its own row (loads
    // issued together). Rows are in descending degree order, so a row's likeliest parents, the hubs,
    // come first and most rows end here after one round trip for 32 rows instead of one per row.
    // The rows without a hit there are then scanned by the whole warp, one after the other.
    constexpr int P = bfs_policy::bu_probe;
    for (index_t i0 = warp * 32; i0 < qn; i0 += warps * 32) {
      const index_t i = i0 + lane;
      const bool mine = i < qn;
      const V v = mine ? q[i] : V{};
      const index_t begin = mine ? p.g.offsets[v] : 0, end = mine ? p.g.offsets[static_cast<index_t>(v) + 1] : 0;
      V u[P];
      bool hit[P];
#pragma unroll
      for (int j = 0; j < P; ++j) u[j] = begin + j < end ? p.g.columns[begin + j] : V{};
#pragma unroll
      for (int j = 0; j < P; ++j) hit[j] = begin + j < end && in_frontier<V, Cache>(p, table, u[j]);
      int f = -1;
#pragma unroll
      for (int j = P - 1; j >= 0; --j) f = hit[j] ? j : f;
      if (f >= 0) {
        V par = u[0];
#pragma unroll
        for (int j = 1; j < P; ++j) par = f == j ? u[j] : par;
        p.depth[v] = p.level + 1;
        p.parent[v] = par;
      }
      unsigned rest = __ballot_sync(0xffffffffu, f < 0 && begin + P < end);
      while (rest) {
        const int src = __ffs(rest) - 1;
        rest &= rest - 1;
        const V w = __shfl_sync(0xffffffffu, v, src);
        const index_t from = __shfl_sync(0xffffffffu, begin, src) + P, to = __shfl_sync(0xffffffffu, end, src);
        bu_warp_row<V, Cache>(p, table, w, from, to, lane);
      }
    }
  }
}

/// One CTA per vertex: of the queue, or (q == nullptr, BL) of [0, qn) where depth is -1.
template <class V, bool Cache>
__global__ void bu_cta_kernel(bu_params<V> p, const V* q, index_t qn) {
  __shared__ V table[cache_slots<V>];
  __shared__ ull first_hit;
  __shared__ int todo;
  if constexpr (Cache) load_cache(p, table);
  for (index_t i = blockIdx.x; i < qn; i += gridDim.x) {
    const V v = q ? q[i] : static_cast<V>(i);
    if (threadIdx.x == 0) {
      todo = q ? 1 : p.depth[v] == -1;
      first_hit = ~0ull;
    }
    __syncthreads();
    if (todo) {
      const index_t begin = p.g.offsets[v], end = p.g.offsets[static_cast<index_t>(v) + 1];
      for (index_t base = begin; base < end; base += blockDim.x) {
        const index_t e = base + threadIdx.x;
        if (e < end && in_frontier<V, Cache>(p, table, p.g.columns[e])) atomicMin(&first_hit, static_cast<ull>(e));
        __syncthreads();
        const bool done = first_hit != ~0ull;
        __syncthreads();  // every thread has read first_hit before the next round's atomics
        if (done) break;
      }
      if (threadIdx.x == 0 && first_hit != ~0ull) {
        p.depth[v] = p.level + 1;
        p.parent[v] = p.g.columns[first_hit];
      }
    }
    __syncthreads();
  }
}

template <class V, bool Cache>
__global__ void bu_thread_kernel(bu_params<V> p, const V* q, index_t qn) {
  __shared__ V table[cache_slots<V>];
  if constexpr (Cache) load_cache(p, table);
  bu_thread_body<V, Cache>(p, table, q, qn, blockIdx.x, gridDim.x);
}

template <class V, bool Cache, bool Probe>
__global__ void bu_warp_kernel(bu_params<V> p, const V* q, index_t qn) {
  __shared__ V table[cache_slots<V>];
  if constexpr (Cache) load_cache(p, table);
  bu_warp_body<V, Cache, Probe>(p, table, q, qn, blockIdx.x, gridDim.x);
}

// ---------------------------------------------------------------------------------------------
// The device loop: top-down levels of a small frontier inside one CTA, no host round trip. Claims
// use atomicCAS so that the next queue has no duplicates (the frontier is small; atomics are cheap
// here). Stops when the next frontier is empty or too big for one CTA.

struct loop_result {
  std::int32_t level;  ///< depth of the frontier left in the returned buffer
  std::int32_t side;   ///< 0: the first buffer, 1: the second
  ull count;
};

template <class V>
__global__ void __launch_bounds__(bfs_policy::loop_block)
    td_loop_kernel(csr_view<V> g, std::int32_t* depth, V* parent, V* qa, V* qb, index_t n0, std::int32_t level,
                   index_t max_n, index_t max_m, loop_result* res) {
  using block_scan = cub::BlockScan<ull, bfs_policy::loop_block>;
  __shared__ typename block_scan::TempStorage scan_tmp;
  __shared__ ull pref[bfs_policy::loop_block];
  __shared__ index_t start[bfs_policy::loop_block];
  __shared__ V from[bfs_policy::loop_block];
  __shared__ ull next_n, next_m;
  V* cur = qa;
  V* nxt = qb;
  index_t n = n0;  // <= loop_block (the host checks), so one frontier vertex per thread
  const std::int32_t level0 = level;
  int side = 0;
  const int t = threadIdx.x;
  for (;;) {
    ull d = 0;
    if (t < n) {
      const V u = cur[t];
      from[t] = u;
      start[t] = g.offsets[u];
      d = static_cast<ull>(g.offsets[static_cast<index_t>(u) + 1] - start[t]);
    }
    ull excl = 0, total = 0;
    block_scan(scan_tmp).ExclusiveSum(d, excl, total);
    if (level == level0 && static_cast<index_t>(total) > max_m) break;  // entered unchecked: hand back untouched
    pref[t] = excl;
    if (t == 0) next_n = next_m = 0;
    __syncthreads();
    // Edge-balanced: thread t takes arcs t, t + blockDim, ... of the frontier's concatenated lists.
    for (ull k = t; k < total; k += blockDim.x) {
      const index_t j = owner_of(pref, n, static_cast<index_t>(k));
      const V v = g.columns[start[j] + static_cast<index_t>(k - pref[j])];
      if (depth[v] == -1 && atomicCAS(depth + v, -1, level + 1) == -1) {
        parent[v] = from[j];
        // One shared atomic per group of discovering lanes, not per discovery: a level that finds
        // thousands of vertices serialised on next_n / next_m for hundreds of microseconds.
        const auto grp = cooperative_groups::coalesced_threads();
        ull at = 0;
        if (grp.thread_rank() == 0) at = atomicAdd(&next_n, static_cast<ull>(grp.size()));
        nxt[grp.shfl(at, 0) + grp.thread_rank()] = v;
        const ull dm = cooperative_groups::reduce(
            grp, static_cast<ull>(g.offsets[static_cast<index_t>(v) + 1] - g.offsets[v]), cooperative_groups::plus<ull>());
        if (grp.thread_rank() == 0) atomicAdd(&next_m, dm);
      }
    }
    __syncthreads();
    n = static_cast<index_t>(next_n);
    const index_t m = static_cast<index_t>(next_m);
    ++level;
    V* tmp = cur;
    cur = nxt;
    nxt = tmp;
    side ^= 1;
    if (n == 0 || n > max_n || m > max_m) break;
    __syncthreads();  // everyone has read next_n / pref before they are rewritten
  }
  if (t == 0) {
    res->level = level;
    res->side = side;
    res->count = static_cast<ull>(n);
  }
}

template <class V>
__global__ void init_root_kernel(std::int32_t* depth, V* parent, V* q, V root) {
  depth[root] = 0;
  parent[root] = root;
  q[0] = root;
}

/// The search's parents in original ids: out[o] = new2old[parent[old2new[o]]], all ones where
/// unreached (parent holds all ones there: prepare()). A vertex without arcs (new id >=
/// non_isolated) is reached only as the root and costs no read of parent; the others cost one
/// random read of parent (new2old of a parent is mostly a hub's: cached). Each thread maps
/// map_ilp vertices a block apart, their loads issued together.
template <class V>
__global__ void original_parents_kernel(graph::id_map<V> ids, const V* parent, V root, index_t n, V* out) {
  constexpr int ilp = bfs_policy::map_ilp;
  const V none = static_cast<V>(~V{0});
  const index_t span = static_cast<index_t>(blockDim.x) * ilp;
  for (index_t base = static_cast<index_t>(blockIdx.x) * span + threadIdx.x; base < n;
       base += static_cast<index_t>(gridDim.x) * span) {
    V x[ilp], p[ilp];
#pragma unroll
    for (int i = 0; i < ilp; ++i) {
      const index_t o = base + static_cast<index_t>(i) * blockDim.x;
      x[i] = o < n ? __ldcs(ids.old2new + o) : root;
    }
#pragma unroll
    for (int i = 0; i < ilp; ++i)
      p[i] = static_cast<index_t>(x[i]) < ids.non_isolated ? parent[x[i]] : x[i] == root ? root : none;
#pragma unroll
    for (int i = 0; i < ilp; ++i) {
      const index_t o = base + static_cast<index_t>(i) * blockDim.x;
      if (o < n) __stcs(out + o, p[i] == none ? none : ids.new2old[p[i]]);
    }
  }
}

template <class V>
__global__ void reached_arcs_kernel(const index_t* offsets, const std::int32_t* depth, index_t n, ull* sum) {
  ull s = 0;
  for (index_t v = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; v < n;
       v += static_cast<index_t>(gridDim.x) * blockDim.x)
    if (depth[v] >= 0) s += static_cast<ull>(offsets[v + 1] - offsets[v]);
  for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
  if ((threadIdx.x & 31) == 0 && s) atomicAdd(sum, s);
}

/// Vertices with degree >= t (one pass; used for hub counts and the degree-32 prefix).
__global__ void count_degree_at_least_kernel(const index_t* offsets, index_t n, index_t t, ull* out) {
  ull s = 0;
  for (index_t v = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; v < n;
       v += static_cast<index_t>(gridDim.x) * blockDim.x)
    s += (offsets[v + 1] - offsets[v]) >= t;
  for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
  if ((threadIdx.x & 31) == 0 && s) atomicAdd(out, s);
}

}  // namespace

// =============================================================================================

void add_options(cli::parser& p, options& o, bool* also_off) {
  p.option("--bfs",
           [&o, also_off](const std::string& v) {
             const bool off = v == "baseline" || v == "bl";
             if (!off && v != "enterprise") throw usage_error("--bfs: expected enterprise or baseline, got '" + v + "'");
             o.no_ts = o.no_wb = o.no_hc = o.no_hub_cache = o.no_device_loop = off;
             if (also_off) *also_off = off;
           },
           "CUDA BFS: enterprise (every technique, default) or baseline (BL: every technique off)", "NAME");
  p.flag("--no-ts", o.no_ts, "CUDA BFS: no prefix-sum queues (BL's status-array scan each level)");
  p.flag("--no-wb", o.no_wb, "CUDA BFS: no degree classes (one CTA per queued vertex)");
  p.flag("--no-hc", o.no_hc, "CUDA BFS: Beamer's alpha/beta switch instead of gamma, and no hub cache");
  p.flag("--no-hub-cache", o.no_hub_cache, "CUDA BFS: no shared-memory cache of frontier hubs in bottom-up");
  p.flag("--no-device-loop", o.no_device_loop, "CUDA BFS: run every level from the host");
  p.flag("--no-bitmap", o.no_bitmap,
         "CUDA BFS: bottom-up reads neighbours' depth instead of a bitmap of the visited vertices");
  p.option("--hub-threshold", o.hub_threshold, "CUDA BFS: degree of a hub for gamma (default 100)");
  p.option("--priority-degree", o.priority_degree, "CUDA BFS: degree of the cached key vertices (default 100)");
  p.option("--gamma", o.gamma, "CUDA BFS: switch to bottom-up when this fraction of hubs is in the frontier (0.30)");
  p.flag("--gamma-only", o.gamma_only, "CUDA BFS with HC: switch on gamma alone (no arc-count safety net)");
  p.flag("--no-fused", o.no_fused, "CUDA BFS: top-down degree classes each their own kernel and stream (default: one launch)");
  p.flag("--no-lane-probe", o.no_lane_probe,
         "CUDA BFS: bottom-up warp class scans every row with the whole warp (default: each lane probes its "
         "own row's first arcs first)");
  p.flag("--hub-list-atomic", o.hub_list_atomic,
         "CUDA BFS: the count pass appends the cache's hubs with atomics (default: the write pass, scanned)");
  p.option("--alpha", o.alpha, "CUDA BFS without HC: Beamer's alpha (14)");
  p.option("--extreme-degree", o.extreme_degree,
           "CUDA BFS: degree above which a frontier vertex goes to the grid queue (4096; the paper's 65536)");
  p.option("--beta", o.beta, "CUDA BFS: back to top-down below active/beta frontier vertices (24)");
}

std::string describe(const options& o) {
  if (!o.ts() && !o.hc() && !o.hub_cache()) return "bl";
  std::string s = o.ts() ? "ts" : "bl";
  if (o.wb()) s += "+wb";
  if (o.hc()) s += "+hc";
  if (o.hub_cache()) s += "+cache";
  if (o.device_loop()) s += "+loop";
  if (o.bitmap()) s += "+bitmap";
  if (o.wb() && o.no_fused) s += "+unfused";
  if (o.hub_cache() && o.ts() && o.hub_list_atomic) s += "+hubatomic";
  if (o.wb() && o.no_lane_probe) s += "+noprobe";
  return s;
}

template <class V>
struct engine<V>::impl {
  csr_view<V> g;
  bool sorted;
  options o;
  index_t n = 0, arcs = 0, active = 0, sorted_deg32 = -1, total_hubs = 0;
  int sms = 1;
  index_t gen_warps = 0;
  unsigned gen_grid = 1;
  device_buffer<std::int32_t> depth;
  device_buffer<V> parent;
  graph::id_map<V> ids;        ///< report in original ids (empty: the graph's ids are the original ones)
  device_buffer<V> original;   ///< the last search's parents in original ids (when ids is not empty)
  device_buffer<V> qbuf[2];
  device_buffer<index_t> counts, scanned;
  device_buffer<unsigned char> scan_temp;
  device_buffer<gen_totals> tot;
  device_buffer<V> hub_list;
  device_buffer<index_t> grid_pref;  ///< arc prefix of the grid queue (at most arcs / extreme + 1 entries)
  device_buffer<unsigned char> grid_temp;
  device_buffer<loop_result> loop_res;
  device_buffer<ull> sum;
  device_buffer<std::uint32_t> visited;  ///< bottom-up's bitmap of the vertices visited before the level
  gen_totals* h_tot = nullptr;
  loop_result* h_loop = nullptr;
  cudaStream_t st[4] = {};
  cudaEvent_t fork = nullptr, join[4] = {};
  gen_params<V> last{};
  bool prepared = false;
  index_t nedge = -1;
  std::vector<level_info> trace;

  index_t count_at_least(index_t t) {
    GPU500_CUDA_CHECK(cudaMemset(sum.data(), 0, sizeof(ull)));
    count_degree_at_least_kernel<<<graph::cuda::grid_blocks(n, bfs_policy::block), bfs_policy::block>>>(g.offsets, n, t,
                                                                                                     sum.data());
    GPU500_CUDA_CHECK_LAUNCH();
    ull h = 0;
    graph::cuda::copy_to_host(&h, sum.data(), sizeof h);
    return static_cast<index_t>(h);
  }

  static unsigned gen_blocks(const gen_params<V>& p) {
    return static_cast<unsigned>((p.warps * 32 + bfs_policy::block - 1) / bfs_policy::block);
  }

  unsigned blocks_for(index_t threads) const {
    const index_t b = (threads + bfs_policy::block - 1) / bfs_policy::block;
    const index_t cap = static_cast<index_t>(sms) * bfs_policy::expand_blocks_per_sm;
    return static_cast<unsigned>(b < 1 ? 1 : b > cap ? cap : b);
  }

  /// Count pass over src for frontier depth `level`; synchronises and returns the totals.
  const gen_totals& count_pass(gen_source<V> src, std::int32_t level) {
    gen_params<V> p{};
    p.depth = depth.data();
    p.offsets = g.offsets;
    p.src = src;
    p.level = level;
    p.wb = o.wb();
    p.sorted_deg32 = sorted ? sorted_deg32 : -1;
    p.hub_threshold = o.hub_threshold;
    p.priority_degree = o.priority_degree;
    p.extreme = o.extreme_degree;
    p.hubs = !o.hub_cache() ? hub_mode::none : (o.hub_list_atomic || !o.ts()) ? hub_mode::atomic : hub_mode::scanned;
    p.hub_list = hub_list.data();
    p.hub_cap = static_cast<index_t>(hub_list.size());
    // As many warps as give each at least one full step (small lists: one block, a short scan),
    // at most the full generation grid.
    const index_t step = 32 * gen_unroll;
    const index_t want_warps = (src.count + step - 1) / step;
    p.warps = want_warps < 1 ? 1 : want_warps > gen_warps ? gen_warps : want_warps;
    p.tile = ((src.count + p.warps - 1) / p.warps + 31) / 32 * 32;
    if (p.tile == 0) p.tile = 32;
    last = p;
    GPU500_CUDA_CHECK(cudaMemsetAsync(tot.data(), 0, sizeof(gen_totals), st[0]));
    gen_count_kernel<V><<<gen_blocks(p), bfs_policy::block, 0, st[0]>>>(p, counts.data(), tot.data());
    GPU500_CUDA_CHECK_LAUNCH();
    GPU500_CUDA_CHECK(cudaMemcpyAsync(h_tot, tot.data(), sizeof(gen_totals), cudaMemcpyDeviceToHost, st[0]));
    GPU500_CUDA_CHECK(cudaStreamSynchronize(st[0]));
    return *h_tot;
  }

  /// Write pass of the last count pass: classes in `want` go to out (class-major); with `hubs` the
  /// frontier hubs also go to the hub list (hub_mode::scanned).
  void write_pass(unsigned want, V* out, bool hubs = false) {
    if (hubs && last.hubs == hub_mode::scanned) want |= 1u << bfs_policy::hub_slot;
    std::size_t bytes = scan_temp.size();
    GPU500_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scan_temp.data(), bytes, counts.data(), scanned.data(),
                                                    last.warps * bfs_policy::slots, st[0]));
    gen_write_kernel<V><<<gen_blocks(last), bfs_policy::block, 0, st[0]>>>(last, scanned.data(), want, out);
    GPU500_CUDA_CHECK_LAUNCH();
  }

  char decide(const gen_totals& t, char dir, index_t prev_nf, double unexplored) const {
    const auto nf = static_cast<index_t>(t.nf);
    if (dir == 'B') return (nf < prev_nf && static_cast<double>(nf) < static_cast<double>(active) / o.beta) ? 'T' : 'B';
    const bool arcs_rule = static_cast<double>(t.mf) > unexplored / o.alpha && nf > prev_nf;  // Beamer
    if (o.hc()) {
      // Enterprise's gamma; Beamer's arc test stays as a safety net for roots whose frontier holds
      // few hubs but most of the remaining arcs (switching later there only costs time).
      const bool gamma_rule = total_hubs > 0 && static_cast<double>(t.fh) > o.gamma * static_cast<double>(total_hubs);
      return (gamma_rule || (!o.gamma_only && arcs_rule)) ? 'B' : 'T';
    }
    return arcs_rule ? 'B' : 'T';
  }

  void fork_streams(int k) {
    if (k < 2) return;
    GPU500_CUDA_CHECK(cudaEventRecord(fork, st[0]));
    for (int i = 1; i < k; ++i) GPU500_CUDA_CHECK(cudaStreamWaitEvent(st[i], fork, 0));
  }
  void join_streams(int k) {
    for (int i = 1; i < k; ++i) {
      GPU500_CUDA_CHECK(cudaEventRecord(join[i], st[i]));
      GPU500_CUDA_CHECK(cudaStreamWaitEvent(st[0], join[i], 0));
    }
  }

  void top_down(const V* q, const gen_totals& t, std::int32_t level) {
    const std::int32_t next = level + 1;
    if (!o.wb()) {
      const index_t qn = static_cast<index_t>(t.nf);
      td_cta_kernel<V><<<blocks_for(qn * bfs_policy::block), bfs_policy::block, 0, st[0]>>>(g, q, qn, depth.data(),
                                                                                          parent.data(), next);
      GPU500_CUDA_CHECK_LAUNCH();
      return;
    }
    const index_t n0 = static_cast<index_t>(t.cls[0]), n1 = static_cast<index_t>(t.cls[1]),
                  n2 = static_cast<index_t>(t.cls[2]), n3 = static_cast<index_t>(t.cls[3]);
    if (!o.no_fused) {  // classes 0..2 in one launch, the grid queue beside it on a second stream
      const int ways = n3 ? 2 : 1;
      fork_streams(ways);
      class_blocks cb;
      cb.b[0] = n0 ? blocks_for(n0) : 0;
      cb.b[1] = n1 ? blocks_for(n1 * 32) : 0;
      cb.b[2] = n2 ? blocks_for(n2 * bfs_policy::block) : 0;
      if (cb.total()) {
        td_fused_kernel<V><<<cb.total(), bfs_policy::block, 0, st[0]>>>(g, q, n0, n1, n2, cb, depth.data(),
                                                                         parent.data(), next);
        GPU500_CUDA_CHECK_LAUNCH();
      }
      if (n3) grid_queue(q + n0 + n1 + n2, n3, next, st[1]);
      join_streams(ways);
      return;
    }
    const int ways = (n1 || n2 || n3) ? 4 : 1;
    fork_streams(ways);
    if (n0) {
      td_thread_kernel<V><<<blocks_for(n0), bfs_policy::block, 0, st[0]>>>(g, q, n0, depth.data(), parent.data(), next);
      GPU500_CUDA_CHECK_LAUNCH();
    }
    if (n1) {
      td_warp_kernel<V><<<blocks_for(n1 * 32), bfs_policy::block, 0, st[1]>>>(g, q + n0, n1, depth.data(),
                                                                              parent.data(), next);
      GPU500_CUDA_CHECK_LAUNCH();
    }
    if (n2) {
      td_cta_kernel<V><<<blocks_for(n2 * bfs_policy::block), bfs_policy::block, 0, st[2]>>>(
          g, q + n0 + n1, n2, depth.data(), parent.data(), next);
      GPU500_CUDA_CHECK_LAUNCH();
    }
    if (n3) grid_queue(q + n0 + n1 + n2, n3, next, st[3]);
    join_streams(ways);
  }

  /// The grid queue q3[0, n3) on stream s: arc prefix of its lists, then the edge-balanced kernel.
  void grid_queue(const V* q3, index_t n3, std::int32_t next, cudaStream_t s) {
    queue_degrees_kernel<V><<<blocks_for(n3), bfs_policy::block, 0, s>>>(g.offsets, q3, n3, grid_pref.data());
    GPU500_CUDA_CHECK_LAUNCH();
    std::size_t bytes = grid_temp.size();
    GPU500_CUDA_CHECK(cub::DeviceScan::InclusiveSum(grid_temp.data(), bytes, grid_pref.data() + 1,
                                                    grid_pref.data() + 1, n3, s));
    td_grid_kernel<V><<<static_cast<unsigned>(sms) * bfs_policy::expand_blocks_per_sm, bfs_policy::block, 0, s>>>(
        g, q3, n3, grid_pref.data(), depth.data(), parent.data(), next);
    GPU500_CUDA_CHECK_LAUNCH();
  }

  template <bool Cache>
  void bottom_up_impl(const V* uq, const gen_totals& t, std::int32_t level) {
    const std::uint32_t* vis = nullptr;
    if (o.bitmap()) {  // snapshot before the level: never updated while the level runs
      const index_t words = (active + 31) / 32;
      visited_bits_kernel<<<blocks_for(words * 32), bfs_policy::block, 0, st[0]>>>(depth.data(), active,
                                                                                 visited.data());
      GPU500_CUDA_CHECK_LAUNCH();
      vis = visited.data();
    }
    const bu_params<V> p{g, depth.data(), parent.data(), level, Cache ? hub_list.data() : nullptr, tot.data(), vis};
    if (!o.ts()) {  // BL: one CTA per vertex of the whole active range
      bu_cta_kernel<V, Cache><<<blocks_for(active * bfs_policy::block), bfs_policy::block, 0, st[0]>>>(p, nullptr,
                                                                                                     active);
      GPU500_CUDA_CHECK_LAUNCH();
      return;
    }
    const index_t n4 = static_cast<index_t>(t.cls[4]), n5 = static_cast<index_t>(t.cls[5]);
    if (!o.wb()) {
      bu_cta_kernel<V, Cache><<<blocks_for(n4 * bfs_policy::block), bfs_policy::block, 0, st[0]>>>(p, uq, n4);
      GPU500_CUDA_CHECK_LAUNCH();
      return;
    }
    const int ways = n5 ? 2 : 1;
    fork_streams(ways);
    if (n4) {
      bu_thread_kernel<V, Cache><<<blocks_for(n4), bfs_policy::block, 0, st[0]>>>(p, uq, n4);
      GPU500_CUDA_CHECK_LAUNCH();
    }
    if (n5) {
      if (o.no_lane_probe)
        bu_warp_kernel<V, Cache, false><<<blocks_for(n5 * 32), bfs_policy::block, 0, st[1]>>>(p, uq + n4, n5);
      else
        bu_warp_kernel<V, Cache, true><<<blocks_for(n5), bfs_policy::block, 0, st[1]>>>(p, uq + n4, n5);
      GPU500_CUDA_CHECK_LAUNCH();
    }
    join_streams(ways);
  }
  void bottom_up(const V* uq, const gen_totals& t, std::int32_t level) {
    if (o.hub_cache())
      bottom_up_impl<true>(uq, t, level);
    else
      bottom_up_impl<false>(uq, t, level);
  }

  void run(index_t root);
};

template <class V>
void engine<V>::impl::run(index_t root) {
  GPU500_EXPECTS(root >= 0 && root < n, "BFS root out of range");
  trace.clear();
  nedge = -1;
  init_root_kernel<V><<<1, 1, 0, st[0]>>>(depth.data(), parent.data(), qbuf[0].data(), static_cast<V>(root));
  GPU500_CUDA_CHECK_LAUNCH();
  enum class kind { frontier_list, unvisited_list, status_scan };
  const gen_source<V> scan_all{nullptr, active};
  gen_source<V> src{qbuf[0].data(), 1};
  kind k = kind::frontier_list;
  int cur = 0;  // the buffer src lives in
  std::int32_t level = 0;
  char dir = 'T';
  index_t prev_nf = 0;
  double unexplored = static_cast<double>(arcs);
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  const auto since = [&t0] { return std::chrono::duration<double>(clock::now() - t0).count(); };
  double level_start = 0;  // the entry pushed next began then
  // The list the device loop just handed back (it stopped on it: too many arcs) is not offered to
  // it again; that would cost a launch and a round trip for nothing.
  bool loop_declined = false;
  for (;;) {
    level_start = since();
    if (!o.ts()) {  // BL: statistics from a scan of the status array, then one CTA per vertex
      const gen_totals t = count_pass(scan_all, level);
      if (t.nf == 0) break;
      dir = decide(t, dir, prev_nf, unexplored);
      unexplored -= static_cast<double>(t.mf);
      prev_nf = static_cast<index_t>(t.nf);
      trace.push_back({level, dir, prev_nf, level_start});
      if (dir == 'T') {
        td_cta_kernel<V><<<blocks_for(n * bfs_policy::block), bfs_policy::block, 0, st[0]>>>(
            g, nullptr, n, depth.data(), parent.data(), level + 1);
        GPU500_CUDA_CHECK_LAUNCH();
      } else {
        bottom_up(nullptr, t, level);
      }
      ++level;
      continue;
    }
    // A small frontier list after a top-down level goes straight to the device loop: no count and
    // write passes, no round trip for them (the loop hands the list back untouched, level unchanged,
    // when its arcs exceed the loop's limit; the level then takes the ordinary path).
    if (o.device_loop() && !loop_declined && k == kind::frontier_list && dir == 'T' && src.count >= 1 &&
        src.count <= std::min<index_t>(o.loop_vertices, bfs_policy::loop_block) && src.list == qbuf[cur].data()) {
      const int other = cur ^ 1;
      td_loop_kernel<V><<<1, bfs_policy::loop_block, 0, st[0]>>>(g, depth.data(), parent.data(), qbuf[cur].data(),
                                                                 qbuf[other].data(), src.count, level, o.loop_vertices,
                                                                 o.loop_arcs, loop_res.data());
      GPU500_CUDA_CHECK_LAUNCH();
      GPU500_CUDA_CHECK(cudaMemcpyAsync(h_loop, loop_res.data(), sizeof(loop_result), cudaMemcpyDeviceToHost, st[0]));
      GPU500_CUDA_CHECK(cudaStreamSynchronize(st[0]));
      if (h_loop->level != level) {
        trace.push_back({level, 'L', src.count, level_start});
        prev_nf = src.count;
        cur = h_loop->side == 0 ? cur : other;
        level = h_loop->level;
        src = {qbuf[cur].data(), static_cast<index_t>(h_loop->count)};
        if (h_loop->count == 0) break;
        loop_declined = true;
        continue;
      }
    }
    loop_declined = false;
    gen_totals t = count_pass(src, level);
    if (t.nf == 0) break;
    dir = decide(t, dir, prev_nf, unexplored);
    if (dir == 'B' && k == kind::frontier_list) {  // a frontier list holds no unvisited vertices
      src = scan_all;
      k = kind::status_scan;
      t = count_pass(src, level);
    }
    unexplored -= static_cast<double>(t.mf);
    prev_nf = static_cast<index_t>(t.nf);
    const int other = cur ^ 1;
    V* out = qbuf[other].data();
    if (dir == 'T') {
      write_pass(0x0Fu, out);
      if (o.device_loop() && prev_nf <= std::min<index_t>(o.loop_vertices, bfs_policy::loop_block) &&
          static_cast<index_t>(t.mf) <= o.loop_arcs) {
        td_loop_kernel<V><<<1, bfs_policy::loop_block, 0, st[0]>>>(g, depth.data(), parent.data(), out,
                                                                   qbuf[cur].data(), prev_nf, level, o.loop_vertices,
                                                                   o.loop_arcs, loop_res.data());
        GPU500_CUDA_CHECK_LAUNCH();
        GPU500_CUDA_CHECK(
            cudaMemcpyAsync(h_loop, loop_res.data(), sizeof(loop_result), cudaMemcpyDeviceToHost, st[0]));
        GPU500_CUDA_CHECK(cudaStreamSynchronize(st[0]));
        trace.push_back({level, 'L', prev_nf, level_start});
        cur = h_loop->side == 0 ? other : cur;
        level = h_loop->level;
        src = {qbuf[cur].data(), static_cast<index_t>(h_loop->count)};
        k = kind::frontier_list;
        if (h_loop->count == 0) break;
        loop_declined = true;
        continue;
      }
      top_down(out, t, level);
      src = scan_all;
      k = kind::status_scan;
    } else {
      write_pass(0x30u, out, true);
      const index_t nu = static_cast<index_t>(t.cls[4] + t.cls[5]);
      bottom_up(out + t.nf, t, level);
      src.list = out + t.nf;
      src.count = nu;
      k = kind::unvisited_list;
    }
    trace.push_back({level, dir, prev_nf, level_start});
    cur = other;
    ++level;
  }
  GPU500_CUDA_CHECK(cudaStreamSynchronize(st[0]));
  // seconds held each level's start time: turn starts into durations (the last ends now).
  const double end = since();
  for (std::size_t i = 0; i < trace.size(); ++i)
    trace[i].seconds = (i + 1 < trace.size() ? trace[i + 1].seconds : end) - trace[i].seconds;
  // The output a user asked for is in original ids: mapping it is part of the search.
  if (!ids.empty()) {
    const index_t span = static_cast<index_t>(bfs_policy::block) * bfs_policy::map_ilp;
    original_parents_kernel<V><<<graph::cuda::grid_blocks((n + span - 1) / span, 1), bfs_policy::block, 0, st[0]>>>(
        ids, parent.data(), static_cast<V>(root), n, original.data());
    GPU500_CUDA_CHECK_LAUNCH();
    GPU500_CUDA_CHECK(cudaStreamSynchronize(st[0]));
  }
}

template <class V>
engine<V>::engine(csr_view<V> g, bool degree_sorted, options o) : impl_(std::make_unique<impl>()) {
  impl& m = *impl_;
  m.g = g;
  m.sorted = degree_sorted;
  m.o = o;
  m.n = g.num_vertices;
  GPU500_EXPECTS(m.n >= 1, "BFS: empty graph");
  GPU500_EXPECTS(static_cast<std::uint64_t>(m.n) < static_cast<std::uint64_t>(std::numeric_limits<V>::max()),
                 "BFS: the vertex count must be below the largest vertex id (it marks empty cache slots)");
  GPU500_EXPECTS(o.hub_threshold >= 1 && o.priority_degree >= 1, "BFS: hub degrees must be >= 1");
  GPU500_EXPECTS(o.extreme_degree >= bfs_policy::middle_max, "BFS: --extreme-degree must be >= 256");
  GPU500_CUDA_CHECK(cudaMemcpy(&m.arcs, g.offsets + m.n, sizeof(index_t), cudaMemcpyDeviceToHost));
  int dev = 0;
  GPU500_CUDA_CHECK(cudaGetDevice(&dev));
  GPU500_CUDA_CHECK(cudaDeviceGetAttribute(&m.sms, cudaDevAttrMultiProcessorCount, dev));
  m.gen_grid = static_cast<unsigned>(m.sms * bfs_policy::gen_blocks_per_sm);
  m.gen_warps = static_cast<index_t>(m.gen_grid) * bfs_policy::block / 32;
  const auto N = static_cast<std::size_t>(m.n);
  m.depth = device_buffer<std::int32_t>(N);
  m.parent = device_buffer<V>(N);
  m.qbuf[0] = device_buffer<V>(N);
  m.qbuf[1] = device_buffer<V>(N);
  m.counts = device_buffer<index_t>(static_cast<std::size_t>(m.gen_warps) * bfs_policy::slots);
  m.scanned = device_buffer<index_t>(m.counts.size());
  std::size_t bytes = 0;
  GPU500_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, m.counts.data(), m.scanned.data(),
                                                  static_cast<index_t>(m.counts.size())));
  m.scan_temp = device_buffer<unsigned char>(bytes + 256);
  m.tot = device_buffer<gen_totals>(1);
  m.hub_list = device_buffer<V>(static_cast<std::size_t>(cache_slots<V>));
  {
    const index_t cap = std::min<index_t>(m.n, 2 * m.arcs / std::max<index_t>(o.extreme_degree, 1) + 1) + 1;
    m.grid_pref = device_buffer<index_t>(static_cast<std::size_t>(cap));
    std::size_t gbytes = 0;
    GPU500_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, gbytes, m.grid_pref.data(), m.grid_pref.data(), cap));
    m.grid_temp = device_buffer<unsigned char>(gbytes + 256);
  }
  m.loop_res = device_buffer<loop_result>(1);
  m.sum = device_buffer<ull>(1);
  GPU500_CUDA_CHECK(cudaMallocHost(&m.h_tot, sizeof(gen_totals)));
  GPU500_CUDA_CHECK(cudaMallocHost(&m.h_loop, sizeof(loop_result)));
  for (auto& s : m.st) GPU500_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  GPU500_CUDA_CHECK(cudaEventCreateWithFlags(&m.fork, cudaEventDisableTiming));
  for (auto& e : m.join) GPU500_CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
  const index_t with_edges = m.count_at_least(1);
  m.active = degree_sorted ? with_edges : m.n;
  if (o.bitmap()) m.visited = device_buffer<std::uint32_t>(static_cast<std::size_t>((m.active + 31) / 32) + 1);
  m.sorted_deg32 = degree_sorted ? m.count_at_least(bfs_policy::small_max) : -1;
  m.total_hubs = m.count_at_least(o.hub_threshold);
}

template <class V>
engine<V>::~engine() {
  if (!impl_) return;
  impl& m = *impl_;
  for (auto& s : m.st)
    if (s) cudaStreamDestroy(s);
  if (m.fork) cudaEventDestroy(m.fork);
  for (auto& e : m.join)
    if (e) cudaEventDestroy(e);
  if (m.h_tot) cudaFreeHost(m.h_tot);
  if (m.h_loop) cudaFreeHost(m.h_loop);
}

template <class V>
void engine<V>::report_original_ids(graph::id_map<V> ids) {
  impl& m = *impl_;
  GPU500_EXPECTS(ids.empty() || (ids.old2new != nullptr && ids.non_isolated >= 0 && ids.non_isolated <= m.n),
                 "BFS: an id map needs new2old, old2new and 0 <= non_isolated <= n");
  GPU500_EXPECTS(ids.empty() || m.sorted, "BFS: an id map goes with a degree-sorted graph");
  m.ids = ids;
  m.original = ids.empty() ? device_buffer<V>() : device_buffer<V>(static_cast<std::size_t>(m.n));
}

template <class V>
void engine<V>::prepare() {
  // Graph500's clean_pred (untimed): the status array and the parents to "unreached".
  GPU500_CUDA_CHECK(cudaMemsetAsync(impl_->depth.data(), 0xFF, impl_->depth.size() * sizeof(std::int32_t),
                                    impl_->st[0]));
  GPU500_CUDA_CHECK(cudaMemsetAsync(impl_->parent.data(), 0xFF, impl_->parent.size() * sizeof(V), impl_->st[0]));
  GPU500_CUDA_CHECK(cudaStreamSynchronize(impl_->st[0]));
  impl_->prepared = true;
}

template <class V>
void engine<V>::run(index_t root) {
  if (!impl_->prepared) prepare();
  impl_->prepared = false;
  impl_->run(root);
}

template <class V>
const V* engine<V>::parents_device() const {
  return impl_->parent.data();
}
template <class V>
const V* engine<V>::parents_original() const {
  return impl_->ids.empty() ? impl_->parent.data() : impl_->original.data();
}
template <class V>
const std::int32_t* engine<V>::depth_device() const {
  return impl_->depth.data();
}
template <class V>
const std::vector<level_info>& engine<V>::levels() const {
  return impl_->trace;
}
template <class V>
const options& engine<V>::opts() const {
  return impl_->o;
}

template <class V>
index_t engine<V>::traversed_edges() {
  impl& m = *impl_;
  if (m.nedge >= 0) return m.nedge;
  GPU500_CUDA_CHECK(cudaMemset(m.sum.data(), 0, sizeof(ull)));
  reached_arcs_kernel<V><<<graph::cuda::grid_blocks(m.n, bfs_policy::block), bfs_policy::block>>>(
      m.g.offsets, m.depth.data(), m.n, m.sum.data());
  GPU500_CUDA_CHECK_LAUNCH();
  ull h = 0;
  graph::cuda::copy_to_host(&h, m.sum.data(), sizeof h);
  m.nedge = static_cast<index_t>(h / 2);
  return m.nedge;
}

template class engine<std::uint32_t>;
template class engine<std::int64_t>;

}  // namespace gpu500::bfs::cuda
