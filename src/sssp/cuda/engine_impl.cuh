// src/sssp/cuda/engine_impl.cuh — the GPU SSSP engine (public layer): input checks, buffers, the launch
// of the persistent search (or the host-loop baseline), output copies and nedge. The algorithm and its
// invariants are described in control.hpp and search_kernels.cuh; docs/sssp-gpu.md has the story.
// Included by engine_u32.cu and engine_i64.cu, one column type each (the two translation units
// compile in parallel: every column type has 3 x 3 persistent kernel instances).
#pragma once
#include <cuda_runtime.h>

#include <cub/device/device_segmented_sort.cuh>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "control.hpp"
#include "gpu500/core/cuda/check.cuh"
#include "gpu500/core/error.hpp"
#include "gpu500/graph/cuda.hpp"
#include "gpu500/sssp/cuda.hpp"
#include "search_kernels.cuh"

namespace gpu500::sssp::cuda {

namespace {

using namespace detail;

/// An owning device allocation (raw bytes).
class device_bytes {
 public:
  device_bytes() = default;
  explicit device_bytes(std::size_t bytes, const char* what) {
    if (bytes == 0) return;
    const cudaError_t e = cudaMalloc(&p_, bytes);
    if (e != cudaSuccess) {
      (void)cudaGetLastError();
      throw resource_error(std::string("sssp cuda: cannot allocate ") + std::to_string(bytes >> 20) + " MiB of device memory for " +
                           what + " (" + cudaGetErrorString(e) + ")");
    }
  }
  ~device_bytes() {
    if (p_) cudaFree(p_);
  }
  device_bytes(device_bytes&& o) noexcept : p_(o.p_) { o.p_ = nullptr; }
  device_bytes& operator=(device_bytes&& o) noexcept {
    std::swap(p_, o.p_);
    return *this;
  }
  device_bytes(const device_bytes&) = delete;
  device_bytes& operator=(const device_bytes&) = delete;
  template <class T>
  [[nodiscard]] T* as() const {
    return static_cast<T*>(p_);
  }

 private:
  void* p_ = nullptr;
};

/// Launch policy of the helper kernels (grid-stride loops).
struct helper_policy {
  static constexpr int block = 256;
  static unsigned blocks(index_t items) {
    const index_t b = (items + block - 1) / block;
    return static_cast<unsigned>(std::clamp<index_t>(b, 1, 4096));
  }
};

}  // namespace

template <class V>
struct engine<V>::impl {
  graph_ref<V> g{};
  index_t arcs = 0;
  options opt;
  float delta0 = 1.0f, delta_max = 1.0f;
  bool adaptive = false;
  int device = 0, sms = 0, coop_blocks = 0, host_blocks = 0;
  bool cooperative = false;
  const void* persistent = nullptr;  ///< the persistent kernel instance in use
  using step_fn = void (*)(graph_ref<V>, work_ref, long long);
  step_fn step_k = nullptr;          ///< the host-loop kernel instance in use
  cudaStream_t stream = nullptr;
  device_bytes trace_buf;
  static constexpr long long trace_records = 1 << 16;
  device_bytes qbits, row_recs;
  device_bytes dp, stamp, settled, nodeg, lists, chunks, ctrl, cnt, parents, dist, scratch, sorted_cols, sorted_w;
  std::string sort_note;
  work_ref w{};
  control last{};
  double phase_ms[phase_kinds] = {0, 0, 0, 0, 0, 0};
  std::int64_t pull_min_chunks = 0;  ///< control::pull_min_chunks (0: no pull)
  std::int64_t pull_first_arcs = 0;  ///< control::pull_first_arcs (0: off)
  cudaEvent_t ev[2] = {nullptr, nullptr};

