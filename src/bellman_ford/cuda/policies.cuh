// Launch policies and argument blocks of the dense Bellman-Ford kernels (CUDA): one struct per
// kernel family (naive, reduce/coarse, resident cluster, resident warp exchange), the skip
// schedule's line bookkeeping, and the resident schedule's arguments and trace phases.
// The kernels compute the Jacobi round of dense Bellman-Ford (Liu et al.: OpenCL, parallel
// min-reduction); see gpu500/bellman_ford/bellman_ford.hpp.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace gpu500::bellman_ford::cuda {

/// Launch policy of BF_Naive: threads per block (one thread per vertex).
struct naive_policy {
  static constexpr int block_threads = 128;
};
/// Launch policy of BF_Reduce and BF_Reduce_Coarse: one block of M threads per vertex, M chosen
/// at run time; shared memory holds M (min, argmin) pairs (the paper's two local buffers).
struct reduce_policy {
  static constexpr int max_group = 1024;
  static std::size_t shared_bytes(int group) { return static_cast<std::size_t>(group) * (sizeof(float) + sizeof(int)); }
};

/// The skip schedule's bookkeeping: one byte per line of 32 sources (128 bytes of a by_target
/// row), in three rotating arrays. Round r reads lines[r % 3] (sources whose distance fell in
/// round r - 1; after init: the source's line), marks lines[(r + 1) % 3] and clears
/// lines[(r + 2) % 3], which round r - 1 read and round r + 1 will mark.
struct skip_lines {
  static constexpr int shift = 5;  // 32 sources per line
  const unsigned char* read;
  unsigned char* mark;
  unsigned char* clear;
  int count;  // lines = ld / 32
};

/// Launch policy of the resident schedule: up to `max_threads` per block, a warp per vertex; a block holds
/// `rows` rows of the by_target matrix, both distance vectors, its rows' predecessors, two
/// vectors of change flags (one per block of the cluster) and two mbarriers in shared memory.
struct resident_policy {
  static constexpr int max_threads = 1024;  // a launch chooses 512 or 1024 (resident_plan)
  static constexpr int max_cluster = 16;
  /// Byte offset of the mbarriers (8-byte aligned) after the floats and ints.
  __host__ __device__ static std::size_t barrier_offset(std::size_t rows, std::size_t ld) {
    const std::size_t b = (rows * ld + 2 * ld) * sizeof(float) + (rows + 2 * max_cluster) * sizeof(int);
    return (b + 7) / 8 * 8;
  }
  static std::size_t shared_bytes(std::size_t rows, std::size_t ld) { return barrier_offset(rows, ld) + 2 * 8; }
};

/// Shared memory of resident_warp_kernel: both distance vectors, the block's predecessors, two
/// mbarriers. The rows live in registers.
struct resident_warp_policy {
  static constexpr int threads = 512;
  static constexpr int warps = threads / 32;
  static constexpr int max_rows_per_warp = 4;
  __host__ __device__ static std::size_t barrier_offset(std::size_t rows, std::size_t ld) {
    return (2 * ld * sizeof(float) + rows * sizeof(int) + 7) / 8 * 8;
  }
  static std::size_t shared_bytes(std::size_t rows, std::size_t ld) { return barrier_offset(rows, ld) + 2 * 8; }
};

/// How the blocks of a resident launch exchange a round's distances (see resident_kernel).
enum class exchange { grid, cluster_pull, cluster_async };

/// Arguments of resident_kernel. Block b owns vertices [b * rows, min(n, (b + 1) * rows)).
struct resident_args {
  const float* wt;   // by_target matrix, pitch ld
  std::size_t ld;
  int n, rows, source, limit, early_exit;
  float* dist;       // results: final distances (ld floats)
  int* pred;         // results: predecessors
  float* xchg;       // cooperative grid only: 2 x ld floats, padding +inf
  int* gflags;       // cooperative grid only: 3 change flags, zero at launch (init_kernel)
  int* outcome;      // [0] rounds run, [1] whether the last round changed a distance
  long long* trace;  // optional (nullptr: off): thread 0 of block 0's clock cycles summed over the
                     // rounds per phase (resident_phase), then the rounds
};

/// Phases of a resident round as the trace counts them (thread 0 of block 0's view).
enum resident_phase { ph_compute, ph_block_flag, ph_send, ph_wait, ph_flags, ph_count };

}  // namespace gpu500::bellman_ford::cuda
