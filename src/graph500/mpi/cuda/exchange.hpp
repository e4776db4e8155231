// The exchanges of the CUDA backend over MPI ranks (internal): all-to-all(v) and all-gather(v)
// (the frontier bitmap, per-vertex values) on DEVICE buffers, in one of three modes chosen once per pipeline:
//  - nccl: grouped NCCL sends and receives between the ranks' GPUs (dist/nccl.hpp), device to
//    device over NVLink / the network; the default with one GPU per rank;
//  - device: the device pointers go straight to MPI (a CUDA-aware MPI moves them device to
//    device, through NVLink/GPUDirect where it can);
//  - staged: each buffer is copied to page-locked host memory, exchanged, and copied back (for
//    MPI builds without CUDA support).
// With one rank (or without MPI) an exchange is a device-to-device copy. Counts are host arrays,
// as the communicator takes them. Every call is collective and synchronises the device first.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "gpu500/core/cuda/memory.hpp"
#include "gpu500/core/types.hpp"
#include "gpu500/dist/comm.hpp"
#include "gpu500/dist/nccl.hpp"
#include "gpu500/dist/partition.hpp"

namespace gpu500::graph500::mpi::cuda {

enum class exchange_mode { nccl, device, staged };

class device_exchange {
 public:
  /// Collective (the nccl mode makes its NCCL communicator here).
  device_exchange(const dist::communicator& c, exchange_mode mode);

  [[nodiscard]] const dist::communicator& comm() const { return c_; }
  [[nodiscard]] exchange_mode mode() const { return mode_; }

  /// recv_counts[r] = the count rank r sends here (host arrays of size() entries).
  void exchange_counts(const index_t* send_counts, index_t* recv_counts) const {
    c_.exchange_counts(send_counts, recv_counts);
  }
  /// All-to-all of variable blocks between device buffers (layout as communicator::alltoallv_bytes;
  /// with send_displs (host, elements), rank r's block starts at send + send_displs[r]).
  void alltoallv_bytes(const void* send, const index_t* send_counts, void* recv, const index_t* recv_counts,
                       std::size_t elem_bytes, const index_t* send_displs = nullptr);
  /// Typed: exchanges the counts, makes `recv` large enough (it only grows) and exchanges the
  /// data; returns the elements received and fills recv_counts. send_displs as above.
  template <class T>
  index_t alltoallv(const gpu::device_buffer<T>& send, const std::vector<index_t>& send_counts,
                    gpu::device_buffer<T>& recv, std::vector<index_t>& recv_counts,
                    const index_t* send_displs = nullptr) {
    recv_counts.assign(send_counts.size(), 0);
    exchange_counts(send_counts.data(), recv_counts.data());
    index_t total = 0;
    for (index_t x : recv_counts) total += x;
    recv.reserve(static_cast<std::size_t>(total));
    alltoallv_bytes(send.data(), send_counts.data(), recv.data(), recv_counts.data(), sizeof(T), send_displs);
    return total;
  }
  /// Every rank's block of counts[r] elements of elem_bytes (device; `mine` holds this rank's)
  /// -> all blocks in rank order at `whole` (device) on every rank.
  void allgatherv_bytes(const void* mine, void* whole, const index_t* counts, std::size_t elem_bytes);
  /// Every rank's bitmap slice (device) -> the whole bitmap (device) on every rank.
  void allgather_bitmap(const dist::block_partition& p, const std::uint64_t* slice, std::uint64_t* whole);
  /// One T per vertex: every rank's values for its owned vertices (device) -> the values of
  /// all vertices (device, p.num_vertices() entries) on every rank.
  template <class T>
  void allgather_owned(const dist::block_partition& p, const T* mine, T* whole) {
    std::vector<index_t> counts(static_cast<std::size_t>(c_.size()));
    for (int r = 0; r < c_.size(); ++r) counts[static_cast<std::size_t>(r)] = p.range(r).count;
    allgatherv_bytes(mine, whole, counts.data(), sizeof(T));
  }

 private:
  /// Page-locked staging areas, grown on demand.
  std::byte* stage(gpu::pinned_buffer<std::byte>& b, std::size_t bytes);
  /// Copies the blocks at send + send_displs[r] into one contiguous run at `to` (device or host).
  static void pack_blocks(void* to, const void* send, const index_t* send_counts, const index_t* send_displs,
                          std::size_t ranks, std::size_t elem_bytes);

  const dist::communicator& c_;
  exchange_mode mode_;
  std::unique_ptr<dist::nccl_comm> nccl_;
  gpu::device_buffer<std::byte> packed_;  // the device mode's contiguous copy of blocks with gaps
  gpu::pinned_buffer<std::byte> out_, in_;
};

}  // namespace gpu500::graph500::mpi::cuda
