// Direction-optimising BFS of the CUDA backend over MPI ranks (internal; Beamer, Asanović &
// Patterson, SC'12; the device sibling of ../bfs.hpp, with the same level loop and direction rule).
// All state is on the device; per level the host only sees the four global counts:
//  - top-down: one warp per frontier vertex counts, then writes, its (child, parent) pairs
//    bucketed by the child's owner (pairs for an owned child already visited are not sent); the
//    pairs go through one all-to-all of device buffers; a kernel applies the arrivals with
//    atomicCAS on the parent array, queueing the children it claims;
//  - bottom-up: the frontier's bitmap slice is set on the device and all-gathered (device
//    buffers); one warp per unvisited owned row scans its arcs 32 at a time against the whole
//    bitmap and takes the first neighbour found (a warp ballot), as the host scan does.
#pragma once

#include <cstdint>
#include <vector>

#include "exchange.hpp"
#include "gpu500/core/cuda/memory.hpp"
#include "gpu500/dist/partition.hpp"
#include "gpu500/graph/csr.hpp"
#include "../bfs.hpp"
#include "../local_graph.hpp"

namespace gpu500::graph500::mpi::cuda {

class bfs_engine {
 public:
  bfs_engine(device_exchange& x, const dist::block_partition& part, graph::csr_view<std::int64_t> g, bfs_policy pol);

  /// Untimed reset (the reference's clean_pred); the first call also sizes the exchange buffers.
  void prepare();
  /// The timed search (collective); parents in global ids, -1 unreached (device).
  void run(index_t root);
  /// Input edges with both ends reached (collective).
  [[nodiscard]] index_t traversed_edges();
  /// The owned parents (device, local_vertices entries).
  [[nodiscard]] const std::int64_t* parents() const { return parent_.data(); }
  [[nodiscard]] const std::vector<level_record>& levels() const { return levels_; }

 private:
  /// The search state back to "nothing reached".
  void reset();
  index_t top_down(index_t frontier);
  index_t bottom_up(index_t frontier);

  device_exchange& x_;
  dist::block_partition part_;
  graph::csr_view<std::int64_t> g_;  // device pointers
  bfs_policy pol_;
  gpu::device_buffer<std::int64_t> parent_;
  gpu::device_buffer<index_t> queue_, next_;       // owned rows
  gpu::device_buffer<std::uint64_t> slice_, bitmap_;  // frontier: own words, all words
  gpu::device_buffer<index_t> counts_, cursor_;     // per rank
  gpu::device_buffer<index_t> found_;               // [0] rows queued, [1] their arcs
  gpu::device_buffer<std::int64_t> send_, recv_;    // (child, parent) pairs, flattened
  std::size_t owned_arcs_ = 0;  // arcs of the owned rows: what sizes send_ and recv_
  std::vector<index_t> host_counts_, recv_counts_;
  std::vector<level_record> levels_;
  double comm_seconds_ = 0;
};

}  // namespace gpu500::graph500::mpi::cuda
