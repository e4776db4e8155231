// src/sssp/cuda/engine_members.cuh — the public member functions of the GPU SSSP engine (the
// pimpl's forwarding, output copies, stats, the phase trace's decoding, description) and device_csr,
// the host CSR copied to the device. Included by engine_u32.cu and engine_i64.cu after engine.cuh.
#pragma once

#include <type_traits>

#include "engine.cuh"
#include "over_ranks.cuh"

namespace gpu500::sssp::cuda {

using namespace detail;

template <class V>
engine<V>::engine(graph::csr_view<V> device_graph, options o, std::function<void()> sorted_copy_ready)
    : impl_(std::make_unique<impl>(device_graph, o, sorted_copy_ready)) {}
template <class V>
engine<V>::engine(dist::device_exchange& x, const dist::block_partition& part, graph::csr_view<V> rows,
                  bool rows_by_weight, options o)
    : impl_(std::make_unique<impl>(rows, o, std::function<void()>{}, x.comm().size() > 1 ? &x : nullptr, &part,
                                   rows_by_weight)) {}
template <class V>
engine<V>::~engine() = default;
template <class V>
const std::vector<dist::level_record>& engine<V>::rank_levels() const {
  return impl_->records;
}
template <class V>
std::size_t engine<V>::device_bytes(index_t rows, index_t arcs, index_t n) {
  const auto r = static_cast<std::size_t>(rows), a = static_cast<std::size_t>(arcs), v = static_cast<std::size_t>(n);
  // Per row: the word, a stamp, three lists, parent, distance, the far parent and a row record;
  // per arc: a request each way and the chunks; per vertex of the graph: the offers and two
  // bitmaps.
  return 68 * r + 2 * sizeof(request) * a + a + 4 * v + v / 4 + (std::size_t{64} << 20);
}
template <class V>
void engine<V>::report_original_ids(graph::id_map<V> ids) {
  work_ref& w = impl_->w;
  GPU500_EXPECTS(ids.empty() || (ids.old2new != nullptr && ids.non_isolated >= 0 && ids.non_isolated <= impl_->g.n),
                 "sssp cuda: an id map needs new2old, old2new and 0 <= non_isolated <= n");
  GPU500_EXPECTS(ids.empty() || !impl_->opt.directed, "sssp cuda: a directed graph is searched without relabelling");
  w.new2old = ids.new2old;
  w.old2new = ids.empty() ? nullptr : ids.old2new;
  w.map_wide = sizeof(V) == 8 ? 1 : 0;
  w.non_isolated = ids.non_isolated;
}
template <class V>
void engine<V>::prepare() {
  impl_->prepare();
}
template <class V>
void engine<V>::run(index_t root) {
  impl_->run(root);
}
template <class V>
const std::int64_t* engine<V>::parents_device() const {
  return impl_->w.parents;
}
template <class V>
const float* engine<V>::distances_device() const {
  return impl_->w.dist;
}
template <class V>
index_t engine<V>::traversed_edges() {
  return impl_->nedge();
}
template <class V>
void engine<V>::copy_parents(std::span<std::int64_t> host) const {
  GPU500_EXPECTS(static_cast<index_t>(host.size()) == impl_->g.n, "sssp cuda: copy_parents needs an entry per row");
  GPU500_CUDA_CHECK(cudaMemcpy(host.data(), impl_->w.parents, host.size_bytes(), cudaMemcpyDeviceToHost));
}
template <class V>
void engine<V>::copy_distances(std::span<float> host) const {
  GPU500_EXPECTS(static_cast<index_t>(host.size()) == impl_->g.n, "sssp cuda: copy_distances needs an entry per row");
  GPU500_CUDA_CHECK(cudaMemcpy(host.data(), impl_->w.dist, host.size_bytes(), cudaMemcpyDeviceToHost));
}
template <class V>
run_stats engine<V>::last_stats() const {
  const control& s = impl_->last;
  run_stats r;
  r.buckets = s.buckets;
  r.light_steps = s.light_steps;
  r.steps = s.steps;
  r.pulls = s.pulls;
  r.loop_steps = s.loop_steps;
  r.loop_finished = s.loop_finished != 0;
  r.last_delta = s.delta;
  for (int i = 0; i < phase_kinds; ++i) r.phase_ms[i] = impl_->phase_ms[i];
  return r;
}
template <class V>
std::vector<phase_record> engine<V>::last_trace() const {
  const auto& m = *impl_;
  std::vector<phase_record> out;
  if (m.w.trace == nullptr || m.opt.loop != loop_kind::persistent || m.last.steps <= 0) return out;
  const long long recs = std::min<long long>(m.last.steps + 1, m.trace_records);
  std::vector<unsigned long long> raw(static_cast<std::size_t>(trace_words * recs));
  GPU500_CUDA_CHECK(cudaMemcpy(raw.data(), m.w.trace, raw.size() * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
  for (long long k = 0; k + 1 < recs; ++k) {
    const unsigned long long* r = raw.data() + trace_words * k;
    phase_record p{static_cast<int>(r[1]), static_cast<std::int64_t>(r[2]),
                   static_cast<double>(r[trace_words] - r[0]) / 1e3};
    p.arcs = static_cast<std::int64_t>(r[3]);
    p.candidates = static_cast<std::int64_t>(r[4]);
    p.improved = static_cast<std::int64_t>(r[5]);
    p.max_step_arcs = static_cast<std::int64_t>(r[6]);
    out.push_back(p);
  }
  return out;
}
template <class V>
graph::csr_view<V> engine<V>::graph_view() const {
  const auto& g = impl_->g;
  return {impl_->n_all, impl_->rk.first, g.n, g.offsets, g.cols, g.weights};
}
template <class V>
bool engine<V>::rows_sorted() const {
  return impl_->g.sorted != 0;
}
template <class V>
float engine<V>::initial_delta() const {
  return impl_->delta0;
}
template <class V>
std::string engine<V>::description() const {
  const impl& m = *impl_;
  std::string near_far;
  if (m.nf_blocks > 0) {
    near_far = ", near-far device loop first";
    if (m.nf_cluster > 0) near_far += " (clusters of " + std::to_string(m.nf_cluster) + " blocks)";
  }
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "cuda sssp%s: %s, delta %s%g, %s loop%s%s%s, %s rows%s%s, %s cut, %d arcs/lane, %d vertices/lane, chunk %d, "
                "light rows over %d in chunks of %d, grab %d%s%s, queue %s%s%s%s, %d-bit column ids",
                m.over_ranks() ? (" over " + std::to_string(m.ranks) + " ranks").c_str() : "", algorithm_name(m.opt.algo),
                m.adaptive ? "adaptive from " : "", static_cast<double>(m.delta0), loop_name(m.opt.loop),
                m.opt.loop == loop_kind::persistent ? (" (" + std::to_string(m.coop_blocks) + " blocks)").c_str() : "",
                m.opt.profile ? ", profiled" : "", near_far.c_str(), m.g.sorted ? "weight-sorted" : "unsorted", m.sort_note.c_str(),
                m.w.settled ? ", settled filter" : "", cut_name(m.opt.cut), m.opt.arcs_per_lane,
                m.opt.vertices_per_lane, m.opt.chunk, static_cast<int>(m.w.light_row), static_cast<int>(m.w.light_chunk),
                m.w.grab, m.w.interleave ? (", interleaved by " + std::to_string(m.w.interleave)).c_str() : "",
                m.w.lean ? ", lean scan/heavy" : "", m.w.qbits[0] ? "bitmaps" : "stamps",
                m.g.rows ? ", row records" : "", m.pull_min_chunks > 0 ? ", pull for hub buckets" : "",
                m.pull_first_arcs > 0 ? (", pull-first above " + std::to_string(m.pull_first_arcs) + " heavy arcs").c_str() : "",
                static_cast<int>(sizeof(V) * 8));
  return buf;
}

// ---- device_csr -------------------------------------------------------------------------------

/// Every array holds at least one element, so that a graph without arcs still has non-null pointers.
template <class V>
device_csr<V>::device_csr(const graph::csr<V>& host) {
  GPU500_EXPECTS(host.weights.size() == host.columns.size(), "device_csr: the graph must be weighted");
  GPU500_EXPECTS(host.offsets.size() == static_cast<std::size_t>(host.num_vertices + 1), "device_csr: bad offsets");
  const auto upload = [](const auto& h) {
    using T = std::remove_cvref_t<decltype(h[0])>;
    gpu::device_buffer<T> d(std::max<std::size_t>(h.size(), 1));
    if (!h.empty()) gpu::copy_bytes(d.data(), h.data(), h.size() * sizeof(T));
    return d;
  };
  offsets_ = upload(host.offsets);
  columns_ = upload(host.columns);
  weights_ = upload(host.weights);
  view_.num_vertices = host.num_vertices;
  view_.first_vertex = 0;
  view_.local_vertices = host.num_vertices;
  view_.offsets = offsets_.data();
  view_.columns = columns_.data();
  view_.weights = weights_.data();
}

}  // namespace gpu500::sssp::cuda
