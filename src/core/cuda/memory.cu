// Device and page-locked host allocations and copies (see gpu500/core/cuda/memory.hpp).
#include <cuda_runtime.h>

#include <string>

#include "gpu500/core/cuda/check.cuh"
#include "gpu500/core/cuda/memory.hpp"
#include "gpu500/core/device.hpp"
#include "gpu500/core/error.hpp"

namespace gpu500::gpu {

namespace {
[[noreturn]] void throw_out_of_memory(const char* kind, std::size_t bytes, cudaError_t e) {
  (void)cudaGetLastError();
  const auto [free_b, total_b] = device_memory();
  throw resource_error(std::string(kind) + " allocation of " + human_bytes(static_cast<double>(bytes)) + " failed (" +
                       cudaGetErrorName(e) + "); " + human_bytes(static_cast<double>(free_b)) + " of " +
                       human_bytes(static_cast<double>(total_b)) + " of device memory free");
}
}  // namespace

void* device_alloc(std::size_t bytes, cudaStream_t stream) {
  void* p = nullptr;
  if (bytes == 0) return p;
  const cudaError_t e = stream ? cudaMallocAsync(&p, bytes, stream) : cudaMalloc(&p, bytes);
  if (e != cudaSuccess) throw_out_of_memory("device", bytes, e);
  return p;
}

void device_free(void* p, cudaStream_t stream) noexcept {
  if (!p) return;
  if (stream)
    (void)cudaFreeAsync(p, stream);
  else
    (void)cudaFree(p);
}

void* pinned_alloc(std::size_t bytes) {
  void* p = nullptr;
  if (bytes == 0) return p;
  const cudaError_t e = cudaMallocHost(&p, bytes);
  if (e != cudaSuccess) throw_out_of_memory("page-locked host", bytes, e);
  return p;
}

void pinned_free(void* p) noexcept {
  if (p) (void)cudaFreeHost(p);
}

std::pair<std::size_t, std::size_t> device_memory() {
  std::size_t f = 0, t = 0;
  if (cudaMemGetInfo(&f, &t) != cudaSuccess) (void)cudaGetLastError();
  return {f, t};
}

void check_device_memory(const char* what, std::size_t needed) {
  const auto [free_b, total_b] = device_memory();
  if (needed > free_b)
    throw resource_error(std::string(what) + " needs " + human_bytes(static_cast<double>(needed)) +
                         " of device memory, " + human_bytes(static_cast<double>(free_b)) + " free (of " +
                         human_bytes(static_cast<double>(total_b)) + ")");
}

void copy_bytes(void* dst, const void* src, std::size_t bytes) {
  if (bytes) GPU500_CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyDefault));
}

void copy_bytes_async(void* dst, const void* src, std::size_t bytes, cudaStream_t stream) {
  if (bytes) GPU500_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, stream));
}

void fill_bytes_async(void* dst, int value, std::size_t bytes, cudaStream_t stream) {
  if (bytes) GPU500_CUDA_CHECK(cudaMemsetAsync(dst, value, bytes, stream));
}

void synchronize(cudaStream_t stream) { GPU500_CUDA_CHECK(cudaStreamSynchronize(stream)); }

}  // namespace gpu500::gpu
