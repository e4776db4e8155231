// gpu500/dist/partition.hpp — how vertices [0, n) are shared among R ranks.
//
// A partition is a policy: any type with the members of partition_policy can stand where
// block_partition stands today (a 2-D partition of the adjacency matrix would add the row and
// column communicators it needs). block_partition gives rank r the contiguous block
// [r * B, (r + 1) * B) clipped to n, with the block B = ceil(n / R) rounded up to a whole number
// of `granule` vertices (64 by default: each rank's share of a vertex bitmap is whole 64-bit
// words, so bitmaps are gathered without shifting). Ranks past the end own nothing.
#pragma once

#include <algorithm>
#include <concepts>

#include "gpu500/core/error.hpp"
#include "gpu500/core/types.hpp"

namespace gpu500::dist {

/// Vertices [first, first + count).
struct vertex_range {
  index_t first = 0, count = 0;
  [[nodiscard]] index_t end() const { return first + count; }
  [[nodiscard]] bool contains(index_t v) const { return v >= first && v < first + count; }
};

template <class P>
concept partition_policy = requires(const P& p, index_t v, int r) {
  { p.num_vertices() } -> std::convertible_to<index_t>;
  { p.ranks() } -> std::convertible_to<int>;
  { p.owner(v) } -> std::convertible_to<int>;        ///< the rank holding v
  { p.local(v) } -> std::convertible_to<index_t>;    ///< v's index on its owner
  { p.global(r, v) } -> std::convertible_to<index_t>;  ///< local index v of rank r -> vertex
  { p.range(r) } -> std::convertible_to<vertex_range>;  ///< what rank r owns
};

class block_partition {
 public:
  block_partition() = default;
  block_partition(index_t n, int ranks, index_t granule = 64) : n_(n), ranks_(ranks) {
    GPU500_EXPECTS(n >= 0 && ranks >= 1 && granule >= 1, "a partition needs n >= 0, ranks >= 1, granule >= 1");
    const index_t share = (n + ranks - 1) / ranks;
    block_ = std::max<index_t>(granule, (share + granule - 1) / granule * granule);
  }

  [[nodiscard]] index_t num_vertices() const { return n_; }
  [[nodiscard]] int ranks() const { return ranks_; }
  /// Vertices per rank (the last ranks may own fewer, or none).
  [[nodiscard]] index_t block() const { return block_; }
  [[nodiscard]] int owner(index_t v) const { return static_cast<int>(v / block_); }
  [[nodiscard]] index_t local(index_t v) const { return v % block_; }
  [[nodiscard]] index_t global(int r, index_t l) const { return static_cast<index_t>(r) * block_ + l; }
  [[nodiscard]] vertex_range range(int r) const {
    const index_t first = std::min(n_, static_cast<index_t>(r) * block_);
    return {first, std::min(n_, first + block_) - first};
  }
  /// Whether a graph view holds exactly rank r's rows (the host engines' precondition).
  template <class View>
  [[nodiscard]] bool holds_rows(int r, const View& g) const {
    const vertex_range mine = range(r);
    return g.num_vertices == n_ && g.first_vertex == mine.first && g.local_vertices == mine.count;
  }

 private:
  index_t n_ = 0, block_ = 64;
  int ranks_ = 1;
};
static_assert(partition_policy<block_partition>);

}  // namespace gpu500::dist
