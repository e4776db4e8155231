// Delta-stepping SSSP of the CUDA backend over MPI ranks (see sssp.hpp).
#include "sssp.hpp"

#include <bit>
#include <cmath>
#include <limits>
#include <string>

#include "common.cuh"
#include "gpu500/core/cuda/check.cuh"
#include "gpu500/core/error.hpp"
#include "gpu500/core/timer.hpp"
#include "gpu500/dist/bitmap.hpp"
#include "gpu500/sssp/delta.hpp"
#include "row_arcs.cuh"

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

std::size_t sssp_engine::device_bytes(index_t rows, index_t arcs, index_t n) {
  const auto r = static_cast<std::size_t>(rows), a = static_cast<std::size_t>(arcs), v = static_cast<std::size_t>(n);
  // Per row: distance, parent, key, three flags and three lists; per arc: a request each way;
  // the chunks; per vertex of the graph: the offered distance and three bitmaps' bits.
  return 48 * r + 2 * sizeof(request) * a + 24 * static_cast<std::size_t>(max_chunks(arcs)) + 4 * v + 3 * v / 8 + 64;
}

sssp_engine::sssp_engine(device_exchange& x, const dist::block_partition& part, graph::csr_view<std::int64_t> g,
                         device_sssp_policy pol)
    : x_(x), part_(part), g_(g), pol_(pol) {
  const auto rows = static_cast<std::size_t>(g.local_vertices);
  const int R = x.comm().size();
  const auto limit = static_cast<index_t>(std::numeric_limits<std::uint32_t>::max());
  if (part.block() > limit)
    throw usage_error("the CUDA SSSP over MPI ranks takes at most 2^32 vertices per rank (" +
                      std::to_string(part.block()) + " here): use more ranks");
  owned_arcs_ = static_cast<std::size_t>(read_one(g.offsets + g.local_vertices));
  if (static_cast<index_t>(owned_arcs_) >= limit)
    throw usage_error("the CUDA SSSP over MPI ranks takes fewer than 2^32 arcs per rank (" +
                      std::to_string(owned_arcs_) + " here): use more ranks");
  resident_blocks_ = gpu::resident_blocks(block_threads);
  dist_ = gpu::device_buffer<float>(rows);
  parent_ = gpu::device_buffer<std::int64_t>(rows);
  key_ = gpu::device_buffer<unsigned long long>(rows);
  lowered_ = gpu::device_buffer<std::uint8_t>(rows);
  queued_ = gpu::device_buffer<std::uint8_t>(rows);
  settled_mark_ = gpu::device_buffer<std::uint8_t>(rows);
  lists_[0] = gpu::device_buffer<index_t>(rows);
  lists_[1] = gpu::device_buffer<index_t>(rows);
  settled_ = gpu::device_buffer<index_t>(rows);
  const auto n = static_cast<std::size_t>(part.num_vertices());
  if (R > 1 || pol.pull_share <= 1) offered_ = gpu::device_buffer<unsigned>(n);
  if (pol.pull_share <= 1) bucket_bits_ = gpu::device_buffer<std::uint64_t>(static_cast<std::size_t>(dist::bitmap_words(part.num_vertices())));
  if (R > 1) {
    slice_ = gpu::device_buffer<std::uint64_t>(static_cast<std::size_t>(dist::bitmap_slice_words(part, x.comm().rank())));
    settled_bits_ = gpu::device_buffer<std::uint64_t>(static_cast<std::size_t>(dist::bitmap_words(part.num_vertices())));
  }
  counters_ = gpu::device_buffer<index_t>(counter_slots);
  host_counters_ = gpu::pinned_buffer<index_t>(static_cast<std::size_t>(R) + 3);
  cursor_ = gpu::device_buffer<index_t>(static_cast<std::size_t>(R));
  seg_start_ = gpu::device_buffer<index_t>(static_cast<std::size_t>(R));
  displs_ = gpu::device_buffer<index_t>(static_cast<std::size_t>(R) + 1);
  host_displs_ = gpu::pinned_buffer<index_t>(static_cast<std::size_t>(R) + 1);
  chunks_ = gpu::device_buffer<index_t>(3 * static_cast<std::size_t>(max_chunks(static_cast<index_t>(owned_arcs_))));
  // The send buffer holds one block per owner, as long as the arcs whose heads it owns: a phase
  // relaxes each listed row once, so a block never overflows.
  host_seg_start_ = owner_block_starts(g, part.block(), seg_start_);
  host_counts_.assign(static_cast<std::size_t>(R), 0);
  recv_counts_.assign(static_cast<std::size_t>(R), 0);
  payload_.assign(static_cast<std::size_t>(payload_width * R), 0);
  recv_payload_.assign(static_cast<std::size_t>(payload_width * R), 0);
  bucket_rows_.assign(static_cast<std::size_t>(R), 0);
  total_arcs_ = x.comm().allreduce(static_cast<index_t>(owned_arcs_), dist::reduce_op::sum);
  reset();
}

