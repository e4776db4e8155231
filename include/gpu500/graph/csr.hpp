// gpu500/graph/csr.hpp — compressed sparse row graphs: an owning host csr<V> and a trivially
// copyable csr_view<V> usable on host and device.
//
// Graph500 kernel 1 semantics: both directions of every input edge are stored (a directed graph's
// kernel 1, build_csr_directed, stores each arc in its tail's row only), self-loops are dropped,
// duplicate edges are kept; neighbour order within a row is unspecified. Offsets are 64-bit; the
// vertex id type V (std::uint32_t or std::int64_t) is a template parameter so that the id width
// is a visible choice (Graph500 asks for >= 48 bits; 32 bits is a stated speed choice).
// A view also names the range of vertices this process owns ([first_vertex, first_vertex+local_n)),
// all of them on one process, so that 1-D partitioning extends the code instead of replacing it.
#pragma once

#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

#include "gpu500/core/types.hpp"
#include "gpu500/dist/comm.hpp"
#include "gpu500/dist/partition.hpp"
#include "gpu500/graph/edge_list.hpp"

namespace gpu500::graph {

class arc_sort_scratch;  // gpu500/graph/arc_sort.hpp

template <class V>
struct csr_view {
  index_t num_vertices = 0;        ///< global vertex count
  index_t first_vertex = 0;        ///< first vertex owned by this process
  index_t local_vertices = 0;      ///< rows stored here (row r is vertex first_vertex + r)
  const index_t* offsets = nullptr;  ///< local_vertices + 1 entries
  const V* columns = nullptr;        ///< offsets[local_vertices] entries
  const float* weights = nullptr;    ///< parallel to columns, or null for an unweighted graph

  GPU500_HD index_t num_arcs() const { return offsets[local_vertices]; }
  GPU500_HD index_t degree(index_t row) const { return offsets[row + 1] - offsets[row]; }
};
static_assert(std::is_trivially_copyable_v<csr_view<std::uint32_t>>);

/// A relabelling of a graph's vertices (kernel 1's degree order), as the searches need it to
/// report their output in the original ids: pointers in the graph's memory space. Ids
/// [0, non_isolated) are the vertices with arcs; the rest have none.
template <class V>
struct id_map {
  const V* new2old = nullptr;
  const V* old2new = nullptr;
  index_t non_isolated = 0;

  [[nodiscard]] bool empty() const { return new2old == nullptr; }
};

template <class V>
struct csr {
  index_t num_vertices = 0;      ///< global vertex count
  index_t first_vertex = 0;      ///< row r is vertex first_vertex + r (0 on one process)
  host_vector<index_t> offsets;  ///< rows + 1 (num_vertices + 1 on one process)
  host_vector<V> columns;        ///< global ids
  host_vector<float> weights;  ///< empty when unweighted

