// Compiles GLHT's device code (gpu500/hash/hopscotch_ref.cuh and detail/) with the host compiler,
// so that test_host_protocol.cpp runs the very same insert / erase / find / stash code on host
// threads, tile size 1 only. The CUDA qualifiers become nothing, and the few device intrinsics the
// protocol names become their host equivalents (GCC atomics and bit scans); the memory-model
// primitives of detail/device_atomics.cuh are cuda::atomic_ref, which libcu++ implements on the
// host too. Include this before any gpu500/hash header, from a .cpp file.
#pragma once

#if defined(__CUDACC__)
#error "host_shim.hpp is for the host compiler"
#endif

#include <cstdint>
#include <cstdlib>

#define __device__
#define __host__
#define __global__
#define __forceinline__ inline

inline unsigned long long atomicCAS(unsigned long long* p, unsigned long long expect, unsigned long long desired) {
  __atomic_compare_exchange_n(p, &expect, desired, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  return expect;
}
inline unsigned long long atomicOr(unsigned long long* p, unsigned long long v) {
  return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST);
}
inline unsigned long long atomicAnd(unsigned long long* p, unsigned long long v) {
  return __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST);
}
inline int __ffs(unsigned x) { return __builtin_ffs(static_cast<int>(x)); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
// Warp collectives exist only for tiles of 2-32 lanes, which the host build does not run.
inline unsigned __ballot_sync(unsigned, int) { std::abort(); }
template <class T>
T __shfl_sync(unsigned, T, int, int) {
  std::abort();
}
inline void __syncwarp(unsigned = 0xffffffffu) {}
