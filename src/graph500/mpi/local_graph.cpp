// Kernel 1 over MPI ranks on the host: edges to their endpoints' owners (one all-to-all of arcs,
// the send buffer grouped by rank in parallel), then a parallel stable counting sort of the
// received arcs by owned row (graph::sort_arcs_by_key). See local_graph.hpp.
#include "local_graph.hpp"

#include <omp.h>

#include <algorithm>
#include <limits>
#include <span>
#include <stdexcept>

#include "by_rank.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/graph/arc_sort.hpp"

namespace gpu500::graph500::mpi {

namespace {

struct arc {
  std::int64_t tail, head;
  float weight;
};

}  // namespace

local_graph build_local_graph(const dist::communicator& c, const dist::block_partition& part,
                              const graph::edge_list& slice) {
  const index_t n = part.num_vertices(), m = slice.size();
  const bool weighted = slice.weighted();
  const std::int64_t* src = slice.src.data();
  const std::int64_t* dst = slice.dst.data();
  const float* wt = weighted ? slice.weight.data() : nullptr;
  index_t bad = std::numeric_limits<index_t>::max();
  const auto un = static_cast<std::uint64_t>(n);
#pragma omp parallel for schedule(static) reduction(min : bad)
  for (index_t i = 0; i < m; ++i)
    if ((static_cast<std::uint64_t>(src[i]) >= un) | (static_cast<std::uint64_t>(dst[i]) >= un)) bad = std::min(bad, i);
  if (bad != std::numeric_limits<index_t>::max())
    throw usage_error("graph: edge (" + std::to_string(src[bad]) + ", " + std::to_string(dst[bad]) +
                      ") has an endpoint outside [0, " + std::to_string(n) + ")");
  // Arcs for rank r in edge order, both directions of edge i next to each other.
  std::vector<arc> out;
  std::vector<index_t> counts;
  group_by_rank<arc>(c.size(), item_slices(m), [&](index_t i, auto&& send) {
    const std::int64_t u = src[i], v = dst[i];
    if (u == v) return;
    const float w = wt ? wt[i] : 0.f;
    send(part.owner(u), arc{u, v, w});
    send(part.owner(v), arc{v, u, w});
  }, out, counts);
  const std::vector<arc> in = c.alltoallv<arc>(out, counts);
  out = {};
  // Weighted or not must agree: a rank with an empty slice cannot tell on its own.
  const bool any_weighted = c.any(weighted);

  local_graph g;
  g.num_vertices = n;
  g.owned = part.range(c.rank());
  const index_t rows = g.owned.count, first = g.owned.first;
  const auto arrived = static_cast<index_t>(in.size());
  index_t stray = 0;
#pragma omp parallel for schedule(static) reduction(+ : stray)
  for (index_t i = 0; i < arrived; ++i) stray += !g.owned.contains(in[i].tail);
  GPU500_EXPECTS(stray == 0, "an arc arrived at a rank that does not own its tail");
  g.offsets.resize(static_cast<std::size_t>(rows) + 1);
  g.columns.resize(in.size());
  if (any_weighted) g.weights.resize(in.size());
  std::int64_t* col = g.columns.data();
  float* w = any_weighted ? g.weights.data() : nullptr;
  // A stable counting sort by row (graph::sort_arcs_by_key). Arrivals are in rank order and each
  // rank sent in edge order: the rows come out in global edge order, as the one-process CSR's.
  const arc* a = in.data();
  graph::sort_arcs_by_key<std::int64_t>(
      rows, arrived, item_slices(arrived),
      [a, first](index_t i, auto&& emit) { emit(a[i].tail - first, a[i].head, a[i].weight); }, g.offsets.data(),
      [col, w](index_t p, std::int64_t h, float x) {
        col[p] = h;
        if (w) w[p] = x;
      });
  return g;
}

index_t reached_edges(const dist::communicator& c, graph::csr_view<std::int64_t> g,
                      const std::vector<std::int64_t>& parent) {
  index_t sum = 0;
#pragma omp parallel for schedule(static) reduction(+ : sum)
  for (index_t l = 0; l < g.local_vertices; ++l)
    if (parent[l] != -1) sum += g.degree(l);
  return c.allreduce(sum, dist::reduce_op::sum) / 2;
}

json::value to_json(const dist::communicator& c, const std::vector<level_record>& levels) {
  std::vector<double> mine;
  mine.reserve(2 * levels.size());
  for (const level_record& l : levels) mine.push_back(l.compute_seconds), mine.push_back(l.comm_seconds);
  const std::vector<double> all = c.allgatherv(std::span<const double>(mine));
  const auto R = static_cast<std::size_t>(c.size());
  if (all.size() != R * mine.size())
    throw std::logic_error("the ranks recorded different numbers of levels for the trace");
  json::value a = json::value::make_array();
  for (std::size_t i = 0; i < levels.size(); ++i) {
    const level_record& l = levels[i];
    json::value e;
    e["level"] = l.level;
    e["direction"] = l.direction;
    e["frontier"] = l.frontier;
    e["bytes"] = l.bytes;
    e["compute_seconds"] = all[2 * i];  // rank 0's
    e["comm_seconds"] = all[2 * i + 1];
    json::value compute = json::value::make_array(), comm = json::value::make_array();
    for (std::size_t r = 0; r < R; ++r) {
      compute.push_back(all[r * mine.size() + 2 * i]);
      comm.push_back(all[r * mine.size() + 2 * i + 1]);
    }
    e["compute_seconds_by_rank"] = std::move(compute);
    e["comm_seconds_by_rank"] = std::move(comm);
    a.push_back(std::move(e));
  }
  return a;
}

void record_phase(std::vector<level_record>& levels, double comm_seconds, int phase, const char* what,
                  index_t local_count, index_t bytes, double seconds) {
  level_record rec;
  rec.level = phase;
  rec.direction = what;
  rec.frontier = local_count;
  rec.bytes = bytes;
  rec.comm_seconds = comm_seconds;
  rec.compute_seconds = seconds - comm_seconds;
  levels.push_back(std::move(rec));
}

void sum_over_ranks(const dist::communicator& c, std::vector<level_record>& levels) {
  std::vector<index_t> sums;
  sums.reserve(2 * levels.size());
  for (const level_record& l : levels) sums.push_back(l.frontier), sums.push_back(l.bytes);
  if (!sums.empty()) c.allreduce(sums.data(), sums.size(), dist::reduce_op::sum);
  for (std::size_t i = 0; i < levels.size(); ++i) levels[i].frontier = sums[2 * i], levels[i].bytes = sums[2 * i + 1];
}

}  // namespace gpu500::graph500::mpi