  [[nodiscard]] index_t rows() const { return offsets.empty() ? 0 : static_cast<index_t>(offsets.size()) - 1; }
  [[nodiscard]] csr_view<V> view() const {
    return {num_vertices, first_vertex, rows(), offsets.data(), columns.data(), weights.empty() ? nullptr : weights.data()};
  }
  [[nodiscard]] index_t num_arcs() const { return static_cast<index_t>(columns.size()); }
  [[nodiscard]] index_t degree(index_t row) const { return offsets[row + 1] - offsets[row]; }
  [[nodiscard]] std::size_t bytes() const {
    return offsets.size() * sizeof(index_t) + columns.size() * sizeof(V) + weights.size() * sizeof(float);
  }
};

/// Kernel 1's check of the ends of m edges (src[i], dst[i]): throws usage_error "graph: edge i
/// (u, v) has an endpoint outside [0, n)" for the first edge with such an end, if any (one
/// parallel pass; build_csr finds a bad end in a pass of its own and calls this to name it).
void check_edge_ends(const std::int64_t* src, const std::int64_t* dst, index_t m, index_t n);
/// The vertex count the m > 0 edges (src[i], dst[i]) imply, their largest end + 1, after checking
/// (one parallel pass) that no end is negative (check_edge_ends' error) and none reaches 2^48.
[[nodiscard]] index_t vertex_count_of_edges(const std::int64_t* src, const std::int64_t* dst, index_t m);

/// Kernel 1 on the host (OpenMP): a two-level counting sort of the arcs by tail (vertex blocks,
/// then rows; no atomics). Weights are copied when the edge list has them. Within a row, arcs
/// keep edge-list order, whatever the thread count. The vertex count is el.num_vertices; an endpoint outside [0, n) throws
/// usage_error naming the edge. With V = uint32 the vertex count must fit in 32 bits.
/// `scratch` (optional) holds the sort's buckets and keeps them for a later sort (arc_sort.hpp).
template <class V>
csr<V> build_csr(const edge_list& el, arc_sort_scratch* scratch = nullptr);
/// The same over the ranks of `c` (collective; one process is the one-rank case, where nothing
/// is exchanged): `slice` is this rank's part of the edge list; every edge goes to the owners of
/// its two endpoints (one all-to-all of arcs), and the rows of the vertices `part` gives this rank
/// are sorted from the arcs that arrive. Arrivals come in rank order and each rank sends in edge
/// order, so a row holds its arcs in global edge order, as on one process.
template <class V>
csr<V> build_csr(const dist::communicator& c, const dist::block_partition& part, const edge_list& slice,
                 arc_sort_scratch* scratch = nullptr);
/// Kernel 1 of a directed graph (one process): each edge (src, dst) is the one arc src -> dst,
/// stored in src's row only (self-loops dropped, duplicates kept, edge-list order within a row).
/// A row is then a vertex's out-arcs, its degree the out-degree; no row holds the in-arcs.
template <class V>
csr<V> build_csr_directed(const edge_list& el, arc_sort_scratch* scratch = nullptr);
extern template csr<std::uint32_t> build_csr<std::uint32_t>(const edge_list&, arc_sort_scratch*);
extern template csr<std::uint32_t> build_csr_directed<std::uint32_t>(const edge_list&, arc_sort_scratch*);
extern template csr<std::int64_t> build_csr_directed<std::int64_t>(const edge_list&, arc_sort_scratch*);
extern template csr<std::int64_t> build_csr<std::int64_t>(const edge_list&, arc_sort_scratch*);
extern template csr<std::uint32_t> build_csr<std::uint32_t>(const dist::communicator&, const dist::block_partition&,
                                                            const edge_list&, arc_sort_scratch*);
extern template csr<std::int64_t> build_csr<std::int64_t>(const dist::communicator&, const dist::block_partition&,
                                                          const edge_list&, arc_sort_scratch*);

/// The degrees of the reached rows (parent != -1) of a view summed: over every rank of a
/// partition, halved, Graph500's nedge of a search (the input edges with both ends reached,
/// duplicates counted, self-loops excluded: a kernel-1 graph holds none). OpenMP over `threads`
/// (0: the default). For the engines; the validator counts on its own.
template <class V>
index_t reached_degree_sum(csr_view<V> g, std::span<const std::int64_t> parent, int threads = 0);
extern template index_t reached_degree_sum<std::uint32_t>(csr_view<std::uint32_t>, std::span<const std::int64_t>, int);
extern template index_t reached_degree_sum<std::int64_t>(csr_view<std::int64_t>, std::span<const std::int64_t>, int);
/// nedge of a search over a whole graph (one process): reached_degree_sum / 2.
template <class V>
index_t reached_edges(csr_view<V> g, std::span<const std::int64_t> parent, int threads = 0) {
  return reached_degree_sum(g, parent, threads) / 2;
}
/// nedge of a search over the ranks of `c` (collective): every rank's reached_degree_sum of its
/// rows, summed, / 2.
template <class V>
index_t reached_edges(const dist::communicator& c, csr_view<V> g, std::span<const std::int64_t> parent,
                      int threads = 0) {
  return c.allreduce(reached_degree_sum(g, parent, threads), dist::reduce_op::sum) / 2;
}

/// nedge of a search over the ranks of `c` (collective) on an undirected graph (reached_edges) or
/// on a directed one (build_csr_directed's rows): there every out-arc of a reached vertex was
/// followed once, so the reached degrees are summed, not halved.
template <class V>
index_t search_nedge(const dist::communicator& c, csr_view<V> g, std::span<const std::int64_t> parent, bool directed,
                     int threads = 0) {
  return directed ? c.allreduce(reached_degree_sum(g, parent, threads), dist::reduce_op::sum)
                  : reached_edges(c, g, parent, threads);
}

/// Bytes build_csr needs for an edge list of m edges on n vertices (offsets, columns, weights,
/// and the sort's temporary buckets, 12 or 16 bytes per arc), for memory checks before a run.
std::size_t csr_bytes(index_t n, index_t m, std::size_t vertex_bytes, bool weighted);

}  // namespace gpu500::graph