void sssp_engine::prepare() {
  // The exchange buffers at their largest (one request per owned arc out, one per arc into the
  // owned rows in), once, here and not in a timed region (kernel 1 or a search).
  send_.reserve(owned_arcs_ + 1);
  recv_.reserve(owned_arcs_ + 1);
  reset();
}

void sssp_engine::reset() {
  const index_t rows = g_.local_vertices;
  fill<float>(dist_.data(), rows, std::numeric_limits<float>::infinity());
  if (rows > 0) {
    gpu::fill_bytes_async(parent_.data(), 0xFF, parent_.bytes(), nullptr);  // -1
    gpu::fill_bytes_async(key_.data(), 0xFF, key_.bytes(), nullptr);        // unreached_key
    lowered_.zero_async(nullptr);
    queued_.zero_async(nullptr);
    settled_mark_.zero_async(nullptr);
  }
  if (!offered_.empty()) gpu::fill_bytes_async(offered_.data(), 0xFF, offered_.bytes(), nullptr);  // above +inf
  if (!slice_.empty()) slice_.zero_async(nullptr);
  if (!settled_bits_.empty()) settled_bits_.zero_async(nullptr);
  if (!bucket_bits_.empty()) bucket_bits_.zero_async(nullptr);
  counters_.zero_async(nullptr);
  gpu::synchronize();
}

void sssp_engine::gather_settled() {
  gpu::synchronize();  // kernels that wrote the slice are compute: the communication clock starts after them
  stopwatch t;
  x_.allgather_bitmap(part_, slice_.data(), settled_bits_.data());
  comm_seconds_ += t.seconds();
}

index_t sssp_engine::relax(const index_t* list, const index_t* list_count, arcs which, float hi, int next) {
  const dist::communicator& c = x_.comm();
  const int R = c.size();
  const auto Rs = static_cast<std::size_t>(R);
  gpu::copy_bytes_async(cursor_.data(), seg_start_.data(), seg_start_.bytes(), nullptr);
  gpu::fill_bytes_async(counters_.data() + chunk_count, 0, sizeof(index_t), nullptr);
  if (next >= 0) gpu::fill_bytes_async(counters_.data() + next, 0, sizeof(index_t), nullptr);
  const relax_args a{g_,           part_.block(),   c.rank(),
                     dist_.data(), offered_.data(), settled_bits_.empty() ? nullptr : settled_bits_.data(),
                     cursor_.data(), send_.data()};
  const bucket_arcs span{g_.offsets, g_.weights, dist_.data(), hi, static_cast<int>(which)};
  const unsigned grid = resident_blocks_;
  gpu::launch(relax_tiles_kernel, grid, block_threads, 0, nullptr, a, span, list, list_count, chunks_.data(),
              counters_.data() + chunk_count);
  gpu::launch(relax_chunks_kernel, grid, block_threads, 0, nullptr, a, static_cast<const index_t*>(chunks_.data()),
              static_cast<const index_t*>(counters_.data() + chunk_count));
  gpu::copy_bytes_async(host_counters_.data(), cursor_.data(), cursor_.bytes(), nullptr);
  gpu::copy_bytes_async(host_counters_.data() + R, list_count, sizeof(index_t), nullptr);
  gpu::copy_bytes_async(host_counters_.data() + R + 1, counters_.data() + settled_count, 2 * sizeof(index_t), nullptr);
  gpu::synchronize();
  const index_t* h = host_counters_.data();
  for (std::size_t r = 0; r < Rs; ++r) {
    host_counts_[r] = h[r] - host_seg_start_[r];
    index_t* p = payload_.data() + static_cast<std::size_t>(payload_width) * r;
    p[0] = host_counts_[r];
    p[1] = h[R];      // listed
    p[2] = h[R + 1];  // the bucket's settled rows so far
    p[3] = h[R + 2];  // and their arcs
  }
  stopwatch t;
  c.exchange_counts(payload_.data(), recv_payload_.data(), payload_width);
  index_t global = 0, total = 0;
  bucket_arcs_ = 0;
  for (std::size_t r = 0; r < Rs; ++r) {
    const index_t* p = recv_payload_.data() + static_cast<std::size_t>(payload_width) * r;
    recv_counts_[r] = p[0];
    total += recv_counts_[r];
    global += p[1];
    bucket_rows_[r] = p[2];
    bucket_arcs_ += p[3];
  }
  if (global == 0) {
    comm_seconds_ += t.seconds();
    return 0;
  }
  if (total >= static_cast<index_t>(std::numeric_limits<std::uint32_t>::max()))
    throw usage_error("the CUDA SSSP over MPI ranks received 2^32 requests or more in one phase: use more ranks");
  recv_.reserve(static_cast<std::size_t>(total));
  x_.alltoallv_bytes(send_.data(), host_counts_.data(), recv_.data(), recv_counts_.data(), sizeof(request),
                     host_seg_start_.data());
  comm_seconds_ += t.seconds();
  level_bytes_.push_back(bytes_to_others(host_counts_, c.rank(), sizeof(request)));
  if (total > 0) {
    index_t* d = host_displs_.data();
    d[0] = 0;
    for (std::size_t r = 0; r < Rs; ++r) d[r + 1] = d[r] + recv_counts_[r];
    gpu::copy_bytes_async(displs_.data(), d, displs_.bytes(), nullptr);
    gpu::launch(bid_kernel, grid_for(total), block_threads, 0, nullptr, static_cast<const request*>(recv_.data()), total,
                key_.data(), lowered_.data());
    gpu::launch(win_kernel, grid_for(total), block_threads, 0, nullptr, static_cast<const request*>(recv_.data()), total,
                static_cast<const index_t*>(displs_.data()), R, part_.block(),
                static_cast<const unsigned long long*>(key_.data()), lowered_.data(), dist_.data(), parent_.data(),
                queued_.data(), next >= 0 ? 1 : 0, hi, next >= 0 ? lists_[next].data() : nullptr, next,
                settled_.data(), settled_mark_.data(), static_cast<const index_t*>(g_.offsets), counters_.data());
  }
  return global;
}

