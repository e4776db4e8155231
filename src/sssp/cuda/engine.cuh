// src/sssp/cuda/engine.cuh — the GPU SSSP engine's host side: input checks, the bucket width, the
// buffers (gpu::device_buffer), the launch of the persistent search (or of the host-loop baseline)
// and nedge. The algorithm and its invariants: control.hpp (the bucket loop's state machine) and
// the phase files it names; docs/sssp-gpu.md has the design. The public member functions and
// device_csr are in engine_members.cuh; both are included by engine_u32.cu and engine_i64.cu, one
// column type each (they compile in parallel: every column type has 3 x 3 persistent kernel instances).
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "control.hpp"
#include "gpu500/core/cuda/check.cuh"
#include "gpu500/core/cuda/launch.cuh"
#include "gpu500/core/cuda/memory.hpp"
#include "gpu500/core/cuda/step_timer.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/dist/bitmap.hpp"
#include "gpu500/dist/device_exchange.hpp"
#include "gpu500/dist/partition.hpp"
#include "gpu500/dist/trace.hpp"
#include "gpu500/graph/cuda.hpp"
#include "gpu500/sssp/cuda.hpp"
#include "graph_kernels.cuh"
#include "near_far.cuh"
#include "rows.cuh"
#include "search_kernels.cuh"

namespace gpu500::sssp::cuda {

namespace {

using namespace detail;

/// Launch policy of the helper kernels (grid-stride loops).
struct helper_policy {
  static constexpr int block = 256;
  static constexpr unsigned max_blocks = 4096;
  static unsigned blocks(index_t items) { return gpu::grid_blocks(items, block, 1, max_blocks); }
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
  using step_fn = void (*)(graph_ref<V>, work_ref, long long, rank_ref);
  step_fn step_k = nullptr;          ///< the host-loop kernel instance in use
  cudaStream_t stream = nullptr;
  gpu::device_buffer<unsigned long long> trace_buf;
  static constexpr long long trace_records = 1 << 16;
  gpu::device_buffer<std::uint32_t> qbits;
  gpu::device_buffer<row_rec> row_recs;
  gpu::device_buffer<unsigned long long> dp;
  gpu::device_buffer<std::uint32_t> stamp, settled, nodeg, lists;
  gpu::device_buffer<chunk_desc> chunks;
  gpu::device_buffer<control> ctrl;
  gpu::device_buffer<counters> cnt;
  gpu::device_buffer<std::int64_t> parents;
  gpu::device_buffer<float> dist;
  gpu::device_buffer<graph_summary> scratch;  ///< the graph summary, then nedge's sum
  gpu::device_buffer<V> sorted_cols;
  gpu::device_buffer<float> sorted_w;
  std::string sort_note;
  work_ref w{};
  control last{};
  double phase_ms[phase_kinds] = {0, 0, 0, 0, 0, 0};
  std::int64_t pull_min_chunks = 0;  ///< control::pull_min_chunks (0: no pull)
  std::int64_t pull_first_arcs = 0;  ///< control::pull_first_arcs (0: off)
  cudaEvent_t ev[2] = {nullptr, nullptr};
  // The near-far device loop (near_far.cuh; nf_blocks 0: off): its lists, bitmaps and counters.
  gpu::device_buffer<std::uint32_t> nf_lists, nf_bits;
  gpu::device_buffer<near_far_counters> nf_cnt;
  /// The loop's states: [0] the start, then [1], [0], [1], ... after the tiers of its steps.
  gpu::device_buffer<near_far_state> nf_pub;
  near_far_work nf{};
  unsigned nf_blocks = 0, nf_cluster = 0;  ///< its grid, and the blocks of each of its clusters (0: none)

