// The device helpers of the CUDA backend over MPI ranks (internal; .cu files only): those of
// every engine over ranks on GPUs (gpu500/dist/device_pairs.cuh), in this namespace, and the step
// every search over ranks ends with (Graph500's nedge).
#pragma once

#include "gpu500/dist/comm.hpp"
#include "gpu500/dist/device_pairs.cuh"

namespace gpu500::graph500::mpi::cuda {
using namespace gpu500::dist::cuda;

static __global__ void reached_degrees_kernel(graph::csr_view<std::int64_t> g, const std::int64_t* parent, index_t* sum) {
  index_t s = 0;
  for (index_t l : gpu::grid_stride(g.local_vertices))
    if (parent[l] != -1) s += g.offsets[l + 1] - g.offsets[l];
  for (int o = gpu::warp_size / 2; o > 0; o /= 2) s += __shfl_down_sync(0xffffffffu, s, o);
  if (gpu::lane_id() == 0 && s) atomic_add(sum, s);
}

/// Graph500's nedge of a search on the device rows: the reached rows' degrees summed over the
/// ranks, halved (graph::reached_edges over a communicator, on the host). Collective.
inline index_t reached_edges(const dist::communicator& c, graph::csr_view<std::int64_t> g, const std::int64_t* parent,
                             gpu::device_buffer<index_t>& scratch) {
  scratch.reserve(1);
  write_one<index_t>(scratch.data(), 0);
  if (g.local_vertices > 0)
    gpu::launch(reached_degrees_kernel, gpu::grid_blocks(g.local_vertices, block_threads), block_threads, 0, nullptr,
                g, parent, scratch.data());
  return c.allreduce(read_one(scratch.data()), dist::reduce_op::sum) / 2;
}

}  // namespace gpu500::graph500::mpi::cuda
