// gpu500/graph/cuda.hpp — graphs in device memory: the Kronecker generator on the GPU, kernel 1
// (edge list -> CSR) on the GPU, and the degree-sorted relabelling of VS-Graph500.
//
// The generator runs make_kronecker_edge (graph/kronecker.hpp) on the device with a device copy of
// the MRG skip tables, so its edge list is bit-identical to generate_kronecker on the host.
// Kernel 1 (build_device_csr) follows the reference's construction: a degree pass (self-loops
// dropped), an exclusive scan (CUB) into 64-bit offsets, a fill pass with one atomic cursor per
// vertex storing both directions (duplicates kept); the edge list is freed as soon as the CSR is
// filled. With relabel on (VS-Graph500, "--no-sort" turns it off) the vertices are renumbered by
// descending degree (a CUB radix sort of the degrees; isolated vertices land at the end) before the
// fill, and every neighbour list is then sorted ascending by new id (a CUB segmented sort), i.e. in
// descending degree: a bottom-up search meets the likeliest parent first, and the hubs are the
// lowest ids. The maps new2old / old2new let callers report everything in the original ids.
// Over MPI ranks (build_device_rows) each rank first receives the arcs of its rows from the others,
// then builds its rows with the same steps (kernel1_steps.cuh), sorted without relabelling.
// Vertex ids on the device are V = std::uint32_t (default when N < 2^32) or std::int64_t.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gpu500/core/cuda/memory.hpp"
#include "gpu500/core/types.hpp"
#include "gpu500/dist/partition.hpp"
#include "gpu500/graph/csr.hpp"
#include "gpu500/graph/edge_list.hpp"
#include "gpu500/graph/kronecker.hpp"

namespace gpu500::dist {
class device_exchange;
}

namespace gpu500::graph::cuda {

/// The rows of a device CSR cut into batches of whole rows of about `batch` arcs, for work whose
/// scratch space must stay small beside the graph (segmented sorts). Batch k holds rows
/// [rows[k], rows[k+1]) (possibly none) and arcs [starts[k], starts[k+1]): at most batch + the
/// longest row's arcs. rows[0] = 0 <= ... <= rows[K] = n, starts[k] = offsets[rows[k]], starts[K] = arcs.
struct row_batch_plan {
  std::vector<index_t> rows;
  std::vector<index_t> starts;
  index_t max_rows = 0;   ///< the most rows in one batch
  index_t max_items = 0;  ///< the most arcs in one batch
  [[nodiscard]] std::size_t size() const { return rows.empty() ? 0 : rows.size() - 1; }
};
/// The plan for a device CSR of n rows and arcs = offsets[n] arcs (one small kernel, one copy).
row_batch_plan plan_row_batches(const index_t* offsets, index_t n, index_t arcs, index_t batch);
/// rel[i] = offsets[first_row + i] - offsets[first_row] for i in [0, rows] (device arrays), on stream s.
void relative_offsets(const index_t* offsets, index_t first_row, index_t rows, index_t* rel, cudaStream_t s = nullptr);
/// For every batch of the plan with at least one arc, in order: writes the batch's row offsets
/// relative to its first arc into rel (device, plan.max_rows + 1 entries) on stream s, then calls
/// f(first_row, rows, first_arc, items, rel).
template <class F>
void for_each_row_batch(const row_batch_plan& plan, const index_t* offsets, index_t* rel, cudaStream_t s, F&& f) {
  for (std::size_t k = 0; k < plan.size(); ++k) {
    const index_t r0 = plan.rows[k], rows = plan.rows[k + 1] - r0;
    const index_t o0 = plan.starts[k], items = plan.starts[k + 1] - o0;
    if (rows <= 0 || items == 0) continue;
    relative_offsets(offsets, r0, rows, rel, s);
    f(r0, rows, o0, items, static_cast<const index_t*>(rel));
  }
}

/// An edge list in device memory (structure of arrays, ids of width V).
template <class V>
struct device_edge_list {
  index_t num_vertices = 0;
  index_t num_edges = 0;
  gpu::device_buffer<V> src, dst;
  gpu::device_buffer<float> weight;  ///< empty when unweighted
};

/// Bytes of device memory the CUDA Graph500 pipeline needs at its peak (kernel 1 plus the search
/// buffers), for the memory check before anything is allocated.
std::size_t pipeline_device_bytes(index_t n, index_t m, std::size_t vertex_bytes, bool weighted, bool relabel);

/// Generate the Kronecker edge list on the device (bit-identical to generate_kronecker).
template <class V>
device_edge_list<V> generate_kronecker_device(const kronecker_params& p);

/// Edges [first, first + count) of it (one rank's slice; bit-identical to generate_kronecker(p,
/// first, count)); num_edges is count. Made for 64-bit ids.
template <class V>
device_edge_list<V> generate_kronecker_device(const kronecker_params& p, index_t first, index_t count);

/// An edge list of m edges over n vertices with its arrays allocated (contents undefined; a
/// weight array when weighted).
template <class V>
device_edge_list<V> allocate_edge_list(index_t n, index_t m, bool weighted);

/// Upload a host edge list (endpoints are range-checked; usage_error names a bad edge).
template <class V>
device_edge_list<V> upload_edge_list(const edge_list& el);

/// An edge list in the CALLER's device memory (e.g. a PyTorch or CuPy array handed over by
/// DLPack): int64 ends, float weights or none. The arrays stay the caller's; copy_edge_list makes
/// the pipeline's own list from them on the device.
struct device_edge_arrays {
  index_t num_vertices = 0;
  index_t num_edges = 0;
  const std::int64_t* src = nullptr;
  const std::int64_t* dst = nullptr;
  const float* weight = nullptr;  ///< null when unweighted
  bool unit_weights = false;      ///< no weight array, but the list is weighted: every edge 1