  // Over MPI ranks (over_ranks.cuh; x null on one process): the exchange, the partition, this
  // rank's buffers for requests and their arrivals, the filters, the gathered bitmaps and the
  // phases' records.
  dist::device_exchange* x = nullptr;
  dist::block_partition part;
  int me = 0, ranks = 1;
  index_t n_all = 0, arcs_all = 0;  ///< the graph's vertices and arcs (all ranks)
  rank_ref rk{};
  gpu::device_buffer<unsigned> offered;
  gpu::device_buffer<std::uint64_t> settled_all, bucket_bits;
  gpu::device_buffer<index_t> cursor, starts, displs;
  gpu::device_buffer<request> send, recv;
  gpu::device_buffer<std::int64_t> parent_far;
  gpu::pinned_buffer<index_t> h_cursor, h_displs;
  gpu::pinned_buffer<counters> h_cnt;
  gpu::pinned_buffer<control> h_ctrl;
  std::vector<index_t> h_starts, send_counts, recv_counts, payload, recv_payload;
  std::vector<dist::level_record> records;
  std::optional<gpu::step_timer> timer;  ///< each phase's relaxation, exchange and apply as the GPU saw them
  index_t settled_since_gather = 0;
  [[nodiscard]] bool over_ranks() const { return x != nullptr; }
  void join_ranks(dist::device_exchange& ex, const dist::block_partition& p);
  void run_over_ranks(index_t root);
  double gather_bucket(const control& s);
  double gather_settled();
  void upload_displs(const std::vector<index_t>& counts);

  /// ex: over the ranks of ex (more than one), view holding this rank's rows of p; rows_by_weight:
  /// every row is sorted by weight already (searched in place, no copy).
  impl(graph::csr_view<V> view, options o, const std::function<void()>& sorted_copy_ready,
       dist::device_exchange* ex = nullptr, const dist::block_partition* p = nullptr, bool rows_by_weight = false)
      : opt(o) {
    if (ex == nullptr)
      GPU500_EXPECTS(view.first_vertex == 0 && view.local_vertices == view.num_vertices,
                     "sssp cuda: on one process the engine searches the whole graph");
    else
      GPU500_EXPECTS(p != nullptr && p->ranks() == ex->comm().size() && p->holds_rows(ex->comm().rank(), view),
                     "sssp cuda over ranks: the rows are not this rank's of the partition");
    GPU500_EXPECTS(view.num_vertices >= 1, "sssp cuda: empty graph");
    GPU500_EXPECTS(view.offsets != nullptr, "sssp cuda: the graph has no offsets");
    if (ex == nullptr && view.num_vertices >= static_cast<index_t>(inf_bits))
      throw usage_error("sssp cuda: " + std::to_string(view.num_vertices) +
                        " vertices exceed the engine's limit of 2^32 - 2 (parents are packed in 32 bits)");
    if (ex != nullptr && p->block() >= static_cast<index_t>(remote_parent))
      throw usage_error("the CUDA SSSP over MPI ranks takes fewer than 2^31 vertices per rank (" +
                        std::to_string(p->block()) + " here): use more ranks");
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
    const index_t n = view.local_vertices;  // this rank's rows (every vertex on one process)
    n_all = view.num_vertices;
    g = {n, view.offsets, view.columns, view.weights, 0, nullptr};
    GPU500_CUDA_CHECK(cudaGetDevice(&device));
    sms = gpu::multiprocessors();
    GPU500_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    GPU500_CUDA_CHECK(cudaMemcpy(&arcs, view.offsets + n, sizeof(index_t), cudaMemcpyDeviceToHost));
    GPU500_EXPECTS(arcs >= 0, "sssp cuda: negative arc count in offsets[n]");
    // A graph without arcs (e.g. a directed graph of self-loops only, which kernel 1 drops) has
    // no weight array to hold; every search then reaches its root alone.
    GPU500_EXPECTS(arcs == 0 || view.weights != nullptr,
                   "sssp cuda: the graph must be weighted (kernel 3 needs the edge weights)");

    scratch = gpu::device_buffer<graph_summary>(1);
    // Check the graph (weights >= 0 and finite, columns in range) and size the adaptive width.
    graph_summary sum{};
    GPU500_CUDA_CHECK(cudaMemsetAsync(scratch.data(), 0, sizeof(graph_summary), stream));
    gpu::launch(graph_summary_kernel<V>, helper_policy::blocks(std::max<index_t>({arcs, n, 1})), helper_policy::block,
                0, stream, g, n_all, scratch.data());
    GPU500_CUDA_CHECK(cudaMemcpyAsync(&sum, scratch.data(), sizeof sum, cudaMemcpyDeviceToHost, stream));
    GPU500_CUDA_CHECK(cudaStreamSynchronize(stream));
    arcs_all = arcs;
    if (ex != nullptr) {  // every rank judges and sizes the whole graph alike
      const dist::communicator& c = ex->comm();
      sum.weight_sum = c.allreduce(sum.weight_sum, dist::reduce_op::sum);
      index_t counts[4] = {static_cast<index_t>(sum.bad_weights), static_cast<index_t>(sum.bad_columns),
                           static_cast<index_t>(sum.nonisolated), arcs};
      c.allreduce(counts, 4, dist::reduce_op::sum);
      sum.bad_weights = static_cast<unsigned long long>(counts[0]);
      sum.bad_columns = static_cast<unsigned long long>(counts[1]);
      sum.nonisolated = static_cast<unsigned long long>(counts[2]);
      arcs_all = counts[3];
    }
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
      delta0 = opt.delta_scale * auto_delta(sum.weight_sum, arcs_all, static_cast<std::int64_t>(sum.nonisolated));
      delta_max = delta0 * search_policy::auto_delta_growth;
    }

