// What both resident kernels share (CUDA): a block's start (distance vectors and predecessors),
// the optional per-phase clock of a round (engine_config::resident_trace), and a block's end
// (results and outcome written back to global memory).
#pragma once

#include <cuda_runtime.h>

#include "policies.cuh"

namespace gpu500::bellman_ford::cuda {

/// A resident block's start: both distance vectors (ld floats each) +inf but the source's 0,
/// its rows' predecessors -1.
__device__ __forceinline__ void resident_init_vectors(const resident_args& a, float* dist, int* pred) {
  const float inf = __int_as_float(0x7f800000);
  for (int j = static_cast<int>(threadIdx.x); j < static_cast<int>(2 * a.ld); j += static_cast<int>(blockDim.x))
    dist[j] = j == a.source ? 0.0f : inf;
  for (int r = static_cast<int>(threadIdx.x); r < a.rows; r += static_cast<int>(blockDim.x)) pred[r] = -1;
}

/// The resident trace's clock (on in thread 0 of block 0 only): mark(phase) adds the cycles
/// since the previous mark to that phase; `iterations` counts the round loop's passes (the warp
/// exchange runs one more than it counts as rounds when it stops early).
struct phase_clock {
  bool on;
  long long tick = 0, spent[ph_count] = {};
  int iterations = 0;
  __device__ explicit phase_clock(bool tracing) : on(tracing) {
    if (on) tick = clock64();
  }
  __device__ __forceinline__ void mark(int phase) {
    if (on) {
      const long long now = clock64();
      spent[phase] += now - tick;
      tick = now;
    }
  }
};

/// The end of a resident solve, after the block's last barrier: the phase trace (from the
/// tracing thread), the block's distances from `fin` and predecessors, and block 0's outcome.
__device__ __forceinline__ void resident_finish(const resident_args& a, const phase_clock& clock, int rounds, bool last,
                                                const float* fin, const int* pred, int v0, int mine) {
  if (clock.on) {
#pragma unroll
    for (int i = 0; i < ph_count; ++i) a.trace[i] = clock.spent[i];
    a.trace[ph_count] = clock.iterations;
  }
  for (int r = static_cast<int>(threadIdx.x); r < mine; r += static_cast<int>(blockDim.x)) {
    a.dist[v0 + r] = fin[v0 + r];
    a.pred[v0 + r] = pred[r];
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    a.outcome[0] = rounds;
    a.outcome[1] = last ? 1 : 0;
  }
}

}  // namespace gpu500::bellman_ford::cuda
