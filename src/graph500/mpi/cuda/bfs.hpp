// Direction-optimising BFS of the CUDA backend over MPI ranks (internal; Beamer, Asanović &
// Patterson, SC'12; the device sibling of ../bfs.hpp, with the same level loop and direction rule).
// All state is on the device; per level the host sees the four global counts and, in a top-down
// level, the per-rank pair counts that the all-to-all needs.
//  - rows: the engine walks its own copy of the owned rows, every row in descending degree of its
//    far ends, with 32-bit columns where every vertex id fits (degree_order.hpp), made when the
//    engine is (inside kernel 1's time, as the reference builds its search structures there).
//  - hubs (hub_delegates.hpp): the graph's largest hubs are expanded by every rank from its own
//    rows adjacent to them, claiming those rows locally with the hub as parent (walking the
//    frontier hubs' lists, or, where those hold more than a quarter as many entries as there are
//    rows, each unvisited row pulling from its hubs); the owner skips their rows. Each level's
//    reduction carries the frontier's hub bits (a bit per hub, set by the hub's owner as the
//    level that found it ends).
//  - top-down: the other frontier rows' arcs become (child, parent) pairs, written in one pass into fixed
//    blocks of the send buffer, one per owner, each as long as the owned arcs whose far end that
//    rank owns (a level sends at most one pair per arc, so nothing overflows and no count pass is
//    needed; the all-to-all sends the blocks' used heads). Frontier rows of at most
//    `tile_max_degree` arcs go 32 to a warp, their arcs flattened over the lanes (a warp prefix
//    sum of the degrees; each lane finds its row with a five-step search over the lanes); longer
//    rows are cut into chunks of `chunk_arcs` arcs, one warp each, so one hub does not hold up a
//    level. A pair is 8 bytes: the child's index on its owner and the parent's row index here
//    (the receiver knows the sender from the segment it arrived in). No pair is made for an owned
//    child already visited, nor for a child in the `seen` bitmap: the vertices known visited
//    everywhere (gathered from every bottom-up level's frontier and, once a search has gone
//    bottom-up, from each large top-down frontier: an all-gather of n/8 bytes instead of 8 bytes
//    for every arc that would find its child visited) and the children this rank has already
//    offered (set by an atomic or as the pair is written: one pair per child and sender, where a
//    hub-heavy frontier would send each child once per frontier neighbour). A kernel claims the
//    arriving children with an atomic or on the next frontier's bitmap slice and queues them.
//    Whether an owned vertex is visited is read from the owned rows' bitmap (`visited_`, a bit a
//    row, in the L2 cache), not from the parents (8 bytes a row, in device memory).
//  - bottom-up: the frontier's bitmap slice, whose bits the kernels that found the frontier set as
//    they queued its rows (no pass over the queue), is all-gathered; the unvisited
//    owned rows that have arcs are kept in a device list that shrinks level by level (Enterprise's
//    unvisited queue). The search's first bottom-up level scans every owned row, skipping the
//    visited ones and those with no arc, and makes the list from the rows it leaves; rows that
//    top-down levels claim later stay listed, and the scan skips them.
//    One thread per row tests its first `probe_arcs` arcs, four loads at a time; a row without a
//    hit there and with more arcs goes to a second list that one warp per row scans 32 arcs at a
//    time. Either way the first neighbour in the frontier, in row order (the highest degree
//    first), is the parent; rows with no hit go to the next level's list.
// Every count these kernels keep is a device counter: only the level's found rows and arcs come
// back to the host, in one copy. The kernels that append a row per thread (the bottom-up scan,
// the claims) take their places a block at a time, one atomic per block and list.
#pragma once

#include <cstdint>
#include <vector>

#include "gpu500/dist/device_exchange.hpp"
#include "hub_delegates.hpp"
#include "gpu500/bfs/direction.hpp"
#include "gpu500/core/cuda/memory.hpp"
#include "gpu500/core/cuda/step_timer.hpp"
#include "gpu500/dist/partition.hpp"
#include "gpu500/graph/csr.hpp"
#include "../local_graph.hpp"

namespace gpu500::graph500::mpi::cuda {

class bfs_engine {
 public:
  /// Throws usage_error when a rank's block of vertices does not fit the 32-bit halves of a pair.
  /// Collective (it builds the degree-ordered rows and the hubs' lists). wide_columns: 64-bit
  /// columns even where 32 bits hold every vertex id (the tests run both). hub_arc_share: the
  /// hubs' arcs at most this share of the graph's (0: no hubs; hub_delegates.hpp).
  bfs_engine(dist::device_exchange& x, const dist::block_partition& part, graph::csr_view<std::int64_t> g,
             bfs::direction_rule pol, bool wide_columns, double hub_arc_share);

  /// Untimed reset (the reference's clean_pred); the first call also sizes the exchange buffers.
  void prepare();
  /// The timed search (collective); parents in global ids, -1 unreached (device).
  void run(index_t root);
  /// Input edges with both ends reached (collective).
  [[nodiscard]] index_t traversed_edges();
  /// The owned parents (device, local_vertices entries).
  [[nodiscard]] const std::int64_t* parents() const { return parent_.data(); }
  [[nodiscard]] const std::vector<level_record>& levels() const { return levels_; }

