// src/sssp/cpu/rows.hpp — the CPU SSSP engine's own rows (kernel-1 work, built once in its
// constructor): internal ids of the owned rows by decreasing degree, and every row as packed
// (head, weight) pairs with its light arcs (w <= delta) a contiguous prefix and its heavy arcs the
// rest, each part by increasing head (over ranks, where buckets may be pulled, the heavy part by
// increasing weight instead: order_heavy_by_weight). A light iteration then reads only the prefix
// and the heavy pass only the suffix, neither filters, and the state of the hubs, which most arcs
// point to, shares few cache lines. The CUDA engine's sibling is src/sssp/cuda/rows.cuh (rows
// sorted by weight).
#pragma once

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>
#include <vector>

#include "gpu500/core/error.hpp"
#include "gpu500/core/timer.hpp"
#include "gpu500/graph/arc_sort.hpp"
#include "gpu500/graph/csr.hpp"

namespace gpu500::sssp::detail {

// GPU500_PHASE_TIMES=1: the construction's phases on stderr (for the CPU kernel benchmark).
struct phase_clock {
  bool on = std::getenv("GPU500_PHASE_TIMES") != nullptr;
  stopwatch sw;
  void lap(const char* what) {
    if (!on) return;
    std::fprintf(stderr, "  sssp rows: %-28s %.3f s\n", what, sw.seconds());
    sw.restart();
  }
};

/// One arc of the engine's rows: head (internal id) and weight, 8 bytes in one stream instead of
/// the CSR's sizeof(V) + 4 in two.
struct row_arc {
  std::uint32_t v;
  float w;
};
/// A row (one 16-byte read per vertex).
struct row_range {
  index_t begin;        // first arc
  std::uint32_t light;  // light arcs: [begin, begin + light)
  std::uint32_t deg;    // all arcs: [begin, begin + deg)
};

/// Internal ids of the view's rows by decreasing degree, ties by row (identity when keep_ids): on
/// skewed graphs most arcs point at the few hubs, whose per-vertex state then shares a few hot
/// cache lines. A stable counting sort by capped degree (graph::sort_arcs_by_key), then the few
/// rows above the cap by a stable sort of their own. old_of[internal] = row, new_of[row] =
/// internal (on one process a row is a vertex of the graph).
template <class V>
void relabel_by_degree(const graph::csr_view<V>& g, bool keep_ids, graph::host_vector<std::uint32_t>& old_of,
                       graph::host_vector<std::uint32_t>& new_of) {
  const index_t n = g.local_vertices;
  const auto N = static_cast<std::size_t>(n);
  old_of.resize(N);
  new_of.resize(N);
  const index_t* off = g.offsets;
  const int T = std::max(1, omp_get_max_threads());
  if (keep_ids) {
#pragma omp parallel for schedule(static)
    for (index_t v = 0; v < n; ++v) old_of[static_cast<std::size_t>(v)] = static_cast<std::uint32_t>(v);
  } else {
    constexpr index_t cap = index_t{1} << 16;  // keys: cap - min(degree, cap)
    std::vector<index_t> key_off(static_cast<std::size_t>(cap) + 2);
    std::uint32_t* o = old_of.data();
    graph::sort_arcs_by_key<std::uint32_t>(
        cap + 1, n, graph::even_slices(n, T),
        [off, cap](index_t v, auto&& out) {
          out(cap - std::min(off[v + 1] - off[v], cap), static_cast<std::uint32_t>(v), 0.f);
        },
        key_off.data(), [o](index_t p, std::uint32_t v, float) { o[p] = v; });
    std::stable_sort(o, o + key_off[1], [off](std::uint32_t a, std::uint32_t b) {
      return off[a + 1] - off[a] > off[b + 1] - off[b];
    });
  }
#pragma omp parallel for schedule(static)
  for (index_t x = 0; x < n; ++x) new_of[old_of[static_cast<std::size_t>(x)]] = static_cast<std::uint32_t>(x);
}

/// The engine's rows in internal ids (o2n: row -> internal; head(column) -> the arc's head id,
/// below head_limit: on one process o2n of the column), each row's light arcs (w <= light_max)
/// then its heavy arcs, each part by increasing head, duplicates in CSR order.
/// One stable counting sort of the arcs by (internal tail, light/heavy) reads the CSR rows in the
/// graph's order (sequential reads; the id map is the only gather) and, per block of rows, puts
/// the block's bucket in head order by a cache-resident radix sort before placing it
/// (sort_arcs_by_key's head_limit). The blocks are balanced by arcs, so the hubs that lead the
/// degree order do not make one huge block. Nothing is assumed of the graph (a directed view is
/// handled the same way).
template <class V, class Head>
void build_light_heavy_rows(const graph::csr_view<V>& g, const std::uint32_t* o2n, Head head, index_t head_limit,
                            float light_max, graph::raw_array<row_arc>& arcs, graph::host_vector<row_range>& rows,
                            graph::arc_sort_scratch* scratch) {
  const index_t nn = g.local_vertices;
  const auto N = static_cast<std::size_t>(nn);
  const index_t* off = g.offsets;
  const V* col = g.columns;
  const float* wt = g.weights;
  const float dl = light_max;
  index_t too_long = -1;
#pragma omp parallel for schedule(static) reduction(max : too_long)
  for (index_t u = 0; u < nn; ++u)
    if (off[u + 1] - off[u] >= (index_t{1} << 32)) too_long = u;
  if (too_long >= 0) throw usage_error("sssp cpu engine: vertex " + std::to_string(too_long) + " has 2^32 arcs or more");
  const auto slices = graph::balanced_slices(std::span<const index_t>(off, N + 1), std::max(1, omp_get_max_threads()));
  arcs.allocate(static_cast<std::size_t>(g.num_arcs()));
  rows.resize(N);
  row_arc* A = arcs.get();
  row_range* R = rows.data();
  graph::host_vector<index_t> part(2 * N + 1);  // part 2x: light arcs of x, 2x + 1: its heavy arcs
  graph::sort_arcs_by_key<std::uint32_t>(
      2 * nn, g.num_arcs(), slices,
      [off, wt, o2n, dl](index_t u, auto&& add) {
        index_t light = 0;
        for (index_t k = off[u]; k < off[u + 1]; ++k) light += wt[k] <= dl;
        add(2 * index_t{o2n[u]}, light);
        add(2 * index_t{o2n[u]} + 1, off[u + 1] - off[u] - light);
      },
      [off, col, wt, o2n, head, dl](index_t u, auto&& out) {
        const index_t x = 2 * index_t{o2n[u]};
        for (index_t k = off[u]; k < off[u + 1]; ++k) out(x + !(wt[k] <= dl), head(col[k]), wt[k]);
      },
      part.data(), [A](index_t p, std::uint32_t h, float w) { A[p] = {h, w}; }, static_cast<std::uint64_t>(head_limit),
      scratch);
  const index_t* PO = part.data();
#pragma omp parallel for schedule(static)
  for (index_t x = 0; x < nn; ++x) {
    const index_t b = PO[2 * x];
    R[x] = {b, static_cast<std::uint32_t>(PO[2 * x + 1] - b), static_cast<std::uint32_t>(PO[2 * x + 2] - b)};
  }
}

/// Each row's heavy arcs in ascending weight (ties by head), for the pull: a row that looks for a
/// bucket's vertices among its heavy arcs leaves once lo + w passes its best candidate.
inline void order_heavy_by_weight(row_arc* arcs, const graph::host_vector<row_range>& rows) {
  const auto n = static_cast<index_t>(rows.size());
#pragma omp parallel for schedule(dynamic, 256)
  for (index_t x = 0; x < n; ++x) {
    const row_range r = rows[static_cast<std::size_t>(x)];
    std::sort(arcs + r.begin + r.light, arcs + r.begin + r.deg,
              [](row_arc a, row_arc b) { return a.w < b.w || (a.w == b.w && a.v < b.v); });
  }
}

}  // namespace gpu500::sssp::detail
