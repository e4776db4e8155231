// Delta-stepping SSSP of the CUDA backend over MPI ranks (internal; Meyer & Sanders, J. Algorithms
// 2003, bucket-synchronous). Buckets are distance intervals [lo, lo + delta): lo is the smallest
// distance queued on any rank (one scan of the owned rows and one MPI reduction per bucket),
// so empty buckets cost nothing. A bucket's light phases relax, for every row of its frontier,
// the arcs that stay inside the bucket (d(u) + w < hi, the single-GPU engine's relative light
// arcs: kernel 1 sorts each row by weight, so they are a prefix of the row, found by a galloping
// search); rows they lower below hi form the next phase's frontier directly, with no scan. When a
// phase leaves every rank's frontier empty, one heavy phase relaxes the other arcs of every row
// the bucket settled. delta starts wide (8 x 0.7 x mean weight / mean degree, as the single-GPU
// engine) and, without --sssp-delta, doubles for each bucket of the sparse tail (after the busiest
// bucket, one that relaxed fewer than grow_below rows in all), up to delta_max.
//
// A phase is one kernel pass over the frontier's arcs (row_arcs.cuh's warp tiles and hub chunks;
// the tiles pass lists the chunks, so a row's light cut is searched once), one device-to-host
// copy, one MPI all-to-all of four numbers per rank (the requests for that rank, this rank's
// frontier, whose sum says whether the bucket is done, and the bucket's settled rows and their
// arcs so far), the device all-to-all of the requests and two passes over the arrivals. A request
// is 12 bytes: the vertex's row at its owner, the sender's row (the receiver knows the sender from
// the block it arrived in) and the distance. Senders write into fixed per-owner blocks of the send
// buffer (sized by the arcs each owner holds the heads of), so one pass decides, counts and
// writes. Requests that cannot lower a distance are not sent: for an owned vertex the row's
// distance is read; for another rank's vertex, the smallest distance this rank has offered it in
// this search (one float per vertex of the graph) and a bitmap of vertices settled everywhere
// (all-gathered after a bucket when enough rows were settled since the last gather to pay for its
// n/8 bytes). Applying: a 64-bit atomicMin of (distance bits, arrival index) per row picks one
// winning request per lowered row, whose distance and parent the row then takes; non-negative
// floats order as their bits. The rows entering a frontier and the settled list take their places
// a block at a time (one atomic per block and list; the bucket's first frontier is taken 16 rows
// a thread). Every distance is one float add of a stored weight, as the validator demands, and a
// row whose distance falls again is queued again (label correcting), so the result is the same
// fixed point for any delta and any number of ranks.
//
// A bucket whose settled rows hold many arcs pulls instead of running its heavy phase (the
// single-GPU engine's pull, over ranks): the bucket's rows and distances (8 bytes a row) are
// all-gathered into a bitmap of the bucket's vertices and their distances (in `offered`, which a
// final distance may take: it is below anything offered), and every owned row not yet settled
// scans its weight-sorted row for the bucket's vertices, keeping the best d(u) + w and leaving
// the row once lo + w reaches it. The graph is symmetric, so this is what pushing the heavy arcs
// gives (a light arc into a row would have settled it), with no request sent. The light phases'
// exchange of counts carries the settled rows and their arcs, so every rank takes the same
// decision with no extra collective.
#pragma once

#include <cstdint>
#include <vector>

#include "gpu500/dist/device_exchange.hpp"
#include "gpu500/core/cuda/memory.hpp"
#include "gpu500/dist/partition.hpp"
#include "gpu500/graph/csr.hpp"
#include "../local_graph.hpp"

namespace gpu500::graph500::mpi::cuda {

struct device_sssp_policy {
  float delta = 0.1f;            ///< starting bucket width (> 0)
  float delta_max = 0.f;         ///< widest bucket (<= delta: delta stays fixed)
  index_t grow_below = 0;        ///< a tail bucket that relaxed fewer rows in all doubles delta
  bool no_light_heavy = false;   ///< every arc in the bucket's phases, no heavy phase
  /// A bucket whose settled rows hold at least this share of the graph's arcs pulls instead of
  /// pushing its heavy arcs (0: every bucket; above 1: none; mpi_options::sssp_pull_share).
  double pull_share = 0.1;
};

class sssp_engine {
 public:
  /// A relaxation request, sent to the owner of the relaxed vertex (12 bytes).
  struct request {
    std::uint32_t local;  ///< the vertex's index among its owner's rows
    std::uint32_t row;    ///< the parent's row on the sender
    float dist;           ///< the distance offered
  };
  static_assert(sizeof(request) == 12);

