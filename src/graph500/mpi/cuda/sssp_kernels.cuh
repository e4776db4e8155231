// The device kernels of the CUDA SSSP over MPI ranks (sssp.hpp describes the algorithm), and the
// constants they share with the engine's host steps in sssp.cu: the relaxation of a frontier's
// arcs into per-owner request blocks (warp tiles and hub chunks, row_arcs.cuh), the bucket's
// first frontier taken from the owned rows, the arrivals' bids and winners, the settled rows
// packed for the pull's all-gather, and the pull itself. Internal to sssp.cu (one translation
// unit: the kernels stay in an unnamed namespace).
#pragma once

#include <bit>
#include <cmath>
#include <limits>

#include "common.cuh"
#include "row_arcs.cuh"
#include "sssp.hpp"

namespace gpu500::graph500::mpi::cuda {

namespace {

using request = sssp_engine::request;
using settled_row = sssp_engine::settled_row;
using arcs = sssp_engine::arcs;

/// counters_ entries: the two frontiers' lengths, the bucket's settled rows and their arcs (next
/// to each other: one copy reads both), the long rows' chunks, and the smallest queued distance
/// (float bits; `none` when nothing is queued).
enum counter : int {
  list0 = 0,
  list1 = 1,
  settled_count = 2,
  settled_arcs = 3,
  chunk_count = 4,
  min_bits = 5,
  counter_slots = 6
};
constexpr index_t none = std::numeric_limits<index_t>::max();
constexpr unsigned long long unreached_key = ~0ull;

/// The arcs of row `row` a phase relaxes. Rows are sorted by weight (kernel 1) and float addition
/// is monotone in w, so the arcs with d(u) + w < hi (light: they stay inside the bucket) are a
/// prefix of the row, found by a galloping search from its start (light prefixes are about
/// delta x degree arcs long), and the heavy ones the rest.
struct bucket_arcs {
  const index_t* offsets;
  const float* weights;
  const float* dist;
  float hi;
  int which;  // arcs

