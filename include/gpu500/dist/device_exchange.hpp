// gpu500/dist/device_exchange.hpp — the exchanges between the ranks' GPUs: all-to-all(v) and all-gather(v)
// (a frontier bitmap, per-vertex values) on DEVICE buffers, in one of three modes chosen once per run:
//  - nccl: grouped NCCL sends and receives between the ranks' GPUs (dist/nccl.hpp), device to
//    device over NVLink / the network; the default with one GPU per rank;
//  - device: the device pointers go straight to MPI (a CUDA-aware MPI moves them device to
//    device, through NVLink/GPUDirect where it can);
//  - staged: each buffer is copied to page-locked host memory, exchanged, and copied back (for
//    MPI builds without CUDA support).
// With one rank (or without MPI) an exchange is a device-to-device copy. Counts are host arrays,
// as the communicator takes them. Every call is collective and synchronises the device first.
// In the nccl mode the typed all-to-all carries the blocks of at most `inline_bytes` inside its
// count exchange (one MPI all-to-all of fixed records, read back and written with host copies):
// a NCCL exchange of a few bytes cost 0.05-0.3 ms on the 4-GPU host, where the levels of a
// one-vertex frontier send a few pairs to one rank (docs/distributed.md).
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

namespace gpu500::dist {

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
    if (inlines()) {
      exchange_counts_inline(send.data(), send_counts.data(), recv_counts.data(), sizeof(T), send_displs);
      index_t total = 0;
      for (index_t x : recv_counts) total += x;
      recv.reserve(static_cast<std::size_t>(total));
      alltoallv_rest(send.data(), send_counts.data(), recv.data(), recv_counts.data(), sizeof(T));
      return total;
    }
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
  /// Blocks of at most this many bytes ride in the typed all-to-all's count exchange (nccl mode).
  static constexpr std::size_t inline_bytes = 256;

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
  /// Whether the typed all-to-all inlines small blocks (the nccl mode over several ranks).
  [[nodiscard]] bool inlines() const { return nccl_ != nullptr; }
  /// The count exchange with every block of 0 < bytes <= inline_bytes for another rank read back
  /// into its record; fills recv_counts and keeps the records that arrived (in_records_).
  void exchange_counts_inline(const void* send, const index_t* send_counts, index_t* recv_counts,
                              std::size_t elem_bytes, const index_t* send_displs);
  /// After exchange_counts_inline: the inlined blocks that arrived copied into place, the others
  /// through NCCL (a pair's sender and receiver agree on inlining it: both know its count).
  void alltoallv_rest(const void* send, const index_t* send_counts, void* recv, const index_t* recv_counts,
                      std::size_t elem_bytes);
  /// Whether a block of `count` elements between this rank and `peer` is inlined.
  [[nodiscard]] bool inlined(index_t count, std::size_t elem_bytes, int peer) const {
    return peer != c_.rank() && count > 0 && static_cast<std::size_t>(count) * elem_bytes <= inline_bytes;
  }

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
  // The inlining count exchange: a record per rank (the count, then inline_bytes of payload),
  // sent and received, and the blocks' element offsets it computes.
  gpu::pinned_buffer<index_t> out_records_, in_records_;
  std::vector<index_t> send_at_, recv_at_, big_send_, big_recv_;
};

}  // namespace gpu500::dist