  impl(graph::csr_view<V> view, options o, const std::function<void()>& sorted_copy_ready) : opt(o) {
    GPU500_EXPECTS(view.first_vertex == 0 && view.local_vertices == view.num_vertices,
                   "sssp cuda: the engine searches a whole graph held by one GPU");
    GPU500_EXPECTS(view.num_vertices >= 1, "sssp cuda: empty graph");
    GPU500_EXPECTS(view.offsets != nullptr && view.weights != nullptr,
                   "sssp cuda: the graph must be weighted (kernel 3 needs the edge weights)");
    if (view.num_vertices >= static_cast<index_t>(inf_bits))
      throw usage_error("sssp cuda: " + std::to_string(view.num_vertices) +
                        " vertices exceed the engine's limit of 2^32 - 2 (parents are packed in 32 bits)");
    if (o.arcs_per_lane != 1 && o.arcs_per_lane != 2 && o.arcs_per_lane != 4)
      throw usage_error("sssp cuda: arcs per lane must be 1, 2 or 4");
    if (o.vertices_per_lane != 1 && o.vertices_per_lane != 2 && o.vertices_per_lane != 4)
      throw usage_error("sssp cuda: vertices per lane must be 1, 2 or 4");
    if (o.chunk < 32) throw usage_error("sssp cuda: a chunk must hold at least 32 arcs");
    if (o.light_row < 32) throw usage_error("sssp cuda: light_row must be at least 32 arcs");
    if (o.grab < 1 || o.grab > 8) throw usage_error("sssp cuda: grab must be 1..8 groups of 32 entries");
    if (!(o.pull_first >= 0 && o.pull_first <= 100)) throw usage_error("sssp cuda: pull_first must be in [0, 100]");
    if (o.interleave < 0 || o.interleave > 32 || (o.interleave & (o.interleave - 1)) != 0)
      throw usage_error("sssp cuda: interleave must be 0 or a power of two up to 32");
    if (o.sort_batch < 1) throw usage_error("sssp cuda: a sort batch must hold at least one arc");
    const index_t n = view.num_vertices;
    g = {n, view.offsets, view.columns, view.weights, 0, nullptr};
    GPU500_CUDA_CHECK(cudaGetDevice(&device));
    GPU500_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    GPU500_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    GPU500_CUDA_CHECK(cudaMemcpy(&arcs, view.offsets + n, sizeof(index_t), cudaMemcpyDeviceToHost));
    GPU500_EXPECTS(arcs >= 0, "sssp cuda: negative arc count in offsets[n]");

    scratch = device_bytes(sizeof(graph_summary), "scratch");
    // Check the graph (weights >= 0 and finite, columns in range) and size the adaptive width.
    graph_summary sum{};
    GPU500_CUDA_CHECK(cudaMemsetAsync(scratch.as<void>(), 0, sizeof(graph_summary), stream));
    graph_summary_kernel<V><<<helper_policy::blocks(std::max(arcs, n)), helper_policy::block, 0, stream>>>(
        g, scratch.as<graph_summary>());
    GPU500_CUDA_CHECK_LAUNCH();
    GPU500_CUDA_CHECK(cudaMemcpyAsync(&sum, scratch.as<void>(), sizeof sum, cudaMemcpyDeviceToHost, stream));
    GPU500_CUDA_CHECK(cudaStreamSynchronize(stream));
    if (sum.bad_weights)
      throw usage_error("sssp cuda: " + std::to_string(sum.bad_weights) + " arcs have a negative, infinite or NaN weight");
    if (sum.bad_columns)
      throw usage_error("sssp cuda: " + std::to_string(sum.bad_columns) + " arcs name a vertex outside [0, n)");

    if (opt.algo == algorithm::bellman_ford) {
      delta0 = delta_max = std::numeric_limits<float>::infinity();
    } else if (opt.delta > 0) {
      delta0 = delta_max = opt.delta;
    } else {
      adaptive = true;
      if (!(opt.delta_scale > 0.0f && opt.delta_scale <= 1e6f)) throw usage_error("sssp cuda: delta_scale must be in (0, 1e6]");
      delta0 = opt.delta_scale * auto_delta(sum.weight_sum, arcs, static_cast<std::int64_t>(sum.nonisolated));
      delta_max = delta0 * search_policy::auto_delta_growth;
    }