  /// The list the pipeline makes of it carries weights (given, or unit weights).
  [[nodiscard]] bool weighted() const { return weight != nullptr || unit_weights; }
};

/// The pipeline's edge list from the caller's device arrays, narrowed to V on the device (no host
/// copy). usage_error when an end lies outside [0, num_vertices) (naming how many and the first
/// edge) or no edge joins two distinct vertices, as for a host list.
template <class V>
device_edge_list<V> copy_edge_list(const device_edge_arrays& a);

/// The vertex count the ends imply (the largest end + 1; num_vertices is not read); usage_error
/// for a negative end.
index_t device_vertex_count(const device_edge_arrays& a);

/// Download a device edge list (tests).
template <class V>
edge_list download_edge_list(const device_edge_list<V>& el);

struct build_options {
  bool relabel = true;  ///< degree-sorted relabelling + neighbour lists in descending degree
  index_t sort_batch = index_t{1} << 28;  ///< relabel: rows are sorted in batches of about this many arcs
  /// Each edge is the one arc src -> dst, kept in src's row only (as graph::build_csr_directed); a
  /// degree is then an out-degree. The searches of a directed graph take it without relabelling
  /// (the engines take ids past non_isolated() as unreachable, which in-arcs break).
  bool directed = false;
};

/// A CSR graph in device memory (kernel 1's result). All arrays are device arrays.
template <class V>
class device_csr {
 public:
  device_csr() = default;

  /// A device-pointer view for kernels (the same layout as the host csr_view).
  [[nodiscard]] csr_view<V> view() const {
    return {n_, 0, n_, offsets_.data(), columns_.data(), weights_.empty() ? nullptr : weights_.data()};
  }
  [[nodiscard]] index_t num_vertices() const { return n_; }
  [[nodiscard]] index_t num_arcs() const { return arcs_; }
  /// Vertices of degree > 0 (after relabelling they are exactly the ids [0, non_isolated)).
  [[nodiscard]] index_t non_isolated() const { return non_isolated_; }
  [[nodiscard]] index_t max_degree() const { return max_degree_; }
  [[nodiscard]] bool relabelled() const { return relabelled_; }
  /// new id -> original id and original id -> new id (null when not relabelled).
  [[nodiscard]] const V* new2old() const { return new2old_.empty() ? nullptr : new2old_.data(); }
  [[nodiscard]] const V* old2new() const { return old2new_.empty() ? nullptr : old2new_.data(); }
  /// The three above as one map (empty when not relabelled).
  [[nodiscard]] id_map<V> ids() const { return {new2old(), old2new(), non_isolated_}; }
  /// The new id of an original vertex (one small copy; not for hot loops).
  [[nodiscard]] index_t to_new(index_t original) const;
  /// has_edges[v] for every ORIGINAL id v (degree > 0), on the host.
  [[nodiscard]] std::vector<std::uint8_t> has_edges_host() const;
  /// Bytes held on the device.
  [[nodiscard]] std::size_t bytes() const;
  /// Frees the edge weights (view() then has none). The Graph500 pipeline calls it once the SSSP
  /// engine holds its weight-sorted copy of the rows, which is what SSSP and its validation read.
  void release_weights() { weights_ = gpu::device_buffer<float>(); }

