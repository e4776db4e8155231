// Communication layer of HPL (internal): one wrapper per communicator (grid, process row,
// process column) with the few operations the solver uses, and the six panel broadcasts and the
// row-swap exchanges written over point-to-point messages. Without MPI (or with one process)
// every communicator has size 1 and every operation is local.
#pragma once

#include <memory>
#include <vector>

#include "gpu500/hpl/dat.hpp"
#include "gpu500/hpl/grid.hpp"

namespace gpu500::hpl::detail {

class comm {
 public:
  comm() = default;
  explicit comm(void* mpi_comm);  // an MPI_Comm* (or nullptr for the size-1 communicator)
  int rank() const { return rank_; }
  int size() const { return size_; }
  /// The MPI_Comm* this wraps (nullptr for the size-1 communicator).
  void* native() const { return c_; }

  void bcast(double* buf, long n, int root) const;
  /// All ranks get the rank holding the largest v (the lowest such rank on ties).
  int maxloc(double v) const;
  void allreduce_sum(double* buf, long n) const;
  void allreduce_max(double* buf, long n) const;
  void barrier() const;
  void send(const double* buf, long n, int dest, int tag) const;
  void recv(double* buf, long n, int src, int tag) const;
  /// Send sn doubles to dest and receive up to rmax from src; returns the count received.
  long sendrecv(const double* s, long sn, int dest, double* r, long rmax, int src, int tag) const;

  /// Panel broadcast from root with one of HPL's six topologies (blocking on receivers). With
  /// `root_async` the root only starts its sends (look-ahead: it goes on updating) and must
  /// call wait_sends() before it touches buf again.
  void bcast_panel(double* buf, long n, int root, ::gpu500::hpl::bcast algo, bool root_async = false) const;
  void isend(const double* buf, long n, int dest, int tag) const;
  void wait_sends() const;

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
  void* c_ = nullptr;
  int rank_ = 0, size_ = 1;
  mutable std::vector<long> pending_;  // MPI_Request handles of started sends (as integers)
  mutable bool async_ = false;          // inside a root_async broadcast
  friend struct send_mode;
};

}  // namespace gpu500::hpl::detail

namespace gpu500::hpl::detail {
struct grid_comms {
  comm all, row, col;
  void* owned[3] = {nullptr, nullptr, nullptr};
  // NCCL communicators over the process row (panel broadcast), the process column (row swaps)
  // and the process column again (GPU panels: a communicator per stream, so the two streams'
  // operations never interleave on one communicator). dist::nccl_comm, made by the CUDA backend
  // on its first run over one GPU per process and kept for the grid's lifetime: making one costs
  // a collective and tens of milliseconds.
  std::shared_ptr<void> nccl_row, nccl_col, nccl_col_panel;
  ~grid_comms();
};
}  // namespace gpu500::hpl::detail
