// gpu500/dist/device_pairs.cuh — device helpers of the engines that run over MPI ranks on GPUs
// (.cu files only):
// 64-bit atomic adds of signed values, warp-aggregated counters (one atomic per warp and key
// instead of one per thread: every arc of an expansion bumps one of only R counters, which
// serialises on a few addresses otherwise), the owner of a vertex under the block partition, the
// sender of an arrival, bitmap bits, a value read from device memory, the owners' blocks of a
// send buffer, and the bytes an exchange sends to other ranks.
#pragma once

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "gpu500/core/cuda/launch.cuh"
#include "gpu500/core/cuda/memory.hpp"
#include "gpu500/core/types.hpp"
#include "gpu500/graph/csr.hpp"

namespace gpu500::dist::cuda {

/// Block size of every kernel here (a policy constant, not a knob).
inline constexpr int block_threads = 256;

__device__ __forceinline__ index_t atomic_add(index_t* p, index_t v) {
  return static_cast<index_t>(
      atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v)));
}
/// Takes one slot of counter[key] for the calling thread and returns it (the counter's value
/// before): the threads of a warp that arrive together with the same key share one atomic add.
/// Call it from divergent code freely (the coalesced group is whoever arrived).
__device__ __forceinline__ index_t aggregated_take(index_t* counter, int key) {
  namespace cg = cooperative_groups;
  const cg::coalesced_group arrived = cg::coalesced_threads();
  const cg::coalesced_group peers = cg::labeled_partition(arrived, key);
  index_t base = 0;
  if (peers.thread_rank() == 0) base = atomic_add(&counter[key], static_cast<index_t>(peers.size()));
  return peers.shfl(base, 0) + static_cast<index_t>(peers.thread_rank());
}

/// Adds v of every arriving thread to *sum with one atomic per warp.
__device__ __forceinline__ void aggregated_add(index_t* sum, index_t v) {
  namespace cg = cooperative_groups;
  const cg::coalesced_group arrived = cg::coalesced_threads();
  for (unsigned o = 1; o < arrived.size(); o *= 2) {
    const index_t other = arrived.shfl_down(v, o);
    if (arrived.thread_rank() + o < arrived.size()) v += other;
  }
  if (arrived.thread_rank() == 0) atomic_add(sum, v);
}

/// The rank owning vertex v (dist::block_partition: blocks of `block` vertices).
__device__ __forceinline__ int owner_of(std::int64_t v, index_t block) { return static_cast<int>(v / block); }

/// The rank that sent arrival i of an all-to-all: the last r whose block of arrivals starts at or
/// before i (displs: the R + 1 block starts).
__device__ __forceinline__ int sender_of(const index_t* displs, int ranks, index_t i) {
  int lo = 0, hi = ranks - 1;
  while (lo < hi) {
    const int mid = (lo + hi + 1) / 2;
    if (displs[mid] <= i) lo = mid; else hi = mid - 1;
  }
  return lo;
}

/// Bit v of a bitmap of 64-bit words.
__device__ __forceinline__ bool test_bit(const std::uint64_t* bits, std::int64_t v) {
  return (bits[v >> 6] >> (v & 63)) & 1u;
}

/// One value from device memory (synchronous).
template <class T>
T read_one(const T* p) {
  T x;
  gpu::copy_bytes(&x, p, sizeof(T));
  return x;
}

/// counts[o] += the owned arcs whose far end rank o owns.
template <class V>
__global__ void arcs_per_owner_kernel(graph::csr_view<V> g, index_t arcs, index_t block, index_t* counts) {
  for (index_t k : gpu::grid_stride(arcs))
    aggregated_take(counts, owner_of(static_cast<std::int64_t>(g.columns[k]), block));
}

/// The layout of a send buffer that takes at most one item per owned arc: a block per rank, in
/// rank order, each as long as the owned arcs whose far end that rank owns, so that one pass can
/// write every item at its owner's cursor and nothing overflows. Returns the blocks' starts and
/// copies them to `starts` (device, R entries).
template <class V>
std::vector<index_t> owner_block_starts(graph::csr_view<V> g, index_t block, gpu::device_buffer<index_t>& starts) {
  const index_t arcs = read_one(g.offsets + g.local_vertices);
  starts.zero();
  if (arcs > 0)
    gpu::launch(arcs_per_owner_kernel<V>, gpu::grid_blocks(arcs, block_threads), block_threads, 0, nullptr, g, arcs,
                block, starts.data());
  const std::vector<index_t> per_owner = gpu::to_host(starts);
  std::vector<index_t> start(per_owner.size(), 0);
  for (std::size_t r = 1; r < start.size(); ++r) start[r] = start[r - 1] + per_owner[r - 1];
  gpu::copy_bytes(starts.data(), start.data(), start.size() * sizeof(index_t));
  return start;
}

/// Bytes of the counted elements that leave this rank.
inline index_t bytes_to_others(const std::vector<index_t>& counts, int me, std::size_t elem_bytes) {
  index_t b = 0;
  for (std::size_t r = 0; r < counts.size(); ++r)
    if (static_cast<int>(r) != me) b += counts[r] * static_cast<index_t>(elem_bytes);
  return b;
}

}  // namespace gpu500::dist::cuda
