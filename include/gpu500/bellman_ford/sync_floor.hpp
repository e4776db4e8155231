// gpu500/bellman_ford/sync_floor.hpp — what one round of the resident dense Bellman-Ford schedule
// costs before any arithmetic: the blocks of a launch meeting once per round, with nothing between.
//
// Each way runs `rounds` iterations in one launch of the resident schedule's shape (512 or 1024
// threads per block):
//   cluster_sync      one cluster of B blocks, cluster.sync() per round;
//   cluster_sync_or   the same plus the block-wide __syncthreads_or the round needs for its flag;
//   async_exchange    one cluster of B blocks, each sends a 4-byte flag to every other block with
//                     an asynchronous remote store counted on the receiver's mbarrier and waits
//                     for its own mbarrier (the resident kernel's exchange, without the distances);
//   warp_exchange     one cluster of B blocks, every warp sends a 4-byte value to every other
//                     block the same way, writes its own block's copy and arrives on its own
//                     mbarrier; no block barrier (the warp-exchange resident kernel's meeting);
//   grid_sync         a cooperative grid of B blocks, grid.sync() per round;
//   launch            an empty kernel of B blocks launched `rounds` times (at most 2000) back to back.
// bench/bellman_ford (bf_sync_floor) prints the figures.
#pragma once

#include <string>
#include <vector>

namespace gpu500::bellman_ford {

struct sync_floor_row {
  std::string what;      ///< the way of meeting (see above)
  int blocks = 0;
  int rounds = 0;        ///< rounds (iterations or launches) timed
  float ms = 0;          ///< best of 5 launches (CUDA events)
  long long cycles = 0;  ///< block 0's clock64 cycles in that launch (0: not measured, `launch`)
};

struct sync_floor_result {
  std::string device;
  int sms = 0;
  std::vector<sync_floor_row> rows;
};

/// Measures every way on CUDA device 0 (clusters of 2, 8 and 16 blocks; grids of 16, 128 and one
/// block per SM; launches of 16 and 128 blocks). Throws usage_error when rounds < 1, threads is
/// not 512 or 1024, or this build has no CUDA.
sync_floor_result sync_floor(int rounds, int threads);

}  // namespace gpu500::bellman_ford