  /// Throws usage_error when a rank holds 2^32 vertices or arcs or more (the 32-bit halves of a
  /// request and of the apply's arrival index).
  sssp_engine(dist::device_exchange& x, const dist::block_partition& part, graph::csr_view<std::int64_t> g,
              device_sssp_policy pol);

  /// Untimed reset (the reference's clean_shortest); the first call also sizes the exchange buffers.
  void prepare();
  /// The timed search (collective).
  void run(index_t root);
  /// Input edges with both ends reached (collective).
  [[nodiscard]] index_t traversed_edges();
  [[nodiscard]] const std::int64_t* parents() const { return parent_.data(); }
  [[nodiscard]] const float* distances() const { return dist_.data(); }
  [[nodiscard]] const std::vector<level_record>& levels() const { return levels_; }

  /// Device bytes of the engine for a rank of `rows` rows and `arcs` arcs in a graph of n vertices.
  [[nodiscard]] static std::size_t device_bytes(index_t rows, index_t arcs, index_t n);

  /// Which arcs a phase relaxes: those that stay inside the bucket, the others, or all.
  enum class arcs : int { light, heavy, all };

  /// A settled row and its distance, as the pull all-gathers them (8 bytes).
  struct settled_row {
    std::uint32_t local;  ///< the row's index among its owner's rows
    float dist;
  };
  static_assert(sizeof(settled_row) == 8);

 private:
  /// The search state back to "nothing reached".
  void reset();
  /// One phase: relaxes the chosen arcs of the list (its length on the device at list_count),
  /// exchanges the requests and applies them (a light phase lists the rows it lowers below hi in
  /// the other frontier). Returns the list's length summed over the ranks (0: nothing was sent).
  index_t relax(const index_t* list, const index_t* list_count, arcs which, float hi, int next);
  /// The rows settled since the last gather as bits of this rank's slice, all-gathered into
  /// settled_bits_.
  void gather_settled();
  /// The bucket [lo, hi)'s heavy phase as a pull (collective; every rank's settled rows are in
  /// bucket_rows_). Returns the bucket's rows summed over the ranks.
  index_t pull(float lo, float hi);

  dist::device_exchange& x_;
  dist::block_partition part_;
  graph::csr_view<std::int64_t> g_;  // device pointers
  device_sssp_policy pol_;
  unsigned resident_blocks_ = 1;
  gpu::device_buffer<float> dist_;
  gpu::device_buffer<std::int64_t> parent_;
  gpu::device_buffer<unsigned long long> key_;      // (distance bits << 32) | winning arrival
  gpu::device_buffer<std::uint8_t> lowered_, queued_, settled_mark_;
  gpu::device_buffer<unsigned> offered_;            // per vertex of the graph: float bits
  gpu::device_buffer<std::uint64_t> bucket_bits_;   // per vertex of the graph: in the pulled bucket
  gpu::device_buffer<std::uint64_t> slice_, settled_bits_;
  gpu::device_buffer<index_t> lists_[2], settled_;  // frontiers (owned rows), rows settled by the bucket
  gpu::device_buffer<index_t> counters_;            // see sssp.cu
  gpu::pinned_buffer<index_t> host_counters_;
  gpu::device_buffer<index_t> seg_start_, cursor_;  // per rank: its block of the send buffer
  gpu::device_buffer<index_t> displs_;              // first arrival of each rank (R + 1)
  gpu::pinned_buffer<index_t> host_displs_;
  gpu::device_buffer<index_t> chunks_;
  gpu::device_buffer<request> send_, recv_;
  std::size_t owned_arcs_ = 0;
  std::vector<index_t> host_seg_start_, host_counts_, payload_, recv_payload_, recv_counts_;
  std::vector<index_t> bucket_rows_;  // per rank: the rows its bucket settled (known after the light phases)
  index_t bucket_arcs_ = 0;           // the arcs of the bucket's settled rows, summed over the ranks
  index_t total_arcs_ = 0;            // the graph's arcs, summed over the ranks
  index_t settled_since_gather_ = 0;  // rows (all ranks) settled since settled_bits_ was gathered
  std::vector<level_record> levels_;
  std::vector<index_t> level_bytes_;  // this rank's bytes per phase, summed over the ranks at the end
  double comm_seconds_ = 0;
};

}  // namespace gpu500::graph500::mpi::cuda
