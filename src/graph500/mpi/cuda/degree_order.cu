// The BFS's degree-ordered copy of a rank's rows (see degree_order.hpp).
#include "degree_order.hpp"

#include <cub/cub.cuh>

#include "common.cuh"
#include "gpu500/core/cuda/check.cuh"

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

template gpu::device_buffer<std::uint32_t> degree_ordered_columns<std::uint32_t>(dist::device_exchange&,
                                                                                 const dist::block_partition&,
                                                                                 graph::csr_view<std::int64_t>);
template gpu::device_buffer<std::int64_t> degree_ordered_columns<std::int64_t>(dist::device_exchange&,
                                                                               const dist::block_partition&,
                                                                               graph::csr_view<std::int64_t>);

}  // namespace gpu500::graph500::mpi::cuda