    // Over ranks no sorted copy is made: a rank short of memory for it would search otherwise
    // than the others.
    if (rows_by_weight && !opt.unsorted_rows) g.sorted = 1;  // searched in place
    else if (!opt.unsorted_rows && ex == nullptr) sort_rows(view);
    if (!sorted_w.empty()) {  // from here on only the input's offsets are read
      view.weights = nullptr;
      view.columns = nullptr;
      if (sorted_copy_ready) sorted_copy_ready();
    }
    // Row records hold a row's length in 32 bits; without the memory the offsets are read instead.
    if (g.sorted && !opt.no_row_records && arcs < (index_t{1} << 32)) {
      try {
        row_recs = gpu::device_buffer<row_rec>(static_cast<std::size_t>(n));
        gpu::launch(row_records_kernel, helper_policy::blocks(n), helper_policy::block, 0, stream, n, g.offsets,
                    g.weights, row_recs.data());
        g.rows = row_recs.data();
      } catch (const resource_error&) {
        row_recs = gpu::device_buffer<row_rec>();
      }
    }

    const auto un = static_cast<std::size_t>(n);
    dp = gpu::device_buffer<unsigned long long>(un);
    // The settled bitmap; over ranks in whole 64-bit words of this rank's slice, gathered as they are.
    if (!opt.no_settled_filter)
      settled = gpu::device_buffer<std::uint32_t>(
          ex == nullptr ? settled_words()
                        : 2 * std::max<std::size_t>(1, static_cast<std::size_t>(dist::bitmap_slice_words(*p, ex->comm().rank()))));
    if (!opt.queue_bitmaps || opt.no_settled_filter) stamp = gpu::device_buffer<std::uint32_t>(un);  // queue stamps
    else qbits = gpu::device_buffer<std::uint32_t>(2 * settled_words());  // one bitmap per queue
    lists = gpu::device_buffer<std::uint32_t>(3 * un);  // R, Q0, Q1
    const std::int64_t light_chunk = std::min(opt.chunk, opt.light_row);
    chunks = gpu::device_buffer<chunk_desc>(static_cast<std::size_t>(
        std::max(chunk_capacity(arcs, opt.chunk), chunk_capacity(arcs, light_chunk, opt.light_row))));
    if (!opt.no_lean) {
      nodeg = gpu::device_buffer<std::uint32_t>(settled_words());  // no-arc bitmap
      gpu::launch(no_arc_bits_kernel, helper_policy::blocks(static_cast<index_t>(settled_words())), helper_policy::block,
                  0, stream, n, view.offsets, nodeg.data());
    }
    ctrl = gpu::device_buffer<control>(1);
    cnt = gpu::device_buffer<counters>(3);
    parents = gpu::device_buffer<std::int64_t>(un);
    dist = gpu::device_buffer<float>(un);
    w.dp = dp.data();
    w.stamp = stamp.data();
    w.qbits[0] = qbits.data();
    w.qbits[1] = w.qbits[0] != nullptr ? w.qbits[0] + settled_words() : nullptr;
    w.settled = settled.data();
    for (int i = 0; i < 3; ++i) w.lists[i] = lists.data() + static_cast<std::size_t>(i) * un;
    w.chunks = chunks.data();
    w.ctrl = ctrl.data();
    w.cnt = cnt.data();
    w.parents = parents.data();
    w.dist = dist.data();
    w.root = 0;
    w.nodeg = nodeg.data();
    w.chunk = opt.chunk;
    w.gallop = opt.cut == cut_search::gallop ? 1 : 0;
    w.lean = opt.no_lean ? 0 : 1;
    w.vpl = opt.vertices_per_lane;
    w.light_row = opt.light_row;
    w.light_chunk = light_chunk;
    w.grab = (opt.grab + opt.vertices_per_lane - 1) / opt.vertices_per_lane * opt.vertices_per_lane;
    if (w.grab > 8) w.grab = 8;
    w.interleave = opt.interleave;
    if (opt.pull_above > 0 && !opt.directed && g.sorted && w.settled != nullptr) {  // the pull needs both
      const double chunks = std::ceil(opt.pull_above * static_cast<double>(arcs_all) / opt.chunk);
      pull_min_chunks = std::max<std::int64_t>(1, static_cast<std::int64_t>(chunks));
    }
    if (opt.pull_first > 0 && !opt.directed && g.sorted && w.settled != nullptr)
      pull_first_arcs = std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(opt.pull_first * static_cast<double>(arcs_all))));
    if (opt.trace) {
      trace_buf = gpu::device_buffer<unsigned long long>(static_cast<std::size_t>(trace_words * trace_records));
      w.trace = trace_buf.data();
      w.trace_cap = trace_records;
    }

