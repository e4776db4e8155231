// src/sssp/cpu/engine.cpp — the host delta-stepping SSSP engine (sssp/sssp.hpp): its
// construction, kernel 1's part (the weights checked, the bucket width, the degree relabelling,
// the light/heavy rows, over ranks the host's table of offers), and the public members, which
// forward to the state and steps of engine_impl.hpp. Over-ranks steps: ranks.cpp.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "engine_impl.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/sssp/delta.hpp"

namespace gpu500::sssp {

namespace {

/// The OpenMP team of the parallel regions run while it lives (n = 0: unchanged), the old one
/// restored after.
class omp_team {
 public:
  explicit omp_team(int n) : saved_(omp_get_max_threads()) {
    if (n > 0) omp_set_num_threads(n);
  }
  ~omp_team() { omp_set_num_threads(saved_); }
  omp_team(const omp_team&) = delete;
  omp_team& operator=(const omp_team&) = delete;

 private:
  int saved_;
};

/// f() on a team of `threads` threads (0: the default team): every parallel region of the engine,
/// those without a num_threads clause of their own too (the rows' sort, the per-vertex arrays),
/// runs on cpu_options::threads.
template <class F>
decltype(auto) on_team(int threads, F&& f) {
  const omp_team team(threads);
  return f();
}

}  // namespace

template <class V>
cpu_engine<V>::impl::impl(const dist::communicator* comm, const dist::block_partition& p, graph::csr_view<V> view, cpu_options o,
                          graph::arc_sort_scratch* scratch)
    : c_(comm ? *comm : own_), part_(p), g(view), opt(o) {
  me = c_.rank();
  ranks = c_.size();
  GPU500_EXPECTS(part_.ranks() == ranks, "sssp cpu engine: the partition is for another rank count");
  GPU500_EXPECTS(part_.holds_rows(me, g), "sssp cpu engine: the graph's rows are not this rank's part of the partition");
  GPU500_EXPECTS(opt.threads >= 0, "sssp cpu engine: thread count must be >= 0");
  n = g.local_vertices;
  first = g.first_vertex;
  // Head ids are 32 bits: the vertices on one process, over ranks the largest block's rows and
  // the vertices owned elsewhere (the same test on every rank).
  const index_t heads = ranks == 1 ? n : part_.range(0).count + g.num_vertices;
  if (static_cast<std::uint64_t>(heads) >= (std::uint64_t{1} << 32))
    throw usage_error("sssp cpu engine: " + std::to_string(g.num_vertices) + " vertices" +
                      (ranks > 1 ? " over ranks" : "") + "; the packed (distance, parent) word holds head ids below 2^32");
  // Weights non-negative and finite (their maximum sizes the circular bucket array, their mean
  // the adaptive delta); the vertices with edges. Over the whole graph: every rank alike.
  const index_t arcs = g.num_arcs();
  const float* w = g.weights;
  GPU500_EXPECTS(!c_.any(w == nullptr && arcs > 0), "sssp cpu engine: the graph has no weights");
  float mx = 0.f;
  double sum = 0.0;
  index_t bad = -1, active = 0;
#pragma omp parallel for schedule(static) reduction(max : mx, bad) reduction(+ : sum)
  for (index_t k = 0; k < arcs; ++k) {
    if (!(w[k] >= 0.f) || !std::isfinite(w[k])) bad = std::max(bad, k);
    mx = std::max(mx, w[k]);
    sum += w[k];
  }
#pragma omp parallel for schedule(static) reduction(+ : active)
  for (index_t v = 0; v < n; ++v) active += g.offsets[v + 1] > g.offsets[v];
  double sums[3] = {sum, static_cast<double>(arcs), static_cast<double>(active)};
  if (ranks > 1) {
    if (c_.allreduce(bad, dist::reduce_op::max) >= 0 && bad < 0)
      throw usage_error("sssp: a weight on another rank is negative or not finite");
    c_.allreduce(sums, 3, dist::reduce_op::sum);
    mx = c_.allreduce(mx, dist::reduce_op::max);
  }
  if (bad >= 0) throw usage_error("sssp: weight " + std::to_string(bad) + " is negative or not finite");
  graph_arcs = static_cast<index_t>(sums[1]);
  delta = opt.delta;
  if (!(delta > 0.f)) {
    // Adaptive (sssp/delta.hpp): mean weight / mean degree of the vertices with edges. On Graph500 graphs
    // (SCALE 18, 2 cores) smaller deltas were faster still on one thread, larger ones worse;
    // this is the compromise between work and synchronisation (bench/kernels-cpu.cpp --sweep-delta).
    delta = static_cast<float>(adaptive_factor * sssp::mean_weight_per_degree(sums[0], sums[1], sums[2]));
  }
  inv_delta = 1.0 / static_cast<double>(delta);
  const double slots = std::ceil(static_cast<double>(mx) * inv_delta) + 3.0;
  if (slots > double(1 << 22))
    throw usage_error("sssp: delta " + std::to_string(delta) + " is too small for the largest weight " +
                      std::to_string(mx) + " (more than 2^22 buckets in flight)");
  nb = static_cast<std::uint64_t>(slots);
  clk_.lap("weights check, delta");
  detail::relabel_by_degree(g, opt.no_relabel, old_of, new_of);
  clk_.lap("relabel");
  const std::uint32_t* o2n = new_of.data();
  const float light_max = opt.no_light_heavy ? std::numeric_limits<float>::infinity() : delta;
  if (ranks == 1) {
    detail::build_light_heavy_rows(
        g, o2n, [o2n](V v) { return o2n[static_cast<std::size_t>(v)]; }, n, light_max, arcs_, rows_, scratch);
  } else {  // a vertex owned elsewhere is head n + its id
    const index_t rows = n, base = first;
    detail::build_light_heavy_rows(
        g, o2n,
        [o2n, rows, base](V v) {
          const index_t x = static_cast<index_t>(v) - base;
          return static_cast<std::uint32_t>(x >= 0 && x < rows ? index_t{o2n[x]} : rows + static_cast<index_t>(v));
        },
        n + g.num_vertices, light_max, arcs_, rows_, scratch);
  }
  // Pulls over ranks by default; on one process the push touches the rows' state in place and
  // sends nothing, which is what the pull saves over ranks (measured: no gain there). The pull
  // reads the arcs into a row from the row itself, so it needs symmetric rows.
  pull_share = opt.pull_share >= 0 ? opt.pull_share : ranks > 1 ? 0.1 : 2.0;
  pulls = !opt.no_light_heavy && !opt.directed && pull_share <= 1;
  if (pulls) {
    detail::order_heavy_by_weight(arcs_.get(), rows_);
    pull_bits_.assign(static_cast<std::size_t>(dist::bitmap_words(n + (ranks > 1 ? g.num_vertices : 0))), 0);
  }
  clk_.lap("sort + rows");
  if (ranks > 1) {
    offers_.emplace(c_, static_cast<std::size_t>(g.num_vertices) * (sizeof(float) + 1));
    offered_ = static_cast<float*>(offers_->data());
    offered_bucket_ = reinterpret_cast<std::uint8_t*>(offered_ + g.num_vertices);
    clear_offers();
  }
  const auto N = static_cast<std::size_t>(n);
  for (auto* a : {&key, &stamp, &heavy_stamp}) a->resize(N);
  for (auto* a : {&frontier, &frontier2, &settled}) a->resize(N);
  bound.resize(N);
  parents.resize(N);
  dist.resize(N);
#pragma omp parallel for schedule(static)
  for (index_t v = 0; v < n; ++v) {
    key[v] = unreached;
    bound[v] = std::numeric_limits<float>::infinity();
    stamp[v] = heavy_stamp[v] = 0;
    parents[v] = -1;
    dist[v] = -1.f;
  }
  ensure_threads(std::max(omp_get_max_threads(), omp_get_num_procs()));
  clk_.lap("per-vertex arrays");
}

template <class V>
cpu_engine<V>::cpu_engine(graph::csr_view<V> g, cpu_options o, graph::arc_sort_scratch* scratch)
    : impl_(on_team(o.threads, [&] {
        return std::make_unique<impl>(nullptr, dist::block_partition(g.num_vertices, 1), g, o, scratch);
      })) {}
template <class V>
cpu_engine<V>::cpu_engine(const dist::communicator& c, const dist::block_partition& part, graph::csr_view<V> g,
                          cpu_options o, graph::arc_sort_scratch* scratch)
    : impl_(on_team(o.threads, [&] { return std::make_unique<impl>(&c, part, g, o, scratch); })) {}
template <class V>
cpu_engine<V>::~cpu_engine() = default;
template <class V>
void cpu_engine<V>::prepare() {
  on_team(impl_->opt.threads, [&] { impl_->prepare(); });
}
template <class V>
void cpu_engine<V>::run(index_t root) {
  on_team(impl_->opt.threads, [&] { impl_->run(root); });
}
template <class V>
std::span<std::int64_t> cpu_engine<V>::parents() {
  return impl_->parents;
}
template <class V>
std::span<const std::int64_t> cpu_engine<V>::parents() const {
  return impl_->parents;
}
template <class V>
std::span<float> cpu_engine<V>::distances() {
  return impl_->dist;
}
template <class V>
std::span<const float> cpu_engine<V>::distances() const {
  return impl_->dist;
}
template <class V>
std::pair<graph::host_vector<std::int64_t>, graph::host_vector<float>> cpu_engine<V>::take_result() {
  impl_->last_root = -1;
  impl_->prepared = false;
  return {std::exchange(impl_->parents, {}), std::exchange(impl_->dist, {})};
}
template <class V>
index_t cpu_engine<V>::traversed_edges() const {
  return impl_->traversed_edges();
}
template <class V>
float cpu_engine<V>::delta() const {
  return impl_->delta;
}
template <class V>
const std::vector<dist::level_record>& cpu_engine<V>::levels() const {
  return impl_->levels_;
}

template class cpu_engine<std::uint32_t>;
template class cpu_engine<std::int64_t>;

}  // namespace gpu500::sssp
