// gpu500/core/cuda/launch.hpp — launch-size arithmetic shared by every kernel's dispatch layer.
//
// Plain C++ (no CUDA headers) so that host code can size launches too. A dispatch layer holds its
// block size and items per thread in one named policy struct and asks these helpers for the grid.
#pragma once

#include <cstdint>

#include "gpu500/core/types.hpp"

namespace gpu500::gpu {

/// The most blocks a grid-stride kernel is launched with: enough to fill any current GPU many
/// times over, few enough that block-level setup stays negligible.
inline constexpr unsigned max_grid_stride_blocks = 65536;

/// ceil(a / b) for positive b.
constexpr index_t ceil_div(index_t a, index_t b) { return (a + b - 1) / b; }

/// Blocks of `block` threads, each thread taking `per_thread` items, to cover `items` items once
/// (at least 1 block, at most `max_blocks`; a grid-stride loop covers the rest).
constexpr unsigned grid_blocks(index_t items, int block, int per_thread = 1,
                               unsigned max_blocks = max_grid_stride_blocks) {
  const index_t b = ceil_div(items, static_cast<index_t>(block) * per_thread);
  return static_cast<unsigned>(b < 1 ? 1 : b > static_cast<index_t>(max_blocks) ? max_blocks : b);
}

/// Streaming multiprocessors of the current device (src/core/cuda/device.cu; throws cuda_error
/// when the runtime cannot say).
int multiprocessors();

/// Blocks of `block` threads that fill every SM of the current device once at full occupancy
/// (2048 resident threads an SM): the grid of a kernel that loops over its work.
inline unsigned resident_blocks(int block) {
  return static_cast<unsigned>(multiprocessors()) * static_cast<unsigned>(2048 / block);
}

/// Blocks when every warp (32 threads) takes one item.
constexpr unsigned grid_blocks_warp_per_item(index_t items, int block,
                                             unsigned max_blocks = max_grid_stride_blocks) {
  return grid_blocks(items * 32, block, 1, max_blocks);
}

}  // namespace gpu500::gpu