  /// The hubs the top-down levels delegate (none when hub_arc_share is 0).
  [[nodiscard]] index_t hubs() const { return hubs_.count; }
  /// The hubs' least degree (a power of two; meaningless without hubs).
  [[nodiscard]] index_t hub_degree() const { return hubs_.min_degree; }

  /// Device bytes of the engine for a rank of `rows` rows and `arcs` arcs in a graph of n vertices.
  [[nodiscard]] static std::size_t device_bytes(index_t rows, index_t arcs, index_t n, double hub_arc_share);
  /// Device bytes the constructor needs for a while besides the rows (the degree order's sort,
  /// then the hubs' lists' sort).
  [[nodiscard]] static std::size_t construction_bytes(index_t rows, index_t arcs, index_t n, double hub_arc_share);

 private:
  /// The search state back to "nothing reached".
  void reset();
  /// The frontier's bitmap slice (slice_) all-gathered into bitmap_ and added to seen_.
  void gather_frontier();
  /// Sets the hub words of counters_ from a frontier slice: the bits of this rank's hubs in it.
  void mark_frontier_hubs(const std::uint64_t* slice);
  /// Claims the owned rows adjacent to the frontier's hubs (host_sums_'s hub words).
  void claim_from_hubs();
  index_t top_down(index_t frontier, index_t global_frontier_arcs);
  index_t bottom_up();
  /// f(view) with the degree-ordered rows' view (32- or 64-bit columns).
  template <class F>
  void with_rows(F&& f) const {
    if (narrow_) f(narrow_view_); else f(wide_view_);
  }

  dist::device_exchange& x_;
  dist::block_partition part_;
  graph::csr_view<std::int64_t> g_;  // device pointers: the rows as kernel 1 left them
  bool narrow_ = true;                // which of the two below the searches walk
  gpu::device_buffer<std::uint32_t> narrow_columns_;
  gpu::device_buffer<std::int64_t> wide_columns_;
  graph::csr_view<std::uint32_t> narrow_view_;  // g_'s offsets, degree-ordered columns
  graph::csr_view<std::int64_t> wide_view_;
  bfs::direction_rule pol_;
  hub_delegates hubs_;
  unsigned resident_blocks_ = 1;  // blocks of block_threads that fill the GPU once
  gpu::device_buffer<std::int64_t> parent_;
  gpu::device_buffer<index_t> queue_, next_;          // owned rows
  gpu::device_buffer<std::uint64_t> slice_, bitmap_;  // frontier: own words, all words
  gpu::device_buffer<std::uint64_t> next_slice_;      // the next frontier's own words, set as rows are found
  gpu::device_buffer<std::uint64_t> visited_;         // own words: the rows visited before this level
  gpu::device_buffer<std::uint64_t> seen_;            // known visited, or offered from here (all words)
  gpu::device_buffer<index_t> cursor_, starts_;       // per rank: next free pair, block start
  gpu::device_buffer<index_t> displs_;                // first arrival of each rank (R + 1)
  gpu::device_buffer<index_t> counters_;              // see bfs.cu: found rows and arcs, chunks, hub words
  gpu::pinned_buffer<index_t> host_counters_;
  gpu::pinned_buffer<index_t> host_sums_;             // a level's reduction: four counts, the hub words
  gpu::device_buffer<std::uint64_t> hub_frontier_;    // the reduced hub words of a top-down level
  gpu::device_buffer<index_t> hub_chunks_;            // (hub, first entry, end entry) of its list's chunks
  gpu::pinned_buffer<index_t> host_cursor_;  // cursor_ read back after a top-down level's expansion
  gpu::device_buffer<index_t> lists_[2], list_n_;     // unvisited rows with arcs: this level's, the next's
  gpu::device_buffer<index_t> long_rows_;             // bottom-up rows left to the warp kernel
  gpu::device_buffer<index_t> chunks_;                // top-down (row, first arc, end arc) of the long rows' chunks
  gpu::device_buffer<std::uint64_t> send_, recv_;     // pairs (send_: the owners' blocks)
  std::size_t owned_arcs_ = 0;  // arcs of the owned rows: what sizes send_ and recv_
  int list_ = 0;                // lists_[list_] holds this level's unvisited rows
  bool has_list_ = false;       // this search has made its list (rows claimed top-down since stay in it)
  bool went_bottom_up_ = false; // this search has run a bottom-up level
  bool frontier_has_hubs_ = false;  // some hub word of this level's reduction is not 0
  std::vector<index_t> host_starts_, host_counts_, recv_counts_, host_displs_;
  std::vector<level_record> levels_;
  double comm_seconds_ = 0;
  /// Each level's parts as the GPU timed them, for the trace; on where GPU500_TRACE_STEPS asks
  /// (the events cost about 2 % of a SCALE 27 search on 2 GPUs).
  gpu::step_timer steps_;
};

}  // namespace gpu500::graph500::mpi::cuda
