// The CUDA BFS's degree-ordered rows over MPI ranks (src/graph500/mpi/cuda/degree_order.hpp), on
// however many ranks mpiexec gives: each row of both column widths equals kernel 1's row stably
// sorted on the host by its far ends' degree class (8 x the top bit's place of the degree + the
// next three bits), highest first, with the degrees gathered from every rank; and the rows
// relabelled within the blocks: the map a permutation that keeps every vertex's owner, each block
// in descending class (ties by id, the vertices without arcs last), each new row its old row
// renamed and in that order, and the SSSP's weighted arcs in the same new rows, each row in kernel
// 1's order with its weights. Skipped without a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

#include "gpu500/core/device.hpp"
#include "gpu500/dist/comm.hpp"
#include "graph500/mpi/cuda/degree_order.hpp"
#include "gpu500/graph/csr.hpp"
#include "gpu500/graph/cuda.hpp"
#include "rank_graph.hpp"

namespace gpu500::graph500::mpi::cuda {
namespace {

int degree_class(index_t d) {
  if (d <= 1) return 0;
  const auto u = static_cast<std::uint64_t>(d);
  const int top = static_cast<int>(std::bit_width(u)) - 1;
  const auto next = static_cast<int>(top >= 3 ? (u >> (top - 3)) & 7u : (u << (3 - top)) & 7u);
  return std::min(255, 8 * top + next);
}

/// Kernel 1's row l stably sorted by far-end degree class, highest first.
std::vector<std::int64_t> ordered_row(const graph::csr<std::int64_t>& host, index_t l, const std::vector<index_t>& degree) {
  const auto b = static_cast<std::ptrdiff_t>(host.offsets[l]), e = static_cast<std::ptrdiff_t>(host.offsets[l + 1]);
  std::vector<std::int64_t> row(host.columns.begin() + b, host.columns.begin() + e);
  std::stable_sort(row.begin(), row.end(), [&](std::int64_t u, std::int64_t v) {
    return degree_class(degree[static_cast<std::size_t>(u)]) > degree_class(degree[static_cast<std::size_t>(v)]);
  });
  return row;
}

template <class C>
void expect_degree_order(dist::device_exchange& x, const dist::block_partition& part,
                         const graph::cuda::device_rows& g,
                         const graph::csr<std::int64_t>& host, const std::vector<index_t>& degree) {
  const std::vector<C> got = gpu::to_host(degree_ordered_columns<C>(x, part, g.view()));
  ASSERT_EQ(got.size(), host.columns.size());
  for (index_t l = 0; l < host.rows(); ++l) {
    const auto b = static_cast<std::size_t>(host.offsets[l]);
    const std::vector<std::int64_t> want = ordered_row(host, l, degree);
    for (std::size_t k = 0; k < want.size(); ++k)
      ASSERT_EQ(static_cast<std::int64_t>(got[b + k]), want[k]) << "row " << l << ", arc " << k;
  }
}

template <class C>
void expect_relabelled(dist::device_exchange& x, const dist::block_partition& part,
                       const graph::cuda::device_rows& g,
                       const graph::csr<std::int64_t>& host, const std::vector<index_t>& degree) {
  const relabelled_rows<C> r = degree_relabelled_rows<C>(x, part, g.view());
  const std::vector<C> new2old = gpu::to_host(r.new2old), old2new = gpu::to_host(r.old2new);
  const auto n = static_cast<index_t>(degree.size());
  ASSERT_EQ(static_cast<index_t>(new2old.size()), n);
  ASSERT_EQ(static_cast<index_t>(old2new.size()), n);
  // A vertex's place in its block: the vertices with arcs by class, highest first, then the rest.
  const auto key = [&](index_t v) {
    const index_t d = degree[static_cast<std::size_t>(v)];
    return d == 0 ? 256 : 255 - degree_class(d);
  };
  for (index_t i = 0; i < n; ++i) {
    const auto v = static_cast<index_t>(new2old[static_cast<std::size_t>(i)]);
    ASSERT_TRUE(v >= 0 && v < n) << i;
    ASSERT_EQ(static_cast<index_t>(old2new[static_cast<std::size_t>(v)]), i) << "not inverse at new id " << i;
    ASSERT_EQ(part.owner(v), part.owner(i)) << "vertex " << v << " left its block";
    if (i + 1 < n && part.owner(i + 1) == part.owner(i)) {
      const auto w = static_cast<index_t>(new2old[static_cast<std::size_t>(i) + 1]);
      ASSERT_TRUE(key(v) < key(w) || (key(v) == key(w) && v < w)) << "new ids " << i << " and " << i + 1;
    }
  }
  const index_t first = g.owned.first, rows = host.rows();
  index_t with_arcs = 0;
  for (index_t l = 0; l < rows; ++l) with_arcs += host.offsets[l + 1] > host.offsets[l];
  EXPECT_EQ(r.non_isolated, with_arcs);
  const std::vector<index_t> offsets = gpu::to_host(r.offsets);
  const std::vector<C> columns = gpu::to_host(r.columns);
  ASSERT_EQ(static_cast<index_t>(offsets.size()), rows + 1);
  ASSERT_EQ(columns.size(), host.columns.size());
  for (index_t j = 0; j < rows; ++j) {
    const index_t o = static_cast<index_t>(new2old[static_cast<std::size_t>(first + j)]) - first;
    const std::vector<std::int64_t> want = ordered_row(host, o, degree);
    const auto b = static_cast<std::size_t>(offsets[static_cast<std::size_t>(j)]);
    ASSERT_EQ(offsets[static_cast<std::size_t>(j) + 1] - offsets[static_cast<std::size_t>(j)],
              static_cast<index_t>(want.size()))
        << "new row " << j;
    for (std::size_t k = 0; k < want.size(); ++k)
      ASSERT_EQ(static_cast<index_t>(columns[b + k]), static_cast<index_t>(old2new[static_cast<std::size_t>(want[k])]))
          << "new row " << j << ", arc " << k;
  }
  // The SSSP's arcs: each new row its old row in kernel 1's order (by weight), renamed, the
  // weights beside them.
  ASSERT_EQ(host.weights.size(), host.columns.size()) << "kernel 1's rows carry weights";
  const weighted_arcs<C> arcs = relabelled_weighted_arcs<C>(r, g.view());
  const std::vector<C> arc_columns = gpu::to_host(arcs.columns);
  const std::vector<float> arc_weights = gpu::to_host(arcs.weights);
  ASSERT_EQ(arc_columns.size(), host.columns.size());
  ASSERT_EQ(arc_weights.size(), host.columns.size());
  for (index_t j = 0; j < rows; ++j) {
    const index_t o = static_cast<index_t>(new2old[static_cast<std::size_t>(first + j)]) - first;
    const auto b = static_cast<std::size_t>(offsets[static_cast<std::size_t>(j)]);
    for (index_t k = host.offsets[o]; k < host.offsets[o + 1]; ++k) {
      const auto at = b + static_cast<std::size_t>(k - host.offsets[o]), from = static_cast<std::size_t>(k);
      ASSERT_EQ(static_cast<index_t>(arc_columns[at]),
                static_cast<index_t>(old2new[static_cast<std::size_t>(host.columns[from])]))
          << "new row " << j << ", weighted arc " << k - host.offsets[o];
      ASSERT_EQ(arc_weights[at], host.weights[from]) << "new row " << j << ", weighted arc " << k - host.offsets[o];
    }
  }
}

TEST(Graph500MpiCudaDegreeOrder, RowsStablySortedByFarEndDegreeAndRelabelledWithinBlocks) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  const dist::communicator c = dist::communicator::world();
  ASSERT_NO_FATAL_FAILURE(test::use_node_gpu(c));
  dist::device_exchange x(c, dist::exchange_mode::staged);
  for (int scale : {5, 11}) {
    SCOPED_TRACE("SCALE " + std::to_string(scale));
    const test::rank_graph r = test::make_rank_graph(x, scale);
    ASSERT_EQ(static_cast<index_t>(r.degree.size()), r.params.num_vertices());
    expect_degree_order<std::uint32_t>(x, r.part, r.rows, r.host, r.degree);
    expect_degree_order<std::int64_t>(x, r.part, r.rows, r.host, r.degree);
    expect_relabelled<std::uint32_t>(x, r.part, r.rows, r.host, r.degree);
    expect_relabelled<std::int64_t>(x, r.part, r.rows, r.host, r.degree);
  }
}

}  // namespace
}  // namespace gpu500::graph500::mpi::cuda