    if (!opt.unsorted_rows) sort_rows(view);
    if (g.sorted) {  // from here on only the input's offsets are read
      view.weights = nullptr;
      view.columns = nullptr;
      if (sorted_copy_ready) sorted_copy_ready();
    }
    // Row records hold a row's length in 32 bits; without the memory the offsets are read instead.
    if (g.sorted && !opt.no_row_records && arcs < (index_t{1} << 32)) {
      try {
        row_recs = device_bytes(static_cast<std::size_t>(n) * sizeof(row_rec), "row records");
        row_records_kernel<<<helper_policy::blocks(n), helper_policy::block, 0, stream>>>(n, g.offsets, g.weights,
                                                                                          row_recs.as<row_rec>());
        GPU500_CUDA_CHECK_LAUNCH();
        g.rows = row_recs.as<row_rec>();
      } catch (const resource_error&) {
        row_recs = device_bytes();
      }
    }

    const auto un = static_cast<std::size_t>(n);
    dp = device_bytes(un * sizeof(unsigned long long), "distances");
    if (!opt.no_settled_filter) settled = device_bytes(settled_words() * sizeof(std::uint32_t), "settled bitmap");
    if (!opt.queue_bitmaps || opt.no_settled_filter) stamp = device_bytes(un * sizeof(std::uint32_t), "queue stamps");
    else qbits = device_bytes(2 * settled_words() * sizeof(std::uint32_t), "queue bitmaps");
    lists = device_bytes(3 * un * sizeof(std::uint32_t), "vertex queues");
    const std::int64_t light_chunk = std::min(opt.chunk, opt.light_row);
    chunks = device_bytes(static_cast<std::size_t>(std::max(chunk_capacity(arcs, opt.chunk),
                                                            chunk_capacity(arcs, light_chunk, opt.light_row))) *
                              sizeof(chunk_desc),
                          "chunk lists");
    if (!opt.no_lean) {
      nodeg = device_bytes(settled_words() * sizeof(std::uint32_t), "no-arc bitmap");
      no_arc_bits_kernel<<<helper_policy::blocks(static_cast<index_t>(settled_words())), helper_policy::block, 0, stream>>>(
          n, view.offsets, nodeg.as<std::uint32_t>());
      GPU500_CUDA_CHECK_LAUNCH();
    }
    ctrl = device_bytes(sizeof(control), "state");
    cnt = device_bytes(3 * sizeof(counters), "counters");
    parents = device_bytes(un * sizeof(std::int64_t), "parents");
    dist = device_bytes(un * sizeof(float), "distances");
    w.dp = dp.as<unsigned long long>();
    w.stamp = stamp.as<std::uint32_t>();
    w.qbits[0] = qbits.as<std::uint32_t>();
    w.qbits[1] = w.qbits[0] != nullptr ? w.qbits[0] + settled_words() : nullptr;
    w.settled = settled.as<std::uint32_t>();
    for (int i = 0; i < 3; ++i) w.lists[i] = lists.as<std::uint32_t>() + static_cast<std::size_t>(i) * un;
    w.chunks = chunks.as<chunk_desc>();
    w.ctrl = ctrl.as<control>();
    w.cnt = cnt.as<counters>();
    w.parents = parents.as<std::int64_t>();
    w.dist = dist.as<float>();
    w.root = 0;
    w.nodeg = nodeg.as<std::uint32_t>();
    w.chunk = opt.chunk;
    w.gallop = opt.cut == cut_search::gallop ? 1 : 0;
    w.lean = opt.no_lean ? 0 : 1;
    w.vpl = opt.vertices_per_lane;
    w.light_row = opt.light_row;
    w.light_chunk = light_chunk;
    w.grab = (opt.grab + opt.vertices_per_lane - 1) / opt.vertices_per_lane * opt.vertices_per_lane;
    if (w.grab > 8) w.grab = 8;
    w.interleave = opt.interleave;
    if (opt.pull_above > 0 && g.sorted && w.settled != nullptr) {  // the pull needs both
      const double chunks = std::ceil(opt.pull_above * static_cast<double>(arcs) / opt.chunk);
      pull_min_chunks = std::max<std::int64_t>(1, static_cast<std::int64_t>(chunks));
    }
    if (opt.pull_first > 0 && g.sorted && w.settled != nullptr)
      pull_first_arcs = std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(opt.pull_first * static_cast<double>(arcs))));
    if (opt.trace) {
      trace_buf = device_bytes(static_cast<std::size_t>(trace_words * trace_records) * sizeof(unsigned long long),
                               "phase trace");
      w.trace = trace_buf.as<unsigned long long>();
      w.trace_cap = trace_records;
    }

