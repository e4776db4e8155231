// Delta-stepping SSSP of the CUDA backend over MPI ranks (internal; Meyer & Sanders, bucket-
// synchronous; the device sibling of ../sssp.hpp with the same phases and the same fixed point).
// State on the device: distance, parent and the bucket each owned row is queued in (none: not
// queued). Per bucket b (the smallest queued bucket over the ranks, a device min-reduction and an
// MPI one): light phases take bucket b's rows off the queue into a frontier (remembering every
// row the bucket settles), relax their light arcs (w < delta), until bucket b is empty on every
// rank; then the settled rows' heavy arcs are relaxed once. A relaxation is a request (vertex,
// parent, distance) bucketed by the vertex's owner in two warp-per-row passes (count, write),
// exchanged as device buffers, and applied in three passes: an atomicMin on the distance bits
// (non-negative floats order as their bits) marks the rows it lowers; each lowered row takes the
// smallest parent among the requests at its new distance; each lowered row is queued once at
// max(floor, d / delta).
#pragma once

#include <cstdint>
#include <vector>

#include "exchange.hpp"
#include "gpu500/core/cuda/memory.hpp"
#include "gpu500/dist/partition.hpp"
#include "gpu500/graph/csr.hpp"
#include "../local_graph.hpp"
#include "../sssp.hpp"

namespace gpu500::graph500::mpi::cuda {

class sssp_engine {
 public:
  sssp_engine(device_exchange& x, const dist::block_partition& part, graph::csr_view<std::int64_t> g, sssp_policy pol);

  /// Untimed reset (the reference's clean_shortest); the first call also sizes the exchange buffers.
  void prepare();
  /// The timed search (collective).
  void run(index_t root);
  /// Input edges with both ends reached (collective).
  [[nodiscard]] index_t traversed_edges();
  [[nodiscard]] const std::int64_t* parents() const { return parent_.data(); }
  [[nodiscard]] const float* distances() const { return dist_.data(); }
  [[nodiscard]] const std::vector<level_record>& levels() const { return levels_; }

  /// Which arcs a phase relaxes.
  enum class arcs : int { light, heavy, all };

 private:
  /// The search state back to "nothing reached".
  void reset();
  /// Relaxes the chosen arcs of `rows` rows of `list`, exchanges and applies the requests (queued
  /// no lower than `floor`); returns the bytes sent to other ranks.
  index_t relax(const index_t* list, index_t rows, arcs which, index_t floor);
  void record(int phase, const char* what, index_t local_count, index_t bytes, double seconds);

  device_exchange& x_;
  dist::block_partition part_;
  graph::csr_view<std::int64_t> g_;  // device pointers
  sssp_policy pol_;
  gpu::device_buffer<float> dist_;
  gpu::device_buffer<std::int64_t> parent_;
  gpu::device_buffer<index_t> bucket_;              // queued in; no_bucket when not queued
  gpu::device_buffer<std::uint32_t> lowered_;       // 1: distance fell in this apply
  gpu::device_buffer<std::uint8_t> settled_mark_;
  gpu::device_buffer<index_t> frontier_, settled_;  // owned rows
  gpu::device_buffer<index_t> counts_, cursor_;     // per rank
  gpu::device_buffer<index_t> scratch_;             // [0] frontier size, [1] settled size, [2] min bucket
  gpu::device_buffer<mpi::sssp_engine::request> send_, recv_;
  std::size_t owned_arcs_ = 0;  // arcs of the owned rows: what sizes send_ and recv_
  std::vector<index_t> host_counts_, recv_counts_;
  std::vector<level_record> levels_;
  double comm_seconds_ = 0;
};

}  // namespace gpu500::graph500::mpi::cuda
