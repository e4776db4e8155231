// gpu500/core/cuda/memory.hpp — the one owner of device and page-locked host memory.
//
// Every component allocates GPU memory through these types and nothing else:
//   device_buffer<T>  an owning, move-only array of T in device memory. Made without a stream it
//                     uses cudaMalloc/cudaFree; made with a stream it is stream-ordered
//                     (cudaMallocAsync on that stream, freed with cudaFreeAsync on the same one),
//                     so a buffer that lives inside one stream's work costs no device-wide sync.
//   pinned_buffer<T>  an owning, move-only array of T in page-locked host memory (cudaMallocHost),
//                     the staging area for asynchronous copies.
// Both are uninitialised. A failed allocation throws resource_error naming the size asked for and
// the free and total device memory, so a caller's message needs nothing more.
// This header is plain C++ (no CUDA headers): host code of every component can hold buffers.
#pragma once

#include <cstddef>
#include <span>
#include <utility>
#include <vector>

// cudaStream_t without the CUDA headers (as cuda_runtime_api.h declares it).
struct CUstream_st;
typedef struct CUstream_st* cudaStream_t;

namespace gpu500::gpu {

/// Raw allocations (defined in src/core/cuda/memory.cu). A null stream means cudaMalloc.
void* device_alloc(std::size_t bytes, cudaStream_t stream = nullptr);
void device_free(void* p, cudaStream_t stream = nullptr) noexcept;
void* pinned_alloc(std::size_t bytes);
void pinned_free(void* p) noexcept;

/// Free and total bytes of the current device.
std::pair<std::size_t, std::size_t> device_memory();
/// Throws resource_error "<what> needs X bytes of device memory, Y bytes are free (of Z)".
void check_device_memory(const char* what, std::size_t needed);

/// Copies between any two of host, pinned and device memory (cudaMemcpyDefault). The plain form
/// is synchronous; the _async form is ordered on `stream` and returns at once.
void copy_bytes(void* dst, const void* src, std::size_t bytes);
void copy_bytes_async(void* dst, const void* src, std::size_t bytes, cudaStream_t stream);
/// Sets `bytes` bytes of device memory to `value` (a byte), ordered on `stream`.
void fill_bytes_async(void* dst, int value, std::size_t bytes, cudaStream_t stream = nullptr);
/// Waits for every operation queued on `stream`.
void synchronize(cudaStream_t stream = nullptr);

/// An owning, move-only device array of T (uninitialised).
template <class T>
class device_buffer {
 public:
  device_buffer() = default;
  explicit device_buffer(std::size_t n, cudaStream_t stream = nullptr)
      : n_(n), stream_(stream), p_(n ? static_cast<T*>(device_alloc(n * sizeof(T), stream)) : nullptr) {}
  ~device_buffer() { reset(); }
  device_buffer(device_buffer&& o) noexcept
      : n_(std::exchange(o.n_, 0)), stream_(o.stream_), p_(std::exchange(o.p_, nullptr)) {}
  device_buffer& operator=(device_buffer&& o) noexcept {
    if (this != &o) {
      reset();
      n_ = std::exchange(o.n_, 0);
      stream_ = o.stream_;
      p_ = std::exchange(o.p_, nullptr);
    }
    return *this;
  }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;

  /// Frees the memory (stream-ordered when the buffer was made with a stream).
  void reset() noexcept {
    device_free(p_, stream_);
    p_ = nullptr;
    n_ = 0;
  }
  /// Makes the buffer hold n elements, reallocating only when it holds fewer; the contents are
  /// not kept. Returns data().
  T* reserve(std::size_t n) {
    if (n > n_) *this = device_buffer(n, stream_);
    return p_;
  }
  [[nodiscard]] T* data() const { return p_; }
  [[nodiscard]] std::size_t size() const { return n_; }
  [[nodiscard]] std::size_t bytes() const { return n_ * sizeof(T); }
  [[nodiscard]] bool empty() const { return n_ == 0; }
  [[nodiscard]] cudaStream_t stream() const { return stream_; }
  /// Sets every byte to zero, ordered on `s` (default: the buffer's stream).
  void zero_async(cudaStream_t s) const { fill_bytes_async(p_, 0, bytes(), s); }
  void zero() const {
    fill_bytes_async(p_, 0, bytes(), stream_);
    synchronize(stream_);
  }

 private:
  std::size_t n_ = 0;
  cudaStream_t stream_ = nullptr;
  T* p_ = nullptr;
};

/// An owning, move-only array of T in page-locked host memory (uninitialised).
template <class T>
class pinned_buffer {
 public:
  pinned_buffer() = default;
  explicit pinned_buffer(std::size_t n) : n_(n), p_(n ? static_cast<T*>(pinned_alloc(n * sizeof(T))) : nullptr) {}
  ~pinned_buffer() { pinned_free(p_); }
  pinned_buffer(pinned_buffer&& o) noexcept : n_(std::exchange(o.n_, 0)), p_(std::exchange(o.p_, nullptr)) {}
  pinned_buffer& operator=(pinned_buffer&& o) noexcept {
    if (this != &o) {
      pinned_free(p_);
      n_ = std::exchange(o.n_, 0);
      p_ = std::exchange(o.p_, nullptr);
    }
    return *this;
  }
  pinned_buffer(const pinned_buffer&) = delete;
  pinned_buffer& operator=(const pinned_buffer&) = delete;

  [[nodiscard]] T* data() const { return p_; }
  [[nodiscard]] std::size_t size() const { return n_; }
  [[nodiscard]] std::size_t bytes() const { return n_ * sizeof(T); }
  [[nodiscard]] bool empty() const { return n_ == 0; }
  T& operator[](std::size_t i) const { return p_[i]; }
  [[nodiscard]] T* begin() const { return p_; }
  [[nodiscard]] T* end() const { return p_ + n_; }

 private:
  std::size_t n_ = 0;
  T* p_ = nullptr;
};

/// A host copy of n device elements (synchronous).
template <class T>
std::vector<T> to_host(const T* p, std::size_t n) {
  std::vector<T> h(n);
  if (n) copy_bytes(h.data(), p, n * sizeof(T));
  return h;
}
template <class T>
std::vector<T> to_host(const device_buffer<T>& b) {
  return to_host(b.data(), b.size());
}
/// A device copy of host elements (synchronous).
template <class T>
device_buffer<T> to_device(std::span<const T> h, cudaStream_t stream = nullptr) {
  device_buffer<T> d(h.size(), stream);
  if (!h.empty()) copy_bytes(d.data(), h.data(), h.size_bytes());
  return d;
}
template <class T>
device_buffer<T> to_device(const std::vector<T>& h, cudaStream_t stream = nullptr) {
  return to_device(std::span<const T>(h), stream);
}

}  // namespace gpu500::gpu
