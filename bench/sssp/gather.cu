// bench/sssp/gather.cu — the random-read baseline of bench_sssp_gpu: how many independent 8-byte
// reads at uniformly random positions of an array one GPU serves per second. A light arc of the
// SSSP costs one such read (its target's packed word) plus its own arc's sequential read, so this
// rate, measured in the same run over an array of the same size, is the ceiling the light phases
// are compared with.
#include <cuda_runtime.h>

#include <chrono>
#include <cstdint>

#include "gather.hpp"
#include "gpu500/core/cuda/launch.cuh"
#include "gpu500/core/cuda/memory.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/hash/common.hpp"  // fmix64

namespace {

__device__ __forceinline__ unsigned long long mix(unsigned long long x) { return gpu500::hash::fmix64(x); }

constexpr int gather_ilp = 8;  ///< independent reads in flight per thread

__global__ void fill_kernel(unsigned long long* a, std::size_t n) {
  for (gpu500::index_t i : gpu500::gpu::grid_stride(static_cast<gpu500::index_t>(n))) a[i] = mix(static_cast<std::size_t>(i));
}

__global__ void gather_kernel(const unsigned long long* a, std::size_t n, std::size_t per_thread,
                              unsigned long long seed, unsigned long long* sink) {
  const auto t = static_cast<std::size_t>(gpu500::gpu::global_thread_id());
  unsigned long long acc = 0;
  for (std::size_t r = 0; r < per_thread; r += gather_ilp) {
    unsigned long long v[gather_ilp];
#pragma unroll
    for (int k = 0; k < gather_ilp; ++k) v[k] = __ldcg(a + mix(seed ^ ((t * per_thread + r + k) * 0x9e3779b97f4a7c15ull)) % n);
#pragma unroll
    for (int k = 0; k < gather_ilp; ++k) acc ^= v[k];
  }
  if (acc == 0x123456789abcdefull) *sink = acc;  // keeps the loads
}

}  // namespace

double random_gather_rate(std::size_t words) {
  if (words == 0) return 0;
  gpu500::gpu::device_buffer<unsigned long long> da, dsink;
  try {
    da = gpu500::gpu::device_buffer<unsigned long long>(words);
    dsink = gpu500::gpu::device_buffer<unsigned long long>(1);
  } catch (const gpu500::resource_error&) {
    return 0;
  }
  unsigned long long* a = da.data();
  unsigned long long* sink = dsink.data();
  int dev = 0, sms = 0;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  fill_kernel<<<sms * 8, 256>>>(a, words);
  const int blocks = sms * 8, threads = 256;
  const std::size_t per_thread = 256;  // 2^8 reads per thread, ~70 M reads per launch on 132 SMs
  gather_kernel<<<blocks, threads>>>(a, words, per_thread, 1, sink);  // warm-up
  cudaDeviceSynchronize();
  double best = 1e30;
  for (int i = 0; i < 5; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    gather_kernel<<<blocks, threads>>>(a, words, per_thread, 2 + static_cast<unsigned long long>(i), sink);
    cudaDeviceSynchronize();
    const std::chrono::duration<double> d = std::chrono::steady_clock::now() - t0;
    best = d.count() < best ? d.count() : best;
  }
  const bool ok = cudaGetLastError() == cudaSuccess;
  if (!ok) return 0;
  return static_cast<double>(blocks) * threads * static_cast<double>(per_thread) / best / 1e9;
}
