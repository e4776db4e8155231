// Hub delegates of the CUDA BFS over MPI ranks (internal): the top-down levels expand the
// graph's largest hubs on every rank at once instead of on their owners alone.
//
// Under a 1-D partition a top-down level expands each frontier row on the rank that owns it, and
// Kronecker hubs hold up to 10^6 arcs: the rank owning the largest frontier hubs sets the level's
// pace, and every arc becomes a (child, parent) pair to send. But the graph is undirected: each
// arc (h, v) of a hub h is also the arc (v, h) of v's row, on v's owner. So every rank keeps, for
// each of the graph's hubs, the list of its own rows adjacent to that hub (the vertex delegates
// of Pearce, Gokhale & Amato, SC'14, made from the rows the rank already holds). A top-down
// level whose frontier holds hubs then has every rank claim its own rows from those lists, with
// the hub as their parent: each hub's arcs are split over the ranks as its neighbours are, no
// pair is sent for them, and the owner no longer walks the hub's row.
//
// A level can claim those rows two ways, each rank choosing for itself (the claimed rows are the
// same): push, walking the frontier hubs' lists (cheap while they are short: the root's hub, a
// hub in a tail level), or pull, where each unvisited row looks through its own hubs (`row_hubs`,
// in descending degree) for the first in the frontier, whose bits sit in shared memory: no atomic
// per arc, and a row stops at its first hit (the hub level of a Kronecker graph, where the
// frontier holds most hubs, whose lists hold about a sixth of the arcs at SCALE 28).
//
// Which vertices are hubs is decided once, over all ranks: those with at least `min_degree` arcs,
// the smallest power of two (at least 2) for which the hubs are at most max_hubs and their arcs at
// most a share of the graph's arcs (the lists' memory). A power of two is a boundary of the BFS's
// degree classes (degree_order.hpp), so in a degree-ordered row the arcs to hubs come first: the
// lists are made from each row's prefix. Every rank knows the hubs' ids (ascending, the index of
// a hub in `ids` being its bit in the frontier's hub words); rank r's own hubs are the indices
// [first_mine, first_mine + mine).
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "gpu500/core/cuda/memory.hpp"
#include "gpu500/dist/comm.hpp"
#include "gpu500/graph/csr.hpp"

namespace gpu500::graph500::mpi::cuda {

/// At most this many hubs: the frontier's hub bits ride in each level's reduction (512 words) and
/// fit a block's shared memory; a hub index fits 16 bits.
inline constexpr index_t max_hubs = 32768;
static_assert(max_hubs <= 65536);

/// Entries of a walked hub list a warp takes at once: short, as a walking level's lists hold a few
/// million entries a rank, too few for 1024-entry chunks to keep every warp busy, and an entry's
/// accesses are dependent loads.
inline constexpr index_t hub_chunk_entries = 128;

struct hub_delegates {
  /// Rows of at least this many arcs are hubs; index_t's maximum when there are none.
  index_t min_degree = std::numeric_limits<index_t>::max();
  index_t count = 0;                       ///< hubs over all ranks
  index_t first_mine = 0, mine = 0;        ///< this rank's hubs: indices [first_mine, first_mine + mine)
  gpu::device_buffer<std::int64_t> ids;    ///< `count` global vertex ids, ascending
  std::vector<std::int64_t> host_ids;      ///< a host copy of ids (the root's hub bit)
  gpu::device_buffer<index_t> offsets;     ///< count + 1: hub j's rows are rows[offsets[j], offsets[j + 1])
  gpu::device_buffer<std::uint32_t> rows;  ///< owned rows adjacent to each hub, ascending within a hub
  index_t entries = 0;                     ///< rows' length (< 2^32)
  std::vector<index_t> host_offsets;       ///< a host copy of offsets (the push/pull choice)
  /// rows + 1 (empty without entries): row l's hubs are row_hubs[row_starts[l], row_starts[l + 1]).
  gpu::device_buffer<std::uint32_t> row_starts;
  gpu::device_buffer<std::uint16_t> row_hubs;  ///< hub indices, row by row, each row's in descending degree

  /// 64-bit words of a bitmap with a bit per hub.
  [[nodiscard]] index_t words() const { return (count + 63) / 64; }
};

/// The hubs and this rank's lists, from its degree-ordered rows `g` (offsets and columns on the
/// device; 32- or 64-bit columns). arc_share: the hubs' arcs may be at most this share of the
/// graph's arcs (0: no hubs). Collective.
template <class V>
hub_delegates make_hub_delegates(const dist::communicator& c, graph::csr_view<V> g, double arc_share);

/// Device bytes the lists hold for a rank of `rows` rows and `arcs` arcs (its share of the hubs'
/// arcs taken as the graph's), and what making them needs for a while besides.
[[nodiscard]] std::size_t hub_delegates_bytes(index_t rows, index_t arcs, double arc_share);
[[nodiscard]] std::size_t hub_delegates_construction_bytes(index_t rows, index_t arcs, double arc_share);

}  // namespace gpu500::graph500::mpi::cuda
