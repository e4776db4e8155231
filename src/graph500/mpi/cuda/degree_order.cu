// The searches' degree-ordered and relabelled copies of a rank's rows (see degree_order.hpp).
#include "degree_order.hpp"

#include <algorithm>
#include <cub/cub.cuh>

#include "common.cuh"
#include "gpu500/core/cuda/check.cuh"
#include "gpu500/core/error.hpp"
#include "gpu500/graph/cuda.hpp"

namespace gpu500::graph500::mpi::cuda {

namespace {

/// The sort key of a vertex of degree d: 255 minus its class, the class being 8 log2(d) rounded
/// down to eighths of an octave (8 x the top bit's place + the next three bits), 0 for d <= 1.
/// Keys ascend as degrees descend.
__device__ __forceinline__ std::uint8_t degree_key(index_t d) {
  if (d <= 1) return 255;
  const auto u = static_cast<unsigned long long>(d);
  const int top = 63 - __clzll(static_cast<long long>(u));
  const unsigned frac = top >= 3 ? static_cast<unsigned>(u >> (top - 3)) & 7u : static_cast<unsigned>(u << (3 - top)) & 7u;
  const unsigned cls = 8u * static_cast<unsigned>(top) + frac;
  return static_cast<std::uint8_t>(255u - (cls < 255u ? cls : 255u));
}

__global__ void owned_keys_kernel(const index_t* offsets, index_t rows, std::uint8_t* keys) {
  for (index_t l : gpu::grid_stride(rows)) keys[l] = degree_key(offsets[l + 1] - offsets[l]);
}

template <class C>
__global__ void arc_keys_kernel(const std::int64_t* columns, index_t arcs, const std::uint8_t* vertex_keys,
                                std::uint8_t* keys, C* out) {
  for (index_t a : gpu::grid_stride(arcs)) {
    const std::int64_t v = columns[a];
    keys[a] = vertex_keys[v];
    out[a] = static_cast<C>(v);
  }
}

/// A vertex's relabelling key: its owner, then its degree key, the vertices without arcs last
/// (9 bits: 256 for them).
__global__ void relabel_keys_kernel(const std::uint8_t* vertex_keys, const std::uint8_t* isolated, index_t n,
                                    index_t block, std::uint32_t* keys, std::int64_t* ids) {
  for (index_t v : gpu::grid_stride(n)) {
    const auto k = isolated[v] ? 256u : static_cast<unsigned>(vertex_keys[v]);
    keys[v] = (static_cast<std::uint32_t>(v / block) << 9) | k;
    ids[v] = v;
  }
}

/// new2old (as C) and old2new from the sorted ids.
template <class C>
__global__ void id_maps_kernel(const std::int64_t* sorted, index_t n, C* new2old, C* old2new) {
  for (index_t i : gpu::grid_stride(n)) {
    const std::int64_t v = sorted[i];
    new2old[i] = static_cast<C>(v);
    old2new[v] = static_cast<C>(i);
  }
}

/// The new rows' degrees: new row j is the old row new2old[first + j] - first.
template <class C>
__global__ void new_degrees_kernel(const index_t* old_offsets, const C* new2old, index_t first, index_t rows,
                                   index_t* degrees) {
  for (index_t j : gpu::grid_stride(rows)) {
    const index_t o = static_cast<index_t>(new2old[first + j]) - first;
    degrees[j] = old_offsets[o + 1] - old_offsets[o];
  }
}

/// Every new row's columns: its old row's (in degree order), renamed. One warp per row.
template <class C>
__global__ void move_rows_kernel(const index_t* old_offsets, const C* old_columns, const C* new2old,
                                 const C* old2new, index_t first, index_t rows, const index_t* new_offsets,
                                 C* new_columns) {
  for (index_t j : gpu::warp_stride(rows)) {
    const index_t o = static_cast<index_t>(new2old[first + j]) - first;
    const index_t from = old_offsets[o], to = new_offsets[j], d = old_offsets[o + 1] - from;
    for (index_t k = gpu::lane_id(); k < d; k += gpu::warp_size)
      new_columns[to + k] = old2new[static_cast<index_t>(old_columns[from + k])];
  }
}

/// Every new row's weighted arcs: its old row's, in their order (by weight), renamed. One warp per row.
template <class C>
__global__ void move_weighted_rows_kernel(const index_t* old_offsets, const std::int64_t* old_columns,
                                          const float* old_weights, const C* new2old, const C* old2new,
                                          index_t first, index_t rows, const index_t* new_offsets, C* new_columns,
                                          float* new_weights) {
  for (index_t j : gpu::warp_stride(rows)) {
    const index_t o = static_cast<index_t>(new2old[first + j]) - first;
    const index_t from = old_offsets[o], to = new_offsets[j], d = old_offsets[o + 1] - from;
    for (index_t k = gpu::lane_id(); k < d; k += gpu::warp_size) {
      new_columns[to + k] = old2new[old_columns[from + k]];
      new_weights[to + k] = old_weights[from + k];
    }
  }
}

/// isolated[l] = 1 for this rank's rows without arcs, and *count their number.
__global__ void isolated_rows_kernel(const index_t* offsets, index_t rows, std::uint8_t* isolated, index_t* count) {
  for (index_t l : gpu::grid_stride(rows)) {
    const bool none = offsets[l + 1] == offsets[l];
    isolated[l] = none;
    if (none) aggregated_add(count, 1);
  }
}

}  // namespace

std::size_t degree_order_bytes(index_t arcs, index_t n, std::size_t column_bytes) {
  const auto a = static_cast<std::size_t>(arcs);
  // The keys of every vertex; two key arrays and two column arrays (the sorted one is the result);
  // CUB's scratch, about one more of each.
  return static_cast<std::size_t>(n) + a * (3 + 3 * column_bytes) + (std::size_t{64} << 20);
}

template <class C>
gpu::device_buffer<C> degree_ordered_columns(dist::device_exchange& x, const dist::block_partition& part,
                                             graph::csr_view<std::int64_t> g) {
  const index_t rows = g.local_vertices, arcs = read_one(g.offsets + rows);
  gpu::device_buffer<std::uint8_t> vertex_keys(static_cast<std::size_t>(g.num_vertices));
  {
    gpu::device_buffer<std::uint8_t> mine(static_cast<std::size_t>(rows));
    if (rows > 0)
      gpu::launch(owned_keys_kernel, gpu::grid_blocks(rows, block_threads), block_threads, 0, nullptr, g.offsets,
                  rows, mine.data());
    x.allgather_owned(part, mine.data(), vertex_keys.data());
  }
  gpu::device_buffer<C> sorted(static_cast<std::size_t>(arcs));
  if (arcs == 0) return sorted;
  gpu::device_buffer<std::uint8_t> keys(static_cast<std::size_t>(arcs)), keys_out(static_cast<std::size_t>(arcs));
  gpu::device_buffer<C> cols(static_cast<std::size_t>(arcs));
  gpu::launch(arc_keys_kernel<C>, gpu::grid_blocks(arcs, block_threads), block_threads, 0, nullptr, g.columns, arcs,
              vertex_keys.data(), keys.data(), cols.data());
  vertex_keys = {};
  std::size_t temp_bytes = 0;
  const index_t* begin = g.offsets;
  const index_t* end = g.offsets + 1;
  GPU500_CUDA_CHECK(cub::DeviceSegmentedSort::StableSortPairs(nullptr, temp_bytes, keys.data(), keys_out.data(),
                                                              cols.data(), sorted.data(), arcs, rows, begin, end));
  gpu::device_buffer<unsigned char> temp(temp_bytes);
  GPU500_CUDA_CHECK(cub::DeviceSegmentedSort::StableSortPairs(temp.data(), temp_bytes, keys.data(), keys_out.data(),
                                                              cols.data(), sorted.data(), arcs, rows, begin, end));
  gpu::synchronize();
  return sorted;
}

std::size_t relabel_bytes(index_t rows, index_t arcs, index_t n, std::size_t column_bytes) {
  const auto N = static_cast<std::size_t>(n);
  // The degree order's peak; then the sort of every vertex (keys and ids, double buffered, and
  // CUB's scratch, about as much again), the two maps, the new rows beside the degree-ordered old
  // columns.
  const std::size_t sort = N * (2 + 2 * (2 * 4 + 2 * 8)) + (std::size_t{64} << 20);
  const std::size_t moved = 2 * static_cast<std::size_t>(arcs) * column_bytes + 8 * static_cast<std::size_t>(rows);
  return std::max(degree_order_bytes(arcs, n, column_bytes), sort + moved / 2) + 2 * N * column_bytes + moved / 2;
}

template <class C>
relabelled_rows<C> degree_relabelled_rows(dist::device_exchange& x, const dist::block_partition& part,
                                          graph::csr_view<std::int64_t> g) {
  const index_t rows = g.local_vertices, n = g.num_vertices, first = g.first_vertex;
  relabelled_rows<C> r;
  {  // the map: every vertex sorted by (owner, degree key, id), from the gathered keys
    gpu::device_buffer<std::uint8_t> vertex_keys(static_cast<std::size_t>(n)), isolated(static_cast<std::size_t>(n));
    {
      gpu::device_buffer<std::uint8_t> mine(static_cast<std::size_t>(rows)), none(static_cast<std::size_t>(rows));
      gpu::device_buffer<index_t> isolated_rows(1);
      isolated_rows.zero();
      if (rows > 0) {
        gpu::launch(owned_keys_kernel, gpu::grid_blocks(rows, block_threads), block_threads, 0, nullptr, g.offsets,
                    rows, mine.data());
        gpu::launch(isolated_rows_kernel, gpu::grid_blocks(rows, block_threads), block_threads, 0, nullptr, g.offsets,
                    rows, none.data(), isolated_rows.data());
      }
      r.non_isolated = rows - read_one(isolated_rows.data());  // the sort puts them last
      x.allgather_owned(part, mine.data(), vertex_keys.data());
      x.allgather_owned(part, none.data(), isolated.data());
    }
    gpu::device_buffer<std::uint32_t> keys(static_cast<std::size_t>(n)), keys_out(static_cast<std::size_t>(n));
    gpu::device_buffer<std::int64_t> ids(static_cast<std::size_t>(n)), sorted(static_cast<std::size_t>(n));
    gpu::launch(relabel_keys_kernel, gpu::grid_blocks(n, block_threads), block_threads, 0, nullptr,
                vertex_keys.data(), isolated.data(), n, part.block(), keys.data(), ids.data());
    vertex_keys = {};
    isolated = {};
    std::size_t temp_bytes = 0;
    GPU500_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, keys.data(), keys_out.data(), ids.data(),
                                                      sorted.data(), n));
    gpu::device_buffer<unsigned char> temp(temp_bytes);
    GPU500_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(temp.data(), temp_bytes, keys.data(), keys_out.data(),
                                                      ids.data(), sorted.data(), n));
    r.new2old = gpu::device_buffer<C>(static_cast<std::size_t>(n));
    r.old2new = gpu::device_buffer<C>(static_cast<std::size_t>(n));
    gpu::launch(id_maps_kernel<C>, gpu::grid_blocks(n, block_threads), block_threads, 0, nullptr, sorted.data(), n,
                r.new2old.data(), r.old2new.data());
    gpu::synchronize();
  }
  // The rows: degrees in the new order, their scan, each row moved and renamed.
  r.offsets = gpu::device_buffer<index_t>(static_cast<std::size_t>(rows) + 1);
  if (rows > 0)
    gpu::launch(new_degrees_kernel<C>, gpu::grid_blocks(rows, block_threads), block_threads, 0, nullptr, g.offsets,
                r.new2old.data(), first, rows, r.offsets.data() + 1);
  graph::cuda::offsets_from_degrees(r.offsets.data() + 1, rows, r.offsets.data());
  const gpu::device_buffer<C> ordered = degree_ordered_columns<C>(x, part, g);  // old rows, old ids
  r.columns = gpu::device_buffer<C>(ordered.size());
  if (rows > 0)
    gpu::launch(move_rows_kernel<C>, gpu::grid_blocks_warp_per_item(rows, block_threads), block_threads, 0, nullptr,
                g.offsets, ordered.data(), r.new2old.data(), r.old2new.data(), first, rows, r.offsets.data(),
                r.columns.data());
  gpu::synchronize();
  return r;
}

