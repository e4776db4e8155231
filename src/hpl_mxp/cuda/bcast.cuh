// The broadcast of a device buffer over one communicator of the CUDA grid (internal), ordered on
// a stream: ncclBroadcast on that stream where the processes have a GPU each (the grid's NCCL
// communicator over the same ranks), else MPI on the device buffer when MPI accepts device
// memory, else through a host copy (both after the host waits for the stream). Over a one-rank
// communicator (the 1 x 1 grid, a one-process row or column) it does nothing and asks nothing of
// MPI.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

#include "gpu500/dist/comm.hpp"
#include "gpu500/dist/nccl.hpp"

namespace gpu500::hpl_mxp::detail::cuda {

class device_bcast {
 public:
  /// `nccl`: NCCL over c's ranks, or nullptr for MPI.
  device_bcast(const dist::communicator& c, const dist::nccl_comm* nccl, cudaStream_t s);
  /// `bytes` bytes at buf on rank `root` of the communicator reach buf on every rank.
  void operator()(void* buf, std::size_t bytes, int root);

 private:
  const dist::communicator& c_;
  const dist::nccl_comm* nccl_;
  cudaStream_t s_;
  bool device_mpi_ = false;
  std::vector<char> host_;
};

}  // namespace gpu500::hpl_mxp::detail::cuda
