// Launch machinery shared by the CUDA tables of the hash component: the launch policy, tile-op
// grid-stride indices, block-aggregated counters and RAII device arrays. Private to src/hash.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <string>
#include <vector>

#include "gpu500/core/cuda/check.cuh"
#include "gpu500/core/error.hpp"
#include "gpu500/core/types.hpp"

namespace gpu500::hash::detail {

/// Launch policy of every hash-table kernel: 256-thread blocks, grid-stride loops, at most four
/// waves of fully occupied SMs.
struct launch_policy {
  int block = 256;
  int max_blocks = 132 * 32;
  static launch_policy for_device() {
    launch_policy p;
    int dev = 0, sms = 0;
    GPU500_CUDA_CHECK(cudaGetDevice(&dev));
    GPU500_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    p.max_blocks = std::max(1, sms) * (2048 / p.block) * 4;
    return p;
  }
  /// Blocks for `threads` threads.
  [[nodiscard]] unsigned grid(index_t threads) const {
    const index_t b = (threads + block - 1) / block;
    return static_cast<unsigned>(std::clamp<index_t>(b, 1, max_blocks));
  }
};

/// First operation of this thread's tile and the grid-stride step, in operations.
template <int G>
__device__ __forceinline__ index_t first_op() {
  return (static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x) / G;
}
template <int G>
__device__ __forceinline__ index_t op_stride() {
  return static_cast<index_t>(gridDim.x) * blockDim.x / G;
}

/// counters[0] += sum of a, counters[1] += sum of b over the block (every thread must call).
__device__ __forceinline__ void block_add(unsigned long long* counters, unsigned long long a, unsigned long long b) {
  __shared__ unsigned long long s[2];
  if (threadIdx.x == 0) s[0] = s[1] = 0;
  __syncthreads();
  if (a) atomicAdd(&s[0], a);
  if (b) atomicAdd(&s[1], b);
  __syncthreads();
  if (threadIdx.x == 0) {
    if (s[0]) atomicAdd(&counters[0], s[0]);
    if (s[1]) atomicAdd(&counters[1], s[1]);
  }
}

/// cudaMalloc of n elements; resource_error naming `what` and the size when it fails.
template <class T>
void device_alloc(T** p, std::uint64_t n, const char* what) {
  const std::uint64_t bytes = std::max<std::uint64_t>(n, 1) * sizeof(T);
  if (cudaMalloc(reinterpret_cast<void**>(p), bytes) != cudaSuccess) {
    (void)cudaGetLastError();
    size_t free_b = 0, total_b = 0;
    cudaMemGetInfo(&free_b, &total_b);
    throw resource_error(std::string(what) + ": cannot allocate " + std::to_string(bytes >> 20) +
                         " MiB of device memory (" + std::to_string(free_b >> 20) + " MiB free)");
  }
}

/// An owning device array (no copies; moves allowed).
template <class T>
class device_array {
 public:
  device_array() = default;
  explicit device_array(std::uint64_t n) { allocate(n); }
  ~device_array() { cudaFree(p_); }
  device_array(const device_array&) = delete;
  device_array& operator=(const device_array&) = delete;
  device_array(device_array&& o) noexcept : p_(o.p_), n_(o.n_) { o.p_ = nullptr; o.n_ = 0; }
  device_array& operator=(device_array&& o) noexcept {
    std::swap(p_, o.p_);
    std::swap(n_, o.n_);
    return *this;
  }
  T* allocate(std::uint64_t n) {
    cudaFree(p_);
    p_ = nullptr;
    device_alloc(&p_, n, "hash buffer");
    n_ = n;
    return p_;
  }
  void upload(const std::vector<T>& h) {
    if (n_ < h.size()) allocate(h.size());
    GPU500_CUDA_CHECK(cudaMemcpy(p_, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  }
  void download(std::vector<T>& h) const {
    GPU500_CUDA_CHECK(cudaMemcpy(h.data(), p_, std::min<std::uint64_t>(h.size(), n_) * sizeof(T),
                                 cudaMemcpyDeviceToHost));
  }
  [[nodiscard]] T* data() const { return p_; }
  [[nodiscard]] std::uint64_t size() const { return n_; }

 private:
  T* p_ = nullptr;
  std::uint64_t n_ = 0;
};

}  // namespace gpu500::hash::detail
