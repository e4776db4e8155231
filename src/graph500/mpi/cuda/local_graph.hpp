// Generation and kernel 1 of the CUDA backend over MPI ranks (internal): this rank's slice of the
// Kronecker edge list made on its GPU, and the owned rows built on the device from it by one
// all-to-all of arcs (the device sibling of ../local_graph.hpp).
#pragma once

#include <cstdint>

#include "gpu500/dist/device_exchange.hpp"
#include "gpu500/core/cuda/memory.hpp"
#include "gpu500/dist/partition.hpp"
#include "gpu500/graph/csr.hpp"
#include "gpu500/graph/kronecker.hpp"
#include "../local_graph.hpp"

namespace gpu500::graph500::mpi::cuda {

/// Edges [first, first + count) of the Kronecker graph, in device memory.
struct device_edge_slice {
  index_t first = 0, count = 0;
  index_t num_vertices = 0;
  gpu::device_buffer<std::int64_t> src, dst;
  gpu::device_buffer<float> weight;  ///< empty when unweighted
};

/// The slice made on the device by the one GPU generator (graph::cuda::generate_kronecker_device):
/// bit-identical to graph::generate_kronecker(p, first, count).
device_edge_slice generate_slice(const graph::kronecker_params& p, index_t first, index_t count);

/// The owned rows in device memory (row l is vertex owned.first + l; global 64-bit columns).
struct device_local_graph {
  index_t num_vertices = 0;
  dist::vertex_range owned;
  gpu::device_buffer<index_t> offsets;  ///< owned.count + 1
  gpu::device_buffer<std::int64_t> columns;
  gpu::device_buffer<float> weights;  ///< empty when unweighted
  index_t arcs = 0;

  [[nodiscard]] graph::csr_view<std::int64_t> view() const {
    return {num_vertices, owned.first, owned.count, offsets.data(), columns.data(),
            weights.empty() ? nullptr : weights.data()};
  }
  /// A host copy (for the validator, untimed).
  [[nodiscard]] local_graph download() const;
};

/// Edges of the slice per round of kernel 1 by default (about 11 GB of device memory a round).
inline constexpr index_t default_round_edges = index_t{1} << 26;

/// Kernel 1 on the device (collective; consumes the slice), in rounds of at most round_edges
/// edges (0: default_round_edges) so that its memory stays near 64 bytes per edge of the slice:
/// each round's arcs grouped by owner (a radix sort on the owner), one all-to-all of device
/// buffers, the arrivals staged; then a scan of the degrees into offsets, every arc placed in its
/// row and every row ordered by a segmented sort: by column, or by (weight, column) when weighted,
/// which the SSSP engine needs (the arcs that stay inside a bucket are a prefix of the row). The
/// rows are the same whatever the rounds.
device_local_graph build_device_local_graph(dist::device_exchange& x, const dist::block_partition& part,
                                            device_edge_slice&& slice, index_t round_edges = 0);

}  // namespace gpu500::graph500::mpi::cuda