template <class C>
weighted_arcs<C> relabelled_weighted_arcs(const relabelled_rows<C>& r, graph::csr_view<std::int64_t> g) {
  const index_t rows = g.local_vertices, arcs = read_one(g.offsets + rows);
  GPU500_EXPECTS(arcs == 0 || g.weights != nullptr, "the SSSP's rows need kernel 1's weights");
  weighted_arcs<C> w{gpu::device_buffer<C>(static_cast<std::size_t>(arcs)),
                     gpu::device_buffer<float>(static_cast<std::size_t>(arcs))};
  if (rows > 0)
    gpu::launch(move_weighted_rows_kernel<C>, gpu::grid_blocks_warp_per_item(rows, block_threads), block_threads, 0,
                nullptr, g.offsets, g.columns, g.weights, r.new2old.data(), r.old2new.data(), g.first_vertex, rows,
                r.offsets.data(), w.columns.data(), w.weights.data());
  gpu::synchronize();
  return w;
}

template weighted_arcs<std::uint32_t> relabelled_weighted_arcs<std::uint32_t>(const relabelled_rows<std::uint32_t>&,
                                                                              graph::csr_view<std::int64_t>);
template weighted_arcs<std::int64_t> relabelled_weighted_arcs<std::int64_t>(const relabelled_rows<std::int64_t>&,
                                                                            graph::csr_view<std::int64_t>);

template relabelled_rows<std::uint32_t> degree_relabelled_rows<std::uint32_t>(dist::device_exchange&,
                                                                              const dist::block_partition&,
                                                                              graph::csr_view<std::int64_t>);
template relabelled_rows<std::int64_t> degree_relabelled_rows<std::int64_t>(dist::device_exchange&,
                                                                            const dist::block_partition&,
                                                                            graph::csr_view<std::int64_t>);

template gpu::device_buffer<std::uint32_t> degree_ordered_columns<std::uint32_t>(dist::device_exchange&,
                                                                                 const dist::block_partition&,
                                                                                 graph::csr_view<std::int64_t>);
template gpu::device_buffer<std::int64_t> degree_ordered_columns<std::int64_t>(dist::device_exchange&,
                                                                               const dist::block_partition&,
                                                                               graph::csr_view<std::int64_t>);

}  // namespace gpu500::graph500::mpi::cuda
