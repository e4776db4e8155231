// The arcs of a list of rows spread evenly over warps (internal; .cu files only), as the BFS's
// top-down levels and the SSSP's relaxations visit them. Rows of at most tile_max_degree arcs go
// 32 to a warp: their degrees are prefix-summed with shuffles and lane k of a round takes arc
// `base + k` of the flattened list, whose row is the last lane whose exclusive sum is at most that
// index (a five-step search over the lanes). Longer rows (Kronecker hubs hold up to 10^6 arcs)
// are cut into chunks of chunk_arcs arcs, one warp each, so that one hub does not hold up the
// phase: make_chunks_kernel lists them (or for_tile_arcs does, where a span costs more than a
// read to find), for_chunk_arcs walks them. Which arcs of a row a pass visits is a span
// functor's choice (every arc for the BFS, a bucket's light prefix or heavy suffix of a
// weight-sorted row for the SSSP).
#pragma once

#include <cuda_runtime.h>

#include "common.cuh"

namespace gpu500::graph500::mpi::cuda {

inline constexpr index_t tile_max_degree = 256;
inline constexpr index_t chunk_arcs = 1024;

/// Chunk entries a list of rows with `arcs` arcs in all can need (three index_t each: row, first
/// and end arc): a chunk per chunk_arcs arcs of a long row, rounded up, so at most one more per
/// long row.
inline index_t max_chunks(index_t arcs) { return arcs / chunk_arcs + arcs / tile_max_degree + 1; }

/// The arcs of a row a pass visits, [first, first + count), and a value the visit needs, read
/// once per row. A span functor maps a row to its row_span.
template <class T>
struct row_span {
  index_t first = 0, count = 0;
  T value{};
};

/// Every arc of a row, no value (the BFS's span functor).
struct whole_rows {
  const index_t* offsets;
  __device__ row_span<int> operator()(index_t row) const { return {offsets[row], offsets[row + 1] - offsets[row], 0}; }
};

/// The span [first, first + count) of `row`, cut into (row, first arc, end arc) chunks of `size`
/// arcs appended to `chunks` (their number in *chunk_count).
__device__ __forceinline__ void append_chunks(index_t row, index_t first, index_t count, index_t* chunks,
                                              index_t* chunk_count, index_t size = chunk_arcs) {
  const index_t parts = (count + size - 1) / size, end = first + count;
  const index_t at = atomic_add(chunk_count, parts);
  for (index_t c = 0; c < parts; ++c) {
    const index_t begin = first + c * size;
    chunks[3 * (at + c)] = row;
    chunks[3 * (at + c) + 1] = begin;
    chunks[3 * (at + c) + 2] = begin + size < end ? begin + size : end;
  }
}

/// For every arc of the spans of the listed rows (the first n entries of list) whose spans hold
/// at most tile_max_degree arcs: f(arc, row, value); the longer spans are appended as chunks when
/// `chunks` is given (else make_chunks_kernel lists them). Call from every lane of every warp of
/// the grid (warp-uniform loop).
template <class Span, class F>
__device__ __forceinline__ void for_tile_arcs(const index_t* list, index_t n, Span span, F f,
                                              index_t* chunks = nullptr, index_t* chunk_count = nullptr) {
  constexpr unsigned full_mask = 0xffffffffu;
  const int lane = static_cast<int>(gpu::lane_id());
  const index_t step = gpu::grid_warps() * gpu::warp_size;
  for (index_t t0 = gpu::global_warp_id() * gpu::warp_size; t0 < n; t0 += step) {  // warp-uniform
    const index_t i = t0 + lane;
    index_t row = 0, first = 0, degree = 0;
    decltype(span(index_t{0}).value) value{};
    if (i < n) {
      row = list[i];
      const auto s = span(row);
      first = s.first;
      degree = s.count > tile_max_degree ? 0 : s.count;  // longer spans are the chunks'
      if (degree == 0 && s.count > 0 && chunks != nullptr) append_chunks(row, s.first, s.count, chunks, chunk_count);
      value = s.value;
    }
    index_t inclusive = degree;
    for (int o = 1; o < gpu::warp_size; o *= 2) {
      const index_t y = __shfl_up_sync(full_mask, inclusive, o);
      if (lane >= o) inclusive += y;
    }
    const index_t total = __shfl_sync(full_mask, inclusive, gpu::warp_size - 1);
    const index_t exclusive = inclusive - degree;
    for (index_t base = 0; base < total; base += gpu::warp_size) {
      const index_t k = base + lane;
      int s = 0;  // the last lane whose exclusive sum is <= k (s + step never passes lane 31)
      for (int w = gpu::warp_size / 2; w > 0; w /= 2)
        if (__shfl_sync(full_mask, exclusive, s + w) <= k) s += w;
      const index_t arc = __shfl_sync(full_mask, first, s) + (k - __shfl_sync(full_mask, exclusive, s));
      const index_t src = __shfl_sync(full_mask, row, s);
      const auto v = __shfl_sync(full_mask, value, s);
      if (k < total) f(arc, src, v);
    }
  }
}

/// The listed rows whose spans hold more than tile_max_degree arcs, cut into (row, first arc,
/// end arc) chunks appended to `chunks` (their number in *chunk_count). The list's length is
/// *n_device when given, else n.
template <class Span>
__global__ void make_chunks_kernel(Span span, const index_t* list, const index_t* n_device, index_t n,
                                   index_t* chunks, index_t* chunk_count) {
  if (n_device) n = *n_device;
  for (index_t i : gpu::grid_stride(n)) {
    const index_t row = list[i];
    const auto s = span(row);
    if (s.count > tile_max_degree) append_chunks(row, s.first, s.count, chunks, chunk_count);
  }
}

/// For every arc of the chunks (a warp each; their number is *chunk_count): f(arc, row, value),
/// value = value_of(row) read by every lane. Call from every lane of every warp of the grid.
template <class Value, class F>
__device__ __forceinline__ void for_chunk_arcs(const index_t* chunks, const index_t* chunk_count, Value value_of,
                                               F f) {
  const index_t n = *chunk_count;
  for (index_t c : gpu::warp_stride(n)) {
    const index_t row = chunks[3 * c], begin = chunks[3 * c + 1], end = chunks[3 * c + 2];
    const auto value = value_of(row);
    for (index_t k = begin + gpu::lane_id(); k < end; k += gpu::warp_size) f(k, row, value);
  }
}

}  // namespace gpu500::graph500::mpi::cuda
