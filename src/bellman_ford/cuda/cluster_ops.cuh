// Distributed shared memory and mbarrier primitives (sm_90 PTX) of the resident schedule's
// cluster exchanges: shared::cluster addresses, asynchronous remote stores counted on the
// receiver's mbarrier (st.async ... complete_tx), and the mbarrier's init / arrive / expect /
// wait.
#pragma once

#include <cuda_runtime.h>

namespace gpu500::bellman_ford::cuda {

__device__ __forceinline__ unsigned smem_address(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

/// The shared::cluster address of the same shared-memory location in block `rank`.
__device__ __forceinline__ unsigned cluster_address(unsigned local, unsigned rank) {
  unsigned r;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(local), "r"(rank));
  return r;
}

/// Asynchronous remote store that counts its bytes on the receiving block's mbarrier.
__device__ __forceinline__ void store_async(unsigned addr, unsigned v, unsigned bar) {
  asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [%0], %1, [%2];" ::"r"(addr), "r"(v), "r"(bar)
               : "memory");
}
__device__ __forceinline__ void store_async(unsigned addr, float4 v, unsigned bar) {
  asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.b32 [%0], {%1, %2, %3, %4}, [%5];" ::"r"(addr),
               "r"(__float_as_uint(v.x)), "r"(__float_as_uint(v.y)), "r"(__float_as_uint(v.z)),
               "r"(__float_as_uint(v.w)), "r"(bar)
               : "memory");
}
__device__ __forceinline__ void store_async(unsigned addr, float2 v, unsigned bar) {
  asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.b32 [%0], {%1, %2}, [%3];" ::"r"(addr),
               "r"(__float_as_uint(v.x)), "r"(__float_as_uint(v.y)), "r"(bar)
               : "memory");
}
__device__ __forceinline__ void barrier_init(unsigned bar, unsigned arrivals) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(arrivals) : "memory");
}
/// The two mbarriers at bars and bars + 8 (one per vector parity), each completing a phase after
/// `arrivals` arrivals (and its announced bytes), made visible to the cluster. One thread calls it.
__device__ __forceinline__ void barrier_init_pair(unsigned bars, unsigned arrivals) {
  barrier_init(bars, arrivals);
  barrier_init(bars + 8, arrivals);
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}
/// One arrival that also announces `bytes` of asynchronous stores for the current phase.
__device__ __forceinline__ void barrier_expect(unsigned bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes) : "memory");
}

/// H consecutive floats as one asynchronous remote store (4 H bytes, 4 H-byte aligned).
template <int H>
__device__ __forceinline__ void store_async_values(unsigned addr, const float* v, unsigned bar) {
  if constexpr (H == 1) store_async(addr, __float_as_uint(v[0]), bar);
  else if constexpr (H == 2) store_async(addr, make_float2(v[0], v[1]), bar);
  else store_async(addr, make_float4(v[0], v[1], v[2], v[3]), bar);
}
/// The same H floats into this block's shared memory.
template <int H>
__device__ __forceinline__ void store_shared_values(float* to, const float* v) {
  if constexpr (H == 1) *to = v[0];
  else if constexpr (H == 2) *reinterpret_cast<float2*>(to) = make_float2(v[0], v[1]);
  else *reinterpret_cast<float4*>(to) = make_float4(v[0], v[1], v[2], v[3]);
}

/// One plain arrival (release at CTA scope: the arriving thread's earlier shared-memory stores
/// are visible to the threads that then see the phase complete).
__device__ __forceinline__ void barrier_arrive(unsigned bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
}
/// Waits until the phase with the given parity has completed (acquire at cluster scope).
__device__ __forceinline__ void barrier_wait(unsigned bar, unsigned parity) {
  unsigned done = 0;
  do {
    asm volatile(
        "{\n .reg .pred p;\n mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], %2;\n"
        " selp.u32 %0, 1, 0, p;\n}"
        : "=r"(done)
        : "r"(bar), "r"(parity)
        : "memory");
  } while (!done);
}

}  // namespace gpu500::bellman_ford::cuda