    if (opt.profile) {
      opt.loop = loop_kind::host;
      GPU500_CUDA_CHECK(cudaEventCreate(&ev[0]));
      GPU500_CUDA_CHECK(cudaEventCreate(&ev[1]));
    }
    {
      int per_sm = 0;  // host loop: as many blocks as fit
      step_k = opt.arcs_per_lane == 4 ? step_kernel<V, 4> : opt.arcs_per_lane == 2 ? step_kernel<V, 2> : step_kernel<V, 1>;
      GPU500_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, step_k, search_policy::block, 0));
      host_blocks = std::max(1, std::min(per_sm, search_policy::max_blocks_per_sm)) * sms;
    }
    if (opt.loop == loop_kind::persistent) {
      int coop = 0, per_sm = 0;
      GPU500_CUDA_CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, device));
      persistent = pick_persistent();
      GPU500_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, persistent, search_policy::block, 0));
      per_sm = std::min(per_sm, search_policy::max_blocks_per_sm);
      if (opt.blocks_per_sm > 0) per_sm = std::min(per_sm, opt.blocks_per_sm);
      cooperative = coop != 0 && per_sm > 0;
      coop_blocks = per_sm * sms;
      if (!cooperative) opt.loop = loop_kind::host;  // no cooperative launch here: the baseline
    }
    // Parents/distances of "no search yet": everything unreached.
    GPU500_CUDA_CHECK(cudaMemsetAsync(w.parents, 0xFF, un * sizeof(std::int64_t), stream));
    GPU500_CUDA_CHECK(cudaMemsetAsync(w.dp, 0xFF, un * sizeof(unsigned long long), stream));
    GPU500_CUDA_CHECK(cudaStreamSynchronize(stream));
  }

  /// The persistent kernel instance for the options: register cap x arcs per lane.
  template <int MinBlocks>
  [[nodiscard]] const void* pick_persistent_k() const {
    switch (opt.arcs_per_lane) {
      case 4: return reinterpret_cast<const void*>(persistent_search_kernel<V, MinBlocks, 4>);
      case 2: return reinterpret_cast<const void*>(persistent_search_kernel<V, MinBlocks, 2>);
      default: return reinterpret_cast<const void*>(persistent_search_kernel<V, MinBlocks, 1>);
    }
  }
  [[nodiscard]] const void* pick_persistent() const {
    if (opt.blocks_per_sm >= search_policy::dense_min_blocks) return pick_persistent_k<search_policy::dense_min_blocks>();
    if (opt.blocks_per_sm >= 1 && opt.blocks_per_sm < search_policy::min_blocks)
      return pick_persistent_k<search_policy::wide_min_blocks>();
    return pick_persistent_k<search_policy::min_blocks>();
  }

  /// The engine's own copy of the graph with every row sorted by weight (a CUB segmented sort of
  /// (weight, column) pairs; duplicates and their weights are kept), in batches of whole rows of
  /// about opt.sort_batch arcs so that the sort's scratch stays small beside the graph. Without the
  /// memory for it the engine keeps the caller's rows and filters arcs one by one.
  void sort_rows(const graph::csr_view<V>& view) {
    if (arcs == 0) return;
    try {
      sorted_cols = device_bytes(static_cast<std::size_t>(arcs) * sizeof(V), "weight-sorted columns");
      sorted_w = device_bytes(static_cast<std::size_t>(arcs) * sizeof(float), "weight-sorted weights");
      GPU500_CUDA_CHECK(cudaStreamSynchronize(stream));
      const graph::cuda::row_batch_plan plan = graph::cuda::plan_row_batches(view.offsets, g.n, arcs, opt.sort_batch);
      device_bytes rel(static_cast<std::size_t>(plan.max_rows + 1) * sizeof(index_t), "sort batch offsets");
      std::size_t temp_bytes = 0;
      GPU500_CUDA_CHECK(cub::DeviceSegmentedSort::SortPairs(nullptr, temp_bytes, view.weights, sorted_w.as<float>(),
                                                            view.columns, sorted_cols.as<V>(), plan.max_items,
                                                            plan.max_rows, rel.as<index_t>(), rel.as<index_t>() + 1,
                                                            stream));
      device_bytes temp(std::max<std::size_t>(temp_bytes, 16), "sort scratch");  // never a size query
      graph::cuda::for_each_row_batch(
          plan, view.offsets, rel.as<index_t>(), stream,
          [&](index_t, index_t rows, index_t o0, index_t items, const index_t* r) {
            std::size_t bytes = temp_bytes;
            GPU500_CUDA_CHECK(cub::DeviceSegmentedSort::SortPairs(
                temp.as<void>(), bytes, view.weights + o0, sorted_w.as<float>() + o0, view.columns + o0,
                sorted_cols.as<V>() + o0, items, rows, r, r + 1, stream));
          });
      GPU500_CUDA_CHECK(cudaStreamSynchronize(stream));
      g.cols = sorted_cols.as<V>();
      g.weights = sorted_w.as<float>();
      g.sorted = 1;
    } catch (const resource_error& e) {
      sorted_cols = device_bytes();
      sorted_w = device_bytes();
      sort_note = ", rows unsorted (no memory for the sorted copy)";
    }
  }

  [[nodiscard]] std::size_t settled_words() const { return static_cast<std::size_t>((g.n + 31) / 32); }

  ~impl() {
    for (cudaEvent_t e : ev)
      if (e) cudaEventDestroy(e);
    if (stream) cudaStreamDestroy(stream);
  }

  /// Host loop, one phase at a time, timing each kernel by phase kind.
  void profiled_loop(unsigned blocks) {
    for (double& x : phase_ms) x = 0;
    control probe{};
    for (long long step = 0;; ++step) {
      GPU500_CUDA_CHECK(cudaMemcpyAsync(&probe, w.ctrl, sizeof probe, cudaMemcpyDeviceToHost, stream));
      GPU500_CUDA_CHECK(cudaStreamSynchronize(stream));
      if (probe.phase == phase_done) break;
      GPU500_CUDA_CHECK(cudaEventRecord(ev[0], stream));
      step_k<<<blocks, search_policy::block, 0, stream>>>(g, w, step);
      GPU500_CUDA_CHECK_LAUNCH();
      GPU500_CUDA_CHECK(cudaEventRecord(ev[1], stream));
      decide_kernel<<<1, 1, 0, stream>>>(w, step);
      GPU500_CUDA_CHECK_LAUNCH();
      GPU500_CUDA_CHECK(cudaEventSynchronize(ev[1]));
      float ms = 0;
      GPU500_CUDA_CHECK(cudaEventElapsedTime(&ms, ev[0], ev[1]));
      if (probe.phase >= 0 && probe.phase < phase_kinds) phase_ms[probe.phase] += ms;
    }
  }

  // Graph500's clean_shortest (untimed in the reference): the vertex words to "unreached", the
  // queue stamps, queue bitmaps and settled bits to zero. run() calls it when the caller did not.
  bool prepared = false;
  void prepare() {
    const auto un = static_cast<std::size_t>(g.n);
    GPU500_CUDA_CHECK(cudaMemsetAsync(w.dp, 0xFF, un * sizeof(unsigned long long), stream));
    if (w.stamp) GPU500_CUDA_CHECK(cudaMemsetAsync(w.stamp, 0, un * sizeof(std::uint32_t), stream));
    if (w.qbits[0]) GPU500_CUDA_CHECK(cudaMemsetAsync(w.qbits[0], 0, 2 * settled_words() * sizeof(std::uint32_t), stream));
    if (w.settled) GPU500_CUDA_CHECK(cudaMemsetAsync(w.settled, 0, settled_words() * sizeof(std::uint32_t), stream));
    if (w.trace) {  // the warps add their counts to the records
      GPU500_CUDA_CHECK(cudaMemsetAsync(
          w.trace, 0, static_cast<std::size_t>(trace_words * trace_records) * sizeof(unsigned long long), stream));
    }
    GPU500_CUDA_CHECK(cudaStreamSynchronize(stream));
    prepared = true;
  }

  void run(index_t root) {
    GPU500_EXPECTS(root >= 0 && root < g.n, "sssp cuda: root out of range");
    if (!prepared) prepare();
    prepared = false;
    w.root = root;
    control init = initial_control(delta0, adaptive, delta_max, adaptive ? opt.grow_below : 0);
    init.pull_min_chunks = pull_min_chunks;
    init.pull_first_arcs = pull_first_arcs;
    init_search_kernel<<<1, 32, 0, stream>>>(w, init);
    GPU500_CUDA_CHECK_LAUNCH();
    if (opt.loop == loop_kind::persistent) {
      graph_ref<V> ga = g;
      work_ref wa = w;
      void* args[] = {&ga, &wa};
      GPU500_CUDA_CHECK(cudaLaunchCooperativeKernel(persistent,
                                                    dim3(static_cast<unsigned>(coop_blocks)), dim3(search_policy::block),
                                                    args, 0, stream));
      GPU500_CUDA_CHECK_LAUNCH();
    } else {
      const auto blocks = static_cast<unsigned>(host_blocks);
      control probe{};
      if (opt.profile) profiled_loop(blocks);
      else for (long long step = 0;;) {
        for (int k = 0; k < search_policy::host_batch; ++k, ++step) {
          step_k<<<blocks, search_policy::block, 0, stream>>>(g, w, step);
          GPU500_CUDA_CHECK_LAUNCH();
          decide_kernel<<<1, 1, 0, stream>>>(w, step);
          GPU500_CUDA_CHECK_LAUNCH();
        }
        GPU500_CUDA_CHECK(cudaMemcpyAsync(&probe, w.ctrl, sizeof probe, cudaMemcpyDeviceToHost, stream));
        GPU500_CUDA_CHECK(cudaStreamSynchronize(stream));
        if (probe.phase == phase_done) break;
      }
      finalize_kernel<<<helper_policy::blocks(g.n), helper_policy::block, 0, stream>>>(g.n, w);
      GPU500_CUDA_CHECK_LAUNCH();
    }
    GPU500_CUDA_CHECK(cudaMemcpyAsync(&last, w.ctrl, sizeof last, cudaMemcpyDeviceToHost, stream));
    GPU500_CUDA_CHECK(cudaStreamSynchronize(stream));
  }

  index_t nedge() {
    auto* sum = scratch.as<unsigned long long>();
    GPU500_CUDA_CHECK(cudaMemsetAsync(sum, 0, sizeof(unsigned long long), stream));
    reached_degree_kernel<V><<<helper_policy::blocks(g.n), helper_policy::block, 0, stream>>>(g, w.dp, sum);
    GPU500_CUDA_CHECK_LAUNCH();
    unsigned long long h = 0;
    GPU500_CUDA_CHECK(cudaMemcpyAsync(&h, sum, sizeof h, cudaMemcpyDeviceToHost, stream));
    GPU500_CUDA_CHECK(cudaStreamSynchronize(stream));
    return static_cast<index_t>(h / 2);
  }
};

