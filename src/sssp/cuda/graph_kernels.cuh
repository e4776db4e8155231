// src/sssp/cuda/graph_kernels.cuh — the GPU SSSP engine's helper kernels over the graph: input checks
// and the adaptive width's inputs (graph_summary), the row records of the weight-sorted copy, the
// bitmap of vertices without arcs (lean scan), and the reached degree sum behind Graph500's nedge.
#pragma once

#include "device_state.cuh"

namespace gpu500::sssp::cuda::detail {

/// sum of degrees of reached vertices (nedge * 2), from the packed words (the graph's ids).
template <class V>
static __global__ void reached_degree_kernel(graph_ref<V> g, const unsigned long long* dp, unsigned long long* sum) {
  unsigned long long local = 0;
  for (index_t v : gpu::grid_stride(g.n))
    if (static_cast<unsigned>(dp[v] >> 32) != inf_bits)
      local += static_cast<unsigned long long>(g.offsets[v + 1] - g.offsets[v]);
  for (int off = 16; off > 0; off >>= 1) local += __shfl_xor_sync(full_mask, local, off);
  if (lane_id() == 0 && local) atomicAdd(sum, local);
}

/// The row records of the weight-sorted copy.
static __global__ void row_records_kernel(index_t n, const index_t* offsets, const float* weights, row_rec* rows) {
  for (index_t v : gpu::grid_stride(n)) {
    const index_t b = offsets[v], e = offsets[v + 1];
    rows[v] = {b, static_cast<std::uint32_t>(e - b), e > b ? weights[b] : 0.0f};
  }
}

/// Bitmap of vertices without arcs (lean scan); bits of the padding beyond n are set.
static __global__ void no_arc_bits_kernel(index_t n, const index_t* offsets, std::uint32_t* bits) {
  const index_t words = (n + 31) / 32;
  for (index_t i : gpu::grid_stride(words)) {
    std::uint32_t m = 0;
    for (int b = 0; b < 32; ++b) {
      const index_t v = i * 32 + b;
      if (v >= n || offsets[v + 1] == offsets[v]) m |= 1u << b;
    }
    bits[i] = m;
  }
}

/// Graph checks and the adaptive width's inputs: weight sum, bad weights, ids out of range (of the
/// graph's `vertices`: over ranks g holds one rank's rows), non-isolated vertices.
struct graph_summary {
  double weight_sum;
  unsigned long long bad_weights, bad_columns, nonisolated;
};

template <class V>
static __global__ void graph_summary_kernel(graph_ref<V> g, index_t vertices, graph_summary* out) {
  double wsum = 0;
  unsigned long long bad_w = 0, bad_c = 0, noniso = 0;
  const index_t arcs = g.offsets[g.n];
  for (index_t a : gpu::grid_stride(arcs)) {
    const float x = g.weights[a];
    if (!(x >= 0.0f) || !(x <= 3.0e38f)) ++bad_w;
    else wsum += x;
    const V col = g.cols[a];
    if (!(static_cast<index_t>(col) >= 0 && static_cast<index_t>(col) < vertices)) ++bad_c;
  }
  for (index_t v : gpu::grid_stride(g.n)) noniso += g.offsets[v + 1] > g.offsets[v] ? 1 : 0;
  for (int off = 16; off > 0; off >>= 1) {
    wsum += __shfl_xor_sync(full_mask, wsum, off);
    bad_w += __shfl_xor_sync(full_mask, bad_w, off);
    bad_c += __shfl_xor_sync(full_mask, bad_c, off);
    noniso += __shfl_xor_sync(full_mask, noniso, off);
  }
  if (lane_id() == 0) {
    atomicAdd(&out->weight_sum, wsum);
    atomicAdd(&out->bad_weights, bad_w);
    atomicAdd(&out->bad_columns, bad_c);
    atomicAdd(&out->nonisolated, noniso);
  }
}

}  // namespace gpu500::sssp::cuda::detail
