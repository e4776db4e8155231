// The exchanges of the CUDA backend over MPI ranks (internal): all-to-all(v) and the bitmap
// all-gather on DEVICE buffers, in one of two modes chosen once per pipeline:
//  - device: the device pointers go straight to MPI (a CUDA-aware MPI moves them device to
//    device, through NVLink/GPUDirect where it can);
//  - staged: each buffer is copied to page-locked host memory, exchanged, and copied back (for
//    MPI builds without CUDA support).
// With one rank (or without MPI) an exchange is a device-to-device copy. Counts are host arrays,
// as the communicator takes them. Every call is collective and synchronises the device first.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "gpu500/core/cuda/memory.hpp"
#include "gpu500/core/types.hpp"
#include "gpu500/dist/comm.hpp"
#include "gpu500/dist/partition.hpp"

namespace gpu500::graph500::mpi::cuda {

class device_exchange {
 public:
  device_exchange(const dist::communicator& c, bool staged) : c_(c), staged_(staged) {}

  [[nodiscard]] const dist::communicator& comm() const { return c_; }
  [[nodiscard]] bool staged() const { return staged_; }

  /// recv_counts[r] = the count rank r sends here (host arrays of size() entries).
  void exchange_counts(const index_t* send_counts, index_t* recv_counts) const {
    c_.exchange_counts(send_counts, recv_counts);
  }
  /// All-to-all of variable blocks between device buffers (layout as communicator::alltoallv_bytes).
  void alltoallv_bytes(const void* send, const index_t* send_counts, void* recv, const index_t* recv_counts,
                       std::size_t elem_bytes);
  /// Typed: exchanges the counts, makes `recv` large enough (it only grows) and exchanges the
  /// data; returns the elements received and fills recv_counts.
  template <class T>
  index_t alltoallv(const gpu::device_buffer<T>& send, const std::vector<index_t>& send_counts,
                    gpu::device_buffer<T>& recv, std::vector<index_t>& recv_counts) {
    recv_counts.assign(send_counts.size(), 0);
    exchange_counts(send_counts.data(), recv_counts.data());
    index_t total = 0;
    for (index_t x : recv_counts) total += x;
    recv.reserve(static_cast<std::size_t>(total));
    alltoallv_bytes(send.data(), send_counts.data(), recv.data(), recv_counts.data(), sizeof(T));
    return total;
  }
  /// Every rank's bitmap slice (device) -> the whole bitmap (device) on every rank.
  void allgather_bitmap(const dist::block_partition& p, const std::uint64_t* slice, std::uint64_t* whole);

 private:
  /// Page-locked staging areas, grown on demand.
  std::byte* stage(gpu::pinned_buffer<std::byte>& b, std::size_t bytes);

  const dist::communicator& c_;
  bool staged_;
  gpu::pinned_buffer<std::byte> out_, in_;
};

}  // namespace gpu500::graph500::mpi::cuda
