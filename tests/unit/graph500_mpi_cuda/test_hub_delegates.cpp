// The CUDA BFS's hub delegates over MPI ranks (src/graph500/mpi/cuda/hub_delegates.hpp), on
// however many ranks mpiexec gives, checked on the host against the rows and the degrees gathered
// from every rank: the hubs are every vertex of at least min_degree arcs, min_degree the smallest
// power of two (at least 2) within both bounds (count, arc share); this rank's place among them;
// each hub's list holds this rank's rows adjacent to it (once per arc), ascending; each row's hubs
// are the leading arcs of its degree-ordered row, and no hub arc follows them. Both column
// widths; shares 0 (no hubs), the default and 1. Skipped without a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

#include "gpu500/core/device.hpp"
#include "gpu500/dist/comm.hpp"
#include "gpu500/graph500/mpi_pipeline.hpp"
#include "graph500/mpi/cuda/degree_order.hpp"
#include "graph500/mpi/cuda/hub_delegates.hpp"
#include "graph500/mpi/cuda/local_graph.hpp"
#include "rank_graph.hpp"

namespace gpu500::graph500::mpi::cuda {
namespace {

/// Vertices of at least d arcs and their arcs.
std::pair<index_t, index_t> hubs_at(const std::vector<index_t>& degree, index_t d) {
  index_t n = 0, arcs = 0;
  for (index_t x : degree)
    if (x >= d) ++n, arcs += x;
  return {n, arcs};
}

template <class C>
void expect_hubs(const dist::communicator& c, dist::device_exchange& x, const dist::block_partition& part,
                 const device_local_graph& g, const local_graph& host, const std::vector<index_t>& degree,
                 double share) {
  const gpu::device_buffer<C> ordered = degree_ordered_columns<C>(x, part, g.view());
  const graph::csr_view<C> view{g.num_vertices, host.first_vertex, host.rows(), g.offsets.data(), ordered.data(),
                                nullptr};
  const hub_delegates h = make_hub_delegates(c, view, share);
  index_t total_arcs = 0;
  for (index_t d : degree) total_arcs += d;
  if (share == 0) {
    EXPECT_EQ(h.count, 0);
    return;
  }
  // The rule: a power of two within both bounds, and its half (when at least 2) outside them.
  ASSERT_GT(h.count, 0);
  ASSERT_GE(h.min_degree, 2);
  ASSERT_TRUE(std::has_single_bit(static_cast<std::uint64_t>(h.min_degree)));
  const auto [n, arcs] = hubs_at(degree, h.min_degree);
  EXPECT_EQ(h.count, n);
  EXPECT_LE(h.count, max_hubs);
  EXPECT_LE(static_cast<double>(arcs), share * static_cast<double>(total_arcs));
  if (h.min_degree > 2) {
    const auto [n2, arcs2] = hubs_at(degree, h.min_degree / 2);
    EXPECT_TRUE(n2 > max_hubs || static_cast<double>(arcs2) > share * static_cast<double>(total_arcs));
  }
  // The ids, ascending, and this rank's place among them.
  const std::vector<std::int64_t> ids = gpu::to_host(h.ids);
  std::vector<std::int64_t> want_ids;
  index_t first_mine = 0, mine = 0;
  for (std::int64_t v = 0; v < static_cast<std::int64_t>(degree.size()); ++v) {
    if (degree[static_cast<std::size_t>(v)] < h.min_degree) continue;
    want_ids.push_back(v);
    if (v < host.first_vertex) ++first_mine;
    else if (v < host.first_vertex + host.rows()) ++mine;
  }
  ASSERT_EQ(ids, want_ids);
  EXPECT_EQ(h.first_mine, first_mine);
  EXPECT_EQ(h.mine, mine);
  // Each row's hubs lead its degree-ordered row; the lists by hub, rows ascending, once per arc.
  const std::vector<C> cols = gpu::to_host(ordered);
  std::vector<std::vector<std::uint32_t>> want_lists(ids.size());
  std::vector<std::uint16_t> want_row_hubs;
  std::vector<std::uint32_t> want_starts{0};
  for (index_t l = 0; l < host.rows(); ++l) {
    bool leading = true;
    for (index_t k = host.offsets[l]; k < host.offsets[l + 1]; ++k) {
      const auto v = static_cast<std::int64_t>(cols[static_cast<std::size_t>(k)]);
      const auto at = std::lower_bound(ids.begin(), ids.end(), v);
      const bool hub = at != ids.end() && *at == v;
      ASSERT_TRUE(leading || !hub) << "row " << l << ": a hub arc after a non-hub one";
      leading = leading && hub;
      if (!hub) continue;
      want_lists[static_cast<std::size_t>(at - ids.begin())].push_back(static_cast<std::uint32_t>(l));
      want_row_hubs.push_back(static_cast<std::uint16_t>(at - ids.begin()));
    }
    want_starts.push_back(static_cast<std::uint32_t>(want_row_hubs.size()));
  }
  EXPECT_EQ(h.entries, static_cast<index_t>(want_row_hubs.size()));
  const std::vector<index_t> offsets = gpu::to_host(h.offsets);
  EXPECT_EQ(offsets, h.host_offsets);
  ASSERT_EQ(offsets.size(), ids.size() + 1);
  const std::vector<std::uint32_t> rows = gpu::to_host(h.rows);
  for (std::size_t j = 0; j < ids.size(); ++j) {
    const std::vector<std::uint32_t> got(rows.begin() + static_cast<std::ptrdiff_t>(offsets[j]),
                                         rows.begin() + static_cast<std::ptrdiff_t>(offsets[j + 1]));
    ASSERT_EQ(got, want_lists[j]) << "hub " << ids[j];
  }
  if (h.entries > 0) {
    EXPECT_EQ(gpu::to_host(h.row_starts), want_starts);
    EXPECT_EQ(gpu::to_host(h.row_hubs), want_row_hubs);
  }
}

TEST(Graph500MpiCudaHubDelegates, HubsAndListsMatchTheRows) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  const dist::communicator c = dist::communicator::world();
  ASSERT_NO_FATAL_FAILURE(test::use_node_gpu(c));
  dist::device_exchange x(c, dist::exchange_mode::staged);
  for (int scale : {5, 11}) {
    const test::rank_graph r = test::make_rank_graph(x, scale);
    for (double share : {0.0, mpi_options{}.bfs_hub_share, 1.0}) {
      SCOPED_TRACE("SCALE " + std::to_string(scale) + ", share " + std::to_string(share));
      expect_hubs<std::uint32_t>(c, x, r.part, r.rows, r.host, r.degree, share);
      expect_hubs<std::int64_t>(c, x, r.part, r.rows, r.host, r.degree, share);
    }
  }
}

}  // namespace
}  // namespace gpu500::graph500::mpi::cuda
