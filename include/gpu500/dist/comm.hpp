// gpu500/dist/comm.hpp — the MPI communicator of the distributed components, and its abort rule.
//
// One class wraps an MPI communicator (or, without MPI or before MPI_Init, a one-rank stand-in on
// which every collective is a local copy). Its collectives take raw pointers and 64-bit element
// counts, so that a caller may hand it any memory MPI can read (device memory with a CUDA-aware
// MPI included); typed conveniences sit on top. Counts beyond what one MPI call takes (int) are
// handled by splitting the exchange into point-to-point messages (a rank's own block then travels
// as a message to itself, so the split path also serves device memory). The one-rank stand-in
// copies with memmove: host memory only (the CUDA backend copies on the device itself).
//
// Abort rule: an exception thrown on one rank must end the run, never leave the others waiting in
// a collective. Code that runs collectives goes through guard(), which turns any exception into a
// message on stderr and MPI_Abort when more than one rank runs (exit code 2 for a usage_error, 3
// for a resource_error, else 1); with one rank it rethrows. An exception that reaches the program's
// main ends every rank the same way; mpi_session does not finalise MPI while one unwinds.
// fault_point() lets tests make one rank fail at a chosen point (tests/smoke/faults.sh).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "gpu500/core/types.hpp"

namespace gpu500::dist {

enum class reduce_op { sum, max, min, lor, bor };

class send_requests;

class communicator {
 public:
  /// The one-rank communicator (no MPI involved).
  communicator() = default;
  /// MPI_COMM_WORLD when MPI is compiled in and initialised, otherwise the one-rank communicator.
  static communicator world();
  /// A communicator over an existing MPI_Comm (`mpi_comm` points at one; it is not freed here).
  static communicator from_native(const void* mpi_comm);

  [[nodiscard]] int rank() const { return rank_; }
  [[nodiscard]] int size() const { return size_; }
  /// Ranks of this communicator that share this rank's host (for splitting host memory).
  [[nodiscard]] int node_size() const { return node_size_; }
  /// This rank's place among them (0 .. node_size() - 1): the node-local rank that picks a GPU.
  [[nodiscard]] int node_rank() const { return node_rank_; }
  [[nodiscard]] bool is_mpi() const { return mpi_; }
  /// The MPI_Comm's bits (an MPI_Comm is a pointer or an int), for the layers that build MPI
  /// objects of their own over this communicator (node_shared.hpp); 0 without MPI.
  [[nodiscard]] std::uint64_t native_bits() const { return handle_; }

  void barrier() const;
  /// In-place reduction of n elements over all ranks. T: int, std::int64_t, std::uint64_t, float, double.
  template <class T>
  void allreduce(T* data, std::size_t n, reduce_op op) const;
  template <class T>
  [[nodiscard]] T allreduce(T x, reduce_op op) const {
    allreduce(&x, 1, op);
    return x;
  }
  [[nodiscard]] bool any(bool x) const { return allreduce(static_cast<int>(x), reduce_op::lor) != 0; }
  [[nodiscard]] bool all(bool x) const { return allreduce(static_cast<int>(!x), reduce_op::lor) == 0; }

  /// Broadcast `bytes` bytes at data from root.
  void bcast_bytes(void* data, std::size_t bytes, int root) const;
  template <class T>
  [[nodiscard]] T bcast(T x, int root) const {
    static_assert(std::is_trivially_copyable_v<T>);
    bcast_bytes(&x, sizeof(T), root);
    return x;
  }
  [[nodiscard]] std::string bcast(std::string s, int root) const;

  /// Everyone's block of elements, concatenated in rank order into recv (room for the sum of
  /// recv_counts); rank r contributes recv_counts[r] elements of elem_bytes bytes from send.
  void allgatherv_bytes(const void* send, void* recv, const index_t* recv_counts, std::size_t elem_bytes) const;
  template <class T>
  [[nodiscard]] std::vector<T> allgather(const T& x) const {
    std::vector<T> out(static_cast<std::size_t>(size_));
    const std::vector<index_t> ones(static_cast<std::size_t>(size_), 1);
    allgatherv_bytes(&x, out.data(), ones.data(), sizeof(T));
    return out;
  }
  template <class T>
  [[nodiscard]] std::vector<T> allgatherv(std::span<const T> mine) const {
    const std::vector<index_t> counts = allgather(static_cast<index_t>(mine.size()));
    index_t total = 0;
    for (index_t c : counts) total += c;
    std::vector<T> out(static_cast<std::size_t>(total));
    allgatherv_bytes(mine.data(), out.data(), counts.data(), sizeof(T));
    return out;
  }

  /// recv_counts[r] = the send_counts[rank()] of rank r (one all-to-all of size() counts). With
  /// per_rank > 1, each rank's entry is a group of per_rank values (send_counts[r * per_rank + j]).
  void exchange_counts(const index_t* send_counts, index_t* recv_counts, int per_rank = 1) const;
  /// All-to-all of variable blocks: send_counts[r] elements for rank r are stored contiguously,
  /// in rank order, from send; recv_counts[r] elements from rank r arrive, in rank order, at recv.
  /// Choosing between one MPI collective and messages in pieces takes a reduction of the largest
  /// count, unless `bound` (>= 0) is given: a number, the same on every rank, that no rank's count
  /// nor total sent or received in this call exceeds (the graph's arcs, for an exchange of at most
  /// one item per arc), which decides alone.
  void alltoallv_bytes(const void* send, const index_t* send_counts, void* recv, const index_t* recv_counts,
                       std::size_t elem_bytes, index_t bound = -1) const;
  /// Typed all-to-all: returns what arrived (in rank order); recv_counts, when given, gets the
  /// count from each rank. bound as above.
  template <class T>
  [[nodiscard]] std::vector<T> alltoallv(std::span<const T> send, std::span<const index_t> send_counts,
                                         std::vector<index_t>* recv_counts = nullptr, index_t bound = -1) const {
    std::vector<T> out;
    alltoallv_into(send, send_counts, out, recv_counts, bound);
    return out;
  }

