// Direction-optimising BFS of the CUDA backend over MPI ranks (see bfs.hpp).
#include "bfs.hpp"

#include <algorithm>
#include <bit>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

#include "common.cuh"
#include "degree_order.hpp"
#include "row_arcs.cuh"
#include "gpu500/core/cuda/check.cuh"
#include "gpu500/core/device.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/core/timer.hpp"
#include "gpu500/dist/bitmap.hpp"

namespace gpu500::graph500::mpi::cuda {

namespace {

/// Bottom-up: arcs a thread tests in its own row before the row goes to the warp kernel, and the
/// arcs it loads at once.
constexpr index_t probe_arcs = 16;
constexpr int probe_unroll = 4;

/// A top-down level pulls from the frontier's hubs when their entries here, times this, exceed
/// the owned rows (a walked entry costs a random access and an atomic, a pulled row a few
/// sequential bytes).
constexpr index_t pull_ratio = 4;

/// counters_ entries (zeroed at the start of every level); the hub words follow them.
enum counter : int { found_rows, found_arcs, long_count, chunk_count, hub_chunk_count, counter_slots };

constexpr unsigned full_mask = 0xffffffffu;

/// The column type of a csr_view.
template <class View>
using column_of = std::remove_cvref_t<decltype(*std::declval<View>().columns)>;

/// A pair: the child's index on its owner (high half) and the parent's row here (low half).
__device__ __forceinline__ std::uint64_t make_pair(index_t child_local, index_t parent_row) {
  return (static_cast<std::uint64_t>(child_local) << 32) | static_cast<std::uint64_t>(parent_row);
}

/// Top-down, for one arc of frontier row `row`: writes its pair into the block of the child's
/// owner, unless the child is known to be visited (an owned child: its bit in `visited`, the owned
/// rows' bitmap, which stays in the L2 cache where the parents would not, or in `found`, the rows
/// the frontier's hubs claimed this level) or this rank has offered it already. `seen`
/// holds both: a bit set by this pass means this rank sends the child this level and its owner
/// claims it, so once set a bit means "visited by the end of this level" on every rank.
template <class V>
__device__ __forceinline__ void offer_arc(const graph::csr_view<V>& g, index_t arc, index_t row, index_t block,
                                          int me, const std::uint64_t* visited, const std::uint64_t* found,
                                          std::uint64_t* seen, index_t* cursor, std::uint64_t* send) {
  const auto v = static_cast<std::int64_t>(g.columns[arc]);
  const int o = owner_of(v, block);
  if (o == me && (test_bit(visited, v - g.first_vertex) || test_bit(found, v - g.first_vertex))) return;
  const std::uint64_t bit = std::uint64_t{1} << (v & 63);
  if (seen[v >> 6] & bit) return;  // a stale 0 only costs the atomic below
  if (atomicOr(reinterpret_cast<unsigned long long*>(&seen[v >> 6]), bit) & bit) return;
  send[aggregated_take(cursor, o)] = make_pair(v - static_cast<std::int64_t>(o) * block, row);
}

/// The top-down span of a row: every arc, but none of a hub's (the hubs' lists claim those).
struct rows_but_hubs {
  const index_t* offsets;
  index_t hub_degree;  // rows of at least this many arcs are hubs
  __device__ row_span<int> operator()(index_t row) const {
    const index_t d = offsets[row + 1] - offsets[row];
    return {offsets[row], d >= hub_degree ? 0 : d, 0};
  }
};

/// Top-down over the frontier rows of at most tile_max_degree arcs, 32 rows to a warp
/// (row_arcs.cuh).
template <class V>
__global__ void expand_tiles_kernel(graph::csr_view<V> g, index_t hub_degree, const index_t* queue, index_t frontier,
                                    index_t block, int me, const std::uint64_t* visited, const std::uint64_t* found,
                                    std::uint64_t* seen, index_t* cursor, std::uint64_t* send) {
  for_tile_arcs(queue, frontier, rows_but_hubs{g.offsets, hub_degree}, [&](index_t arc, index_t row, int) {
    offer_arc(g, arc, row, block, me, visited, found, seen, cursor, send);
  });
}

/// Top-down over the long rows' chunks (one warp each; their number is read on the device).
template <class V>
__global__ void expand_chunks_kernel(graph::csr_view<V> g, const index_t* chunks, const index_t* counters,
                                     index_t block, int me, const std::uint64_t* visited, const std::uint64_t* found,
                                     std::uint64_t* seen, index_t* cursor, std::uint64_t* send) {
  for_chunk_arcs(
      chunks, counters + chunk_count, [](index_t) { return 0; },
      [&](index_t arc, index_t row, int) { offer_arc(g, arc, row, block, me, visited, found, seen, cursor, send); });
}

/// Arrived pairs (from rank r: [displs[r], displs[r + 1])): the first to claim an unvisited child
/// (not in `visited`) sets its bit in the next frontier's slice with an atomic or, which decides
/// the claim; the claimer sets the parent and queues the child. Both bitmaps stay in the L2 cache,
/// so a pair whose child is taken costs no access to the parents.
__global__ void claim_kernel(graph::csr_view<std::int64_t> g, const std::uint64_t* pairs, index_t n,
                             const index_t* displs, int ranks, index_t block, const std::uint64_t* visited,
                             std::int64_t* parent, index_t* next, std::uint64_t* next_slice, index_t* counters) {
  for (index_t base : gpu::block_stride(n)) {  // block-uniform: block_take below
    const index_t i = base + threadIdx.x;
    index_t l = 0, v[2] = {0, 0};
    if (i < n) {
      const std::uint64_t p = pairs[i];
      l = static_cast<index_t>(p >> 32);
      const std::uint64_t bit = std::uint64_t{1} << (l & 63);
      auto* word = reinterpret_cast<unsigned long long*>(&next_slice[l >> 6]);
      if (!((visited[l >> 6] | *word) & bit) && !(atomicOr(word, bit) & bit)) {
        parent[l] = static_cast<std::int64_t>(sender_of(displs, ranks, i)) * block +
                    static_cast<std::int64_t>(p & 0xffffffffu);
        v[0] = 1, v[1] = g.offsets[l + 1] - g.offsets[l];
      }
    }
    index_t at[2];
    block_take<2>({counters + found_rows, counters + found_arcs}, v, at);
    if (v[0]) next[at[0]] = l;
  }
}

/// The hub words (a bit per hub, `words` words, written as 32-bit halves: a warp's ballot each):
/// the bits of this rank's hubs (indices [first_mine, first_mine + mine)) whose rows are in the
/// frontier slice; 0 elsewhere. A thread per hub index.
__global__ void frontier_hubs_kernel(const std::uint64_t* slice, const std::int64_t* ids, index_t first_mine,
                                     index_t mine, index_t first_vertex, index_t words, std::uint32_t* out) {
  for (index_t j : gpu::grid_stride(64 * words)) {  // warp-uniform: 64 * words is a multiple of 32
    const bool in = j >= first_mine && j < first_mine + mine && test_bit(slice, ids[j] - first_vertex);
    const unsigned half = __ballot_sync(full_mask, in);
    if (gpu::lane_id() == 0) out[j / 32] = half;  // little-endian: bits [32h, 32h + 32) of the words
  }
}

/// The lists of the hubs whose bits are set, cut into (hub, first entry, end entry) chunks of
/// hub_chunk_entries.
__global__ void hub_chunks_kernel(const std::uint64_t* hub_words, const index_t* offsets, index_t hubs,
                                  index_t* chunks, index_t* chunk_count) {
  for (index_t j : gpu::grid_stride(hubs))
    if (test_bit(hub_words, j) && offsets[j + 1] > offsets[j])
      append_chunks(j, offsets[j], offsets[j + 1] - offsets[j], chunks, chunk_count, hub_chunk_entries);
}

/// Every listed row of the chunks' hubs (a warp per chunk) not yet visited is claimed, with the
/// hub as its parent, as claim_kernel claims an arrival.
__global__ void claim_from_hubs_kernel(const std::uint32_t* rows, const std::int64_t* ids, const index_t* chunks,
                                       const index_t* offsets, const std::uint64_t* visited, std::int64_t* parent,
                                       index_t* next, std::uint64_t* next_slice, index_t* counters) {
  for_chunk_arcs(
      chunks, counters + hub_chunk_count, [&](index_t j) { return ids[j]; },
      [&](index_t entry, index_t, std::int64_t hub) {
        const index_t l = rows[entry];
        const std::uint64_t bit = std::uint64_t{1} << (l & 63);
        auto* word = reinterpret_cast<unsigned long long*>(&next_slice[l >> 6]);
        if (!((visited[l >> 6] | *word) & bit) && !(atomicOr(word, bit) & bit)) {
          parent[l] = hub;
          next[aggregated_take(counters, found_rows)] = l;
          aggregated_add(counters + found_arcs, offsets[l + 1] - offsets[l]);
        }
      });
}

/// Pull: every unvisited owned row looks through its hubs (descending degree) for the first whose
/// bit is set (the words in shared memory) and takes it as its parent; appends per block, the next
/// frontier's bits per word (warp_mark_rows), as scan_rows_kernel.
__global__ void pull_from_hubs_kernel(const std::uint32_t* row_starts, const std::uint16_t* row_hubs, index_t rows,
                                      const std::uint64_t* hub_words, index_t words, const std::int64_t* ids,
                                      const index_t* offsets, const std::uint64_t* visited, std::int64_t* parent,
                                      index_t* next, std::uint64_t* next_slice, index_t* counters) {
  extern __shared__ std::uint64_t frontier_hubs[];
  for (index_t w = threadIdx.x; w < words; w += blockDim.x) frontier_hubs[w] = hub_words[w];
  __syncthreads();
  for (index_t base : gpu::block_stride(rows)) {  // block-uniform: block_take below
    const index_t l = base + threadIdx.x;
    index_t v[2] = {0, 0};
    std::int64_t found = -1;
    if (l < rows && !test_bit(visited, l)) {
      const std::uint32_t end = row_starts[l + 1];
      for (std::uint32_t k = row_starts[l]; k < end; ++k) {
        const unsigned j = row_hubs[k];
        if ((frontier_hubs[j >> 6] >> (j & 63)) & 1u) {
          found = ids[j];
          break;
        }
      }
      if (found >= 0) v[0] = 1, v[1] = offsets[l + 1] - offsets[l];
    }
    index_t at[2];
    block_take<2>({counters + found_rows, counters + found_arcs}, v, at);
    warp_mark_rows(next_slice, l, v[0] != 0);
    if (v[0]) {
      parent[l] = found;
      next[at[0]] = l;
    }
  }
}

__global__ void or_kernel(const std::uint64_t* from, index_t words, std::uint64_t* into) {
  for (index_t w : gpu::grid_stride(words)) into[w] |= from[w];
}

/// Bottom-up, one thread per row: its first probe_arcs arcs, probe_unroll loads at once; the first
/// in the frontier is the parent. Rows with no hit there go to `long_rows` when they have more
/// arcs, else to `still` (the next level's list). The rows are the unvisited ones among the first
/// *row_count of `rows`, or, without a list (rows null), among every owned row with arcs. The
/// appends are per block (block_take); a found row's bit is set in the next frontier's slice (one
/// atomic per word where the rows are consecutive, as without a list).
template <class V>
__global__ void scan_rows_kernel(graph::csr_view<V> g, const std::uint64_t* bitmap, const index_t* rows,
                                 const index_t* row_count, const std::uint64_t* visited, std::int64_t* parent,
                                 index_t* next,
                                 std::uint64_t* next_slice, index_t* counters, index_t* long_rows, index_t* still,
                                 index_t* still_count) {
  const index_t n = rows ? *row_count : g.local_vertices;
  for (index_t base : gpu::block_stride(n)) {  // block-uniform
    const index_t i = base + threadIdx.x;
    index_t l = 0, v[4] = {0, 0, 0, 0};  // found, its arcs, long, still
    std::int64_t found = -1;
    if (i < n) {
      l = rows ? rows[i] : i;
      const index_t begin = g.offsets[l], end = g.offsets[l + 1];
      if (begin < end && !test_bit(visited, l)) {  // a listed row may have been claimed top-down since
        const index_t stop = begin + probe_arcs < end ? begin + probe_arcs : end;
        for (index_t k = begin; k < stop && found < 0; k += probe_unroll) {
          std::int64_t c[probe_unroll];
#pragma unroll
          for (int j = 0; j < probe_unroll; ++j)
            c[j] = k + j < stop ? static_cast<std::int64_t>(g.columns[k + j]) : -1;
#pragma unroll
          for (int j = probe_unroll - 1; j >= 0; --j)
            if (c[j] >= 0 && test_bit(bitmap, c[j])) found = c[j];  // the first hit of the step wins
        }
        if (found >= 0) v[0] = 1, v[1] = end - begin;
        else if (stop < end) v[2] = 1;
        else v[3] = 1;
      }
    }
    index_t at[4];
    block_take<4>({counters + found_rows, counters + found_arcs, counters + long_count, still_count}, v, at);
    warp_mark_rows(next_slice, l, v[0] != 0);
    if (v[0]) {
      parent[l] = found;
      next[at[0]] = l;
    } else if (v[2]) {
      long_rows[at[2]] = l;
    } else if (v[3]) {
      still[at[3]] = l;
    }
  }
}

/// Bottom-up for the rows scan_rows_kernel left: one warp per row from its arc probe_arcs on, 32
/// arcs at a time (a ballot takes the first hit).
template <class V>
__global__ void scan_long_rows_kernel(graph::csr_view<V> g, const std::uint64_t* bitmap,
                                      const index_t* long_rows, std::int64_t* parent, index_t* next,
                                      std::uint64_t* next_slice, index_t* counters, index_t* still,
                                      index_t* still_count) {
  const index_t n = counters[long_count];  // not changed by this kernel
  const unsigned lane = gpu::lane_id();
  for (index_t w : gpu::warp_stride(n)) {  // warp-uniform
    const index_t l = long_rows[w], begin = g.offsets[l], end = g.offsets[l + 1];
    std::int64_t found = -1;
    for (index_t base = begin + probe_arcs; base < end; base += gpu::warp_size) {
      const index_t k = base + lane;
      const std::int64_t c = k < end ? static_cast<std::int64_t>(g.columns[k]) : -1;
      const unsigned ballot = __ballot_sync(full_mask, c >= 0 && test_bit(bitmap, c));
      if (ballot) {
        found = __shfl_sync(full_mask, c, __ffs(static_cast<int>(ballot)) - 1);
        break;
      }
    }
    if (lane == 0) {
      if (found >= 0) {
        parent[l] = found;
        next[atomic_add(&counters[found_rows], 1)] = l;
        atomic_add(&counters[found_arcs], end - begin);
        atomicOr(reinterpret_cast<unsigned long long*>(&next_slice[l >> 6]), 1ull << (l & 63));
      } else {
        still[atomic_add(still_count, 1)] = l;
      }
    }
  }
}

}  // namespace

std::size_t bfs_engine::device_bytes(index_t rows, index_t arcs, index_t n, double hub_arc_share) {
  const auto r = static_cast<std::size_t>(rows), a = static_cast<std::size_t>(arcs);
  // the gathered frontier and seen_ (n bits each); the owned rows' frontier, next frontier and
  // visited bits
  const std::size_t bitmaps = (2 * static_cast<std::size_t>(dist::bitmap_words(n)) + 3 * (r / 64 + 1)) *
                              sizeof(std::uint64_t);
  const std::size_t column = narrow_columns_fit(n) ? sizeof(std::uint32_t) : sizeof(std::int64_t);
  // parents, two queues, two unvisited lists and the long rows (8 bytes per row each); the
  // degree-ordered columns; the pairs sent and received (8 bytes, at most one per arc each way);
  // the chunks (24 bytes per chunk).
  return 6 * 8 * r + column * a + 2 * 8 * a + 24 * static_cast<std::size_t>(max_chunks(arcs)) + bitmaps +
         hub_delegates_bytes(rows, arcs, hub_arc_share);
}

std::size_t bfs_engine::construction_bytes(index_t rows, index_t arcs, index_t n, double hub_arc_share) {
  return std::max(degree_order_bytes(arcs, n, narrow_columns_fit(n) ? sizeof(std::uint32_t) : sizeof(std::int64_t)),
                  hub_delegates_construction_bytes(rows, arcs, hub_arc_share));
}

bfs_engine::bfs_engine(dist::device_exchange& x, const dist::block_partition& part, graph::csr_view<std::int64_t> g,
                       bfs::direction_rule pol, bool wide_columns, double hub_arc_share)
    : x_(x), part_(part), g_(g), pol_(pol), steps_(env_flag("GPU500_TRACE_STEPS")) {
  if (part.block() > static_cast<index_t>(std::numeric_limits<std::uint32_t>::max()))
    throw usage_error("the CUDA BFS over MPI ranks takes at most 2^32 vertices per rank (" +
                      std::to_string(part.block()) + " here): use more ranks");
  const auto rows = static_cast<std::size_t>(g.local_vertices);
  const int R = x.comm().size();
  resident_blocks_ = gpu::resident_blocks(block_threads);
  owned_arcs_ = static_cast<std::size_t>(read_one(g.offsets + g.local_vertices));
  // The rows the searches walk: degree-ordered, 32-bit columns where every id fits.
  narrow_ = !wide_columns && narrow_columns_fit(g.num_vertices);
  if (narrow_) {
    narrow_columns_ = degree_ordered_columns<std::uint32_t>(x, part, g);
    narrow_view_ = {g.num_vertices, g.first_vertex, g.local_vertices, g.offsets, narrow_columns_.data(), nullptr};
  } else {
    wide_columns_ = degree_ordered_columns<std::int64_t>(x, part, g);
    wide_view_ = {g.num_vertices, g.first_vertex, g.local_vertices, g.offsets, wide_columns_.data(), nullptr};
  }
  with_rows([&](auto view) { hubs_ = make_hub_delegates(x.comm(), view, hub_arc_share); });
  hub_frontier_ = gpu::device_buffer<std::uint64_t>(static_cast<std::size_t>(hubs_.words()));
  hub_chunks_ =
      gpu::device_buffer<index_t>(3 * static_cast<std::size_t>(hubs_.entries / hub_chunk_entries + hubs_.count + 1));
  parent_ = gpu::device_buffer<std::int64_t>(rows);
  queue_ = gpu::device_buffer<index_t>(rows);
  next_ = gpu::device_buffer<index_t>(rows);
  lists_[0] = gpu::device_buffer<index_t>(rows);
  lists_[1] = gpu::device_buffer<index_t>(rows);
  long_rows_ = gpu::device_buffer<index_t>(rows);
  list_n_ = gpu::device_buffer<index_t>(2);
  slice_ = gpu::device_buffer<std::uint64_t>(static_cast<std::size_t>(dist::bitmap_slice_words(part, x.comm().rank())));
  next_slice_ = gpu::device_buffer<std::uint64_t>(slice_.size());
  visited_ = gpu::device_buffer<std::uint64_t>(slice_.size());
  bitmap_ = gpu::device_buffer<std::uint64_t>(static_cast<std::size_t>(dist::bitmap_words(part.num_vertices())));
  seen_ = gpu::device_buffer<std::uint64_t>(bitmap_.size());
  cursor_ = gpu::device_buffer<index_t>(static_cast<std::size_t>(R));
  starts_ = gpu::device_buffer<index_t>(static_cast<std::size_t>(R));
  displs_ = gpu::device_buffer<index_t>(static_cast<std::size_t>(R) + 1);
  counters_ = gpu::device_buffer<index_t>(counter_slots + static_cast<std::size_t>(hubs_.words()));
  host_counters_ = gpu::pinned_buffer<index_t>(counters_.size());
  host_sums_ = gpu::pinned_buffer<index_t>(4 + static_cast<std::size_t>(hubs_.words()));
  host_cursor_ = gpu::pinned_buffer<index_t>(static_cast<std::size_t>(R));
  chunks_ = gpu::device_buffer<index_t>(3 * static_cast<std::size_t>(max_chunks(static_cast<index_t>(owned_arcs_))));
  host_starts_ = owner_block_starts(g, part.block(), starts_);  // the pairs' blocks
  reset();
}

void bfs_engine::prepare() {
  // The exchange buffers at their largest, once, here and not in a timed region (kernel 1 or a
  // search): a level sends at most one pair per owned arc and receives at most one per arc into
  // the owned rows, which in an undirected graph are as many as the owned arcs.
  send_.reserve(owned_arcs_ + 1);
  recv_.reserve(owned_arcs_ + 1);
  reset();
}

void bfs_engine::reset() {
  if (!parent_.empty()) gpu::fill_bytes_async(parent_.data(), 0xFF, parent_.bytes(), nullptr);  // -1
  if (!seen_.empty()) seen_.zero_async(nullptr);
  gpu::synchronize();
}

void bfs_engine::gather_frontier() {
  gpu::synchronize();  // the level that found the frontier set slice_: compute, not communication
  stopwatch t;
  x_.allgather_bitmap(part_, slice_.data(), bitmap_.data());
  comm_seconds_ += t.seconds();
  const auto words = static_cast<index_t>(bitmap_.size());
  gpu::launch(or_kernel, gpu::grid_blocks(words, block_threads), block_threads, 0, nullptr, bitmap_.data(), words,
              seen_.data());
}

void bfs_engine::mark_frontier_hubs(const std::uint64_t* slice) {
  const index_t words = hubs_.words();
  if (words > 0)
    gpu::launch(frontier_hubs_kernel, gpu::grid_blocks(64 * words, block_threads), block_threads, 0, nullptr, slice,
                hubs_.ids.data(), hubs_.first_mine, hubs_.mine, g_.first_vertex, words,
                reinterpret_cast<std::uint32_t*>(counters_.data() + counter_slots));
}

void bfs_engine::claim_from_hubs() {
  // The frontier hubs' entries here: walking them costs a random access each, pulling a sequential
  // pass over the rows (a few bytes a row).
  const index_t* words = host_sums_.data() + 4;
  index_t entries = 0;
  for (index_t w = 0; w < hubs_.words(); ++w)
    for (auto bits = static_cast<std::uint64_t>(words[w]); bits != 0; bits &= bits - 1) {
      const auto j = static_cast<std::size_t>(64 * w + std::countr_zero(bits));
      entries += hubs_.host_offsets[j + 1] - hubs_.host_offsets[j];
    }
  if (entries == 0) return;
  // The words arrive from the pinned reduction buffer, which the host leaves alone until the
  // level's end synchronises.
  gpu::copy_bytes_async(hub_frontier_.data(), words, hub_frontier_.bytes(), nullptr);
  if (entries * pull_ratio > g_.local_vertices) {
    gpu::launch(pull_from_hubs_kernel, resident_blocks_, block_threads, hub_frontier_.bytes(), nullptr,
                hubs_.row_starts.data(), hubs_.row_hubs.data(), g_.local_vertices, hub_frontier_.data(),
                hubs_.words(), hubs_.ids.data(), g_.offsets, visited_.data(), parent_.data(), next_.data(),
                next_slice_.data(), counters_.data());
    return;
  }
  gpu::launch(hub_chunks_kernel, gpu::grid_blocks(hubs_.count, block_threads), block_threads, 0, nullptr,
              hub_frontier_.data(), hubs_.offsets.data(), hubs_.count, hub_chunks_.data(),
              counters_.data() + hub_chunk_count);
  gpu::launch(claim_from_hubs_kernel, resident_blocks_, block_threads, 0, nullptr, hubs_.rows.data(),
              hubs_.ids.data(), hub_chunks_.data(), g_.offsets, visited_.data(), parent_.data(), next_.data(),
              next_slice_.data(), counters_.data());
}

index_t bfs_engine::top_down(index_t frontier, index_t global_frontier_arcs) {
  const dist::communicator& c = x_.comm();
  const int R = c.size();
  // Once the search has gone bottom-up most children are visited. Learning which costs every
  // rank n/8 bytes; the pairs it saves would cost a rank 8 bytes for each of its share of the
  // frontier's arcs. Gather when those would cost more.
  index_t gathered = 0;
  steps_.mark("gather");
  if (R > 1 && went_bottom_up_ && global_frontier_arcs * 64 > part_.num_vertices() * R) {
    gather_frontier();
    gathered = static_cast<index_t>(slice_.size() * sizeof(std::uint64_t)) * (R - 1);
  }
  // The frontier's hubs first: their rows here are claimed before any pair is made, and no pair
  // is made here for a row they claimed.
  steps_.mark("hubs");
  if (frontier_has_hubs_) claim_from_hubs();
  // One pass over the other rows: each pair goes to the next free place of its owner's block.
  steps_.mark("expand");
  gpu::copy_bytes_async(cursor_.data(), starts_.data(), starts_.bytes(), nullptr);
  if (frontier > 0) {
    const rows_but_hubs span{g_.offsets, hubs_.min_degree};
    gpu::launch(make_chunks_kernel<rows_but_hubs>, gpu::grid_blocks(frontier, block_threads), block_threads, 0,
                nullptr, span, queue_.data(), static_cast<const index_t*>(nullptr), frontier, chunks_.data(),
                counters_.data() + chunk_count);
    with_rows([&](auto view) {
      using V = column_of<decltype(view)>;
      gpu::launch(expand_tiles_kernel<V>, gpu::grid_blocks(frontier, block_threads), block_threads, 0, nullptr, view,
                  hubs_.min_degree, queue_.data(), frontier, part_.block(), c.rank(), visited_.data(),
                  next_slice_.data(), seen_.data(), cursor_.data(), send_.data());
      gpu::launch(expand_chunks_kernel<V>, resident_blocks_, block_threads, 0, nullptr, view, chunks_.data(),
                  counters_.data(), part_.block(), c.rank(), visited_.data(), next_slice_.data(), seen_.data(),
                  cursor_.data(), send_.data());
    });
  }
  steps_.mark("exchange");
  gpu::copy_bytes(host_cursor_.data(), cursor_.data(), cursor_.bytes());  // into pinned memory: one copy
  host_counts_.resize(static_cast<std::size_t>(R));
  for (std::size_t r = 0; r < host_counts_.size(); ++r) host_counts_[r] = host_cursor_[r] - host_starts_[r];
  const index_t bytes = bytes_to_others(host_counts_, c.rank(), sizeof(std::uint64_t)) + gathered;
  stopwatch t;
  const index_t got = x_.alltoallv(send_, host_counts_, recv_, recv_counts_, host_starts_.data());
  comm_seconds_ += t.seconds();
  steps_.mark("claim");
  if (got > 0) {
    host_displs_.assign(static_cast<std::size_t>(R) + 1, 0);
    for (int r = 0; r < R; ++r) host_displs_[r + 1] = host_displs_[r] + recv_counts_[r];
    gpu::copy_bytes(displs_.data(), host_displs_.data(), host_displs_.size() * sizeof(index_t));
    gpu::launch(claim_kernel, gpu::grid_blocks(got, block_threads), block_threads, 0, nullptr, g_, recv_.data(), got,
                displs_.data(), R, part_.block(), visited_.data(), parent_.data(), next_.data(), next_slice_.data(),
                counters_.data());
  }
  return bytes;
}

index_t bfs_engine::bottom_up() {
  const dist::communicator& c = x_.comm();
  went_bottom_up_ = true;
  steps_.mark("gather");
  gather_frontier();
  steps_.mark("scan");
  const index_t bytes = static_cast<index_t>(slice_.size() * sizeof(std::uint64_t)) * (c.size() - 1);
  if (g_.local_vertices == 0) return bytes;
  const int other = list_ ^ 1;
  gpu::fill_bytes_async(list_n_.data() + other, 0, sizeof(index_t), nullptr);
  with_rows([&](auto view) {
    using V = column_of<decltype(view)>;
    // The search's first bottom-up level has no list yet: the kernel scans every row.
    gpu::launch(scan_rows_kernel<V>, resident_blocks_, block_threads, 0, nullptr, view, bitmap_.data(),
                has_list_ ? lists_[list_].data() : nullptr, list_n_.data() + list_, visited_.data(), parent_.data(),
                next_.data(), next_slice_.data(), counters_.data(), long_rows_.data(), lists_[other].data(),
                list_n_.data() + other);
    gpu::launch(scan_long_rows_kernel<V>, resident_blocks_, block_threads, 0, nullptr, view, bitmap_.data(),
                long_rows_.data(), parent_.data(), next_.data(), next_slice_.data(), counters_.data(),
                lists_[other].data(), list_n_.data() + other);
  });
  list_ = other;
  has_list_ = true;
  return bytes;
}

void bfs_engine::run(index_t root) {
  const dist::communicator& c = x_.comm();
  levels_.clear();
  has_list_ = false;
  went_bottom_up_ = false;
  index_t frontier = 0, frontier_arcs = 0;
  if (!slice_.empty()) slice_.zero_async(nullptr);
  if (!visited_.empty()) visited_.zero_async(nullptr);
  if (part_.owner(root) == c.rank()) {
    const index_t l = root - g_.first_vertex;
    write_one<std::int64_t>(parent_.data() + l, root);
    write_one<index_t>(queue_.data(), l);
    write_one<std::uint64_t>(slice_.data() + (l >> 6), std::uint64_t{1} << (l & 63));
    write_one<std::uint64_t>(visited_.data() + (l >> 6), std::uint64_t{1} << (l & 63));
    frontier = 1;
    index_t ends[2];  // the root's row: one copy
    gpu::copy_bytes(ends, g_.offsets + l, sizeof(ends));
    frontier_arcs = ends[1] - ends[0];
  }
  // The first level's hub words: the root's bit where it is a hub, set by its owner on the host
  // (the level ends set the others' bits on the device, mark_frontier_hubs).
  const auto words = static_cast<std::size_t>(hubs_.words());
  std::fill_n(host_counters_.data() + counter_slots, words, index_t{0});
  if (frontier == 1 && frontier_arcs >= hubs_.min_degree) {
    const auto j = static_cast<std::size_t>(
        std::lower_bound(hubs_.host_ids.begin(), hubs_.host_ids.end(), static_cast<std::int64_t>(root)) -
        hubs_.host_ids.begin());
    host_counters_.data()[counter_slots + j / 64] = static_cast<index_t>(std::uint64_t{1} << (j % 64));
  }
  // Arcs of the unvisited owned rows: all of them (known since construction) but the root's.
  index_t unexplored = static_cast<index_t>(owned_arcs_) - frontier_arcs;
  bool bottom_up_now = false;
  index_t last_bytes = 0, previous_frontier = 0;
  for (int level = 0;; ++level) {
    stopwatch sw;
    comm_seconds_ = 0;
    // Global frontier vertices and arcs, unexplored arcs, the last level's bytes and the
    // frontier's hub words: one reduction. Only a hub's owner sets its bit, so the words' sum is
    // their union.
    steps_.mark("reduce");  // the level's parts (GPU500_TRACE_STEPS): this one the reduction on the host
    index_t* sums = host_sums_.data();
    sums[0] = frontier, sums[1] = frontier_arcs, sums[2] = unexplored, sums[3] = last_bytes;
    std::copy_n(host_counters_.data() + counter_slots, words, sums + 4);
    {
      stopwatch t;
      c.allreduce(sums, 4 + words, dist::reduce_op::sum);
      comm_seconds_ += t.seconds();
    }
    frontier_has_hubs_ = std::any_of(sums + 4, sums + 4 + words, [](index_t w) { return w != 0; });
    if (!levels_.empty()) levels_.back().bytes = sums[3];
    if (sums[0] == 0) {
      steps_.drop();
      break;
    }
    bottom_up_now = pol_.bottom_up(
        bottom_up_now, {sums[0], previous_frontier, sums[1], sums[2], part_.num_vertices()});
    previous_frontier = sums[0];
    counters_.zero_async(nullptr);
    if (!next_slice_.empty()) next_slice_.zero_async(nullptr);
    last_bytes = bottom_up_now ? bottom_up() : top_down(frontier, sums[1]);
    steps_.mark("finish");
    mark_frontier_hubs(next_slice_.data());  // the next level's hubs, for its reduction
    gpu::copy_bytes_async(host_counters_.data(), counters_.data(), counters_.bytes(), nullptr);
    const auto slice_words = static_cast<index_t>(visited_.size());
    if (slice_words > 0)  // the rows this level found are visited from now on
      gpu::launch(or_kernel, gpu::grid_blocks(slice_words, block_threads), block_threads, 0, nullptr,
                  next_slice_.data(), slice_words, visited_.data());
    steps_.end();
    gpu::synchronize();
    frontier = host_counters_.data()[found_rows];
    frontier_arcs = host_counters_.data()[found_arcs];
    unexplored -= frontier_arcs;
    std::swap(queue_, next_);
    std::swap(slice_, next_slice_);
    record_phase(levels_, comm_seconds_, level, bottom_up_now ? "bottom-up" : "top-down", sums[0], 0, sw.seconds());
    levels_.back().steps = steps_.take();
  }
}

index_t bfs_engine::traversed_edges() {
  gpu::device_buffer<index_t> sum;
  return reached_edges(x_.comm(), g_, parent_.data(), sum);
}

}  // namespace gpu500::graph500::mpi::cuda
