// Kernel 1 on the host, one process or one rank of many: edge list -> the rank's rows with both
// directions of every edge (or, for a directed graph, each arc in its tail's row only), self-loops
// dropped, duplicates kept, by the stable two-level counting sort of gpu500/graph/arc_sort.hpp (no
// atomics): within a row, arcs keep edge-list order whatever the thread count. Over several ranks the arcs first go to their tails' owners in one all-to-all.
#include <omp.h>

#include <atomic>
#include <limits>
#include <string>

#include "gpu500/core/error.hpp"
#include "gpu500/dist/by_rank.hpp"
#include "gpu500/graph/arc_sort.hpp"
#include "gpu500/graph/csr.hpp"
#include "gpu500/graph/io.hpp"

namespace gpu500::graph {

void check_edge_ends(const std::int64_t* src, const std::int64_t* dst, index_t m, index_t n) {
  const auto un = static_cast<std::uint64_t>(n);  // a negative id is a large unsigned one
  index_t bad = m;
#pragma omp parallel for schedule(static) reduction(min : bad)
  for (index_t i = 0; i < m; ++i)
    if ((static_cast<std::uint64_t>(src[i]) >= un) | (static_cast<std::uint64_t>(dst[i]) >= un)) bad = std::min(bad, i);
  if (bad < m)
    throw usage_error("graph: edge " + std::to_string(bad) + " (" + std::to_string(src[bad]) + ", " +
                      std::to_string(dst[bad]) + ") has an endpoint outside [0, " + std::to_string(n) + ")");
}

index_t vertex_count_of_edges(const std::int64_t* src, const std::int64_t* dst, index_t m) {
  std::int64_t sign = 0, largest = -1;  // the ends or-ed: negative when one is
#pragma omp parallel for schedule(static) reduction(| : sign) reduction(max : largest)
  for (index_t i = 0; i < m; ++i) {
    sign |= src[i] | dst[i];
    largest = std::max(largest, std::max(src[i], dst[i]));
  }
  if (largest >= max_vertices) throw usage_error("graph: vertex id " + std::to_string(largest) + " is out of range [0, 2^48)");
  if (sign < 0) check_edge_ends(src, dst, m, largest + 1);  // throws, naming the first such edge
  return largest + 1;
}

namespace {

// An arc on its way to the owner of its tail (kernel 1 over several ranks).
struct arc {
  std::int64_t tail, head;
  float weight;
};

// The rows of this rank from the arcs emitted by emit(i, out(tail, head, weight)) for items
// [0, items): a stable counting sort by row, heads carried as 32 bits whenever the ids fit.
template <class V, class Emit>
void sort_rows(csr<V>& g, index_t arcs, index_t items, bool weighted, Emit&& emit, arc_sort_scratch* scratch) {
  const index_t rows = g.rows();
  V* col = g.columns.data();
  float* w = weighted ? g.weights.data() : nullptr;
  const auto slices = even_slices(items, std::max(1, omp_get_max_threads()));
  // The sort's buckets carry heads as H: 32 bits whenever the ids fit (12 bytes per arc instead of
  // 16 for 64-bit V: fewer bytes to write, read and fault in).
  auto sort = [&]<class H>(H) {
    auto emit_h = [&emit](index_t i, auto&& out) {
      emit(i, [&out](index_t row, std::int64_t head, float x) { out(row, static_cast<H>(head), x); });
    };
    if (w)
      sort_arcs_by_key<H>(rows, arcs, slices, emit_h, g.offsets.data(), [col, w](index_t p, H h, float x) {
        col[p] = static_cast<V>(h);
        w[p] = x;
      }, scratch);
    else
      sort_arcs_by_key<H>(rows, arcs, slices, emit_h, g.offsets.data(),
                          [col](index_t p, H h, float) { col[p] = static_cast<V>(h); }, scratch);
  };
  if (static_cast<std::uint64_t>(g.num_vertices) <= (std::uint64_t{1} << 32))
    sort(std::uint32_t{});
  else
    sort(V{});
}

// Both kernel 1s: `directed` keeps each edge as the one arc src -> dst, else both directions.
template <class V>
csr<V> build_rows(const dist::communicator& c, const dist::block_partition& part, const edge_list& el,
                  arc_sort_scratch* scratch, bool directed) {
  const index_t n = el.num_vertices, m = el.size();
  GPU500_EXPECTS(el.dst.size() == el.src.size(), "edge list: src and dst differ in length");
  GPU500_EXPECTS(!el.weighted() || el.weight.size() == el.src.size(), "edge list: weights differ in length");
  GPU500_EXPECTS(part.ranks() == c.size() && part.num_vertices() == n, "kernel 1: the partition is for another graph");
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
  if (bad != std::numeric_limits<index_t>::max()) check_edge_ends(src, dst, m, n);  // throws, naming edge `bad`
  const float* wt = el.weighted() ? el.weight.data() : nullptr;
  csr<V> g;
  g.num_vertices = n;
  const dist::vertex_range mine = part.range(c.rank());
  g.first_vertex = mine.first;
  g.offsets.resize(static_cast<std::size_t>(mine.count) + 1);
  if (c.size() == 1) {  // one process: the rows straight from the edge list
    const index_t arcs = (directed ? 1 : 2) * (m - loops);
    g.columns.resize(static_cast<std::size_t>(arcs));
    if (wt) g.weights.resize(static_cast<std::size_t>(arcs));
    sort_rows(g, arcs, m, wt != nullptr, [src, dst, wt, directed](index_t i, auto&& out) {
      const std::int64_t u = src[i], v = dst[i];
      if (u == v) return;
      const float x = wt ? wt[i] : 0.f;
      out(u, v, x);
      if (!directed) out(v, u, x);
    }, scratch);
    return g;
  }
  // Over ranks: both arcs of every edge to their tails' owners in one all-to-all (arcs for rank r
  // in edge order, the two of an edge next to each other), then the rows from the arrivals.
  std::vector<arc> out;
  std::vector<index_t> counts;
  dist::group_by_rank<arc>(c.size(), dist::item_slices(m), [&](index_t i, auto&& send) {
    const std::int64_t u = src[i], v = dst[i];
    if (u == v) return;
    const float x = wt ? wt[i] : 0.f;
    send(part.owner(u), arc{u, v, x});
    if (!directed) send(part.owner(v), arc{v, u, x});
  }, out, counts);
  const std::vector<arc> in = c.alltoallv<arc>(out, counts);
  out = {};
  const bool weighted = c.any(wt != nullptr);  // a rank with an empty slice cannot tell on its own
  const auto arrived = static_cast<index_t>(in.size());
  index_t stray = 0;
#pragma omp parallel for schedule(static) reduction(+ : stray)
  for (index_t i = 0; i < arrived; ++i) stray += !mine.contains(in[i].tail);
  GPU500_EXPECTS(stray == 0, "an arc arrived at a rank that does not own its tail");
  g.columns.resize(in.size());
  if (weighted) g.weights.resize(in.size());
  const arc* a = in.data();
  const index_t first = mine.first;
  sort_rows(g, arrived, arrived, weighted, [a, first](index_t i, auto&& emit) {
    emit(a[i].tail - first, a[i].head, a[i].weight);
  }, scratch);
  return g;
}

}  // namespace

template <class V>
csr<V> build_csr(const dist::communicator& c, const dist::block_partition& part, const edge_list& el,
                 arc_sort_scratch* scratch) {
  return build_rows<V>(c, part, el, scratch, false);
}

template <class V>
csr<V> build_csr(const edge_list& el, arc_sort_scratch* scratch) {
  return build_rows<V>(dist::communicator{}, dist::block_partition(el.num_vertices, 1), el, scratch, false);
}

template <class V>
csr<V> build_csr_directed(const edge_list& el, arc_sort_scratch* scratch) {
  return build_rows<V>(dist::communicator{}, dist::block_partition(el.num_vertices, 1), el, scratch, true);
}

template csr<std::uint32_t> build_csr_directed<std::uint32_t>(const edge_list&, arc_sort_scratch*);
template csr<std::int64_t> build_csr_directed<std::int64_t>(const edge_list&, arc_sort_scratch*);

template csr<std::uint32_t> build_csr<std::uint32_t>(const edge_list&, arc_sort_scratch*);
template csr<std::int64_t> build_csr<std::int64_t>(const edge_list&, arc_sort_scratch*);
template csr<std::uint32_t> build_csr<std::uint32_t>(const dist::communicator&, const dist::block_partition&,
                                                     const edge_list&, arc_sort_scratch*);
template csr<std::int64_t> build_csr<std::int64_t>(const dist::communicator&, const dist::block_partition&,
                                                   const edge_list&, arc_sort_scratch*);

template <class V>
index_t reached_degree_sum(csr_view<V> g, std::span<const std::int64_t> parent, int threads) {
  const index_t n = g.local_vertices;
  GPU500_EXPECTS(static_cast<index_t>(parent.size()) >= n, "one parent per vertex");
  const std::int64_t* par = parent.data();
  const index_t* off = g.offsets;
  index_t sum = 0;
#pragma omp parallel for num_threads(threads > 0 ? threads : omp_get_max_threads()) schedule(static) reduction(+ : sum)
  for (index_t v = 0; v < n; ++v)
    if (par[v] >= 0) sum += off[v + 1] - off[v];
  return sum;
}

template index_t reached_degree_sum<std::uint32_t>(csr_view<std::uint32_t>, std::span<const std::int64_t>, int);
template index_t reached_degree_sum<std::int64_t>(csr_view<std::int64_t>, std::span<const std::int64_t>, int);

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
