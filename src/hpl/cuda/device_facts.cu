// The CUDA device's name and memory, for HPL's defaults per device (gpu500/hpl/defaults.hpp).
// Which GPU a rank uses is chosen in gpu500/dist/placement.hpp.
#include <cuda_runtime.h>

#include "../solver.hpp"

namespace gpu500::hpl::detail {

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

}  // namespace gpu500::hpl::detail
