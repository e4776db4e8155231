// CUDA device enumeration for `gpu500 info` and backend selection, and the current device's SM
// count for launch sizes.
#include <cuda_runtime.h>

#include "gpu500/core/cuda/check.cuh"
#include "gpu500/core/cuda/launch.hpp"
#include "gpu500/core/device.hpp"

namespace gpu500 {

std::vector<device_info> cuda_devices() {
  std::vector<device_info> out;
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    (void)cudaGetLastError();  // no driver / no device: not an error for the caller
    return out;
  }
  for (int d = 0; d < n; ++d) {
    cudaDeviceProp p{};
    if (cudaGetDeviceProperties(&p, d) != cudaSuccess) continue;
    device_info info;
    info.ordinal = d;
    info.name = p.name;
    info.sm_major = p.major;
    info.sm_minor = p.minor;
    info.multiprocessors = p.multiProcessorCount;
    info.global_memory = static_cast<std::int64_t>(p.totalGlobalMem);
    info.l2_bytes = p.l2CacheSize;
    int clock_khz = 0, bus_bits = 0;
    cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, d);
    cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, d);
    info.memory_bandwidth_gbs = 2.0 * clock_khz * 1e3 * (bus_bits / 8.0) / 1e9;
    int prev = 0;
    cudaGetDevice(&prev);
    if (cudaSetDevice(d) == cudaSuccess) {
      size_t free_b = 0, total_b = 0;
      if (cudaMemGetInfo(&free_b, &total_b) == cudaSuccess) info.free_memory = static_cast<std::int64_t>(free_b);
      cudaSetDevice(prev);
    }
    (void)cudaGetLastError();
    out.push_back(info);
  }
  return out;
}

namespace gpu {

int multiprocessors() {
  int device = 0, sms = 0;
  GPU500_CUDA_CHECK(cudaGetDevice(&device));
  GPU500_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  return sms < 1 ? 1 : sms;
}

}  // namespace gpu

}  // namespace gpu500
