// Kernel 1 on the host: edge list -> CSR with both directions, self-loops dropped, duplicates kept,
// by the stable two-level counting sort of gpu500/graph/arc_sort.hpp (no atomics): within a row,
// arcs keep edge-list order whatever the thread count.
#include <omp.h>

#include <atomic>
#include <limits>

#include "gpu500/core/error.hpp"
#include "gpu500/graph/arc_sort.hpp"
#include "gpu500/graph/csr.hpp"

namespace gpu500::graph {

template <class V>
csr<V> build_csr(const edge_list& el, arc_sort_scratch* scratch) {
  const index_t n = el.num_vertices, m = el.size();
  GPU500_EXPECTS(el.dst.size() == el.src.size(), "edge list: src and dst differ in length");
  GPU500_EXPECTS(!el.weighted() || el.weight.size() == el.src.size(), "edge list: weights differ in length");
  if (n < 0) throw usage_error("graph: negative vertex count");
  if (static_cast<std::uint64_t>(n) > static_cast<std::uint64_t>(std::numeric_limits<V>::max()))
    throw usage_error("graph: " + std::to_string(n) + " vertices do not fit the " + std::to_string(8 * sizeof(V)) +
                      "-bit vertex ids");
  // One pass of its own finds the first edge with an endpoint outside [0, n) (the sort's emitter
  // then needs no checks) and counts the self-loops (to size the arrays).
  index_t bad = std::numeric_limits<index_t>::max(), loops = 0;
  const std::int64_t* src = el.src.data();
  const std::int64_t* dst = el.dst.data();
  const auto un = static_cast<std::uint64_t>(n);
#pragma omp parallel for schedule(static) reduction(min : bad) reduction(+ : loops)
  for (index_t i = 0; i < m; ++i) {
    if ((static_cast<std::uint64_t>(src[i]) >= un) | (static_cast<std::uint64_t>(dst[i]) >= un)) bad = std::min(bad, i);
    loops += src[i] == dst[i];
  }
  if (bad != std::numeric_limits<index_t>::max())
    throw usage_error("graph: edge " + std::to_string(bad) + " (" + std::to_string(el.src[bad]) + ", " +
                      std::to_string(el.dst[bad]) + ") has an endpoint outside [0, " + std::to_string(n) + ")");
  csr<V> g;
  g.num_vertices = n;
  const bool weighted = el.weighted();
  const float* wt = weighted ? el.weight.data() : nullptr;
  const index_t arcs = 2 * (m - loops);
  g.offsets.resize(static_cast<std::size_t>(n) + 1);
  g.columns.resize(static_cast<std::size_t>(arcs));
  if (weighted) g.weights.resize(static_cast<std::size_t>(arcs));
  V* col = g.columns.data();
  float* w = weighted ? g.weights.data() : nullptr;
  const auto slices = even_slices(m, std::max(1, omp_get_max_threads()));
  // The sort's buckets carry heads as H: 32 bits whenever the ids fit (12 bytes per arc instead of
  // 16 for 64-bit V: fewer bytes to write, read and fault in).
  auto sort = [&]<class H>(H) {
    auto emit = [src, dst, wt](index_t i, auto&& out) {
      const std::int64_t u = src[i], v = dst[i];
      if (u == v) return;
      const float x = wt ? wt[i] : 0.f;
      out(u, static_cast<H>(v), x);
      out(v, static_cast<H>(u), x);
    };
    if (w)
      sort_arcs_by_key<H>(n, arcs, slices, emit, g.offsets.data(), [col, w](index_t p, H h, float x) {
        col[p] = static_cast<V>(h);
        w[p] = x;
      }, scratch);
    else
      sort_arcs_by_key<H>(n, arcs, slices, emit, g.offsets.data(),
                          [col](index_t p, H h, float) { col[p] = static_cast<V>(h); }, scratch);
  };
  if (static_cast<std::uint64_t>(n) <= (std::uint64_t{1} << 32))
    sort(std::uint32_t{});
  else
    sort(V{});
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

template csr<std::uint32_t> build_csr<std::uint32_t>(const edge_list&, arc_sort_scratch*);
template csr<std::int64_t> build_csr<std::int64_t>(const edge_list&, arc_sort_scratch*);

std::size_t csr_bytes(index_t n, index_t m, std::size_t vertex_bytes, bool weighted) {
  const auto arcs = static_cast<std::size_t>(2 * m);
  // offsets, columns (+ weights), and the buckets of the two-level counting sort (head, tail
  // offset, weight per arc), freed when build_csr returns.
  const std::size_t bucket_arc_bytes = vertex_bytes == 8 && static_cast<std::uint64_t>(n) > (std::uint64_t{1} << 32)
                                           ? arc_sort_bytes_per_arc<std::int64_t>
                                           : arc_sort_bytes_per_arc<std::uint32_t>;
  return static_cast<std::size_t>(n + 1) * sizeof(index_t) + arcs * (vertex_bytes + (weighted ? sizeof(float) : 0)) +
         arcs * bucket_arc_bytes;
}

}  // namespace gpu500::graph
