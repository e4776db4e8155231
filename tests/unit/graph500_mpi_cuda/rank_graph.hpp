// The graph the tests of the CUDA BFS's internals start from (header-only test support): this
// rank's GPU chosen as the pipeline chooses it, kernel 1's rows of a Kronecker graph over the
// ranks (device and host copies), and every vertex's degree gathered from all ranks.
#pragma once

#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <utility>
#include <vector>

#include "gpu500/dist/comm.hpp"
#include "gpu500/dist/partition.hpp"
#include "gpu500/dist/placement.hpp"
#include "gpu500/graph/csr.hpp"
#include "gpu500/graph/cuda.hpp"

namespace gpu500::graph500::mpi::cuda::test {

/// Makes node rank k use GPU k mod (the node's GPUs); fails the test when no GPU answers.
inline void use_node_gpu(const dist::communicator& c) {
  const int gpus = dist::gpu_count();
  ASSERT_GT(gpus, 0);
  dist::use_gpu(dist::gpu_of_node_rank(c.node_rank(), gpus));
}

struct rank_graph {
  graph::kronecker_params params;
  dist::block_partition part;
  graph::cuda::device_rows rows;  ///< this rank's rows on the device, as kernel 1 leaves them
  graph::csr<std::int64_t> host;  ///< the same rows on the host
  std::vector<index_t> degree;    ///< every vertex's degree (the ranks' blocks in rank order)
};

/// Kernel 1 over the ranks of x's communicator for a SCALE `scale` graph (collective).
inline rank_graph make_rank_graph(dist::device_exchange& x, int scale) {
  const dist::communicator& c = x.comm();
  graph::kronecker_params p;
  p.scale = scale;
  const dist::block_partition part(p.num_vertices(), c.size());
  const index_t m = p.num_edges(), first = m * c.rank() / c.size(), last = m * (c.rank() + 1) / c.size();
  auto slice = graph::cuda::generate_kronecker_device<std::int64_t>(p, first, last - first);
  graph::cuda::device_rows rows = graph::cuda::build_device_rows(x, part, std::move(slice));
  graph::csr<std::int64_t> host = rows.download();
  std::vector<index_t> mine(static_cast<std::size_t>(host.rows()));
  for (index_t l = 0; l < host.rows(); ++l) mine[static_cast<std::size_t>(l)] = host.offsets[l + 1] - host.offsets[l];
  std::vector<index_t> degree = c.allgatherv<index_t>(mine);
  return {p, part, std::move(rows), std::move(host), std::move(degree)};
}

}  // namespace gpu500::graph500::mpi::cuda::test
