// gpu500/sssp/cuda.hpp — single-source shortest paths on one GPU (Graph500 kernel 3, CUDA backend).
//
// Algorithm (docs/sssp-gpu.md): delta-stepping with scan-based bucket extraction, relative
// light/heavy edges and an adaptive bucket width, driven by ONE persistent cooperative kernel whose
// bucket loop decides on the device (no host round trip per bucket):
//   * a vertex's state is one 64-bit word (float bits of its distance << 32 | parent id), updated by a
//     compare-and-swap loop that only ever lowers the distance strictly, so the parent always matches
//     the distance, d(v) == d(parent) + w exactly in float, and the parent graph has no cycles even
//     with zero (or absorbed, w < ulp(d)/2) weights;
//   * bucket [lo, hi): a scan of all vertices extracts those with lo <= d < hi (no far pile to
//     overflow); light iterations relax the arcs with d(u) + w < hi of the vertices that improved,
//     until none does; one heavy pass then relaxes every other arc of the bucket's vertices once,
//     or, where those arcs are many, a pull pass lets every unsettled vertex take its best settled
//     neighbour instead; the engine keeps a copy of the rows sorted by weight, so light and heavy
//     arcs are contiguous ranges of a row and a pull leaves a row early;
//   * warps take strided samples of each list, so that runs of high-degree vertices spread out;
//   * rows longer than a threshold are cut into chunks that warps share (hubs of Kronecker graphs).
// Vertex ids must be below 2^32 - 1 (the parent is packed in 32 bits), which one GPU's memory
// implies anyway; V = std::int64_t is accepted for the column type.
// Over MPI ranks (the second constructor) the engine holds one rank's rows of a 1-D block
// partition and runs the same bucket loop and phase kernels, from the host one phase at a time:
// an arc into another rank's vertex becomes a request to its owner, exchanged after the phase and
// applied there like a local relaxation, and every decision is taken on counts summed over the
// ranks (src/sssp/cuda/over_ranks.cuh). The persistent kernel and the near-far device loop stay on
// one process: they run phases with no exchange between them. One process is the one-rank case.
// Options and per-search reports: gpu500/sssp/detail/cuda_options.hpp. Sources: src/sssp/cuda/
// (engine.cuh the host side, the kernels by phase beside it).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "gpu500/core/cuda/memory.hpp"
#include "gpu500/core/types.hpp"
#include "gpu500/dist/partition.hpp"
#include "gpu500/dist/trace.hpp"
#include "gpu500/graph/csr.hpp"
#include "gpu500/sssp/detail/cuda_options.hpp"

namespace gpu500::dist {
class device_exchange;
}

namespace gpu500::sssp::cuda {

template <class V>
class engine {
 public:
  /// Allocates every buffer (no allocation in run()). device_graph holds DEVICE pointers, must be
  /// weighted (non-negative finite weights: checked here), symmetric as Graph500's kernel 1 builds it.
  ///
  /// `sorted_copy_ready`, when given, is called once inside the constructor, right after the
  /// engine's weight-sorted copy of the rows exists and before it allocates its search state. From
  /// then on the engine reads only the input's offsets, so the caller may free the input's weights
  /// (and columns) to make room: at SCALE 27 on an 80 GB GPU the Graph500 pipeline frees its CSR
  /// weights there. It is not called when the rows stay unsorted (options::unsorted_rows, or no
  /// memory for the copy).
  engine(graph::csr_view<V> device_graph, options o = {}, std::function<void()> sorted_copy_ready = {});
  /// Over the ranks of x (collective): rows holds this rank's rows of `part` (row l is vertex
  /// part's first + l; columns are vertex ids of the whole graph, weights as above).
  /// rows_by_weight: every row is sorted by weight already (kernel 1 over ranks sorts them so),
  /// and the engine searches the rows in place instead of keeping a sorted copy. Over several
  /// ranks it keeps no copy of its own: rows not sorted by weight are searched as
  /// options::unsorted_rows searches them. With one rank this is the constructor above. Throws
  /// usage_error when a rank's block holds 2^31 vertices or more (a packed word's parent half).
  engine(dist::device_exchange& x, const dist::block_partition& part, graph::csr_view<V> rows, bool rows_by_weight,
         options o = {});
  ~engine();
  engine(const engine&) = delete;
  engine& operator=(const engine&) = delete;

  /// Report the output in the original ids of `ids` (kernel 1's relabelling of this graph; device
  /// pointers, kept by the caller): from then on run() writes parents and distances indexed by
  /// and holding original ids, inside the timed search. run()'s root stays a graph id. An empty map
  /// turns that off. Over ranks (a relabelling that keeps every vertex's owner) new2old holds
  /// every vertex and old2new this rank's original rows (their new ids), non_isolated counting
  /// this rank's rows with arcs.
  void report_original_ids(graph::id_map<V> ids);
  /// Untimed reset of the search state (Graph500's clean_shortest); run() calls it when the caller
  /// did not.
  void prepare();
  /// The timed search; returns with parents and distances in device memory (synchronised).
  void run(index_t root);
  /// n entries (over ranks, one per row: vertex ids), -1 unreached, parent[root] = root.
  [[nodiscard]] const std::int64_t* parents_device() const;
  [[nodiscard]] const float* distances_device() const;  ///< n entries (over ranks, one per row), -1 unreached
  /// Graph500 nedge of the last run (untimed): (sum of CSR degrees of reached vertices) / 2.
  index_t traversed_edges();
  void copy_parents(std::span<std::int64_t> host) const;
  void copy_distances(std::span<float> host) const;

  [[nodiscard]] run_stats last_stats() const;
  /// With options::trace and the persistent loop: the phases of the last search (else empty).
  [[nodiscard]] std::vector<phase_record> last_trace() const;
  /// Over ranks, the last search's phases with the bytes sent to other ranks and this rank's time
  /// in exchanges (empty on one rank).
  [[nodiscard]] const std::vector<dist::level_record>& rank_levels() const;
  /// Device bytes of an engine over ranks searching `rows` rows with `arcs` arcs in place, in a
  /// graph of n vertices (an estimate for memory checks).
  [[nodiscard]] static std::size_t device_bytes(index_t rows, index_t arcs, index_t n);
  [[nodiscard]] float initial_delta() const;  ///< the bucket width a run starts with
  /// The rows the engine searches (device pointers): its weight-sorted copy (the input's offsets,
  /// its own columns and weights), or the input itself when unsorted. Valid while the engine lives;
  /// a validator may read it in place of the input.
  [[nodiscard]] graph::csr_view<V> graph_view() const;
  [[nodiscard]] bool rows_sorted() const;  ///< whether graph_view() is the weight-sorted copy
  [[nodiscard]] std::string description() const;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

extern template class engine<std::uint32_t>;
extern template class engine<std::int64_t>;

/// A host CSR copied to the device (for tests and benchmarks; the Graph500 pipeline has its own
/// device graph). Owns the device arrays; view() has device pointers.
template <class V>
class device_csr {
 public:
  explicit device_csr(const graph::csr<V>& host);
  [[nodiscard]] graph::csr_view<V> view() const { return view_; }

 private:
  gpu::device_buffer<index_t> offsets_;
  gpu::device_buffer<V> columns_;
  gpu::device_buffer<float> weights_;
  graph::csr_view<V> view_{};
};

extern template class device_csr<std::uint32_t>;
extern template class device_csr<std::int64_t>;

}  // namespace gpu500::sssp::cuda
