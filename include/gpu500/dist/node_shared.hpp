// gpu500/dist/node_shared.hpp — one block of host memory that every rank of a host reads and
// writes in place (MPI-3 shared memory: MPI_Win_allocate_shared over the host's ranks).
//
// For state that the ranks of a host can share instead of each keeping a copy: the host SSSP's
// offered distances (sssp.hpp) are one array per host, not one per rank, so that the host's
// caches hold one copy. Each host has its own block; ranks of different hosts share nothing.
// Without MPI, or on a one-rank communicator, the block is plain memory of this process.
// Accesses that can race with another rank's go through std::atomic_ref (lock-free, so valid
// across processes); sync() orders everything before it for every rank of the host.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "gpu500/dist/comm.hpp"

namespace gpu500::dist {

class node_shared {
 public:
  /// Collective over c: a block of `bytes` bytes per host (the same `bytes` on every rank),
  /// zero-filled, 64-byte aligned.
  node_shared(const communicator& c, std::size_t bytes);
  node_shared(const node_shared&) = delete;
  node_shared& operator=(const node_shared&) = delete;
  /// Collective over the host's ranks (the window is freed).
  ~node_shared();

  [[nodiscard]] void* data() const { return base_; }
  [[nodiscard]] std::size_t bytes() const { return bytes_; }
  /// Ranks sharing the block, and this rank's place among them (for splitting work on it).
  [[nodiscard]] int ranks() const { return ranks_; }
  [[nodiscard]] int rank() const { return rank_; }
  /// Whether other processes share the block (false: plain memory of this process).
  [[nodiscard]] bool shared() const { return win_ != 0; }
  /// Collective over the host's ranks: every store to the block before it, on any rank of the
  /// host, is seen by every load after it (a memory barrier, a barrier of the host's ranks, a
  /// memory barrier).
  void sync() const;

 private:
  void* base_ = nullptr;
  std::size_t bytes_ = 0;
  int ranks_ = 1, rank_ = 0;
  std::uint64_t win_ = 0, node_comm_ = 0;  // the MPI_Win and MPI_Comm's bits; 0 without them
  std::vector<std::byte> own_;             // the block without MPI (64 bytes of slack)
};

}  // namespace gpu500::dist
