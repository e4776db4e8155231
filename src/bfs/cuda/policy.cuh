// src/bfs/cuda/policy.cuh — the launch policy and the tuning constants of the Enterprise BFS engine
// (Liu & Huang, SC'15), and the small records its kernels and the host share.
//
// Every block size, per-SM grid factor, unroll depth and class boundary lives in bfs_policy; no
// launch literal appears at a call site. The frontier classes by degree are Enterprise's
// workload balancing (thread < 32 <= warp < 256 <= CTA <= extreme_degree < grid); the grid-queue
// boundary is 4096 rather than the paper's 65536 because on a 132-SM GPU one CTA on a 65,536-arc
// list is a level's critical path (docs/bfs-gpu.md).
#pragma once

#include <cstdint>

#include "gpu500/core/types.hpp"

namespace gpu500::bfs::cuda::detail {

using ull = unsigned long long;

struct bfs_policy {
  static constexpr int block = 256;          ///< threads per CTA of every kernel but the loop
  static constexpr int gen_blocks_per_sm = 8;
  static constexpr int expand_blocks_per_sm = 8;
  static constexpr int loop_block = 1024;    ///< the device loop's blocks (a cooperative grid)
  static constexpr int loop_blocks_per_sm = 1;
  static constexpr int loop_lanes = 8;       ///< device loop: threads that share a frontier vertex's row
  static constexpr int cache_bytes = 16384;  ///< shared-memory hub cache per CTA
  static constexpr int classes = 6;          ///< frontier by degree (0..3), unvisited (4: < 32, 5: >= 32)
  static constexpr int hub_slot = 6;         ///< counted with the classes: frontier hubs for the bottom-up cache
  static constexpr int slots = 7;            ///< per-warp counts of one generation pass
  static constexpr int gen_unroll = 4;       ///< generation passes: 32-item rounds whose loads are issued together
  static constexpr int bu_unroll = 4;        ///< bottom-up: arcs (thread) / 32-arc rounds (warp) loaded at once
  static constexpr int bu_probe = 4;         ///< bottom-up warp class: arcs each lane probes in its own row first
  static constexpr int map_ilp = 4;          ///< parents to original ids: vertices per thread, loads together
  static constexpr index_t small_max = 32, middle_max = 256;  ///< thread / warp / CTA class boundaries
  static constexpr index_t extreme_degree = 4096;  ///< above: the frontier vertex goes to the grid queue
  // The device loop's limits: a frontier beyond any of them goes to the Enterprise passes, whose
  // classes balance hubs and whose bottom-up direction the loop does not have.
  static constexpr index_t loop_vertices = 65536;  ///< device loop: largest frontier
  static constexpr index_t loop_arcs = 524288;     ///< device loop: largest frontier arc count
  static constexpr index_t loop_degree = 256;      ///< device loop: largest degree in the frontier
  // Below both of these a level of the device loop runs in one block (a block barrier, not a grid
  // barrier): a frontier of this size is one or two rounds of the block's lane groups.
  static constexpr index_t loop_cta_vertices = 256;  ///< device loop in one block: largest frontier
  static constexpr index_t loop_cta_arcs = 2048;     ///< device loop in one block: largest frontier arc count
  // The cluster tier (cluster_loop.cuh) runs the levels of a frontier within these limits before the
  // grid loop, in one cluster of cluster_max_blocks blocks (or half as many, down to 2, where the GPU
  // cannot place that many or the grids' share of the SMs is smaller); each block's shared memory
  // holds two queues of cluster_vertices entries.
  static constexpr index_t cluster_vertices = 4096;  ///< cluster tier: largest frontier
  static constexpr index_t cluster_arcs = 32768;     ///< cluster tier: largest frontier arc count
  static constexpr unsigned cluster_max_blocks = 16;
  /// Words of the cluster tier's visited bitmap in each block's shared memory (32 KB: 2^18
  /// vertices a block, 4M in a cluster of 16, beside the queues' 128 KB).
  static constexpr unsigned cluster_bitmap_words = 8192;
};
static_assert(bfs_policy::loop_degree <= bfs_policy::middle_max, "a list without CTA- or grid-class vertices fits the loop");
static_assert(bfs_policy::loop_block % 32 == 0 && 32 % bfs_policy::loop_lanes == 0, "lane groups tile warps");
static_assert(bfs_policy::cluster_max_blocks <= 32, "one warp reads the cluster's counts");
static_assert(bfs_policy::cluster_arcs <= bfs_policy::loop_arcs, "the spill list is a loop queue");

/// Totals of one count pass (device side; copied to pinned host memory once per level).
struct gen_totals {
  ull cls[bfs_policy::classes];
  ull nf, mf, fh;  ///< frontier vertices, their arcs, their hubs
  ull hub_count;   ///< frontier key vertices (degree >= priority_degree); the list keeps the first hub_cap
};

/// How the generation passes build the list of frontier hubs for the bottom-up cache.
enum class hub_mode : int {
  none = 0,
  atomic = 1,  ///< the count pass appends them (one atomic per warp step; BL, which has no write pass)
  scanned = 2  ///< counted as a seventh class and written by the write pass at scanned positions
};

/// What the device loop hands back.
struct loop_result {
  std::int32_t level;  ///< depth of the frontier left in the buffer the loop was given
  ull count;
};

}  // namespace gpu500::bfs::cuda::detail
