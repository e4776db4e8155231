// The hubs of the CUDA BFS over MPI ranks and each rank's lists of its rows adjacent to them (see
// hub_delegates.hpp).
#include "hub_delegates.hpp"

#include <algorithm>
#include <array>
#include <cub/cub.cuh>
#include <string>
#include <vector>

#include "common.cuh"
#include "gpu500/core/cuda/check.cuh"
#include "gpu500/core/error.hpp"

namespace gpu500::graph500::mpi::cuda {

namespace {

/// Degree classes of the histogram: floor(log2 d) for d >= 1.
constexpr int classes = 64;

/// Per class floor(log2 d) of the owned rows: how many rows, and their arcs (bins[0..63] and
/// bins[64..127]).
__global__ void degree_histogram_kernel(const index_t* offsets, index_t rows, index_t* bins) {
  __shared__ unsigned long long local[2 * classes];
  for (int i = static_cast<int>(threadIdx.x); i < 2 * classes; i += blockDim.x) local[i] = 0;
  __syncthreads();
  for (index_t l : gpu::grid_stride(rows)) {
    const index_t d = offsets[l + 1] - offsets[l];
    if (d <= 0) continue;
    const int cls = 63 - __clzll(static_cast<long long>(d));
    atomicAdd(&local[cls], 1ull);
    atomicAdd(&local[classes + cls], static_cast<unsigned long long>(d));
  }
  __syncthreads();
  for (int i = static_cast<int>(threadIdx.x); i < 2 * classes; i += blockDim.x)
    if (local[i]) atomicAdd(reinterpret_cast<unsigned long long*>(&bins[i]), local[i]);
}

/// The owned rows of at least min_degree arcs, appended (in no order) to `out`.
__global__ void owned_hubs_kernel(const index_t* offsets, index_t rows, index_t min_degree, index_t* out,
                                  index_t* count) {
  for (index_t l : gpu::grid_stride(rows))
    if (offsets[l + 1] - offsets[l] >= min_degree) out[atomic_add(count, 1)] = l;
}

/// The index of vertex v among the ascending hub ids, or -1 when v is no hub.
__device__ __forceinline__ index_t hub_index(const std::int64_t* ids, index_t count, std::int64_t v) {
  index_t lo = 0, hi = count;
  while (lo < hi) {
    const index_t mid = (lo + hi) / 2;
    if (ids[mid] < v) lo = mid + 1; else hi = mid;
  }
  return lo < count && ids[lo] == v ? lo : -1;
}

/// prefix[l] = the arcs of row l to hubs: its leading arcs, the row being in descending degree
/// class of its far ends. One warp per row (a hub's row can hold 10^5 arcs to other hubs).
template <class V>
__global__ void hub_prefix_kernel(graph::csr_view<V> g, const std::int64_t* ids, index_t count, index_t* prefix) {
  const unsigned lane = gpu::lane_id();
  for (index_t l : gpu::warp_stride(g.local_vertices)) {  // warp-uniform
    const index_t begin = g.offsets[l], end = g.offsets[l + 1];
    index_t length = end - begin;
    for (index_t base = begin; base < end; base += gpu::warp_size) {
      const index_t k = base + lane;
      const bool other = k < end && hub_index(ids, count, static_cast<std::int64_t>(g.columns[k])) < 0;
      const unsigned ballot = __ballot_sync(0xffffffffu, other);
      if (ballot) {
        length = base + (__ffs(static_cast<int>(ballot)) - 1) - begin;
        break;
      }
    }
    if (lane == 0) prefix[l] = length;
  }
}

/// From place at[l] on, row l's (hub index, row) entries, in row order (one warp per row), and
/// its place in 32 bits.
template <class V>
__global__ void hub_entries_kernel(graph::csr_view<V> g, const std::int64_t* ids, index_t count, const index_t* prefix,
                                   const index_t* at, std::uint16_t* hub, std::uint32_t* row,
                                   std::uint32_t* row_starts) {
  for (index_t l : gpu::warp_stride(g.local_vertices)) {
    const index_t first = g.offsets[l], place = at[l];
    if (gpu::lane_id() == 0) {
      row_starts[l] = static_cast<std::uint32_t>(place);
      if (l + 1 == g.local_vertices) row_starts[l + 1] = static_cast<std::uint32_t>(at[l + 1]);
    }
    for (index_t i = gpu::lane_id(); i < prefix[l]; i += gpu::warp_size) {
      hub[place + i] = static_cast<std::uint16_t>(hub_index(ids, count, static_cast<std::int64_t>(g.columns[first + i])));
      row[place + i] = static_cast<std::uint32_t>(l);
    }
  }
}

/// offsets[j] = the first entry of hub j in the entries sorted by hub (j in [0, count]).
__global__ void hub_offsets_kernel(const std::uint16_t* sorted_hubs, index_t entries, index_t count, index_t* offsets) {
  for (index_t j : gpu::grid_stride(count + 1)) {
    index_t lo = 0, hi = entries;
    while (lo < hi) {
      const index_t mid = (lo + hi) / 2;
      if (static_cast<index_t>(sorted_hubs[mid]) < j) lo = mid + 1; else hi = mid;
    }
    offsets[j] = lo;
  }
}

/// Expected entries of a rank's lists: its arcs times the share.
std::size_t expected_entries(index_t arcs, double arc_share) {
  return static_cast<std::size_t>(static_cast<double>(arcs) * std::clamp(arc_share, 0.0, 1.0)) + 1;
}

}  // namespace

std::size_t hub_delegates_bytes(index_t rows, index_t arcs, double arc_share) {
  // The ids and offsets; the lists' rows (4 bytes an entry) and their chunks while a level walks
  // them (24 bytes per chunk); each row's hubs (2 bytes an entry, 4 a row).
  const std::size_t e = expected_entries(arcs, arc_share);
  return 16 * static_cast<std::size_t>(max_hubs + 1) + 6 * e +
         24 * (e / static_cast<std::size_t>(hub_chunk_entries) + max_hubs + 1) +
         4 * static_cast<std::size_t>(rows + 1);
}

std::size_t hub_delegates_construction_bytes(index_t rows, index_t arcs, double arc_share) {
  // The prefix lengths and places (8 bytes a row each); the entries' rows and sorted hubs (6 bytes
  // an entry) and the sort's scratch, about as much again.
  return 16 * static_cast<std::size_t>(rows) + 12 * expected_entries(arcs, arc_share) + (std::size_t{16} << 20);
}

template <class V>
hub_delegates make_hub_delegates(const dist::communicator& c, graph::csr_view<V> g, double arc_share) {
  hub_delegates h;
  const index_t rows = g.local_vertices;
  // The degree classes of every rank's rows, summed over the ranks.
  std::array<index_t, 2 * classes> bins{};
  if (rows > 0) {
    gpu::device_buffer<index_t> d(bins.size());
    d.zero();
    gpu::launch(degree_histogram_kernel, gpu::grid_blocks(rows, block_threads), block_threads, 0, nullptr, g.offsets,
                rows, d.data());
    gpu::copy_bytes(bins.data(), d.data(), d.bytes());
  }
  const std::array<index_t, 2 * classes> mine_bins = bins;
  c.allreduce(bins.data(), bins.size(), dist::reduce_op::sum);
  index_t graph_arcs = 0;
  for (int k = 0; k < classes; ++k) graph_arcs += bins[classes + k];
  // The smallest power of two, at least 2, whose hubs fit both bounds.
  index_t hubs = 0, hub_arcs = 0;
  int chosen = classes;
  for (int k = classes - 1; k >= 1; --k) {
    hubs += bins[k];
    hub_arcs += bins[classes + k];
    if (hubs > max_hubs || static_cast<double>(hub_arcs) > arc_share * static_cast<double>(graph_arcs)) break;
    if (hubs > 0) chosen = k;
  }
  if (chosen == classes) return h;
  h.min_degree = index_t{1} << chosen;
  for (int k = chosen; k < classes; ++k) h.mine += mine_bins[k];

  // The hubs' ids: this rank's, ascending, then everyone's in rank order (ascending overall, as
  // the ranks' blocks of vertices are).
  std::vector<std::int64_t> own(static_cast<std::size_t>(h.mine));
  if (h.mine > 0) {
    gpu::device_buffer<index_t> found(static_cast<std::size_t>(h.mine)), n(1);
    n.zero();
    gpu::launch(owned_hubs_kernel, gpu::grid_blocks(rows, block_threads), block_threads, 0, nullptr, g.offsets, rows,
                h.min_degree, found.data(), n.data());
    const std::vector<index_t> local = gpu::to_host(found);
    for (std::size_t i = 0; i < local.size(); ++i) own[i] = g.first_vertex + local[i];
    std::sort(own.begin(), own.end());
  }
  const std::vector<index_t> counts = c.allgather(h.mine);
  for (int r = 0; r < c.rank(); ++r) h.first_mine += counts[static_cast<std::size_t>(r)];
  h.host_ids = c.allgatherv(std::span<const std::int64_t>(own));
  h.count = static_cast<index_t>(h.host_ids.size());
  h.ids = gpu::to_device(h.host_ids);

  // The lists: every row's leading arcs to hubs as (hub, row) entries in row order, sorted by hub
  // (a stable radix sort, so each hub's rows stay ascending), and each hub's first entry.
  h.offsets = gpu::device_buffer<index_t>(static_cast<std::size_t>(h.count) + 1);
  if (rows == 0) {
    h.offsets.zero();
    h.host_offsets.assign(static_cast<std::size_t>(h.count) + 1, 0);
    return h;
  }
  gpu::device_buffer<index_t> prefix(static_cast<std::size_t>(rows) + 1), at(static_cast<std::size_t>(rows) + 1);
  prefix.zero();  // entry `rows` stays 0, so the scan's last place is the total
  gpu::launch(hub_prefix_kernel<V>, gpu::grid_blocks_warp_per_item(rows, block_threads), block_threads, 0, nullptr, g, h.ids.data(),
              h.count, prefix.data());
  std::size_t temp_bytes = 0;
  GPU500_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes, prefix.data(), at.data(), rows + 1));
  {
    gpu::device_buffer<unsigned char> temp(temp_bytes);
    GPU500_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp.data(), temp_bytes, prefix.data(), at.data(), rows + 1));
  }
  h.entries = read_one(at.data() + rows);
  if (h.entries == 0) {
    h.offsets.zero();
    h.host_offsets.assign(static_cast<std::size_t>(h.count) + 1, 0);
    return h;
  }
  if (h.entries > index_t{0xffffffff})
    throw usage_error("the BFS's hub lists of a rank hold " + std::to_string(h.entries) +
                      " entries, more than 32 bits index: use more ranks");
  const auto e = static_cast<std::size_t>(h.entries);
  h.row_starts = gpu::device_buffer<std::uint32_t>(static_cast<std::size_t>(rows) + 1);
  h.row_hubs = gpu::device_buffer<std::uint16_t>(e);
  gpu::device_buffer<std::uint16_t> hub_sorted(e);
  gpu::device_buffer<std::uint32_t> row(e);
  h.rows = gpu::device_buffer<std::uint32_t>(e);
  gpu::launch(hub_entries_kernel<V>, gpu::grid_blocks_warp_per_item(rows, block_threads), block_threads, 0, nullptr,
              g, h.ids.data(), h.count, prefix.data(), at.data(), h.row_hubs.data(), row.data(), h.row_starts.data());
  prefix = {};
  at = {};
  int end_bit = 1;
  while ((index_t{1} << end_bit) < h.count) ++end_bit;
  temp_bytes = 0;
  GPU500_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, h.row_hubs.data(), hub_sorted.data(),
                                                    row.data(), h.rows.data(), h.entries, 0, end_bit));
  {
    gpu::device_buffer<unsigned char> temp(temp_bytes);
    GPU500_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(temp.data(), temp_bytes, h.row_hubs.data(), hub_sorted.data(),
                                                      row.data(), h.rows.data(), h.entries, 0, end_bit));
  }
  gpu::launch(hub_offsets_kernel, gpu::grid_blocks(h.count + 1, block_threads), block_threads, 0, nullptr,
              hub_sorted.data(), h.entries, h.count, h.offsets.data());
  h.host_offsets = gpu::to_host(h.offsets);
  return h;
}

template hub_delegates make_hub_delegates<std::uint32_t>(const dist::communicator&, graph::csr_view<std::uint32_t>,
                                                         double);
template hub_delegates make_hub_delegates<std::int64_t>(const dist::communicator&, graph::csr_view<std::int64_t>,
                                                        double);

}  // namespace gpu500::graph500::mpi::cuda