    if (ex != nullptr) {
      // Over ranks every phase ends with an exchange: the host loop, phase by phase (no
      // persistent kernel, no near-far device loop: both run phases with no exchange between).
      if (opt.profile || opt.trace)
        throw usage_error("sssp cuda over ranks: the phases are recorded by rank_levels(), not by profile or trace");
      opt.loop = loop_kind::host;
      opt.no_device_loop = true;
      if (adaptive) opt.grow_below *= ex->comm().size();  // the rule reads the bucket's rows of every rank
    }
    if (opt.profile) {
      opt.loop = loop_kind::host;
      GPU500_CUDA_CHECK(cudaEventCreate(&ev[0]));
      GPU500_CUDA_CHECK(cudaEventCreate(&ev[1]));
    }
    {
      int per_sm = 0;  // host loop: as many blocks as fit
      step_k = ex != nullptr ? (opt.arcs_per_lane == 4   ? step_kernel<V, 4, true>
                                : opt.arcs_per_lane == 2 ? step_kernel<V, 2, true>
                                                         : step_kernel<V, 1, true>)
                             : (opt.arcs_per_lane == 4   ? step_kernel<V, 4, false>
                                : opt.arcs_per_lane == 2 ? step_kernel<V, 2, false>
                                                         : step_kernel<V, 1, false>);
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
    if (!opt.no_device_loop && opt.loop == loop_kind::persistent && !opt.trace) setup_device_loop();
    // Parents/distances of "no search yet": everything unreached.
    GPU500_CUDA_CHECK(cudaMemsetAsync(w.parents, 0xFF, un * sizeof(std::int64_t), stream));
    GPU500_CUDA_CHECK(cudaMemsetAsync(w.dp, 0xFF, un * sizeof(unsigned long long), stream));
    GPU500_CUDA_CHECK(cudaStreamSynchronize(stream));
    if (ex != nullptr) join_ranks(*ex, *p);
  }

