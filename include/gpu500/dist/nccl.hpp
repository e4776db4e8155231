// gpu500/dist/nccl.hpp — NCCL between the GPUs of an MPI communicator's ranks, one GPU per rank.
//
// The device-to-device transport of the distributed GPU components: an NCCL communicator made
// over the ranks of a dist::communicator (the unique id travels by MPI broadcast), and the
// exchanges they need on DEVICE buffers, enqueued on a stream: an all-to-all of variable blocks
// and an all-gather or gather of variable blocks (grouped ncclSend/ncclRecv), and a broadcast
// (ncclBroadcast). Counts are host arrays, as MPI takes them (the callers exchange them through
// the communicator first, or compute them alike on every rank). A rank's own block is a
// device copy. NCCL needs one GPU per rank: ranks that share a GPU use MPI instead.
// Only CUDA code includes this header; without NCCL in the build, nccl_available() is false and
// constructing a nccl_comm throws usage_error.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

#include "gpu500/core/types.hpp"
#include "gpu500/dist/comm.hpp"

namespace gpu500::dist {

/// Whether this build of gpu500 has NCCL.
[[nodiscard]] bool nccl_available();

class nccl_comm {
 public:
  /// Collective over c's ranks; each rank's current CUDA device is its GPU.
  explicit nccl_comm(const communicator& c);
  ~nccl_comm();
  nccl_comm(const nccl_comm&) = delete;
  nccl_comm& operator=(const nccl_comm&) = delete;

  /// send_counts[r] elements of elem_bytes for rank r lie contiguously in rank order from send
  /// (or, when send_displs is given, from send + send_displs[r] elements: blocks with gaps);
  /// recv_counts[r] from rank r arrive in rank order at recv (or, with recv_displs, at recv +
  /// recv_displs[r] elements). Enqueued on `stream`.
  void alltoallv_bytes(const void* send, const index_t* send_counts, void* recv, const index_t* recv_counts,
                       std::size_t elem_bytes, cudaStream_t stream, const index_t* send_displs = nullptr,
                       const index_t* recv_displs = nullptr) const;
  /// Rank r's block of bytes[r] bytes (mine: this rank's) lands at whole + (sum of bytes[0..r)),
  /// on every rank. Enqueued on `stream`.
  void allgatherv_bytes(const void* mine, void* whole, const std::size_t* bytes, cudaStream_t stream) const;
  /// As allgatherv_bytes, but only rank root receives (whole is unused elsewhere).
  void gatherv_bytes(const void* mine, void* whole, const std::size_t* bytes, int root, cudaStream_t stream) const;
  /// `bytes` bytes at buf on rank root reach buf on every rank (in place). Enqueued on `stream`.
  void bcast_bytes(void* buf, std::size_t bytes, int root, cudaStream_t stream) const;

 private:
  void* comm_ = nullptr;  // ncclComm_t
  int rank_ = 0, size_ = 1;
};

}  // namespace gpu500::dist
