// Direction-optimising BFS of the CUDA backend over MPI ranks (see bfs.hpp).
#include "bfs.hpp"

#include "common.cuh"
#include "gpu500/core/timer.hpp"
#include "gpu500/dist/bitmap.hpp"

namespace gpu500::graph500::mpi::cuda {

namespace {

/// Top-down, both passes: count (send == nullptr) or write the pairs of every wanted arc of the
/// frontier rows, one warp per row. An arc is wanted unless its head is owned here and visited.
__global__ void expand_kernel(graph::csr_view<std::int64_t> g, const index_t* queue, index_t frontier, index_t block,
                              int me, const std::int64_t* parent, index_t* counts, index_t* cursor,
                              std::int64_t* send) {
  for (index_t i : gpu::warp_stride(frontier)) {
    const index_t u = queue[i];
    for (index_t k = g.offsets[u] + gpu::lane_id(); k < g.offsets[u + 1]; k += gpu::warp_size) {
      const std::int64_t v = g.columns[k];
      const int o = owner_of(v, block);
      if (o == me && parent[v - g.first_vertex] != -1) continue;
      if (!send) {
        aggregated_take(counts, o);
      } else {
        const index_t p = aggregated_take(cursor, o);
        send[2 * p] = v;
        send[2 * p + 1] = g.first_vertex + u;
      }
    }
  }
}

/// Arrived (child, parent) pairs: the first to claim an unvisited child sets its parent and
/// queues it (found[0] rows, found[1] their arcs).
__global__ void claim_kernel(graph::csr_view<std::int64_t> g, const std::int64_t* pairs, index_t n,
                             std::int64_t* parent, index_t* next, index_t* found) {
  for (index_t i : gpu::grid_stride(n)) {
    const index_t l = pairs[2 * i] - g.first_vertex;
    if (parent[l] != -1) continue;
    if (atomic_cas(&parent[l], -1, pairs[2 * i + 1]) == -1) {
      next[aggregated_take(found, 0)] = l;
      aggregated_add(&found[1], g.offsets[l + 1] - g.offsets[l]);
    }
  }
}

__global__ void mark_kernel(const index_t* queue, index_t frontier, std::uint64_t* slice) {
  for (index_t i : gpu::grid_stride(frontier)) {
    const index_t u = queue[i];  // the slice starts at a word boundary
    atomicOr(reinterpret_cast<unsigned long long*>(&slice[u >> 6]), 1ull << (u & 63));
  }
}

/// Appends the `pending` rows a warp found (lane i holds the i-th, with its degree) to `next`
/// with one atomic per counter, and clears them. The whole warp calls it together.
__device__ __forceinline__ void flush_found(int& pending, index_t row, index_t degree, index_t* next, index_t* found) {
  if (pending == 0) return;
  const unsigned lane = gpu::lane_id();
  index_t base = 0, arcs = lane < static_cast<unsigned>(pending) ? degree : 0;
  for (int o = gpu::warp_size / 2; o > 0; o /= 2) arcs += __shfl_down_sync(0xffffffffu, arcs, o);
  if (lane == 0) {
    base = atomic_add(&found[0], pending);
    atomic_add(&found[1], arcs);
  }
  base = __shfl_sync(0xffffffffu, base, 0);
  if (lane < static_cast<unsigned>(pending)) next[base + lane] = row;
  pending = 0;
}

/// Bottom-up: one warp per unvisited owned row; the first arc (in row order) whose head is in the
/// frontier bitmap gives the parent. A warp collects up to 32 found rows (one per lane) before
/// it appends them, so the two found counters take one atomic per 32 rows, not one per row.
__global__ void scan_kernel(graph::csr_view<std::int64_t> g, const std::uint64_t* bitmap, std::int64_t* parent,
                            index_t* next, index_t* found) {
  int pending = 0;  // rows found and not yet appended (warp-uniform)
  index_t row = -1, degree = 0;  // lane i: the i-th of them
  for (index_t l : gpu::warp_stride(g.local_vertices)) {  // warp-uniform: the warp stays converged
    if (parent[l] != -1) continue;
    const index_t begin = g.offsets[l], end = g.offsets[l + 1];
    for (index_t base = begin; base < end; base += gpu::warp_size) {
      const index_t k = base + gpu::lane_id();
      const bool hit = k < end && ((bitmap[g.columns[k] >> 6] >> (g.columns[k] & 63)) & 1u);
      const unsigned ballot = __ballot_sync(0xffffffffu, hit);
      if (ballot) {
        if (gpu::lane_id() == 0) parent[l] = g.columns[base + __ffs(static_cast<int>(ballot)) - 1];
        if (gpu::lane_id() == static_cast<unsigned>(pending)) row = l, degree = end - begin;
        if (++pending == gpu::warp_size) flush_found(pending, row, degree, next, found);
        break;
      }
    }
  }
  flush_found(pending, row, degree, next, found);
}

}  // namespace

bfs_engine::bfs_engine(device_exchange& x, const dist::block_partition& part, graph::csr_view<std::int64_t> g,
                       bfs_policy pol)
    : x_(x), part_(part), g_(g), pol_(pol) {
  const auto rows = static_cast<std::size_t>(g.local_vertices);
  const auto R = static_cast<std::size_t>(x.comm().size());
  parent_ = gpu::device_buffer<std::int64_t>(rows);
  queue_ = gpu::device_buffer<index_t>(rows);
  next_ = gpu::device_buffer<index_t>(rows);
  slice_ = gpu::device_buffer<std::uint64_t>(static_cast<std::size_t>(dist::bitmap_slice_words(part, x.comm().rank())));
  bitmap_ = gpu::device_buffer<std::uint64_t>(static_cast<std::size_t>(dist::bitmap_words(part.num_vertices())));
  counts_ = gpu::device_buffer<index_t>(R);
  cursor_ = gpu::device_buffer<index_t>(R);
  found_ = gpu::device_buffer<index_t>(2);
  owned_arcs_ = static_cast<std::size_t>(read_one(g.offsets + g.local_vertices));
  reset();
}

void bfs_engine::prepare() {
  // The exchange buffers at their largest, once, here and not in a timed region (kernel 1 or a
  // search): a level sends at most one pair per owned arc and receives at most one per arc into
  // the owned rows, which in an undirected graph are as many as the owned arcs.
  send_.reserve(2 * owned_arcs_);
  recv_.reserve(2 * owned_arcs_);
  reset();
}

void bfs_engine::reset() {
  if (!parent_.empty()) gpu::fill_bytes_async(parent_.data(), 0xFF, parent_.bytes(), nullptr);  // -1
  gpu::synchronize();
}

index_t bfs_engine::top_down(index_t frontier) {
  const dist::communicator& c = x_.comm();
  counts_.zero();
  const unsigned grid = gpu::grid_blocks_warp_per_item(frontier, block_threads);
  if (frontier > 0)
    gpu::launch(expand_kernel, grid, block_threads, 0, nullptr, g_, queue_.data(), frontier, part_.block(), c.rank(),
                parent_.data(), counts_.data(), cursor_.data(), static_cast<std::int64_t*>(nullptr));
  const index_t total = counts_to_cursors(counts_, cursor_, host_counts_);
  send_.reserve(static_cast<std::size_t>(2 * total));
  if (total > 0)
    gpu::launch(expand_kernel, grid, block_threads, 0, nullptr, g_, queue_.data(), frontier, part_.block(), c.rank(),
                parent_.data(), counts_.data(), cursor_.data(), send_.data());
  for (index_t& k : host_counts_) k *= 2;  // int64 elements
  const index_t bytes = bytes_to_others(host_counts_, c.rank(), sizeof(std::int64_t));
  stopwatch t;
  const index_t got = x_.alltoallv(send_, host_counts_, recv_, recv_counts_) / 2;
  comm_seconds_ += t.seconds();
  if (got > 0)
    gpu::launch(claim_kernel, gpu::grid_blocks(got, block_threads), block_threads, 0, nullptr, g_, recv_.data(), got,
                parent_.data(), next_.data(), found_.data());
  return bytes;
}

index_t bfs_engine::bottom_up(index_t frontier) {
  const dist::communicator& c = x_.comm();
  if (!slice_.empty()) slice_.zero();
  if (frontier > 0)
    gpu::launch(mark_kernel, gpu::grid_blocks(frontier, block_threads), block_threads, 0, nullptr, queue_.data(),
                frontier, slice_.data());
  stopwatch t;
  x_.allgather_bitmap(part_, slice_.data(), bitmap_.data());
  comm_seconds_ += t.seconds();
  if (g_.local_vertices > 0)
    gpu::launch(scan_kernel, gpu::grid_blocks_warp_per_item(g_.local_vertices, block_threads), block_threads, 0,
                nullptr, g_, bitmap_.data(), parent_.data(), next_.data(), found_.data());
  return static_cast<index_t>(slice_.size() * sizeof(std::uint64_t)) * (c.size() - 1);
}

void bfs_engine::run(index_t root) {
  const dist::communicator& c = x_.comm();
  levels_.clear();
  const index_t rows = g_.local_vertices;
  index_t frontier = 0, frontier_arcs = 0;
  if (part_.owner(root) == c.rank()) {
    const index_t l = root - g_.first_vertex;
    write_one<std::int64_t>(parent_.data() + l, root);
    write_one<index_t>(queue_.data(), l);
    frontier = 1;
    frontier_arcs = read_one(g_.offsets + l + 1) - read_one(g_.offsets + l);
  }
  index_t unexplored = read_one(g_.offsets + rows) - frontier_arcs;  // arcs of unvisited owned rows
  bool bottom_up_now = false;
  index_t last_bytes = 0;
  for (int level = 0;; ++level) {
    stopwatch sw;
    comm_seconds_ = 0;
    // Global frontier vertices and arcs, unexplored arcs, and the last level's bytes: one reduction.
    index_t sums[4] = {frontier, frontier_arcs, unexplored, last_bytes};
    {
      stopwatch t;
      c.allreduce(sums, 4, dist::reduce_op::sum);
      comm_seconds_ += t.seconds();
    }
    if (!levels_.empty()) levels_.back().bytes = sums[3];
    if (sums[0] == 0) break;
    if (!pol_.top_down_only) {
      if (!bottom_up_now && static_cast<double>(sums[1]) > static_cast<double>(sums[2]) / pol_.alpha)
        bottom_up_now = true;
      else if (bottom_up_now && static_cast<double>(sums[0]) < static_cast<double>(part_.num_vertices()) / pol_.beta)
        bottom_up_now = false;
    }
    found_.zero();
    last_bytes = bottom_up_now ? bottom_up(frontier) : top_down(frontier);
    const std::vector<index_t> found = gpu::to_host(found_);
    frontier = found[0];
    frontier_arcs = found[1];
    unexplored -= frontier_arcs;
    std::swap(queue_, next_);
    level_record rec;
    rec.level = level;
    rec.direction = bottom_up_now ? "bottom-up" : "top-down";
    rec.frontier = sums[0];
    rec.comm_seconds = comm_seconds_;
    rec.compute_seconds = sw.seconds() - comm_seconds_;
    levels_.push_back(std::move(rec));
  }
}

index_t bfs_engine::traversed_edges() {
  gpu::device_buffer<index_t> sum;
  return reached_edges(x_.comm(), g_, parent_.data(), sum);
}

}  // namespace gpu500::graph500::mpi::cuda