  /// The near-far device loop's grid (one block per SM, cooperative; in clusters where the device
  /// has them, as many whole clusters as it holds) and buffers; its bitmaps start at zero and the
  /// loop leaves them so.
  void setup_device_loop() {
    int per_sm = 0;
    GPU500_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, near_far_kernel<V>, near_far_policy::block, 0));
    if (per_sm < 1) return;
    using P = near_far_policy;
    nf_blocks = static_cast<unsigned>(sms);
    const gpu::cluster_shape shape =
        gpu::largest_cluster(near_far_kernel<V>, P::block, 0, P::cluster_max_blocks, nf_blocks);
    if (shape.blocks > 0) {
      nf_cluster = shape.blocks;
      nf_blocks = std::min(static_cast<unsigned>(shape.placeable), nf_blocks / shape.blocks) * shape.blocks;
    }
    const auto near_cap = static_cast<std::size_t>(P::near_vertices), far_cap = static_cast<std::size_t>(P::far_vertices);
    nf_lists = gpu::device_buffer<std::uint32_t>(2 * near_cap + 2 * far_cap);
    nf_bits = gpu::device_buffer<std::uint32_t>(3 * settled_words());
    nf_bits.zero();
    nf_cnt = gpu::device_buffer<near_far_counters>(2 * 3);  // the grid's slots, the cluster's
    nf_pub = gpu::device_buffer<near_far_state>(2);  // the start, then the tiers' states in turn
    nf.near[0] = nf_lists.data();
    nf.near[1] = nf.near[0] + near_cap;
    nf.far[0] = nf.near[1] + near_cap;
    nf.far[1] = nf.far[0] + far_cap;
    for (int i = 0; i < 3; ++i) nf.bits[i] = nf_bits.data() + static_cast<std::size_t>(i) * settled_words();
    nf.cnt = nf_cnt.data();
  }

  /// The near-far loop's launch from the state near_far_reset_kernel left: a cooperative grid in
  /// clusters of nf_cluster blocks; where the driver refuses clusters in a cooperative launch, the
  /// loop goes on without them (nf_cluster 0), one block an SM.
  void launch_near_far() {
    graph_ref<V> ga = g;
    work_ref wa = w;
    near_far_work fa = nf;
    near_far_state* pub = nf_pub.data();
    unsigned cluster = nf_cluster;
    void* args[] = {&ga, &wa, &fa, &pub, &cluster};
    const void* kernel = reinterpret_cast<const void*>(near_far_kernel<V>);
    if (nf_cluster > 0) {
      gpu::cluster_attributes attrs;
      const cudaLaunchConfig_t cfg =
          gpu::cluster_launch(nf_blocks, near_far_policy::block, 0, stream, nf_cluster, true, attrs);
      if (cudaLaunchKernelExC(&cfg, kernel, args) == cudaSuccess) return;
      (void)cudaGetLastError();
      nf_cluster = cluster = 0;
      nf_blocks = static_cast<unsigned>(sms);
    }
    GPU500_CUDA_CHECK(cudaLaunchCooperativeKernel(kernel, dim3(nf_blocks), dim3(near_far_policy::block), args, 0, stream));
    GPU500_CUDA_CHECK_LAUNCH();
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

  /// The engine's own copy of the rows sorted by weight (rows.cuh); without the memory for it the
  /// engine keeps the caller's rows and filters arcs one by one.
  void sort_rows(const graph::csr_view<V>& view) {
    if (arcs == 0) return;
    if (!sort_rows_by_weight(view, arcs, opt.sort_batch, stream, sorted_cols, sorted_w)) {
      sort_note = ", rows unsorted (no memory for the sorted copy)";
      return;
    }
    g.cols = sorted_cols.data();
    g.weights = sorted_w.data();
    g.sorted = 1;
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
      gpu::launch(step_k, blocks, search_policy::block, 0, stream, g, w, step, rank_ref{});
      GPU500_CUDA_CHECK(cudaEventRecord(ev[1], stream));
      gpu::launch(decide_kernel, 1, 1, 0, stream, w, step);
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
    if (w.settled) GPU500_CUDA_CHECK(cudaMemsetAsync(w.settled, 0, settled.bytes(), stream));
    if (!offered.empty()) GPU500_CUDA_CHECK(cudaMemsetAsync(offered.data(), 0xFF, offered.bytes(), stream));  // above +inf
    if (w.trace) {  // the warps add their counts to the records
      GPU500_CUDA_CHECK(cudaMemsetAsync(
          w.trace, 0, static_cast<std::size_t>(trace_words * trace_records) * sizeof(unsigned long long), stream));
    }
    GPU500_CUDA_CHECK(cudaStreamSynchronize(stream));
    prepared = true;
  }

  void run(index_t root) {
    GPU500_EXPECTS(root >= 0 && root < n_all, "sssp cuda: root out of range");
    if (!prepared) prepare();
    prepared = false;
    if (over_ranks()) {
      run_over_ranks(root);
      return;
    }
    w.root = root;
    control init = initial_control(delta0, adaptive, delta_max, adaptive ? opt.grow_below : 0);
    init.pull_min_chunks = pull_min_chunks;
    init.pull_first_arcs = pull_first_arcs;
    gpu::launch(init_search_kernel, 1, 32, 0, stream, w, init);
    if (nf_blocks > 0) {  // the near-far device loop first: it ends the search or hands it on
      gpu::launch(near_far_reset_kernel, 1, 32, 0, stream, nf.cnt, nf_pub.data(),
                  delta0 * near_far_policy::width_factor);
      launch_near_far();
    }
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
          gpu::launch(step_k, blocks, search_policy::block, 0, stream, g, w, step, rank_ref{});
          gpu::launch(decide_kernel, 1, 1, 0, stream, w, step);
        }
        GPU500_CUDA_CHECK(cudaMemcpyAsync(&probe, w.ctrl, sizeof probe, cudaMemcpyDeviceToHost, stream));
        GPU500_CUDA_CHECK(cudaStreamSynchronize(stream));
        if (probe.phase == phase_done) break;
      }
      gpu::launch(finalize_kernel, helper_policy::blocks(g.n), helper_policy::block, 0, stream, g.n, w);
    }
    GPU500_CUDA_CHECK(cudaMemcpyAsync(&last, w.ctrl, sizeof last, cudaMemcpyDeviceToHost, stream));
    GPU500_CUDA_CHECK(cudaStreamSynchronize(stream));
  }

  index_t nedge() {
    auto* sum = reinterpret_cast<unsigned long long*>(scratch.data());
    GPU500_CUDA_CHECK(cudaMemsetAsync(sum, 0, sizeof(unsigned long long), stream));
    gpu::launch(reached_degree_kernel<V>, helper_policy::blocks(g.n), helper_policy::block, 0, stream, g, w.dp, sum);
    unsigned long long h = 0;
    GPU500_CUDA_CHECK(cudaMemcpyAsync(&h, sum, sizeof h, cudaMemcpyDeviceToHost, stream));
    GPU500_CUDA_CHECK(cudaStreamSynchronize(stream));
    auto arcs_reached = static_cast<index_t>(h);
    if (over_ranks()) arcs_reached = x->comm().allreduce(arcs_reached, dist::reduce_op::sum);
    return opt.directed ? arcs_reached : arcs_reached / 2;
  }
};

}  // namespace gpu500::sssp::cuda
