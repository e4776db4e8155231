// The CUDA side of process placement: the one place that selects this process's GPU, and the
// device's PCI bus id (for the CPUs nearest it, gpu500/hpl/placement.hpp).
#include <cuda_runtime.h>

#include "../solver.hpp"
#include "gpu500/core/cuda/check.cuh"
#include "gpu500/core/error.hpp"

namespace gpu500::hpl::detail {

void cuda_select_device(const grid& g) {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count < 1) {
    cudaGetLastError();
    throw resource_error("HPL: --backend cuda needs a CUDA device");
  }
  GPU500_CUDA_CHECK(cudaSetDevice(g.local_rank % count));
}

std::string cuda_pci_bus_id(int ordinal) {
  char id[32] = {};
  if (cudaDeviceGetPCIBusId(id, sizeof id, ordinal) != cudaSuccess) {
    cudaGetLastError();
    return {};
  }
  return id;
}

}  // namespace gpu500::hpl::detail
