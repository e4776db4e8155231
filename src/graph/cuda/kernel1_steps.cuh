// src/graph/cuda/kernel1_steps.cuh — the steps of kernel 1 on the device that one process
// (kernel1.cu) and a rank of many (kernel1_ranks.cu) share (internal): the rows' offsets from
// their degrees, every arc placed in its row at an atomic cursor, and the rows sorted. An arc
// source is a functor `arcs(i, out)` that calls out(row, column, weight) for each arc that item i
// gives: one process, or the only rank of a run, reads its edge list (edge_arcs: both directions of
// an edge, the ends renamed when the graph is relabelled), a rank of many the arcs that arrived
// from the other ranks.
#pragma once

#include <cstdint>

#include "gpu500/core/cuda/launch.cuh"
#include "gpu500/core/types.hpp"

namespace gpu500::graph::cuda::detail {

using ull = unsigned long long;

/// An edge list's arcs: both directions of edge e (a directed graph: src -> dst alone), self-loops
/// dropped, the ends renamed through old2new when it is given.
template <class V>
struct edge_arcs {
  const V* src;
  const V* dst;
  const float* weight;  ///< null: no weights
  bool directed;
  const V* old2new;  ///< null: the ids as they are
  template <class Out>
  __device__ void operator()(index_t e, Out&& out) const {
    V u = src[e], v = dst[e];
    if (u == v) return;
    if (old2new) {
      u = old2new[u];
      v = old2new[v];
    }
    const float x = weight ? weight[e] : 0.f;
    out(static_cast<index_t>(u), v, x);
    if (!directed) out(static_cast<index_t>(v), u, x);
  }
};

/// degree[row] += 1 for every arc of the items [0, items).
template <class Arcs>
__global__ void count_arcs_kernel(index_t items, Arcs arcs, ull* degree) {
  for (index_t i : gpu::grid_stride(items))
    arcs(i, [degree](index_t row, auto, float) { atomicAdd(degree + row, 1ull); });
}

/// Every arc of the items [0, items) at the next free place of its row (cursor: the row's offset,
/// advanced), its weight beside it when weights is not null.
template <class C, class Arcs>
__global__ void place_arcs_kernel(index_t items, Arcs arcs, ull* cursor, C* columns, float* weights) {
  for (index_t i : gpu::grid_stride(items))
    arcs(i, [cursor, columns, weights](index_t row, C column, float w) {
      const ull p = atomicAdd(cursor + row, 1ull);
      columns[p] = column;
      if (weights) weights[p] = w;
    });
}

/// Every row [offsets[r], offsets[r + 1]) of `columns` (and `weights`, which move with them)
/// sorted ascending by column, or with by_weight by (weight, column): a segmented sort by column,
/// then a stable one by weight; or, for 64-bit columns that are all below 2^32 (narrow_columns)
/// and weights >= 0, one segmented sort of (weight, column) packed into one 64-bit key (a weight
/// of -0 comes back as +0). In batches of whole rows of about `batch` arcs, so that CUB's output
/// and scratch space stay small beside the graph.
template <class V>
void sort_rows(const index_t* offsets, index_t rows, index_t arcs, index_t batch, V* columns, float* weights,
               bool by_weight, bool narrow_columns);

}  // namespace gpu500::graph::cuda::detail
