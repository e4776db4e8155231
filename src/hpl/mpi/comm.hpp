// HPL's communication over the ranks of gpu500/dist (internal): one comm per communicator of the
// grid (all, process row, process column) with the few operations the solver uses (over
// dist::communicator, with HPL's limit of 2^31 - 1 doubles a message), and the algorithms that
// are HPL's own: the six panel broadcasts and the row-swap gathers (binary exchange,
// spread-roll), written over point-to-point messages. With one rank every operation is local.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "gpu500/core/error.hpp"
#include "gpu500/dist/comm.hpp"
#include "gpu500/dist/grid.hpp"
#include "gpu500/hpl/dat.hpp"
#include "gpu500/hpl/grid.hpp"

namespace gpu500::hpl::detail {

class comm {
 public:
  comm() = default;  // the one-rank communicator
  explicit comm(const dist::communicator& c) : c_(c) {}
  comm(const comm&) = delete;
  comm& operator=(const comm&) = delete;
  int rank() const { return c_.rank(); }
  int size() const { return c_.size(); }
  /// The communicator underneath.
  const dist::communicator& ranks() const { return c_; }

  void bcast(double* buf, long n, int root) const {
    if (size() > 1 && n > 0) c_.bcast_bytes(buf, sizeof(double) * count(n), root);
  }
  /// All ranks get the rank holding the largest v (the lowest such rank on ties).
  int maxloc(double v) const { return c_.maxloc(v); }
  void allreduce_sum(double* buf, long n) const {
    if (size() > 1 && n > 0) c_.allreduce(buf, count(n), dist::reduce_op::sum);
  }
  void allreduce_max(double* buf, long n) const {
    if (size() > 1 && n > 0) c_.allreduce(buf, count(n), dist::reduce_op::max);
  }
  void barrier() const {
    if (size() > 1) c_.barrier();
  }
  void send(const double* buf, long n, int dest, int tag) const {
    if (async_) return isend(buf, n, dest, tag);
    c_.send(buf, count(n), dest, tag);
  }
  void recv(double* buf, long n, int src, int tag) const { c_.recv(buf, count(n), src, tag); }
  /// Send sn doubles to dest and receive up to rmax from src; returns the count received.
  long sendrecv(const double* s, long sn, int dest, double* r, long rmax, int src, int tag) const {
    return static_cast<long>(c_.sendrecv(s, count(sn), dest, r, count(rmax), src, tag));
  }

  /// Panel broadcast from root with one of HPL's six topologies (blocking on receivers). With
  /// `root_async` the root only starts its sends (look-ahead: it goes on updating) and must
  /// call wait_sends() before it touches buf again.
  void bcast_panel(double* buf, long n, int root, ::gpu500::hpl::bcast algo, bool root_async = false) const;
  void isend(const double* buf, long n, int dest, int tag) const { c_.isend(buf, count(n), dest, tag, pending_); }
  void wait_sends() const { pending_.wait(); }

  /// Everyone contributes a packed message (possibly empty); everyone gets all messages
  /// concatenated (in rank order for long, in exchange order for binary exchange; the contents
  /// are self-describing). `bin_exch` picks recursive doubling, otherwise spread-roll (ring).
  std::vector<double> allgather(const std::vector<double>& mine, bool bin_exch) const;
  /// Everyone's message length (one small all-gather).
  std::vector<long> gather_counts(long n) const;
  /// The same gather into caller-owned memory: `mine` has counts[rank()] doubles, `out` room
  /// for the sum of counts (reusable pinned buffers: no allocation per call).
  void allgather(const double* mine, const std::vector<long>& counts, double* out, bool bin_exch) const;

 private:
  static std::size_t count(long n) {
    GPU500_EXPECTS(n >= 0 && n <= INT32_MAX, "HPL message larger than 2^31 doubles");
    return static_cast<std::size_t>(n);
  }
  dist::communicator c_;
  mutable dist::send_requests pending_;  // sends started by isend
  mutable bool async_ = false;           // inside a root_async broadcast
  friend struct send_mode;
};

/// The grid's ranks (gpu500/dist/grid.hpp: its communicators and NCCL communicators) and HPL's
/// communication over its grid, process row and process column.
struct grid_comms {
  grid_comms(const dist::communicator& world, int p, int q, bool col_major)
      : ranks(world, p, q, col_major), all(ranks.all()), row(ranks.row()), col(ranks.col()) {}
  dist::process_grid ranks;
  comm all, row, col;
};

}  // namespace gpu500::hpl::detail
