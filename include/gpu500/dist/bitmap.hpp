// gpu500/dist/bitmap.hpp — a vertex bitmap shared by the ranks of a block partition.
//
// Bit v of a bitmap over [0, n) is bit (v % 64) of word v / 64. Each rank holds the words of its
// own vertices (its slice); the all-gather gives every rank the whole bitmap. The functions take
// raw word pointers, so the same call serves device memory under a CUDA-aware MPI.
#pragma once

#include <cstdint>

#include "gpu500/dist/comm.hpp"
#include "gpu500/dist/partition.hpp"

namespace gpu500::dist {

/// 64-bit words of a bitmap over `bits` bits.
[[nodiscard]] constexpr index_t bitmap_words(index_t bits) { return (bits + 63) / 64; }

/// Words of rank r's slice of a bitmap over the partition's vertices.
[[nodiscard]] index_t bitmap_slice_words(const block_partition& p, int r);

/// Every rank's slice (`local`: bitmap_slice_words(p, rank) words) -> the whole bitmap on every
/// rank (`global`: bitmap_words(p.num_vertices()) words). Needs p.block() to be a multiple of 64.
void allgather_bitmap(const communicator& c, const block_partition& p, const std::uint64_t* local,
                      std::uint64_t* global);

[[nodiscard]] inline bool test_bit(const std::uint64_t* words, index_t v) {
  return (words[v >> 6] >> (v & 63)) & 1u;
}
inline void set_bit(std::uint64_t* words, index_t v) { words[v >> 6] |= std::uint64_t{1} << (v & 63); }

}  // namespace gpu500::dist