index_t sssp_engine::pull(float lo, float hi) {
  const dist::communicator& c = x_.comm();
  const int R = c.size();
  const auto me = static_cast<std::size_t>(c.rank());
  index_t total = 0;
  for (index_t k : bucket_rows_) total += k;
  const index_t mine = bucket_rows_[me];
  // The request buffers are free during a pull and hold a settled row each (8 bytes < 12) for
  // every owned arc; recv_ grows if the bucket is larger than this rank's arcs.
  auto words = [](index_t k) { return static_cast<std::size_t>((k * sizeof(settled_row) + sizeof(request) - 1) / sizeof(request)) + 1; };
  auto* out = reinterpret_cast<settled_row*>(send_.reserve(words(mine)));
  auto* in = reinterpret_cast<settled_row*>(recv_.reserve(words(total)));
  if (mine > 0)
    gpu::launch(pack_settled_kernel, grid_for(mine), block_threads, 0, nullptr, static_cast<const index_t*>(settled_.data()),
                mine, static_cast<const float*>(dist_.data()), out);
  {
    gpu::synchronize();  // the packing is compute
    stopwatch t;
    x_.allgatherv_bytes(out, in, bucket_rows_.data(), sizeof(settled_row));
    comm_seconds_ += t.seconds();
  }
  level_bytes_.push_back(mine * static_cast<index_t>(sizeof(settled_row)) * (R - 1));
  index_t* d = host_displs_.data();
  d[0] = 0;
  for (std::size_t r = 0; r < bucket_rows_.size(); ++r) d[r + 1] = d[r] + bucket_rows_[r];
  gpu::copy_bytes_async(displs_.data(), d, displs_.bytes(), nullptr);
  if (total > 0)
    gpu::launch(bucket_scatter_kernel, grid_for(total), block_threads, 0, nullptr, static_cast<const settled_row*>(in),
                total, static_cast<const index_t*>(displs_.data()), R, part_.block(), bucket_bits_.data(),
                offered_.data());
  if (g_.local_vertices > 0)
    gpu::launch(pull_kernel, resident_blocks_, block_threads, 0, nullptr,
                pull_args{g_, dist_.data(), parent_.data(), key_.data(), queued_.data(), bucket_bits_.data(),
                          offered_.data(), lo, hi});
  bucket_bits_.zero_async(nullptr);
  gpu::synchronize();  // the trace times the pull's kernels in its own phase
  return total;
}

