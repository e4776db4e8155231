// Kernel 1 over MPI ranks: edges to their endpoints' owners (one all-to-all of arcs), then a
// stable counting sort of the received arcs by owned row. See local_graph.hpp.
#include "local_graph.hpp"

#include <omp.h>

#include "gpu500/core/error.hpp"

namespace gpu500::graph500::mpi {

namespace {

struct arc {
  std::int64_t tail, head;
  float weight;
};

}  // namespace

local_graph build_local_graph(const dist::communicator& c, const dist::block_partition& part,
                              const graph::edge_list& slice) {
  const auto R = static_cast<std::size_t>(c.size());
  const index_t n = part.num_vertices(), m = slice.size();
  const bool weighted = slice.weighted();
  // Count, then place: arcs for rank r in edge order, both directions of edge i next to each other.
  std::vector<index_t> counts(R, 0);
  for (index_t i = 0; i < m; ++i) {
    const std::int64_t u = slice.src[i], v = slice.dst[i];
    if (u < 0 || u >= n || v < 0 || v >= n)
      throw usage_error("graph: edge (" + std::to_string(u) + ", " + std::to_string(v) + ") has an endpoint outside [0, " +
                        std::to_string(n) + ")");
    if (u == v) continue;
    ++counts[static_cast<std::size_t>(part.owner(u))];
    ++counts[static_cast<std::size_t>(part.owner(v))];
  }
  std::vector<index_t> pos(R, 0);
  for (std::size_t r = 1; r < R; ++r) pos[r] = pos[r - 1] + counts[r - 1];
  std::vector<arc> out(static_cast<std::size_t>(pos[R - 1] + counts[R - 1]));
  for (index_t i = 0; i < m; ++i) {
    const std::int64_t u = slice.src[i], v = slice.dst[i];
    if (u == v) continue;
    const float w = weighted ? slice.weight[i] : 0.f;
    out[static_cast<std::size_t>(pos[static_cast<std::size_t>(part.owner(u))]++)] = {u, v, w};
    out[static_cast<std::size_t>(pos[static_cast<std::size_t>(part.owner(v))]++)] = {v, u, w};
  }
  const std::vector<arc> in = c.alltoallv<arc>(out, counts);
  out = {};
  // Weighted or not must agree: a rank with an empty slice cannot tell on its own.
  const bool any_weighted = c.any(weighted);

  local_graph g;
  g.num_vertices = n;
  g.owned = part.range(c.rank());
  const index_t rows = g.owned.count, first = g.owned.first;
  g.offsets.assign(static_cast<std::size_t>(rows) + 1, 0);
  for (const arc& a : in) {
    GPU500_EXPECTS(g.owned.contains(a.tail), "an arc arrived at a rank that does not own its tail");
    ++g.offsets[static_cast<std::size_t>(a.tail - first) + 1];
  }
  for (index_t l = 0; l < rows; ++l) g.offsets[l + 1] += g.offsets[l];
  g.columns.resize(in.size());
  if (any_weighted) g.weights.resize(in.size());
  std::vector<index_t> next(g.offsets.begin(), g.offsets.end() - 1);
  // Arrivals are in rank order and each rank sent in edge order: the rows come out in global
  // edge order, as the one-process CSR's.
  for (const arc& a : in) {
    const index_t p = next[static_cast<std::size_t>(a.tail - first)]++;
    g.columns[p] = a.head;
    if (any_weighted) g.weights[p] = a.weight;
  }
  return g;
}

index_t reached_edges(const dist::communicator& c, graph::csr_view<std::int64_t> g,
                      const std::vector<std::int64_t>& parent) {
  index_t sum = 0;
  for (index_t l = 0; l < g.local_vertices; ++l)
    if (parent[l] != -1) sum += g.degree(l);
  return c.allreduce(sum, dist::reduce_op::sum) / 2;
}

json::value to_json(const std::vector<level_record>& levels) {
  json::value a = json::value::make_array();
  for (const level_record& l : levels) {
    json::value e;
    e["level"] = l.level;
    e["direction"] = l.direction;
    e["frontier"] = l.frontier;
    e["bytes"] = l.bytes;
    e["compute_seconds"] = l.compute_seconds;
    e["comm_seconds"] = l.comm_seconds;
    a.push_back(std::move(e));
  }
  return a;
}

}  // namespace gpu500::graph500::mpi
