// The searches' copies of a rank's rows (internal), relabelled within the blocks by VS-Graph500's
// degree order so that every vertex keeps its owner: the BFS's rows each in descending degree of
// its far ends (a bottom-up row scan stops at its first neighbour in the frontier, and the
// likeliest ones come first: high-degree vertices are reached at shallow levels), and the SSSP's
// rows in the same new ids, each in kernel 1's order by weight, its weights beside it. Relabelled,
// the rows most often touched have their state together (in the L2 cache). The columns are 32-bit
// where every vertex id fits (half the bytes a row walk reads), else 64-bit.
//
// Each rank works out a one-byte degree class of its owned rows (a logarithm in eighths of an
// octave), the classes are all-gathered (n bytes, freed again), every arc takes its far end's
// class as its key and a stable segmented sort orders every row by it; arcs of equal class keep
// the order the rows had (by column, or by weight), so a row's order is fixed by its contents.
// The relabelling sorts every vertex by (owner, class) from the same gathered classes, so every
// rank computes the whole map itself; the rows are then moved to their new places and their
// columns renamed.
#pragma once

#include <cstdint>

#include "gpu500/dist/device_exchange.hpp"
#include "gpu500/core/cuda/memory.hpp"
#include "gpu500/dist/partition.hpp"
#include "gpu500/graph/csr.hpp"

namespace gpu500::graph500::mpi::cuda {

/// Whether every vertex id of a graph of n vertices fits a 32-bit column.
[[nodiscard]] inline bool narrow_columns_fit(index_t n) { return n - 1 <= index_t{0xffffffff}; }

/// g's columns (device) with every row in descending degree of its far end, as C (std::uint32_t:
/// needs narrow_columns_fit(g.num_vertices); or std::int64_t). Collective.
template <class C>
gpu::device_buffer<C> degree_ordered_columns(dist::device_exchange& x, const dist::block_partition& part,
                                             graph::csr_view<std::int64_t> g);

/// Device bytes degree_ordered_columns holds at its peak besides g, C being `column_bytes` wide,
/// for `arcs` arcs in a graph of n vertices (the result included).
[[nodiscard]] std::size_t degree_order_bytes(index_t arcs, index_t n, std::size_t column_bytes);

/// The BFS's rows relabelled within each rank's block: VS-Graph500's degree order kept inside the
/// block partition, so that every vertex keeps its owner. Rank r's vertices take the ids of rank
/// r's block in descending degree class (ties in id order, the vertices without arcs last), and
/// every row is in descending degree of its far ends, in the new ids. On one rank this is the
/// one-process relabelling (up to ties).
template <class C>
struct relabelled_rows {
  gpu::device_buffer<index_t> offsets;  ///< this rank's rows in their new order (rows + 1)
  gpu::device_buffer<C> columns;        ///< new ids
  gpu::device_buffer<C> new2old;        ///< every vertex: new id -> original id
  gpu::device_buffer<C> old2new;        ///< every vertex: original id -> new id
  index_t non_isolated = 0;             ///< this rank's rows with arcs: the new rows [0, non_isolated)
};

/// g's rows relabelled (collective; C as for degree_ordered_columns).
template <class C>
relabelled_rows<C> degree_relabelled_rows(dist::device_exchange& x, const dist::block_partition& part,
                                          graph::csr_view<std::int64_t> g);

/// Device bytes degree_relabelled_rows holds at its peak besides g (the result included).
[[nodiscard]] std::size_t relabel_bytes(index_t rows, index_t arcs, index_t n, std::size_t column_bytes);

/// The SSSP's rows in the same new ids: new row j is the old row new2old[first + j] in kernel 1's
/// order (by weight, which the SSSP's light / heavy split reads), its columns renamed and its
/// weights beside them; the offsets are r's (the same degrees in the same order).
template <class C>
struct weighted_arcs {
  gpu::device_buffer<C> columns;     ///< new ids
  gpu::device_buffer<float> weights;
};

/// g's weighted rows moved to r's new order (g.weights must be set where the rank holds arcs).
template <class C>
weighted_arcs<C> relabelled_weighted_arcs(const relabelled_rows<C>& r, graph::csr_view<std::int64_t> g);

}  // namespace gpu500::graph500::mpi::cuda