void sssp_engine::run(index_t root) {
  const dist::communicator& c = x_.comm();
  levels_.clear();
  level_bytes_.clear();
  settled_since_gather_ = 0;
  const index_t rows = g_.local_vertices;
  if (part_.owner(root) == c.rank()) {
    const index_t l = root - g_.first_vertex;
    write_one<float>(dist_.data() + l, 0.f);
    write_one<unsigned long long>(key_.data() + l, unreached_key >> 32);  // distance 0, no arrival
    write_one<std::int64_t>(parent_.data() + l, root);
    write_one<std::uint8_t>(queued_.data() + l, 1);
  }
  const bool split = !pol_.no_light_heavy;
  const bool gathers = !settled_bits_.empty();
  float delta = pol_.delta;
  int peaked = 0;
  int phase = 0, cur = 0;
  auto record = [&](const char* what, index_t global, stopwatch& sw) {
    level_record rec;
    rec.level = phase++;
    rec.direction = what;
    rec.frontier = global;
    rec.comm_seconds = comm_seconds_;
    rec.compute_seconds = sw.seconds() - comm_seconds_;
    levels_.push_back(std::move(rec));
    sw.restart();
    comm_seconds_ = 0;
  };
  for (;;) {
    stopwatch sw;
    comm_seconds_ = 0;
    // The bucket: from the smallest queued distance on any rank, delta wide.
    gpu::copy_bytes_async(counters_.data() + min_bits, &none, sizeof(index_t), nullptr);
    if (rows > 0)
      gpu::launch(min_queued_kernel, resident_blocks_, block_threads, 0, nullptr, dist_.data(), queued_.data(), rows,
                  counters_.data() + min_bits);
    index_t smallest = read_one(counters_.data() + min_bits);
    {
      stopwatch t;
      smallest = c.allreduce(smallest, dist::reduce_op::min);
      comm_seconds_ += t.seconds();
    }
    if (smallest == none) break;
    const float lo = std::bit_cast<float>(static_cast<std::uint32_t>(smallest));
    float hi = lo + delta;
    if (!(hi > lo)) hi = std::nextafter(lo, std::numeric_limits<float>::infinity());
    gpu::fill_bytes_async(counters_.data() + cur, 0, sizeof(index_t), nullptr);
    gpu::fill_bytes_async(counters_.data() + settled_count, 0, sizeof(index_t), nullptr);
    gpu::fill_bytes_async(counters_.data() + settled_arcs, 0, sizeof(index_t), nullptr);
    if (rows > 0)
      gpu::launch(take_kernel, resident_blocks_, block_threads, 0, nullptr, static_cast<const float*>(dist_.data()),
                  queued_.data(), static_cast<const index_t*>(g_.offsets), rows, hi, lists_[cur].data(), cur,
                  settled_.data(), settled_mark_.data(), counters_.data());
    // Light phases until every rank's frontier is empty.
    index_t bucket_rows = 0;
    for (;;) {
      const index_t global = relax(lists_[cur].data(), counters_.data() + cur, split ? arcs::light : arcs::all, hi,
                                   cur ^ 1);
      if (global == 0) break;
      bucket_rows += global;
      record(split ? "light" : "all", global, sw);
      cur ^= 1;
    }
    // The bucket's settled rows join the bitmap; it is gathered once enough rows are new to it
    // to pay for its n/8 bytes a rank.
    if (gathers) {
      gpu::launch(mark_kernel, resident_blocks_, block_threads, 0, nullptr, static_cast<const index_t*>(settled_.data()),
                  static_cast<const index_t*>(counters_.data() + settled_count), index_t{0}, slice_.data());
      settled_since_gather_ += bucket_rows;
      if (settled_since_gather_ * 64 >= part_.num_vertices()) {
        gather_settled();
        settled_since_gather_ = 0;
      }
    }
    // The heavy arcs: pulled when the bucket's rows hold enough of the graph's arcs (the
    // light phases' last exchange told every rank bucket_rows_ and bucket_arcs_), else pushed.
    if (split && !bucket_bits_.empty() && bucket_arcs_ > 0 &&
        static_cast<double>(bucket_arcs_) >= pol_.pull_share * static_cast<double>(total_arcs_)) {
      record("pull", pull(lo, hi), sw);
    } else if (split) {
      const index_t global = relax(settled_.data(), counters_.data() + settled_count, arcs::heavy, hi, -1);
      if (global > 0) record("heavy", global, sw);
    }
    gpu::launch(clear_marks_kernel, resident_blocks_, block_threads, 0, nullptr,
                static_cast<const index_t*>(settled_.data()), static_cast<const index_t*>(counters_.data() + settled_count),
                settled_mark_.data());
    // The sparse tail: after the busiest bucket, a bucket of few rows widens the next.
    if (pol_.delta_max > pol_.delta)
      gpu500::sssp::widen_in_sparse_tail(delta, pol_.delta_max, bucket_rows, pol_.grow_below, peaked);
  }
  gpu::synchronize();
  // The trace's bytes summed over the ranks: one reduction per search (every rank ran the same phases).
  if (!level_bytes_.empty()) c.allreduce(level_bytes_.data(), level_bytes_.size(), dist::reduce_op::sum);
  for (std::size_t i = 0; i < levels_.size() && i < level_bytes_.size(); ++i) levels_[i].bytes = level_bytes_[i];
}

index_t sssp_engine::traversed_edges() {
  gpu::device_buffer<index_t> sum;
  return reached_edges(x_.comm(), g_, parent_.data(), sum);
}

}  // namespace gpu500::graph500::mpi::cuda
