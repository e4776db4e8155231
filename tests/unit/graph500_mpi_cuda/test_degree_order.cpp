// The CUDA BFS's degree-ordered rows over MPI ranks (src/graph500/mpi/cuda/degree_order.hpp), on
// however many ranks mpiexec gives: each row of both column widths equals kernel 1's row stably
// sorted on the host by its far ends' degree class (8 x the top bit's place of the degree + the
// next three bits), highest first, with the degrees gathered from every rank. Skipped without a
// GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

#include "gpu500/core/device.hpp"
#include "gpu500/dist/comm.hpp"
#include "graph500/mpi/cuda/degree_order.hpp"
#include "graph500/mpi/cuda/local_graph.hpp"
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

template <class C>
void expect_degree_order(dist::device_exchange& x, const dist::block_partition& part, const device_local_graph& g,
                         const local_graph& host, const std::vector<index_t>& degree) {
  const std::vector<C> got = gpu::to_host(degree_ordered_columns<C>(x, part, g.view()));
  ASSERT_EQ(got.size(), host.columns.size());
  for (index_t l = 0; l < host.rows(); ++l) {
    const auto b = static_cast<std::size_t>(host.offsets[l]), e = static_cast<std::size_t>(host.offsets[l + 1]);
    std::vector<std::int64_t> want(host.columns.begin() + static_cast<std::ptrdiff_t>(b),
                                   host.columns.begin() + static_cast<std::ptrdiff_t>(e));
    std::stable_sort(want.begin(), want.end(), [&](std::int64_t u, std::int64_t v) {
      return degree_class(degree[static_cast<std::size_t>(u)]) > degree_class(degree[static_cast<std::size_t>(v)]);
    });
    for (std::size_t k = 0; k < want.size(); ++k)
      ASSERT_EQ(static_cast<std::int64_t>(got[b + k]), want[k]) << "row " << l << ", arc " << k;
  }
}

TEST(Graph500MpiCudaDegreeOrder, RowsStablySortedByFarEndDegree) {
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
  }
}

}  // namespace
}  // namespace gpu500::graph500::mpi::cuda
