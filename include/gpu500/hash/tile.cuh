// gpu500/hash/tile.cuh — a group of G consecutive lanes of a warp that performs one hash-table
// operation together (G = 32 is the paper's warp-cooperative work sharing; G = 1 is one thread
// per operation). Thin wrappers over __ballot_sync / __shfl_sync with the tile's lane mask.
// Every lane of a tile must call these with the tile converged (same call, same order).
#pragma once

#include <cstdint>

namespace gpu500::hash {

template <int G>
struct tile {
  static_assert(G == 1 || G == 2 || G == 4 || G == 8 || G == 16 || G == 32, "tile size: power of 2 <= 32");
  static constexpr int size = G;
  static constexpr unsigned low = G == 32 ? 0xffffffffu : ((1u << G) - 1u);
  unsigned rank;   ///< lane within the tile
  unsigned shift;  ///< first warp lane of the tile
  unsigned mask;   ///< warp lanes of the tile

  __device__ __forceinline__ tile() {
    unsigned lane = 0;  // the host build of the protocol (tests/unit/hash/host_shim.hpp): tile 1 only
#if defined(__CUDA_ARCH__)
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
#endif
    rank = lane % G;
    shift = lane - rank;
    mask = low << shift;
  }
  /// Bit r set when lane r of the tile has p true.
  __device__ __forceinline__ unsigned ballot(bool p) const {
    if constexpr (G == 1) {
      return p ? 1u : 0u;
    } else {
      return (__ballot_sync(mask, p) >> shift) & low;
    }
  }
  __device__ __forceinline__ bool any(bool p) const { return ballot(p) != 0; }
  template <class T>
  __device__ __forceinline__ T shfl(T v, int src) const {
    if constexpr (G == 1) {
      return v;
    } else {
      return __shfl_sync(mask, v, src, G);
    }
  }
  __device__ __forceinline__ bool shfl(bool v, int src) const { return shfl(static_cast<int>(v), src) != 0; }
  __device__ __forceinline__ bool leader() const { return rank == 0; }
  __device__ __forceinline__ void sync() const {
    if constexpr (G > 1) __syncwarp(mask);
  }
};

}  // namespace gpu500::hash
