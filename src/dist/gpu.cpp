// The GPU of a rank (gpu500/dist/placement.hpp): the CUDA devices this process sees, the one
// place that makes a rank's GPU current, and a device's PCI bus id (for the CPUs nearest it).
// Without the CUDA backend there are no GPUs and choosing one does nothing.
#include <string>

#include "gpu500/config.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/dist/placement.hpp"

#if GPU500_HAVE_CUDA
#include "gpu500/core/cuda/check.cuh"
#endif

namespace gpu500::dist {

int gpu_count() {
#if GPU500_HAVE_CUDA
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return count;
#else
  return 0;
#endif
}

void use_gpu(int ordinal) {
#if GPU500_HAVE_CUDA
  const int count = gpu_count();
  const int device = (ordinal < 0 ? 0 : ordinal) % (count < 1 ? 1 : count);
  GPU500_CUDA_CHECK(cudaSetDevice(device));
#else
  (void)ordinal;
#endif
}

void use_gpu_of_rank(int node_rank, const char* program) {
#if GPU500_HAVE_CUDA
  const int count = gpu_count();
  if (count < 1) throw resource_error(std::string(program) + ": --backend cuda needs a CUDA device");
  use_gpu(gpu_of_node_rank(node_rank, count));
#else
  (void)node_rank, (void)program;
#endif
}

std::string gpu_pci_bus_id(int ordinal) {
#if GPU500_HAVE_CUDA
  char id[32] = {};
  if (cudaDeviceGetPCIBusId(id, sizeof id, ordinal) != cudaSuccess) {
    (void)cudaGetLastError();
    return {};
  }
  return id;
#else
  (void)ordinal;
  return {};
#endif
}

}  // namespace gpu500::dist
