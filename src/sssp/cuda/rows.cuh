// src/sssp/cuda/rows.cuh — the GPU SSSP engine's own copy of the graph's rows, each sorted by weight
// (a CUB segmented sort of (weight, column) pairs; duplicate arcs and their weights are kept), so
// that a light phase reads a row's light prefix and a heavy phase the rest as contiguous ranges.
// The sort runs in batches of whole rows (graph::cuda::for_each_row_batch) so that its scratch
// stays small beside the graph.
#pragma once

#include <cuda_runtime.h>

#include <cub/device/device_segmented_sort.cuh>

#include <algorithm>
#include <cstddef>

#include "gpu500/core/cuda/check.cuh"
#include "gpu500/core/cuda/memory.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/graph/cuda.hpp"

namespace gpu500::sssp::cuda::detail {

/// Sorts every row of `view` (arcs > 0 arcs) by weight into `cols` and `weights` (allocated here),
/// in batches of about `sort_batch` arcs, ordered on `stream` and synchronised. False, with both
/// buffers empty, when the device memory for the copy (or the sort's scratch) is missing.
template <class V>
bool sort_rows_by_weight(const graph::csr_view<V>& view, index_t arcs, std::int64_t sort_batch, cudaStream_t stream,
                         gpu::device_buffer<V>& cols, gpu::device_buffer<float>& weights) {
  try {
    cols = gpu::device_buffer<V>(static_cast<std::size_t>(arcs));
    weights = gpu::device_buffer<float>(static_cast<std::size_t>(arcs));
    GPU500_CUDA_CHECK(cudaStreamSynchronize(stream));
    const graph::cuda::row_batch_plan plan = graph::cuda::plan_row_batches(view.offsets, view.num_vertices, arcs, sort_batch);
    gpu::device_buffer<index_t> rel(static_cast<std::size_t>(plan.max_rows + 1));  // a batch's row offsets
    std::size_t temp_bytes = 0;
    GPU500_CUDA_CHECK(cub::DeviceSegmentedSort::SortPairs(nullptr, temp_bytes, view.weights, weights.data(), view.columns,
                                                          cols.data(), plan.max_items, plan.max_rows, rel.data(),
                                                          rel.data() + 1, stream));
    gpu::device_buffer<unsigned char> temp(std::max<std::size_t>(temp_bytes, 16));  // never a size query
    graph::cuda::for_each_row_batch(
        plan, view.offsets, rel.data(), stream, [&](index_t, index_t rows, index_t o0, index_t items, const index_t* r) {
          std::size_t bytes = temp_bytes;
          GPU500_CUDA_CHECK(cub::DeviceSegmentedSort::SortPairs(temp.data(), bytes, view.weights + o0,
                                                                weights.data() + o0, view.columns + o0,
                                                                cols.data() + o0, items, rows, r, r + 1, stream));
        });
    GPU500_CUDA_CHECK(cudaStreamSynchronize(stream));
    return true;
  } catch (const resource_error&) {
    cols = gpu::device_buffer<V>();
    weights = gpu::device_buffer<float>();
    return false;
  }
}

}  // namespace gpu500::sssp::cuda::detail