  /// Copy to a host csr in ORIGINAL ids (tests; rows keep the device's neighbour order).
  [[nodiscard]] csr<V> download_original_ids() const;

 private:
  template <class W>
  friend device_csr<W> build_device_csr(device_edge_list<W>&& el, build_options o);
  index_t n_ = 0, arcs_ = 0, non_isolated_ = 0, max_degree_ = 0;
  bool relabelled_ = false;
  gpu::device_buffer<index_t> offsets_;
  gpu::device_buffer<V> columns_;
  gpu::device_buffer<float> weights_;
  gpu::device_buffer<V> new2old_, old2new_;
};

/// Kernel 1 on the device; consumes (frees) the edge list. Synchronises before returning.
template <class V>
device_csr<V> build_device_csr(device_edge_list<V>&& el, build_options o = {});

/// One rank's rows of a graph over MPI ranks in device memory, as kernel 1 over the ranks leaves
/// them: row l is vertex owned.first + l, the columns are global 64-bit ids.
struct device_rows {
  index_t num_vertices = 0;
  dist::vertex_range owned;
  gpu::device_buffer<index_t> offsets;  ///< owned.count + 1
  gpu::device_buffer<std::int64_t> columns;
  gpu::device_buffer<float> weights;  ///< empty when unweighted
  index_t arcs = 0;

  [[nodiscard]] csr_view<std::int64_t> view() const {
    return {num_vertices, owned.first, owned.count, offsets.data(), columns.data(),
            weights.empty() ? nullptr : weights.data()};
  }
  /// A host copy (for the validator, untimed).
  [[nodiscard]] csr<std::int64_t> download() const;
};

/// offsets[0..rows] as the exclusive scan of degree[0..rows) (device arrays; CUB; degree may be
/// offsets + 1, the scan then in place); returns the arcs, offsets[rows]. Every kernel 1 on the
/// device makes its rows' offsets with it.
index_t offsets_from_degrees(const index_t* degree, index_t rows, index_t* offsets);

/// Edges of a rank's slice per round of kernel 1 over ranks by default (about 11 GB of device
/// memory a round).
inline constexpr index_t default_round_edges = index_t{1} << 26;

/// Kernel 1 over the ranks of x's communicator (collective; consumes this rank's slice of the
/// edge list), in rounds of at most round_edges edges (0: default_round_edges) so that its memory
/// stays near 64 bytes per edge of the slice: each round's arcs grouped by owner (a radix sort on
/// the owner), one all-to-all of device buffers, the arrivals staged; then the rows from the
/// staged arcs with the one-process kernel 1's steps (offsets from the degrees, every arc placed
/// at its row's cursor, the rows sorted in batches of about two rounds' arcs): each row by column,
/// or by (weight, column) when weighted, which the SSSP engine needs (the arcs that stay inside a
/// bucket are a prefix of the row; while every id fits 32 bits, one sort of the pair packed into
/// one key). A row's order is fixed by its contents, the same for any rounds or arrival order.
/// With one rank the rows are made straight from the slice (no rounds, no staging: about 44 bytes
/// an edge at the peak).
device_rows build_device_rows(dist::device_exchange& x, const dist::block_partition& part,
                              device_edge_list<std::int64_t>&& slice, index_t round_edges = 0);

}  // namespace gpu500::graph::cuda
