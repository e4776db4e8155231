// src/bfs/cuda/over_ranks.cuh — the kernels a search over MPI ranks adds to a level (the
// engine's exchanges are in engine_impl.cuh): the claim of the (child, parent) pairs that arrived
// from the other ranks after a top-down level, and the union of bitmaps that keeps a rank from
// offering a child known visited.
#pragma once

#include <cstdint>

#include "gpu500/core/cuda/launch.cuh"
#include "gpu500/core/types.hpp"
#include "gpu500/dist/device_pairs.cuh"
#include "top_down.cuh"

namespace gpu500::bfs::cuda::detail {

/// The arrived pairs (from rank r: [displs[r], displs[r + 1])), each the child's row here (high
/// half) and the parent's row on its sender (low half): an unvisited child gets depth `next` and
/// the sender's vertex as parent, and joins the next frontier's list (claim_row, as top-down's
/// own claims over ranks).
template <class V>
__global__ void claim_pairs_kernel(const std::uint64_t* pairs, index_t n, const index_t* displs, int ranks,
                                   std::int32_t* depth, V* parent, std::int32_t next, rank_sink<V> r) {
  for (index_t i : gpu::grid_stride(n)) {
    const std::uint64_t p = pairs[i];
    if (depth[p >> 32] != -1) continue;  // taken: no search for the sender
    const V sender_vertex = static_cast<V>(static_cast<index_t>(dist::cuda::sender_of(displs, ranks, i)) * r.block +
                                           static_cast<index_t>(p & 0xffffffffu));
    claim_row(depth, parent, static_cast<index_t>(p >> 32), next, sender_vertex, r);
  }
}

/// into[w] |= from[w] for the words [0, words).
__global__ void or_words_kernel(const std::uint64_t* from, index_t words, std::uint64_t* into) {
  for (index_t w : gpu::grid_stride(words)) into[w] |= from[w];
}

}  // namespace gpu500::bfs::cuda::detail
