// gpu500/hash/detail/device_atomics.cuh — the memory-model primitives of the GPU hash tables:
// relaxed / acquire loads, relaxed / release stores (cuda::atomic_ref at device scope), the 16-byte
// pair load and stores, the 16-byte pair CAS, acquire atomicOr and CAS, the release CAS, the
// acq_rel fence, the spin back-off, the stress harness's scheduling jitter, and the fields of a
// bucket word (gpu500/hash/hopscotch_map.hpp, namespace layout). Shared by GLHT and its baselines.
#pragma once

#include <cuda/atomic>

#include <cstdint>
#if !defined(__CUDACC__)
#include <thread>  // the host build of the protocol (tests/unit/hash/host_shim.hpp): yields
#endif

#include "gpu500/hash/hopscotch_map.hpp"

namespace gpu500::hash {

namespace detail {

template <class T>
__device__ __forceinline__ T ld_relaxed(const T* p) {
  return cuda::atomic_ref<T, cuda::thread_scope_device>(*const_cast<T*>(p)).load(cuda::std::memory_order_relaxed);
}
template <class T>
__device__ __forceinline__ T ld_acquire(const T* p) {
  return cuda::atomic_ref<T, cuda::thread_scope_device>(*const_cast<T*>(p)).load(cuda::std::memory_order_acquire);
}
template <class T, class U>
__device__ __forceinline__ void st_relaxed(T* p, U v) {
  cuda::atomic_ref<T, cuda::thread_scope_device>(*p).store(static_cast<T>(v), cuda::std::memory_order_relaxed);
}
template <class T, class U>
__device__ __forceinline__ void st_release(T* p, U v) {
  cuda::atomic_ref<T, cuda::thread_scope_device>(*p).store(static_cast<T>(v), cuda::std::memory_order_release);
}
/// {a, b} into p[0], p[1] (16-byte aligned) with one 16-byte relaxed store (two relaxed 8-byte
/// accesses in the memory model, unordered with each other).
__device__ __forceinline__ void st_relaxed_pair(std::uint64_t* p, std::uint64_t a, std::uint64_t b) {
#if defined(__CUDA_ARCH__)
  asm volatile("st.relaxed.gpu.global.v2.u64 [%0], {%1, %2};" ::"l"(p), "l"(a), "l"(b) : "memory");
#else  // the host build of the protocol (tests/unit/hash/host_shim.hpp): two relaxed stores
  st_relaxed(p, a);
  st_relaxed(p + 1, b);
#endif
}
/// {a, b} into p[0], p[1] (16-byte aligned) as one 16-byte access (`st.relaxed.gpu.global.b128`),
/// where st_relaxed_pair's vector store is two 8-byte accesses: the store that empties a slot of
/// the pair-CAS insert (hopscotch_options::pair_cas) accesses the very location its 16-byte claim
/// (cas_pair) reads, so that the claim continues the emptying store's release sequence
/// (docs/hash.md, "The pair-CAS insert"). The host build stores b before a: its cas_pair claims
/// through the key word alone, so the key must be the last word an emptying store writes.
__device__ __forceinline__ void st_relaxed_b128(std::uint64_t* p, std::uint64_t a, std::uint64_t b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile(
      "{\n\t.reg .b128 t;\n\tmov.b128 t, {%1, %2};\n\tst.relaxed.gpu.global.b128 [%0], t;\n\t}" ::"l"(p),
      "l"(a), "l"(b)
      : "memory");
#else  // below sm_90 the pair-CAS insert is compiled out (two accesses do); the host build
  st_relaxed(p + 1, b);
  st_relaxed(p, a);
#endif
}
/// The pair-CAS claim: one 16-byte compare-and-swap of {p[0], p[1]} (16-byte aligned) from
/// {a, b} to {x, y}, relaxed, device scope (sm_90's `atomicCAS` on a 16-byte trivially copyable
/// type, crt/sm_90_rt.h: `atom.global.cas.b128`; libcu++'s 16-byte atomic_ref does not build in
/// CCCL 3.0). True when it swapped; otherwise {a, b} is the pair it read. Below sm_90 it traps:
/// hopscotch_ref compiles the pair-CAS insert out there and hopscotch_map refuses the option. The
/// host build (tests/unit/hash/host_shim.hpp) has no 16-byte CAS: it claims by a CAS of the key
/// word alone and then stores the value (the claimed pair is named by no hop bit, so nobody reads
/// its value before the publishing CAS, which follows in program order), and b is not compared.
__device__ __forceinline__ bool cas_pair(std::uint64_t* p, std::uint64_t& a, std::uint64_t& b, std::uint64_t x,
                                         std::uint64_t y) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  struct alignas(16) pair {
    std::uint64_t first, second;
  };
  const pair old = atomicCAS(reinterpret_cast<pair*>(p), pair{a, b}, pair{x, y});
  const bool swapped = old.first == a && old.second == b;
  a = old.first, b = old.second;
  return swapped;
#elif defined(__CUDA_ARCH__)
  (void)p, (void)a, (void)b, (void)x, (void)y;
  __trap();
  return false;
#else
  std::uint64_t expect = a;
  if (!cuda::atomic_ref<std::uint64_t, cuda::thread_scope_device>(*p).compare_exchange_strong(
          expect, x, cuda::std::memory_order_relaxed, cuda::std::memory_order_relaxed)) {
    a = expect;
    b = ld_relaxed(p + 1);
    return false;
  }
  st_relaxed(p + 1, y);
  return true;
#endif
}
/// Acquire or relaxed load, chosen at run time (hopscotch_options::acquire_find).
template <class T>
__device__ __forceinline__ T ld_maybe_acquire(const T* p, bool acquire) {
  return acquire ? ld_acquire(p) : ld_relaxed(p);
}
/// {p[0], p[1]} (16-byte aligned) with one 16-byte load, acquire (no later load or store of this
/// thread is performed before either half is read) or relaxed: one request to the L2 where two
/// 8-byte loads make two. In the memory model it is two 8-byte accesses, unordered with each
/// other, as the pair store.
__device__ __forceinline__ void ld_pair(const std::uint64_t* p, std::uint64_t& a, std::uint64_t& b, bool acquire) {
#if defined(__CUDA_ARCH__)
  unsigned long long x, y;
  if (acquire)
    asm volatile("ld.acquire.gpu.global.v2.u64 {%0, %1}, [%2];" : "=l"(x), "=l"(y) : "l"(p) : "memory");
  else
    asm volatile("ld.relaxed.gpu.global.v2.u64 {%0, %1}, [%2];" : "=l"(x), "=l"(y) : "l"(p) : "memory");
  a = x, b = y;
#else
  a = ld_maybe_acquire(p, acquire);
  b = ld_maybe_acquire(p + 1, acquire);
#endif
}
/// atomicOr with acquire semantics (atom.or.acquire.gpu): no later load or store of this thread
/// is performed before it. A lock acquisition or a slot claim needs exactly that, and it costs no
/// memory barrier (fence.acq_rel waits for every earlier store of the thread to complete).
__device__ __forceinline__ std::uint64_t fetch_or_acquire(std::uint64_t* p, std::uint64_t v) {
  return cuda::atomic_ref<std::uint64_t, cuda::thread_scope_device>(*p).fetch_or(v, cuda::std::memory_order_acquire);
}
/// CAS with acquire semantics; returns the value read (as atomicCAS does).
__device__ __forceinline__ std::uint64_t cas_acquire(std::uint64_t* p, std::uint64_t expect, std::uint64_t desired) {
  cuda::atomic_ref<std::uint64_t, cuda::thread_scope_device>(*p).compare_exchange_strong(
      expect, desired, cuda::std::memory_order_acquire, cuda::std::memory_order_relaxed);
  return expect;
}
/// CAS with release semantics on success and acquire on failure (the pair-CAS insert's publish:
/// its claim and look-up before the hop bit; the word read on failure orders the next look-up);
/// returns the value read.
__device__ __forceinline__ std::uint64_t cas_release(std::uint64_t* p, std::uint64_t expect, std::uint64_t desired) {
  cuda::atomic_ref<std::uint64_t, cuda::thread_scope_device>(*p).compare_exchange_strong(
      expect, desired, cuda::std::memory_order_release, cuda::std::memory_order_acquire);
  return expect;
}
__device__ __forceinline__ std::uint64_t cas(std::uint64_t* p, std::uint64_t expect, std::uint64_t desired) {
  return atomicCAS(reinterpret_cast<unsigned long long*>(p), expect, desired);
}
/// fence.acq_rel.gpu: orders loads and stores across it (every ordering this table needs is
/// load->load, store->store or RMW->load; none needs the sequentially consistent __threadfence).
__device__ __forceinline__ void fence() {
  cuda::atomic_thread_fence(cuda::std::memory_order_acq_rel, cuda::thread_scope_device);
}
__device__ __forceinline__ void backoff(int round) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  __nanosleep(16u << (round < 4 ? round : 4));
#elif !defined(__CUDA_ARCH__) && !defined(__CUDACC__)
  (void)round;
  std::this_thread::yield();  // the host build: let the lock holder run
#else
  (void)round;
#endif
}
/// Scheduling jitter for the stress harnesses (tests/unit/hash/glht_stress.cu on the GPU,
/// test_host_protocol.cpp on host threads, where it yields): compiled in only
/// when GPU500_HASH_JITTER is defined before this header is included, else nothing. At the points
/// of the protocol where a thread stalling widens a race window, one call in four sleeps a
/// pseudo-random 0-2 us, so that rare interleavings become common; count_fallback counts the
/// finds that reached their locked fallback.
#if defined(GPU500_HASH_JITTER)
__device__ unsigned long long jitter_fallbacks;  ///< finds that took the locked fallback
#endif
__device__ __forceinline__ void count_fallback() {
#if defined(GPU500_HASH_JITTER) && defined(__CUDA_ARCH__)
  atomicAdd(&jitter_fallbacks, 1ULL);
#elif defined(GPU500_HASH_JITTER) && !defined(__CUDACC__)
  __atomic_fetch_add(&jitter_fallbacks, 1ULL, __ATOMIC_RELAXED);
#endif
}
__device__ __forceinline__ void jitter() {
#if defined(GPU500_HASH_JITTER) && defined(__CUDA_ARCH__)
  unsigned x = static_cast<unsigned>(clock64()) * 2654435761u ^ (threadIdx.x * 40503u + blockIdx.x * 977u);
  x ^= x >> 15;
  x *= 0x2c1b3c6du;
  x ^= x >> 12;
  if ((x & 3u) == 0) __nanosleep((x >> 2) & 2047u);
#elif defined(GPU500_HASH_JITTER) && !defined(__CUDACC__)
  // The host build: a thread-local xorshift; one call in four gives the core away.
  thread_local unsigned x = 0x9e3779b9u ^ static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(&x));
  x ^= x << 13, x ^= x >> 17, x ^= x << 5;
  if ((x & 3u) == 0) std::this_thread::yield();
#endif
}
__device__ __forceinline__ bool version_odd(std::uint64_t m) { return (m >> layout::version_shift) & 1u; }
__device__ __forceinline__ std::uint64_t version(std::uint64_t m) { return m >> layout::version_shift; }
__device__ __forceinline__ unsigned bitmap(std::uint64_t m) { return static_cast<unsigned>(m & layout::bitmap_mask); }

}  // namespace detail

}  // namespace gpu500::hash
