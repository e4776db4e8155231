// The broadcast of a device buffer over one communicator of the CUDA grid (see bcast.cuh).
#include "bcast.cuh"

#include "gpu500/core/cuda/memory.hpp"

namespace gpu500::hpl_mxp::detail::cuda {

device_bcast::device_bcast(const dist::communicator& c, const dist::nccl_comm* nccl, cudaStream_t s)
    : c_(c), nccl_(nccl), s_(s), device_mpi_(c.size() > 1 && dist::mpi_accepts_device_memory()) {}

void device_bcast::operator()(void* buf, std::size_t bytes, int root) {
  if (bytes == 0 || c_.size() < 2) return;
  if (nccl_) {
    nccl_->bcast_bytes(buf, bytes, root, s_);
    return;
  }
  gpu::synchronize(s_);
  if (device_mpi_) {
    c_.bcast_bytes(buf, bytes, root);
    return;
  }
  host_.resize(bytes);
  if (c_.rank() == root) gpu::copy_bytes(host_.data(), buf, bytes);
  c_.bcast_bytes(host_.data(), bytes, root);
  if (c_.rank() != root) gpu::copy_bytes(buf, host_.data(), bytes);
}

}  // namespace gpu500::hpl_mxp::detail::cuda
