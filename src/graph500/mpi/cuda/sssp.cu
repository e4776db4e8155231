// Delta-stepping SSSP of the CUDA backend over MPI ranks (see sssp.hpp).
#include "sssp.hpp"

#include <limits>

#include "common.cuh"
#include "gpu500/core/timer.hpp"

namespace gpu500::graph500::mpi::cuda {

namespace {

using request = mpi::sssp_engine::request;
using arcs = sssp_engine::arcs;

constexpr index_t no_bucket = std::numeric_limits<index_t>::max();

/// The host engine's bucket of distance d, never below floor.
__device__ __forceinline__ index_t bucket_of(float d, float delta, index_t floor) {
  const double k = static_cast<double>(d) / static_cast<double>(delta);
  const index_t b = k >= 9e18 ? no_bucket - 1 : static_cast<index_t>(k);
  return b > floor ? b : floor;
}

/// The smallest queued bucket of the owned rows, into *out (pre-set to no_bucket).
__global__ void min_bucket_kernel(const index_t* bucket, index_t rows, std::int64_t* out) {
  index_t m = no_bucket;
  for (index_t l : gpu::grid_stride(rows)) m = bucket[l] < m ? bucket[l] : m;
  for (int o = gpu::warp_size / 2; o > 0; o /= 2) {
    const index_t other = __shfl_down_sync(0xffffffffu, m, o);
    m = other < m ? other : m;
  }
  if (gpu::lane_id() == 0 && m != no_bucket) atomic_min_nonneg(out, m);
}

/// Takes bucket b's rows off the queue into the frontier; rows not yet settled by this bucket are
/// marked and listed (count[0]: frontier, count[1]: settled).
__global__ void take_bucket_kernel(index_t* bucket, index_t rows, index_t b, index_t* frontier, index_t* settled,
                                   std::uint8_t* mark, index_t* count) {
  for (index_t l : gpu::grid_stride(rows)) {
    if (bucket[l] != b) continue;
    bucket[l] = no_bucket;
    frontier[aggregated_take(count, 0)] = l;
    if (!mark[l]) {
      mark[l] = 1;
      settled[aggregated_take(count, 1)] = l;
    }
  }
}

__global__ void clear_marks_kernel(const index_t* rows, index_t n, std::uint8_t* mark) {
  for (index_t i : gpu::grid_stride(n)) mark[rows[i]] = 0;
}

/// Both passes of a relaxation: count (out == nullptr) or write the requests of the chosen arcs
/// of the listed rows, one warp per row.
__global__ void requests_kernel(graph::csr_view<std::int64_t> g, const index_t* list, index_t n, int which,
                                float delta, index_t block, const float* dist, index_t* counts, index_t* cursor,
                                request* out) {
  for (index_t i : gpu::warp_stride(n)) {
    const index_t u = list[i];
    const float du = dist[u];
    for (index_t k = g.offsets[u] + gpu::lane_id(); k < g.offsets[u + 1]; k += gpu::warp_size) {
      const float w = g.weights[k];
      if (which != static_cast<int>(arcs::all) && ((w < delta) != (which == static_cast<int>(arcs::light)))) continue;
      const std::int64_t v = g.columns[k];
      const int o = owner_of(v, block);
      if (!out) {
        aggregated_take(counts, o);
      } else {
        out[aggregated_take(cursor, o)] = request{g.first_vertex + u, static_cast<std::uint32_t>(v - o * block), du + w};
      }
    }
  }
}

/// Apply, pass 1: distances fall to the smallest request; rows that fell are marked.
__global__ void lower_kernel(const request* in, index_t n, float* dist, std::uint32_t* lowered) {
  for (index_t i : gpu::grid_stride(n)) {
    const index_t l = in[i].local;
    const unsigned bits = __float_as_uint(in[i].dist);
    const unsigned old = atomicMin(reinterpret_cast<unsigned*>(&dist[l]), bits);
    if (bits < old) lowered[l] = 1;
  }
}

/// Apply, pass 2: a lowered row forgets its parent; pass 3 gives it the smallest parent among
/// the requests at its new distance (one of them lowered it last).
__global__ void forget_parent_kernel(const request* in, index_t n, const std::uint32_t* lowered,
                                     std::int64_t* parent) {
  for (index_t i : gpu::grid_stride(n)) {
    const index_t l = in[i].local;
    if (lowered[l]) parent[l] = std::numeric_limits<std::int64_t>::max();
  }
}
__global__ void set_parent_kernel(const request* in, index_t n, const std::uint32_t* lowered,
                                  const float* dist, std::int64_t* parent) {
  for (index_t i : gpu::grid_stride(n)) {
    const index_t l = in[i].local;
    if (lowered[l] && in[i].dist == dist[l]) atomic_min_nonneg(&parent[l], in[i].parent);
  }
}

/// Apply, pass 4: every lowered row is queued once, no lower than floor.
__global__ void requeue_kernel(const request* in, index_t n, std::uint32_t* lowered, const float* dist,
                               index_t* bucket, float delta, index_t floor) {
  for (index_t i : gpu::grid_stride(n)) {
    const index_t l = in[i].local;
    if (lowered[l] && atomicExch(&lowered[l], 0u) == 1u) bucket[l] = bucket_of(dist[l], delta, floor);
  }
}

unsigned grid_for(index_t n) { return gpu::grid_blocks(n, block_threads); }

}  // namespace

sssp_engine::sssp_engine(device_exchange& x, const dist::block_partition& part, graph::csr_view<std::int64_t> g,
                         sssp_policy pol)
    : x_(x), part_(part), g_(g), pol_(pol) {
  const auto rows = static_cast<std::size_t>(g.local_vertices);
  const auto R = static_cast<std::size_t>(x.comm().size());
  dist_ = gpu::device_buffer<float>(rows);
  parent_ = gpu::device_buffer<std::int64_t>(rows);
  bucket_ = gpu::device_buffer<index_t>(rows);
  lowered_ = gpu::device_buffer<std::uint32_t>(rows);
  settled_mark_ = gpu::device_buffer<std::uint8_t>(rows);
  frontier_ = gpu::device_buffer<index_t>(rows);
  settled_ = gpu::device_buffer<index_t>(rows);
  counts_ = gpu::device_buffer<index_t>(R);
  cursor_ = gpu::device_buffer<index_t>(R);
  scratch_ = gpu::device_buffer<index_t>(3);
  owned_arcs_ = static_cast<std::size_t>(read_one(g.offsets + g.local_vertices));
  reset();
}

void sssp_engine::prepare() {
  // The exchange buffers at their largest (one request per owned arc out, one per arc into the
  // owned rows in), once, here and not in a timed region (kernel 1 or a search).
  send_.reserve(owned_arcs_);
  recv_.reserve(owned_arcs_);
  reset();
}

void sssp_engine::reset() {
  const index_t rows = g_.local_vertices;
  fill<float>(dist_.data(), rows, std::numeric_limits<float>::infinity());
  fill<index_t>(bucket_.data(), rows, no_bucket);
  if (rows > 0) {
    gpu::fill_bytes_async(parent_.data(), 0xFF, parent_.bytes(), nullptr);  // -1
    gpu::fill_bytes_async(lowered_.data(), 0, lowered_.bytes(), nullptr);
    gpu::fill_bytes_async(settled_mark_.data(), 0, settled_mark_.bytes(), nullptr);
  }
  gpu::synchronize();
}

index_t sssp_engine::relax(const index_t* list, index_t rows, arcs which, index_t floor) {
  const dist::communicator& c = x_.comm();
  const unsigned grid = gpu::grid_blocks_warp_per_item(rows, block_threads);
  counts_.zero();
  if (rows > 0)
    gpu::launch(requests_kernel, grid, block_threads, 0, nullptr, g_, list, rows, static_cast<int>(which), pol_.delta,
                part_.block(), dist_.data(), counts_.data(), cursor_.data(), static_cast<request*>(nullptr));
  const index_t total = counts_to_cursors(counts_, cursor_, host_counts_);
  send_.reserve(static_cast<std::size_t>(total));
  if (total > 0)
    gpu::launch(requests_kernel, grid, block_threads, 0, nullptr, g_, list, rows, static_cast<int>(which), pol_.delta,
                part_.block(), dist_.data(), counts_.data(), cursor_.data(), send_.data());
  const index_t bytes = bytes_to_others(host_counts_, c.rank(), sizeof(request));
  stopwatch t;
  const index_t n = x_.alltoallv(send_, host_counts_, recv_, recv_counts_);
  comm_seconds_ += t.seconds();
  if (n > 0) {
    gpu::launch(lower_kernel, grid_for(n), block_threads, 0, nullptr, recv_.data(), n, dist_.data(),
                lowered_.data());
    gpu::launch(forget_parent_kernel, grid_for(n), block_threads, 0, nullptr, recv_.data(), n,
                lowered_.data(), parent_.data());
    gpu::launch(set_parent_kernel, grid_for(n), block_threads, 0, nullptr, recv_.data(), n, lowered_.data(),
                dist_.data(), parent_.data());
    gpu::launch(requeue_kernel, grid_for(n), block_threads, 0, nullptr, recv_.data(), n, lowered_.data(),
                dist_.data(), bucket_.data(), pol_.delta, floor);
  }
  gpu::synchronize();
  return bytes;
}

void sssp_engine::record(int phase, const char* what, index_t local_count, index_t bytes, double seconds) {
  record_phase(x_.comm(), levels_, comm_seconds_, phase, what, local_count, bytes, seconds);
}

void sssp_engine::run(index_t root) {
  const dist::communicator& c = x_.comm();
  levels_.clear();
  const index_t rows = g_.local_vertices;
  if (part_.owner(root) == c.rank()) {
    const index_t l = root - g_.first_vertex;
    write_one<float>(dist_.data() + l, 0.f);
    write_one<std::int64_t>(parent_.data() + l, root);
    write_one<index_t>(bucket_.data() + l, 0);
  }
  const bool split = !pol_.no_light_heavy;
  int phase = 0;
  for (;;) {
    write_one<index_t>(scratch_.data() + 2, no_bucket);
    if (rows > 0)
      gpu::launch(min_bucket_kernel, grid_for(rows), block_threads, 0, nullptr, bucket_.data(), rows,
                  scratch_.data() + 2);
    const index_t b = c.allreduce(read_one(scratch_.data() + 2), dist::reduce_op::min);
    if (b == no_bucket) break;
    write_one<index_t>(scratch_.data() + 1, 0);  // settled by bucket b
    index_t settled = 0;
    for (;;) {  // light phases until bucket b stays empty on every rank
      stopwatch sw;
      comm_seconds_ = 0;
      write_one<index_t>(scratch_.data(), 0);
      if (rows > 0)
        gpu::launch(take_bucket_kernel, grid_for(rows), block_threads, 0, nullptr, bucket_.data(), rows, b,
                    frontier_.data(), settled_.data(), settled_mark_.data(), scratch_.data());
      const std::vector<index_t> count = gpu::to_host(scratch_.data(), 2);
      settled = count[1];
      const index_t total = c.allreduce(count[0], dist::reduce_op::sum);
      if (total == 0) break;
      const index_t bytes = relax(frontier_.data(), count[0], split ? arcs::light : arcs::all, b);
      record(phase++, split ? "light" : "all", count[0], bytes, sw.seconds());
    }
    if (settled > 0)
      gpu::launch(clear_marks_kernel, grid_for(settled), block_threads, 0, nullptr, settled_.data(), settled,
                  settled_mark_.data());
    if (split) {
      stopwatch sw;
      comm_seconds_ = 0;
      const index_t bytes = relax(settled_.data(), settled, arcs::heavy, b + 1);
      record(phase++, "heavy", settled, bytes, sw.seconds());
    }
  }
}

index_t sssp_engine::traversed_edges() {
  gpu::device_buffer<index_t> sum;
  return reached_edges(x_.comm(), g_, parent_.data(), sum);
}

}  // namespace gpu500::graph500::mpi::cuda
