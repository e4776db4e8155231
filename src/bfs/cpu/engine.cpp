// src/bfs/cpu/engine.cpp — the host BFS engine (engine_impl.hpp) built and reset: the owned rows
// copied in descending degree class of their far ends (kernel 1's part of the engine), Graph500's
// clean_pred, the traversed-edge count, and the public members of bfs::cpu_engine and bfs::run.
#include <omp.h>

#include <bit>
#include <limits>
#include <type_traits>
#include <utility>

#include "engine_impl.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/dist/bitmap.hpp"

namespace gpu500::bfs {

template <class V>
cpu_engine<V>::impl::impl(const dist::communicator* comm, const dist::block_partition& p,
                          graph::csr_view<V> view, cpu_options o)
    : c(comm ? *comm : own), part(p), g(view), opt(o) {
  GPU500_EXPECTS(opt.alpha > 0 && opt.beta > 0, "bfs cpu engine: alpha and beta must be positive");
  GPU500_EXPECTS(opt.threads >= 0, "bfs cpu engine: thread count must be >= 0");
  me = c.rank();
  ranks = c.size();
  GPU500_EXPECTS(part.ranks() == ranks, "bfs cpu engine: the partition is for another rank count");
  GPU500_EXPECTS(part.holds_rows(me, g), "bfs cpu engine: the graph's rows are not this rank's part of the partition");
  n = g.num_vertices;
  rows = g.local_vertices;
  first = g.first_vertex;
  words = dist::bitmap_words(rows);
  queue.resize(static_cast<std::size_t>(rows));
  next_queue.resize(static_cast<std::size_t>(rows));
  visited.resize(static_cast<std::size_t>(words));
  prepare();  // the parents (made there) to -1 and the visited bitmap to 0, in parallel
  front.assign(static_cast<std::size_t>(words), 0);
  next.assign(static_cast<std::size_t>(words), 0);
  if (ranks > 1) {
    GPU500_EXPECTS(words == dist::bitmap_slice_words(part, me), "bfs cpu engine: a rank's rows start at a word");
    whole.assign(static_cast<std::size_t>(dist::bitmap_words(n)), 0);
  }
  graph_arcs = c.allreduce(g.offsets[rows] - g.offsets[0], dist::reduce_op::sum);
  order_rows_by_degree();
}

// Every vertex's degree class, the bit width of its degree (0 isolated, 1 degree 1, 2 degrees
// 2-3, ...), from its owner (a byte a vertex, all-gathered over several ranks), and each row
// copied in descending class of its far ends, its arcs' order kept within a class (a stable
// counting pass a row: a comparison sort of every row made kernel 1 half again as long).
template <class V>
void cpu_engine<V>::impl::order_rows_by_degree() {
  constexpr int classes = 64;
  const int nt = threads();
  std::vector<std::uint8_t> degree_class(static_cast<std::size_t>(n));
  std::vector<std::uint8_t> mine(ranks > 1 ? static_cast<std::size_t>(rows) : 0);
  std::uint8_t* own_classes = ranks > 1 ? mine.data() : degree_class.data();
#pragma omp parallel for num_threads(nt) schedule(static)
  for (index_t u = 0; u < rows; ++u) own_classes[u] = static_cast<std::uint8_t>(std::bit_width(static_cast<std::uint64_t>(degree(u))));
  if (ranks > 1) {
    std::vector<index_t> sizes(static_cast<std::size_t>(ranks));
    for (int r = 0; r < ranks; ++r) sizes[static_cast<std::size_t>(r)] = part.range(r).count;
    c.allgatherv_bytes(mine.data(), degree_class.data(), sizes.data(), 1);
  }
  const index_t base = g.offsets[0], arcs = g.offsets[rows] - base;
  const std::uint8_t* cls = degree_class.data();
  const auto order = [&](auto* cols) {
    using C = std::remove_pointer_t<decltype(cols)>;
#pragma omp parallel for num_threads(nt) schedule(dynamic, 256)
    for (index_t u = 0; u < rows; ++u) {
      const index_t b = g.offsets[u], e = g.offsets[u + 1];
      index_t at[classes] = {};
      for (index_t k = b; k < e; ++k) ++at[classes - 1 - cls[static_cast<index_t>(g.columns[k])]];
      index_t next_at = b;  // at[j]: where class slot j's arcs start
      for (index_t& a : at) next_at += std::exchange(a, next_at);
      for (index_t k = b; k < e; ++k) {
        const auto v = static_cast<index_t>(g.columns[k]);
        cols[at[classes - 1 - cls[v]]++] = static_cast<C>(v);
      }
    }
  };
  if (!opt.wide_columns && n <= static_cast<index_t>(std::numeric_limits<std::uint32_t>::max())) {
    cols32.resize(static_cast<std::size_t>(arcs));
    order(cols32.data() - base);
  } else {
    cols64.resize(static_cast<std::size_t>(arcs));
    order(cols64.data() - base);
  }
}

// Graph500's clean_pred (untimed in the reference too): parents to -1, the visited bitmap to
// zero. run() calls it when the caller did not.
template <class V>
void cpu_engine<V>::impl::prepare() {
  const int nt = threads();
  parent.resize(static_cast<std::size_t>(rows));  // after take_parents (not zeroed: the loop fills it)
  std::int64_t* par = parent.data();
  word_t* vis = visited.data();
  const index_t nr = rows, w = words;
#pragma omp parallel num_threads(nt)
  {
#pragma omp for schedule(static) nowait
    for (index_t v = 0; v < nr; ++v) par[v] = -1;
#pragma omp for schedule(static) nowait
    for (index_t i = 0; i < w; ++i) vis[i] = 0;
  }
  prepared = true;
}

template <class V>
index_t cpu_engine<V>::impl::traversed_edges() const {
  return searched ? graph::search_nedge(c, g, std::span<const std::int64_t>(parent), opt.directed, threads()) : 0;
}

template <class V>
cpu_engine<V>::cpu_engine(graph::csr_view<V> g, cpu_options o)
    : impl_(std::make_unique<impl>(nullptr, dist::block_partition(g.num_vertices, 1), g, o)) {}
template <class V>
cpu_engine<V>::cpu_engine(const dist::communicator& c, const dist::block_partition& part, graph::csr_view<V> g,
                          cpu_options o)
    : impl_(std::make_unique<impl>(&c, part, g, o)) {}
template <class V>
cpu_engine<V>::~cpu_engine() = default;
template <class V>
void cpu_engine<V>::prepare() {
  impl_->prepare();
}
template <class V>
void cpu_engine<V>::run(index_t root) {
  impl_->run(root);
}
template <class V>
std::span<std::int64_t> cpu_engine<V>::parents() {
  return impl_->parent;
}
template <class V>
std::span<const std::int64_t> cpu_engine<V>::parents() const {
  return impl_->parent;
}
template <class V>
graph::host_vector<std::int64_t> cpu_engine<V>::take_parents() {
  impl_->searched = impl_->prepared = false;
  return std::exchange(impl_->parent, {});
}
template <class V>
index_t cpu_engine<V>::traversed_edges() const {
  return impl_->traversed_edges();
}
template <class V>
const std::vector<dist::level_record>& cpu_engine<V>::levels() const {
  return impl_->levels;
}

template <class V>
std::vector<std::int64_t> run(graph::csr_view<V> g, index_t root, cpu_options o) {
  cpu_engine<V> e(g, o);
  e.run(root);
  const auto p = std::as_const(e).parents();
  return {p.begin(), p.end()};
}

template class cpu_engine<std::uint32_t>;
template class cpu_engine<std::int64_t>;
template std::vector<std::int64_t> run<std::uint32_t>(graph::csr_view<std::uint32_t>, index_t, cpu_options);
template std::vector<std::int64_t> run<std::int64_t>(graph::csr_view<std::int64_t>, index_t, cpu_options);

}  // namespace gpu500::bfs
