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

int cuda_device_count() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return count;
}

cuda_device_facts cuda_device(int ordinal) {
  cuda_device_facts f;
  cudaDeviceProp prop{};
  std::size_t free_b = 0, total_b = 0;
  if (cudaSetDevice(ordinal) != cudaSuccess || cudaGetDeviceProperties(&prop, ordinal) != cudaSuccess ||
      cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) {
    cudaGetLastError();
    return f;
  }
  f.name = prop.name;
  f.total = static_cast<std::int64_t>(total_b);
  f.free = static_cast<std::int64_t>(free_b);
  return f;
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