  /// The same into `out` (resized; its capacity is kept, so a caller that reuses it stops
  /// allocating once it has grown).
  template <class T>
  void alltoallv_into(std::span<const T> send, std::span<const index_t> send_counts, std::vector<T>& out,
                      std::vector<index_t>* recv_counts = nullptr, index_t bound = -1) const {
    static_assert(std::is_trivially_copyable_v<T>);
    std::vector<index_t> rc(static_cast<std::size_t>(size_));
    exchange_counts(send_counts.data(), rc.data());
    index_t total = 0;
    for (index_t c : rc) total += c;
    out.resize(static_cast<std::size_t>(total));
    alltoallv_bytes(send.data(), send_counts.data(), out.data(), rc.data(), sizeof(T), bound);
    if (recv_counts) *recv_counts = std::move(rc);
  }

  /// All ranks get the rank holding the largest v (the lowest such rank on ties).
  [[nodiscard]] int maxloc(double v) const;

  // Point to point (the dense solvers' panel broadcasts and row swaps; point_to_point.cpp), on
  // any memory MPI can read. T: double or std::int64_t; n below 2^31. On a communicator without
  // MPI there is no other rank, and these throw.
  template <class T>
  void send(const T* data, std::size_t n, int dest, int tag) const;
  template <class T>
  void recv(T* data, std::size_t n, int src, int tag) const;
  /// Sends n_send elements to dest while receiving at most n_recv from src; returns the count
  /// received.
  template <class T>
  std::size_t sendrecv(const T* send, std::size_t n_send, int dest, T* recv, std::size_t n_recv, int src, int tag) const;
  /// Starts sending; the data must stay untouched until pending.wait() returns.
  template <class T>
  void isend(const T* data, std::size_t n, int dest, int tag, send_requests& pending) const;

  /// Largest message of one MPI call, in bytes (default: what an int count of the element type
  /// allows). Lowering it forces the split path (tests).
  void set_max_message_bytes(std::size_t bytes) { max_message_bytes_ = bytes; }
  [[nodiscard]] std::size_t max_message_bytes() const { return max_message_bytes_; }

  /// Ends the whole run: the message on stderr (with the rank), then MPI_Abort (or exit(code)).
  [[noreturn]] void abort(const std::string& message, int code = 1) const;
  /// The program's exit code for an exception: 2 usage_error, 3 resource_error, 1 otherwise.
  static int exit_code(const std::exception& e);

  /// Runs f; with more than one rank any exception it throws ends the run through abort().
  template <class F>
  decltype(auto) guard(F&& f) const {
    if (size_ == 1) return f();
    try {
      return f();
    } catch (const std::exception& e) {
      abort(e.what(), exit_code(e));
    } catch (...) {
      abort("unknown exception");
    }
  }

 private:
  std::uint64_t handle_ = 0;  // the MPI_Comm's bits (MPI_Comm is a pointer or an int)
  bool mpi_ = false;
  int rank_ = 0, size_ = 1, node_size_ = 1, node_rank_ = 0;
  std::size_t max_message_bytes_ = 0;  // 0: no limit beyond int counts
};

/// Sends started by communicator::isend, completed together by wait() (and by the destructor).
class send_requests {
 public:
  send_requests() = default;
  send_requests(const send_requests&) = delete;
  send_requests& operator=(const send_requests&) = delete;
  ~send_requests() { wait(); }
  void wait();
  [[nodiscard]] bool empty() const { return requests_.empty(); }

 private:
  friend class communicator;
  std::vector<std::uint64_t> requests_;  // the MPI_Requests' bits
};

/// Whether the MPI library accepts device (CUDA) pointers in its calls: MPIX_Query_cuda_support()
/// where <mpi-ext.h> offers it, false otherwise (and without MPI).
[[nodiscard]] bool mpi_accepts_device_memory();
/// The MPI library's name and version (the first line of MPI_Get_library_version, which needs no
/// MPI_Init), or "none" in a build without MPI.
[[nodiscard]] std::string mpi_library_version();
/// The NCCL library's version ("2.27.3", from ncclGetVersion; nccl.cpp), or "none" in a build
/// without NCCL.
[[nodiscard]] std::string nccl_library_version();

/// Test-only fault injection, off unless the environment asks for it (docs/reliability.md): with
/// GPU500_TEST_FAIL_RANK=k and GPU500_TEST_FAIL_AT=POINT[:n], world rank k throws the n-th time
/// (default the first) it reaches POINT: a usage_error, or a resource_error (a simulated
/// allocation failure) with GPU500_TEST_FAIL_KIND=resource. Points: "start" (mpi_session, MPI
/// just up, before any collective), "collective" (each collective of a communicator of more than
/// one rank, before it starts), and the names programs pass here ("hpl-test": before each HPL
/// test's solve).
void fault_point(const char* point);

/// MPI for the length of a command: initialises MPI when it is compiled in and not yet
/// initialised (a program started without mpirun becomes a one-rank world), and finalises what
/// it initialised. Without MPI it does nothing and world() is the one-rank stand-in.
class mpi_session {
 public:
  mpi_session();
  ~mpi_session();
  mpi_session(const mpi_session&) = delete;
  mpi_session& operator=(const mpi_session&) = delete;

 private:
  bool owned_ = false;
  int uncaught_ = 0;  ///< exceptions in flight when it was made (leaving by one skips MPI_Finalize)
};

}  // namespace gpu500::dist