  __device__ row_span<float> operator()(index_t row) const {
    const index_t first = offsets[row], n = offsets[row + 1] - first;
    const float du = dist[row];
    if (which == static_cast<int>(arcs::all)) return {first, n, du};
    const float* w = weights + first;
    index_t light = 0;
    if (n > 0 && du + w[0] < hi) {
      index_t good = 0, bad = n, step = 1;  // w[good] is light; w[bad] (or the end) is not
      while (good + step < n) {
        if (du + w[good + step] < hi) {
          good += step;
          step *= 2;
        } else {
          bad = good + step;
          break;
        }
      }
      while (bad - good > 1) {
        const index_t mid = good + (bad - good) / 2;
        if (du + w[mid] < hi) good = mid; else bad = mid;
      }
      light = good + 1;
    }
    if (which == static_cast<int>(arcs::light)) return {first, light, du};
    return {first + light, n - light, du};
  }
};

/// Where a relaxation pass's requests go (passed by value to the kernels).
struct relax_args {
  graph::csr_view<std::int64_t> g;
  index_t block;
  int me;
  const float* dist;
  unsigned* offered;                  // nullptr with one rank
  const std::uint64_t* settled_bits;  // nullptr with one rank
  index_t* cursor;
  request* send;
};

/// One arc (k) of row `row` at distance du: a request to the head's owner unless it cannot lower
/// the head's distance.
__device__ __forceinline__ void relax_arc(const relax_args& a, index_t k, index_t row, float du) {
  const float nd = du + a.g.weights[k];
  const std::int64_t v = a.g.columns[k];
  const int o = owner_of(v, a.block);
  if (o == a.me) {
    if (!(nd < a.dist[v - a.g.first_vertex])) return;
  } else {
    if (a.settled_bits && test_bit(a.settled_bits, v)) return;
    const unsigned bits = __float_as_uint(nd);
    if (bits >= a.offered[v] || bits >= atomicMin(&a.offered[v], bits)) return;
  }
  a.send[aggregated_take(a.cursor, o)] =
      request{static_cast<std::uint32_t>(v - static_cast<std::int64_t>(o) * a.block), static_cast<std::uint32_t>(row),
              nd};
}

/// The arcs of the listed rows' short spans; the long spans become chunks (one search of a row's
/// light cut serves both), relaxed by relax_chunks_kernel after this kernel.
__global__ void relax_tiles_kernel(relax_args a, bucket_arcs span, const index_t* list, const index_t* list_count,
                                   index_t* chunks, index_t* chunk_count) {
  for_tile_arcs(
      list, *list_count, span, [&](index_t arc, index_t row, float du) { relax_arc(a, arc, row, du); }, chunks,
      chunk_count);
}

__global__ void relax_chunks_kernel(relax_args a, const index_t* chunks, const index_t* chunk_counter) {
  for_chunk_arcs(
      chunks, chunk_counter, [&](index_t row) { return a.dist[row]; },
      [&](index_t arc, index_t row, float du) { relax_arc(a, arc, row, du); });
}

/// The smallest distance of a queued row, as float bits, into *out (pre-set to none).
__global__ void min_queued_kernel(const float* dist, const std::uint8_t* queued, index_t rows, index_t* out) {
  unsigned m = ~0u;
  for (index_t l : gpu::grid_stride(rows))
    if (queued[l]) m = min(m, __float_as_uint(dist[l]));
  for (int o = gpu::warp_size / 2; o > 0; o /= 2) m = min(m, __shfl_down_sync(0xffffffffu, m, o));
  if (gpu::lane_id() == 0 && m != ~0u) atomic_min_nonneg(out, static_cast<std::int64_t>(m));
}

/// A row that enters the bucket's frontier list: v[0] += 1 for that list and, the first time in
/// this bucket (mark), v[1] += 1 for the settled list and v[2] += its arcs. Returns whether it is
/// new to the bucket. The caller appends a block at a time.
__device__ __forceinline__ bool enter_bucket(index_t l, std::uint8_t* mark, const index_t* offsets, index_t (&v)[3]) {
  ++v[0];
  if (mark[l]) return false;
  mark[l] = 1;
  ++v[1];
  v[2] += offsets[l + 1] - offsets[l];
  return true;
}

/// Places for what enter_bucket counted: at[0] in the frontier list, at[1] in the settled list
/// (and the settled rows' arcs summed into their counter). Block-wide (block_take).
__device__ __forceinline__ void take_places(const index_t (&v)[3], int list_slot, index_t* counters,
                                            index_t (&at)[3]) {
  block_take<3>({counters + list_slot, counters + settled_count, counters + settled_arcs}, v, at);
}

/// The bucket's first frontier: every queued row below hi. A thread looks at 16 rows at a time,
/// their queued flags read as one 16-byte load (most are clear), so the block-wide appends come
/// once per 4096 rows.
__global__ void take_kernel(const float* dist, std::uint8_t* queued, const index_t* offsets, index_t rows, float hi,
                            index_t* list, int list_slot, index_t* settled, std::uint8_t* mark, index_t* counters) {
  constexpr int per = 16;
  const index_t groups = (rows + per - 1) / per;
  for (index_t base : gpu::block_stride(groups)) {  // block-uniform: take_places
    const index_t first = (base + threadIdx.x) * per;
    unsigned taken = 0, fresh = 0;  // bit i: row first + i enters the frontier / the settled list
    index_t v[3] = {0, 0, 0};
    if (first < rows) {
      std::uint8_t flag[per];
      if (first + per <= rows) {
        const uint4 q = *reinterpret_cast<const uint4*>(queued + first);  // first is a multiple of 16
        memcpy(flag, &q, sizeof q);
      } else {
        for (int i = 0; i < per; ++i) flag[i] = first + i < rows ? queued[first + i] : 0;
      }
      for (int i = 0; i < per; ++i) {
        const index_t l = first + i;
        if (!flag[i] || !(dist[l] < hi)) continue;
        queued[l] = 0;
        taken |= 1u << i;
        if (enter_bucket(l, mark, offsets, v)) fresh |= 1u << i;
      }
    }
    index_t at[3];
    take_places(v, list_slot, counters, at);
    for (int i = 0; i < per; ++i) {
      if ((taken >> i) & 1u) list[at[0]++] = first + i;
      if ((fresh >> i) & 1u) settled[at[1]++] = first + i;
    }
  }
}

/// Apply, pass 1: each arrival bids (its distance bits, its index) for its row; a row whose
/// distance the bids lower is marked.
__global__ void bid_kernel(const request* in, index_t n, unsigned long long* key, std::uint8_t* lowered) {
  for (index_t i : gpu::grid_stride(n)) {
    const index_t l = in[i].local;
    const unsigned long long bid =
        (static_cast<unsigned long long>(__float_as_uint(in[i].dist)) << 32) | static_cast<unsigned long long>(i);
    const unsigned long long old = atomicMin(&key[l], bid);
    if ((bid >> 32) < (old >> 32)) lowered[l] = 1;
  }
}

/// Apply, pass 2: the winning arrival of each lowered row (from rank r: [displs[r], displs[r + 1]))
/// sets its distance and parent; the row joins the next frontier when `append` and it is below
/// hi, else it is queued for a later bucket.
__global__ void win_kernel(const request* in, index_t n, const index_t* displs, int ranks, index_t block,
                           const unsigned long long* key, std::uint8_t* lowered, float* dist, std::int64_t* parent,
                           std::uint8_t* queued, int append, float hi, index_t* next, int next_slot, index_t* settled,
                           std::uint8_t* mark, const index_t* offsets, index_t* counters) {
  for (index_t base : gpu::block_stride(n)) {  // block-uniform: take_places
    const index_t i = base + threadIdx.x;
    index_t l = 0, v[3] = {0, 0, 0};
    if (i < n) {
      l = in[i].local;
      if (lowered[l] && static_cast<std::uint32_t>(key[l]) == static_cast<std::uint32_t>(i)) {
        lowered[l] = 0;
        const float d = in[i].dist;
        dist[l] = d;
        parent[l] =
            static_cast<std::int64_t>(sender_of(displs, ranks, i)) * block + static_cast<std::int64_t>(in[i].row);
        if (append && d < hi) {
          queued[l] = 0;
          enter_bucket(l, mark, offsets, v);
        } else {
          queued[l] = 1;
        }
      }
    }
    index_t at[3];
    take_places(v, next_slot, counters, at);
    if (v[0]) next[at[0]] = l;
    if (v[1]) settled[at[1]] = l;
  }
}

/// The pull's first step: this rank's settled rows of the bucket and their distances.
__global__ void pack_settled_kernel(const index_t* rows, index_t n, const float* dist, settled_row* out) {
  for (index_t i : gpu::grid_stride(n)) {
    const index_t l = rows[i];
    out[i] = settled_row{static_cast<std::uint32_t>(l), dist[l]};
  }
}

/// Every rank's settled rows of the bucket (from rank r: [displs[r], displs[r + 1])) into the
/// bitmap of the bucket's vertices and their distances (float bits, one per vertex of the graph).
__global__ void bucket_scatter_kernel(const settled_row* in, index_t n, const index_t* displs, int ranks,
                                      index_t block, std::uint64_t* bits, unsigned* dist_bits) {
  for (index_t i : gpu::grid_stride(n)) {
    const std::int64_t v = static_cast<std::int64_t>(sender_of(displs, ranks, i)) * block + in[i].local;
    atomicOr(reinterpret_cast<unsigned long long*>(&bits[v >> 6]), 1ull << (v & 63));
    dist_bits[v] = __float_as_uint(in[i].dist);
  }
}

/// What the pull kernel reads and writes (passed by value).
struct pull_args {
  graph::csr_view<std::int64_t> g;
  float* dist;
  std::int64_t* parent;
  unsigned long long* key;
  std::uint8_t* queued;
  const std::uint64_t* bucket_bits;  // the bucket's vertices
  const unsigned* bucket_dist;       // their distances (float bits)
  float lo, hi;
};

/// The pull: every owned row not settled (d >= hi) scans its weight-sorted row for the bucket's
/// vertices u and takes the best d(u) + w, leaving the row once lo + w reaches the best so far
/// (d(u) >= lo and float addition is monotone, so no later arc can win). A lane scans its row's
/// first arcs alone; the warp then finishes the rows still open, 32 arcs a step. A row that is
/// lowered takes the distance and parent and is queued for a later bucket.
__global__ void pull_kernel(pull_args a) {
  constexpr unsigned full_mask = 0xffffffffu;
  constexpr int lane_first = 4;  // arcs a lane scans alone
  const int lane = static_cast<int>(gpu::lane_id());
  const index_t rows = a.g.local_vertices;
  const auto member = [&](std::int64_t u) { return test_bit(a.bucket_bits, u); };
  const auto reach = [&](std::int64_t u, float w) { return __float_as_uint(__uint_as_float(a.bucket_dist[u]) + w); };
  for (index_t b = gpu::global_warp_id() * gpu::warp_size; b < rows;
       b += gpu::grid_warps() * gpu::warp_size) {  // warp-uniform
    const index_t v = b + lane;
    bool open = false;
    index_t k = 0, end = 0;
    unsigned start = ~0u, best = ~0u;  // float bits (non-negative floats order as their bits)
    std::int64_t from = -1;
    if (v < rows) {
      const float dv = a.dist[v];
      if (!(dv < a.hi)) {
        k = a.g.offsets[v];
        end = a.g.offsets[v + 1];
        open = end > k;
        start = best = __float_as_uint(dv);
      }
    }
    for (int i = 0; i < lane_first && open; ++i, ++k) {
      if (k >= end || __float_as_uint(a.lo + a.g.weights[k]) >= best) {
        open = false;
        break;
      }
      const std::int64_t u = a.g.columns[k];
      if (member(u)) {
        const unsigned d = reach(u, a.g.weights[k]);
        if (d < best) {
          best = d;
          from = u;
        }
      }
    }
    if (open && k >= end) open = false;
    for (unsigned pending = __ballot_sync(full_mask, open); pending != 0; pending &= pending - 1) {
      const int src = __ffs(static_cast<int>(pending)) - 1;
      const index_t first = __shfl_sync(full_mask, k, src), last = __shfl_sync(full_mask, end, src);
      unsigned row_best = __shfl_sync(full_mask, best, src);
      std::int64_t row_from = __shfl_sync(full_mask, from, src);
      for (index_t k0 = first; k0 < last; k0 += gpu::warp_size) {
        const index_t x = k0 + lane;
        unsigned d = ~0u;
        std::int64_t u = -1;
        bool stop = false;
        if (x < last) {
          const float w = a.g.weights[x];
          if (__float_as_uint(a.lo + w) >= row_best) {
            stop = true;  // and every later arc
          } else {
            u = a.g.columns[x];
            if (member(u)) d = reach(u, w);
          }
        }
        unsigned long long m = static_cast<unsigned long long>(d) << 32 | static_cast<unsigned>(lane);
        for (int o = gpu::warp_size / 2; o > 0; o /= 2) {
          const unsigned long long y = __shfl_xor_sync(full_mask, m, o);
          m = y < m ? y : m;
        }
        if (static_cast<unsigned>(m >> 32) < row_best) {  // warp-uniform
          row_best = static_cast<unsigned>(m >> 32);
          row_from = __shfl_sync(full_mask, u, static_cast<int>(m & 31u));
        }
        if (__any_sync(full_mask, stop)) break;
      }
      if (lane == src) {
        best = row_best;
        from = row_from;
      }
    }
    if (best < start) {
      a.dist[v] = __uint_as_float(best);
      a.parent[v] = from;
      a.key[v] = static_cast<unsigned long long>(best) << 32 | 0xFFFFFFFFull;  // no arrival won
      a.queued[v] = 1;
    }
  }
}

__global__ void clear_marks_kernel(const index_t* rows, const index_t* count, std::uint8_t* mark) {
  for (index_t i : gpu::grid_stride(*count)) mark[rows[i]] = 0;
}

unsigned grid_for(index_t n) { return gpu::grid_blocks(n, block_threads); }

/// Numbers each rank sends every other after a phase: the requests for it, its frontier's length,
/// and the bucket's settled rows and their arcs so far.
constexpr int payload_width = 4;

}  // namespace

}  // namespace gpu500::graph500::mpi::cuda