template <class V>
engine<V>::engine(graph::csr_view<V> device_graph, options o, std::function<void()> sorted_copy_ready)
    : impl_(std::make_unique<impl>(device_graph, o, sorted_copy_ready)) {}
template <class V>
engine<V>::~engine() = default;
template <class V>
void engine<V>::report_original_ids(graph::id_map<V> ids) {
  work_ref& w = impl_->w;
  GPU500_EXPECTS(ids.empty() || (ids.old2new != nullptr && ids.non_isolated >= 0 && ids.non_isolated <= impl_->g.n),
                 "sssp cuda: an id map needs new2old, old2new and 0 <= non_isolated <= n");
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
  GPU500_EXPECTS(static_cast<index_t>(host.size()) == impl_->g.n, "sssp cuda: copy_parents needs n entries");
  GPU500_CUDA_CHECK(cudaMemcpy(host.data(), impl_->w.parents, host.size_bytes(), cudaMemcpyDeviceToHost));
}
template <class V>
void engine<V>::copy_distances(std::span<float> host) const {
  GPU500_EXPECTS(static_cast<index_t>(host.size()) == impl_->g.n, "sssp cuda: copy_distances needs n entries");
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
  return {g.n, 0, g.n, g.offsets, g.cols, g.weights};
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
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "cuda sssp: %s, delta %s%g, %s loop%s%s, %s rows%s%s, %s cut, %d arcs/lane, %d vertices/lane, chunk %d, "
                "light rows over %d in chunks of %d, grab %d%s%s, queue %s%s%s%s, %d-bit column ids",
                algorithm_name(m.opt.algo),
                m.adaptive ? "adaptive from " : "", static_cast<double>(m.delta0), loop_name(m.opt.loop),
                m.opt.loop == loop_kind::persistent ? (" (" + std::to_string(m.coop_blocks) + " blocks)").c_str() : "",
                m.opt.profile ? ", profiled" : "", m.g.sorted ? "weight-sorted" : "unsorted", m.sort_note.c_str(),
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

template <class V>
device_csr<V>::device_csr(const graph::csr<V>& host) {
  GPU500_EXPECTS(host.weights.size() == host.columns.size(), "device_csr: the graph must be weighted");
  GPU500_EXPECTS(host.offsets.size() == static_cast<std::size_t>(host.num_vertices + 1), "device_csr: bad offsets");
  const auto alloc_copy = [](const void* src, std::size_t bytes, const char* what) -> void* {
    void* p = nullptr;
    if (cudaMalloc(&p, bytes ? bytes : 1) != cudaSuccess) {
      (void)cudaGetLastError();
      throw resource_error(std::string("device_csr: cannot allocate ") + std::to_string(bytes >> 20) + " MiB for " + what);
    }
    if (bytes) GPU500_CUDA_CHECK(cudaMemcpy(p, src, bytes, cudaMemcpyHostToDevice));
    return p;
  };
  view_.num_vertices = host.num_vertices;
  view_.first_vertex = 0;
  view_.local_vertices = host.num_vertices;
  view_.offsets = static_cast<const index_t*>(alloc_copy(host.offsets.data(), host.offsets.size() * sizeof(index_t), "offsets"));
  view_.columns = static_cast<const V*>(alloc_copy(host.columns.data(), host.columns.size() * sizeof(V), "columns"));
  view_.weights = static_cast<const float*>(alloc_copy(host.weights.data(), host.weights.size() * sizeof(float), "weights"));
}

template <class V>
device_csr<V>::~device_csr() {
  cudaFree(const_cast<index_t*>(view_.offsets));
  cudaFree(const_cast<V*>(view_.columns));
  cudaFree(const_cast<float*>(view_.weights));
}

}  // namespace gpu500::sssp::cuda
