// gpu500/core/cuda/download.hpp — large device arrays brought into host memory near the link's
// speed. A cudaMemcpy into pageable memory that was never touched runs at a fraction of it: the
// driver stages the copy through a small buffer of its own and every new page faults on one
// thread (a Python g.bfs call that copied a SCALE 22 tree of 32 MB that way took about 22 ms on an
// H200 host; 6.6 to 8.5 ms through host_download, with the 32 MB of levels as well). host_download
// copies through two page-locked chunks of its own instead, the next chunk's copy beside the host
// threads' pass over the last one (the page faults shared by the OpenMP team), converting each
// element on the way.
// This header is plain C++ (no CUDA headers). One host_download serves one thread at a time.
#pragma once

#include <cstddef>
#include <cstdint>

#include "gpu500/core/cuda/memory.hpp"

// cudaEvent_t without the CUDA headers (as cuda_runtime_api.h declares it).
struct CUevent_st;

namespace gpu500::gpu {

class host_download {
 public:
  /// Bytes of one chunk by default: large enough that a copy runs at the link's speed, small
  /// enough that the host's pass over it stays in the last-level cache.
  static constexpr std::size_t default_chunk_bytes = std::size_t{8} << 20;

  /// The chunks (2 x chunk_bytes of page-locked memory, a multiple of 64 bytes) are allocated on
  /// the first download.
  explicit host_download(std::size_t chunk_bytes = default_chunk_bytes) : chunk_bytes_(chunk_bytes) {}
  ~host_download();
  host_download(const host_download&) = delete;
  host_download& operator=(const host_download&) = delete;

  /// out[i] = in[i] for n device vertex ids or levels, widened to int64, with an unsigned id of
  /// all ones (a BFS's "unreached") as -1. Ordered after the work queued on the legacy default
  /// stream (and so after every blocking stream); returns when out is filled.
  template <class T>
  void widen(const T* in, std::size_t n, std::int64_t* out);
  /// out[i] = in[i] for n device values of T, as above.
  template <class T>
  void copy(const T* in, std::size_t n, T* out);

 private:
  /// The pass over the device bytes [in, in + n * size) in chunks of whole elements: each chunk
  /// copied into a page-locked buffer, then pass(chunk, first element, count) on the host.
  template <class Pass>
  void stream(const void* in, std::size_t n, std::size_t size, Pass&& pass);

  std::size_t chunk_bytes_;
  pinned_buffer<std::byte> chunks_;  ///< two chunks, one filling while the host reads the other
  CUevent_st* filled_[2] = {nullptr, nullptr};
};

}  // namespace gpu500::gpu
