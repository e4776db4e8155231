// Kernel 1 on the host: edge list -> CSR with both directions, self-loops dropped, duplicates kept.
// Three parallel passes as the reference does (degree count, prefix sum, fill); the fill uses one
// atomic cursor per vertex, so neighbour order within a row is unspecified.
#include <omp.h>

#include <atomic>
#include <limits>

#include "gpu500/core/error.hpp"
#include "gpu500/graph/csr.hpp"

namespace gpu500::graph {

template <class V>
csr<V> build_csr(const edge_list& el) {
  const index_t n = el.num_vertices, m = el.size();
  GPU500_EXPECTS(el.dst.size() == el.src.size(), "edge list: src and dst differ in length");
  GPU500_EXPECTS(!el.weighted() || el.weight.size() == el.src.size(), "edge list: weights differ in length");
  if (n < 0) throw usage_error("graph: negative vertex count");
  if (static_cast<std::uint64_t>(n) > static_cast<std::uint64_t>(std::numeric_limits<V>::max()))
    throw usage_error("graph: " + std::to_string(n) + " vertices do not fit the " + std::to_string(8 * sizeof(V)) +
                      "-bit vertex ids");
  csr<V> g;
  g.num_vertices = n;
  g.offsets.assign(static_cast<std::size_t>(n) + 1, 0);
  // Degree pass (into offsets[v + 1]) with a range check of every endpoint.
  std::vector<std::atomic<index_t>> deg(static_cast<std::size_t>(n));
  index_t bad = -1;
#pragma omp parallel for schedule(static)
  for (index_t v = 0; v < n; ++v) deg[v].store(0, std::memory_order_relaxed);
#pragma omp parallel for schedule(static)
  for (index_t i = 0; i < m; ++i) {
    const std::int64_t u = el.src[i], v = el.dst[i];
    if (u < 0 || u >= n || v < 0 || v >= n) {
#pragma omp critical(gpu500_csr_bad)
      bad = (bad < 0 || i < bad) ? i : bad;
      continue;
    }
    if (u == v) continue;
    deg[u].fetch_add(1, std::memory_order_relaxed);
    deg[v].fetch_add(1, std::memory_order_relaxed);
  }
  if (bad >= 0)
    throw usage_error("graph: edge " + std::to_string(bad) + " (" + std::to_string(el.src[bad]) + ", " +
                      std::to_string(el.dst[bad]) + ") has an endpoint outside [0, " + std::to_string(n) + ")");
  // Prefix sum (parallel, two passes over per-thread blocks).
  const int nt = omp_get_max_threads();
  std::vector<index_t> partial(static_cast<std::size_t>(nt) + 1, 0);
#pragma omp parallel num_threads(nt)
  {
    const int t = omp_get_thread_num(), T = omp_get_num_threads();
    const index_t lo = n * t / T, hi = n * (t + 1) / T;
    index_t s = 0;
    for (index_t v = lo; v < hi; ++v) s += deg[v].load(std::memory_order_relaxed);
    partial[t + 1] = s;
#pragma omp barrier
#pragma omp single
    for (int k = 0; k < T; ++k) partial[k + 1] += partial[k];
    s = partial[t];
    for (index_t v = lo; v < hi; ++v) {
      g.offsets[v] = s;
      s += deg[v].load(std::memory_order_relaxed);
      deg[v].store(g.offsets[v], std::memory_order_relaxed);  // becomes the fill cursor
    }
    if (t == T - 1) g.offsets[n] = s;
  }
  if (n == 0) g.offsets[0] = 0;
  const index_t arcs = g.offsets[n];
  g.columns.resize(static_cast<std::size_t>(arcs));
  if (el.weighted()) g.weights.resize(static_cast<std::size_t>(arcs));
#pragma omp parallel for schedule(static)
  for (index_t i = 0; i < m; ++i) {
    const std::int64_t u = el.src[i], v = el.dst[i];
    if (u == v) continue;
    const index_t pu = deg[u].fetch_add(1, std::memory_order_relaxed);
    const index_t pv = deg[v].fetch_add(1, std::memory_order_relaxed);
    g.columns[pu] = static_cast<V>(v);
    g.columns[pv] = static_cast<V>(u);
    if (el.weighted()) g.weights[pu] = g.weights[pv] = el.weight[i];
  }
  return g;
}

template <class V>
index_t reached_edges(csr_view<V> g, std::span<const std::int64_t> parent, int threads) {
  const index_t n = g.local_vertices;
  GPU500_EXPECTS(static_cast<index_t>(parent.size()) >= n, "one parent per vertex");
  const std::int64_t* par = parent.data();
  const index_t* off = g.offsets;
  index_t sum = 0;
#pragma omp parallel for num_threads(threads > 0 ? threads : omp_get_max_threads()) schedule(static) reduction(+ : sum)
  for (index_t v = 0; v < n; ++v)
    if (par[v] >= 0) sum += off[v + 1] - off[v];
  return sum / 2;
}

template index_t reached_edges<std::uint32_t>(csr_view<std::uint32_t>, std::span<const std::int64_t>, int);
template index_t reached_edges<std::int64_t>(csr_view<std::int64_t>, std::span<const std::int64_t>, int);

template csr<std::uint32_t> build_csr<std::uint32_t>(const edge_list&);
template csr<std::int64_t> build_csr<std::int64_t>(const edge_list&);

std::size_t csr_bytes(index_t n, index_t m, std::size_t vertex_bytes, bool weighted) {
  const auto arcs = static_cast<std::size_t>(2 * m);
  return static_cast<std::size_t>(n + 1) * sizeof(index_t) * 2 /* offsets + cursors */ +
         arcs * (vertex_bytes + (weighted ? sizeof(float) : 0));
}

}  // namespace gpu500::graph
