// Large device arrays into host memory through two page-locked chunks (see
// gpu500/core/cuda/download.hpp): the next chunk's copy on the default stream while the OpenMP team
// converts the last one into the caller's memory.
#include "gpu500/core/cuda/download.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "gpu500/core/cuda/check.cuh"

namespace gpu500::gpu {

host_download::~host_download() {
  for (CUevent_st* e : filled_)
    if (e) (void)cudaEventDestroy(e);
}

template <class Pass>
void host_download::stream(const void* in, std::size_t n, std::size_t size, Pass&& pass) {
  if (n == 0) return;
  GPU500_EXPECTS(chunk_bytes_ >= 64 && chunk_bytes_ % 64 == 0, "host_download: a chunk is a positive multiple of 64 bytes");
  if (chunks_.empty()) {
    chunks_ = pinned_buffer<std::byte>(2 * chunk_bytes_);
    for (CUevent_st*& e : filled_) GPU500_CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
  }
  const std::size_t per = chunk_bytes_ / size;
  const auto* from = static_cast<const std::byte*>(in);
  const auto fill = [&](std::size_t first, int k) {
    const std::size_t count = std::min(per, n - first);
    GPU500_CUDA_CHECK(cudaMemcpyAsync(chunks_.data() + k * chunk_bytes_, from + first * size, count * size,
                                      cudaMemcpyDeviceToHost, cudaStreamLegacy));
    GPU500_CUDA_CHECK(cudaEventRecord(filled_[k], cudaStreamLegacy));
  };
  fill(0, 0);
  int k = 0;
  for (std::size_t first = 0; first < n; first += per, k ^= 1) {
    if (first + per < n) fill(first + per, k ^ 1);  // the other chunk: its last pass has ended
    GPU500_CUDA_CHECK(cudaEventSynchronize(filled_[k]));
    pass(chunks_.data() + k * chunk_bytes_, first, std::min(per, n - first));
  }
}

template <class T>
void host_download::widen(const T* in, std::size_t n, std::int64_t* out) {
  stream(in, n, sizeof(T), [out](const std::byte* chunk, std::size_t first, std::size_t count) {
    const T* v = reinterpret_cast<const T*>(chunk);
    std::int64_t* o = out + first;
#pragma omp parallel for schedule(static)
    for (std::size_t i = 0; i < count; ++i) {
      if constexpr (std::is_unsigned_v<T>)
        o[i] = v[i] == static_cast<T>(~T{0}) ? -1 : static_cast<std::int64_t>(v[i]);
      else
        o[i] = static_cast<std::int64_t>(v[i]);
    }
  });
}

template <class T>
void host_download::copy(const T* in, std::size_t n, T* out) {
  stream(in, n, sizeof(T), [out](const std::byte* chunk, std::size_t first, std::size_t count) {
    const std::size_t bytes = count * sizeof(T);
    constexpr std::size_t piece = 64 << 10;
    const auto pieces = static_cast<std::int64_t>((bytes + piece - 1) / piece);
    auto* o = reinterpret_cast<std::byte*>(out + first);
#pragma omp parallel for schedule(static)
    for (std::int64_t p = 0; p < pieces; ++p) {
      const std::size_t at = static_cast<std::size_t>(p) * piece;
      std::memcpy(o + at, chunk + at, std::min(piece, bytes - at));
    }
  });
}

template void host_download::widen(const std::uint32_t*, std::size_t, std::int64_t*);
template void host_download::widen(const std::int64_t*, std::size_t, std::int64_t*);
template void host_download::widen(const std::int32_t*, std::size_t, std::int64_t*);
template void host_download::copy(const std::int64_t*, std::size_t, std::int64_t*);
template void host_download::copy(const float*, std::size_t, float*);

}  // namespace gpu500::gpu
