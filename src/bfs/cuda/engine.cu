// src/bfs/cuda/engine.cu — Enterprise BFS on one GPU (Liu & Huang, SC'15) with VS-Graph500's
// priority cache of hubs: the host level loop and the public engine (see gpu500/bfs/cuda.hpp).
//
// Layering: engine::run (host level loop, direction decisions; this file) -> launch helpers of
// engine<V>::impl (engine_impl.cuh, grids from bfs_policy in policy.cuh) -> thin __global__
// kernels (queue_gen.cuh, top_down.cuh, bottom_up.cuh, cluster_loop.cuh, device_loop.cuh, result.cuh) -> device
// helpers (in_frontier, warp tiles). Queue buffer layout: one buffer of n ids per side (ping-pong);
// a generation pass writes its classes one after the other (class-major), so classes 0..3
// (frontier by degree) form the whole frontier list and classes 4..5 the unvisited queue.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>

#include "engine_impl.cuh"
#include "gpu500/core/error.hpp"
#include "gpu500/dist/device_pairs.cuh"

namespace gpu500::bfs::cuda {

std::string describe(const options& o) {
  std::string s = o.ts() ? "ts" : "bl";
  if (o.ts() || o.hc() || o.hub_cache()) {
    if (o.wb()) s += "+wb";
    if (o.hc()) s += "+hc";
    if (o.hub_cache()) s += "+cache";
    if (o.device_loop()) s += "+loop";
    if (o.bitmap()) s += "+bitmap";
  }
  if (o.grid_sm_share < 1) {
    char share[32];
    std::snprintf(share, sizeof share, "+sms%.3g", o.grid_sm_share);
    s += share;
  }
  if (o.directed) s += "+directed";
  return s;
}

template <class V>
void engine<V>::impl::run(index_t root) {
  GPU500_EXPECTS(root >= 0 && root < (over_ranks() ? part.num_vertices() : n), "BFS root out of range");
  trace.clear();
  records.clear();
  comm_seconds = 0;  // (the last search's final reduction is not this search's)
  level_bytes = 0;
  nedge = -1;
  this->root = root;
  const bool mine = !over_ranks() || part.owner(root) == me;  // this rank holds the root's row
  if (mine)
    gpu::launch(init_root_kernel<V>, 1, 1, 0, st[0], depth.data(), parent.data(), qbuf[0].data(),
                static_cast<V>(root - first), static_cast<V>(root));
  enum class kind { frontier_list, unvisited_list, status_scan };
  const gen_source<V> scan_all{nullptr, active};
  gen_source<V> src{qbuf[0].data(), mine ? 1 : 0};
  kind k = kind::frontier_list;
  int cur = 0;  // the buffer src lives in
  std::int32_t level = 0;
  char dir = 'T';
  index_t prev_nf = 0;
  double unexplored = static_cast<double>(all_arcs);
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  const auto since = [&t0] { return std::chrono::duration<double>(clock::now() - t0).count(); };
  double level_start = 0;  // the entry pushed next began then
  // Ends a level: its trace entry, and over ranks its record (its bytes come with the next
  // level's reduction).
  const auto finish_level = [&](char d, index_t frontier) {
    trace.push_back({level, d, frontier, level_start});
    if (!over_ranks()) return;
    gpu::synchronize(st[0]);
    const double seconds = since() - level_start;
    records.push_back(
        {level, d == 'B' ? "bottom-up" : "top-down", frontier, 0, seconds - comm_seconds, comm_seconds, {}});
    comm_seconds = 0;
  };
  // The list the device loop just handed back (it stopped on it: too many arcs) is not offered to
  // it again; that would cost a launch and a round trip for nothing.
  bool loop_declined = false;
  // Takes what the device loop, started on the frontier list qbuf[from] of count vertices, handed
  // back: the frontier it stopped on becomes src. True when the search is over.
  const auto take_loop = [&](int from, index_t count) {
    const loop_result& r = *h_loop.data();
    trace.push_back({level, 'L', count, level_start});
    prev_nf = count;
    cur = from;
    level = r.level;
    src = {qbuf[cur].data(), static_cast<index_t>(r.count)};
    k = kind::frontier_list;
    loop_declined = true;
    return r.count == 0;
  };
  for (;;) {
    level_start = since();
    if (!o.ts()) {  // BL: statistics from a scan of the status array, then one CTA per vertex
      const gen_totals t = count_pass(scan_all, level);
      const frontier_sums f = sum_over_ranks(t);
      if (f.nf == 0) break;
      dir = decide(f, dir, prev_nf, unexplored);
      unexplored -= static_cast<double>(f.mf);
      prev_nf = f.nf;
      if (dir == 'T')
        top_down(nullptr, t, level, qbuf[0].data());  // (BL lists for nothing: it scans the status array)
      else
        bottom_up(nullptr, t, level);
      finish_level(dir, prev_nf);
      ++level;
      continue;
    }
    // A small frontier list after a top-down level goes straight to the device loop: no count and
    // write passes, no round trip for them (the loop checks the arcs itself and hands the list back
    // untouched, level unchanged, when they exceed its limit; the level then takes the ordinary path).
    if (!loop_declined && k == kind::frontier_list && dir == 'T' && fits_loop(src.count, 0) &&
        src.list == qbuf[cur].data()) {
      if (device_loop(cur, src.count, level).level != level) {
        if (take_loop(cur, src.count)) break;
        continue;
      }
    }
    loop_declined = false;
    gen_totals t = count_pass(src, level);
    const frontier_sums f = sum_over_ranks(t);
    if (f.nf == 0) break;
    dir = decide(f, dir, prev_nf, unexplored);
    if (dir == 'B' && k == kind::frontier_list) {  // a frontier list holds no unvisited vertices
      src = scan_all;
      k = kind::status_scan;
      t = count_pass(src, level);
    }
    unexplored -= static_cast<double>(f.mf);
    prev_nf = f.nf;
    const int other = cur ^ 1;
    V* out = qbuf[other].data();
    if (dir == 'T') {
      write_pass(0x0Fu, out);
      // The new list goes to the device loop at once when it fits: its arcs, and no vertex of the
      // CTA or grid class (the loop's degree limit is the CTA class's lower bound).
      if (fits_loop(prev_nf, static_cast<index_t>(t.mf)) && t.cls[2] == 0 && t.cls[3] == 0 &&
          device_loop(other, prev_nf, level).level != level) {
        if (take_loop(other, prev_nf)) break;
        continue;
      }
      // Over ranks the level lists the rows it finds in the buffer src came from (read by now):
      // the next level counts that list, not the status array.
      const index_t listed = top_down(out, t, level, qbuf[cur].data());
      if (listed >= 0) {
        src = {qbuf[cur].data(), listed};
        k = kind::frontier_list;
        finish_level(dir, prev_nf);
        ++level;
        continue;  // cur stays: the list is in qbuf[cur]
      }
      src = scan_all;
      k = kind::status_scan;
    } else {
      write_pass(0x30u, out, true);
      const index_t nu = static_cast<index_t>(t.cls[4] + t.cls[5]);
      bottom_up(out + t.nf, t, level);
      src.list = out + t.nf;
      src.count = nu;
      k = kind::unvisited_list;
    }
    finish_level(dir, prev_nf);
    cur = other;
    ++level;
  }
  gpu::synchronize(st[0]);
  // seconds held each level's start time: turn starts into durations (the last ends now).
  const double end = since();
  for (std::size_t i = 0; i < trace.size(); ++i)
    trace[i].seconds = (i + 1 < trace.size() ? trace[i + 1].seconds : end) - trace[i].seconds;
  // The output a user asked for is in original ids: mapping it is part of the search.
  if (!ids.empty()) {
    gpu::launch(original_parents_kernel<V>, gpu::grid_blocks(n, bfs_policy::block, bfs_policy::map_ilp),
                bfs_policy::block, 0, st[0], ids, parent.data(), first, static_cast<V>(root), n, original.data());
    gpu::synchronize(st[0]);
  }
}

template <class V>
engine<V>::engine(csr_view<V> g, bool degree_sorted, options o) : impl_(std::make_unique<impl>()) {
  impl& m = *impl_;
  m.g = g;
  m.sorted = degree_sorted;
  m.o = o;
  m.n = g.local_vertices;  // every vertex on one process; this rank's rows over ranks
  GPU500_EXPECTS(g.num_vertices >= 1, "BFS: empty graph");  // (a rank may hold no rows)
  GPU500_EXPECTS(g.first_vertex >= 0 && g.first_vertex + m.n <= g.num_vertices, "BFS: rows past the graph's vertices");
  GPU500_EXPECTS(static_cast<std::uint64_t>(m.n) < static_cast<std::uint64_t>(std::numeric_limits<V>::max()),
                 "BFS: the vertex count must be below the largest vertex id (it marks empty cache slots)");
  GPU500_EXPECTS(o.hub_threshold >= 1 && o.priority_degree >= 1, "BFS: hub degrees must be >= 1");
  GPU500_EXPECTS(o.grid_sm_share > 0 && o.grid_sm_share <= 1, "BFS: the grids' share of the SMs must be in (0, 1]");
  // A degree-sorted graph's ids past its non-isolated prefix are taken as unreachable (never
  // scanned, mapped back as unreached), which a directed graph's in-arcs contradict.
  GPU500_EXPECTS(!(o.directed && degree_sorted), "BFS: a directed graph is searched without the degree-sorted relabelling");
  gpu::copy_bytes(&m.arcs, g.offsets + m.n, sizeof(index_t));
  m.sms = std::max(1, static_cast<int>(std::lround(gpu::multiprocessors() * o.grid_sm_share)));
  m.gen_grid = static_cast<unsigned>(m.sms * bfs_policy::gen_blocks_per_sm);
  m.gen_warps = static_cast<index_t>(m.gen_grid) * bfs_policy::block / 32;
  const auto N = static_cast<std::size_t>(m.n);
  m.depth = device_buffer<std::int32_t>(N);
  m.parent = device_buffer<V>(N);
  m.qbuf[0] = device_buffer<V>(N);
  m.qbuf[1] = device_buffer<V>(N);
  m.counts = device_buffer<index_t>(static_cast<std::size_t>(m.gen_warps) * bfs_policy::slots);
  m.scanned = device_buffer<index_t>(m.counts.size());
  std::size_t bytes = 0;
  GPU500_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, m.counts.data(), m.scanned.data(),
                                                  static_cast<index_t>(m.counts.size())));
  m.scan_temp = device_buffer<unsigned char>(bytes + 256);
  m.tot = device_buffer<gen_totals>(1);
  m.hub_list = device_buffer<V>(static_cast<std::size_t>(cache_slots<V>));
  {
    const index_t cap = std::min<index_t>(m.n, 2 * m.arcs / bfs_policy::extreme_degree + 1) + 1;
    m.grid_pref = device_buffer<index_t>(static_cast<std::size_t>(cap));
    std::size_t gbytes = 0;
    GPU500_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, gbytes, m.grid_pref.data(), m.grid_pref.data(), cap));
    m.grid_temp = device_buffer<unsigned char>(gbytes + 256);
  }
  m.loop_res = device_buffer<loop_result>(1);
  m.loop_cnt = device_buffer<loop_counters>(3);
  m.loop_pub = device_buffer<loop_state>(1);
  {  // the device loop's grid: every block resident at once, or no device loop
    int device = 0, cooperative = 0, per_sm = 0;
    GPU500_CUDA_CHECK(cudaGetDevice(&device));
    GPU500_CUDA_CHECK(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device));
    GPU500_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, td_loop_kernel<V>, bfs_policy::loop_block, 0));
    if (cooperative && per_sm > 0)
      m.loop_blocks = static_cast<unsigned>(m.sms) * static_cast<unsigned>(std::min(per_sm, bfs_policy::loop_blocks_per_sm));
    if (m.loop_blocks > 0 && o.device_loop()) {  // a level finds at most one vertex per arc of its frontier
      const index_t room = std::min(m.n, std::max(bfs_policy::loop_arcs, bfs_policy::loop_vertices)) + 1;
      for (auto& q : m.loop_queue) q = device_buffer<loop_entry>(static_cast<std::size_t>(room));
      // the cluster tier: a cluster of up to cluster_max_blocks within the grids' share of the SMs
      m.cluster_blocks = gpu::largest_cluster(cluster_loop_kernel<V>, bfs_policy::loop_block, cluster_smem_bytes,
                                              bfs_policy::cluster_max_blocks, static_cast<unsigned>(m.sms))
                             .blocks;
      if (m.cluster_blocks > 0) {
        m.cluster_spill = device_buffer<ull>(1);
        m.cluster_res = device_buffer<loop_result>(1);
      }
    }
  }
  m.sum = device_buffer<ull>(1);
  m.h_tot = gpu::pinned_buffer<gen_totals>(1);
  m.h_loop = gpu::pinned_buffer<loop_result>(1);
  for (auto& s : m.st) GPU500_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  GPU500_CUDA_CHECK(cudaEventCreateWithFlags(&m.fork, cudaEventDisableTiming));
  for (auto& e : m.join) GPU500_CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
  const index_t with_edges = m.count_at_least(1);
  m.active = degree_sorted ? with_edges : m.n;
  if (o.bitmap()) m.visited = device_buffer<std::uint32_t>(static_cast<std::size_t>((m.active + 31) / 32) + 1);
  m.sorted_deg32 = degree_sorted ? m.count_at_least(bfs_policy::small_max) : -1;
  m.total_hubs = m.count_at_least(o.hub_threshold);
  m.all_active = m.active;
  m.all_arcs = m.arcs;
}

template <class V>
engine<V>::engine(dist::device_exchange& x, const dist::block_partition& part, graph::csr_view<V> g,
                  bool degree_sorted, options o)
    : engine(g, degree_sorted, o) {
  if (x.comm().size() > 1) impl_->join_ranks(x, part);
}

template <class V>
void engine<V>::impl::join_ranks(dist::device_exchange& ex, const dist::block_partition& p) {
  GPU500_EXPECTS(p.ranks() == ex.comm().size() && p.holds_rows(ex.comm().rank(), g),
                 "BFS over ranks: the rows are not this rank's of the partition");
  GPU500_EXPECTS(!o.directed, "BFS over ranks: the graph is undirected (Graph500's)");
  GPU500_EXPECTS(
      static_cast<std::uint64_t>(p.num_vertices()) < static_cast<std::uint64_t>(std::numeric_limits<V>::max()),
      "BFS over ranks: the vertex count must be below the largest vertex id");
  if (p.block() > static_cast<index_t>(std::numeric_limits<std::uint32_t>::max()))
    throw usage_error("the CUDA BFS over MPI ranks takes at most 2^32 vertices per rank (" + std::to_string(p.block()) +
                      " here): use more ranks");
  x = &ex;
  part = p;
  me = ex.comm().rank();
  ranks = ex.comm().size();
  first = g.first_vertex;
  // The device loop runs levels with no exchange between them: none over ranks.
  loop_blocks = cluster_blocks = 0;
  for (auto& q : loop_queue) q = device_buffer<loop_entry>();
  // The visited bitmap is this rank's slice of the gathered one: 64-bit words, zero past the rows.
  visited = device_buffer<std::uint32_t>(2 * static_cast<std::size_t>(dist::bitmap_slice_words(p, me)) + 2);
  visited.zero();
  whole = device_buffer<std::uint64_t>(static_cast<std::size_t>(dist::bitmap_words(p.num_vertices())));
  seen = device_buffer<std::uint64_t>(whole.size());
  const auto R = static_cast<std::size_t>(ranks);
  cursor = device_buffer<index_t>(R);
  starts = device_buffer<index_t>(R);
  displs = device_buffer<index_t>(R + 1);
  h_cursor = gpu::pinned_buffer<index_t>(R);
  found = device_buffer<index_t>(1);
  h_found = gpu::pinned_buffer<index_t>(1);
  h_counts.assign(R, 0);
  h_starts = dist::cuda::owner_block_starts(g, p.block(), starts);  // the pairs' blocks
  gpu::copy_bytes(cursor.data(), starts.data(), starts.bytes());
  // A level sends at most one pair per owned arc and receives at most one per arc into the owned
  // rows (as many as the owned arcs: the graph is undirected); sized here, in kernel 1's time.
  send.reserve(static_cast<std::size_t>(arcs) + 1);
  recv.reserve(static_cast<std::size_t>(arcs) + 1);
  index_t sums[3] = {active, arcs, total_hubs};
  ex.comm().allreduce(sums, 3, dist::reduce_op::sum);
  all_active = sums[0];
  all_arcs = sums[1];
  total_hubs = sums[2];
}

template <class V>
std::size_t engine<V>::device_bytes(index_t rows, index_t arcs, index_t n, int ranks) {
  const auto r = static_cast<std::size_t>(rows), a = static_cast<std::size_t>(arcs), b = sizeof(V);
  // depth, parent, two queues; the visited bitmaps; over ranks the gathered and seen bitmaps and
  // the pairs sent and received; a few MB of counts and lists besides.
  std::size_t bytes = r * (4 + 3 * b) + r / 8 + (std::size_t{64} << 20);
  if (ranks > 1) bytes += 2 * (static_cast<std::size_t>(n) / 8 + 8) + 2 * 8 * (a + 1);
  return bytes;
}

template <class V>
engine<V>::~engine() {
  if (!impl_) return;
  impl& m = *impl_;
  for (auto& s : m.st)
    if (s) cudaStreamDestroy(s);
  if (m.fork) cudaEventDestroy(m.fork);
  for (auto& e : m.join)
    if (e) cudaEventDestroy(e);
}

template <class V>
void engine<V>::report_original_ids(graph::id_map<V> ids) {
  impl& m = *impl_;
  GPU500_EXPECTS(ids.empty() || (ids.old2new != nullptr && ids.non_isolated >= 0 && ids.non_isolated <= m.n),
                 "BFS: an id map needs new2old, old2new and 0 <= non_isolated <= n");
  GPU500_EXPECTS(ids.empty() || m.sorted, "BFS: an id map goes with a degree-sorted graph");
  m.ids = ids;
  m.original = ids.empty() ? device_buffer<V>() : device_buffer<V>(static_cast<std::size_t>(m.n));
}

template <class V>
void engine<V>::prepare() {
  // Graph500's clean_pred (untimed): the status array and the parents to "unreached".
  impl& m = *impl_;
  gpu::fill_bytes_async(m.depth.data(), 0xFF, m.depth.bytes(), m.st[0]);
  gpu::fill_bytes_async(m.parent.data(), 0xFF, m.parent.bytes(), m.st[0]);
  if (m.over_ranks()) gpu::fill_bytes_async(m.seen.data(), 0, m.seen.bytes(), m.st[0]);
  gpu::synchronize(m.st[0]);
  m.prepared = true;
}

template <class V>
void engine<V>::run(index_t root) {
  if (!impl_->prepared) prepare();
  impl_->prepared = false;
  impl_->run(root);
}

template <class V>
const V* engine<V>::parents_device() const {
  return impl_->parent.data();
}
template <class V>
const V* engine<V>::parents_original() const {
  return impl_->ids.empty() ? impl_->parent.data() : impl_->original.data();
}
template <class V>
const std::int32_t* engine<V>::levels_original() {
  impl& m = *impl_;
  GPU500_EXPECTS(m.root >= 0, "BFS: levels_original() before a search");
  if (m.ids.empty()) return m.depth.data();
  const auto n = static_cast<std::size_t>(m.n);
  gpu::launch(original_levels_kernel<V>, gpu::grid_blocks(m.n, bfs_policy::block), bfs_policy::block, 0, m.st[0],
              m.ids, m.depth.data(), m.first, static_cast<V>(m.root), m.n, m.original_depth.reserve(n));
  gpu::synchronize(m.st[0]);
  return m.original_depth.data();
}
template <class V>
const std::int32_t* engine<V>::depth_device() const {
  return impl_->depth.data();
}
template <class V>
const std::vector<level_info>& engine<V>::levels() const {
  return impl_->trace;
}
template <class V>
const std::vector<dist::level_record>& engine<V>::rank_levels() const {
  return impl_->records;
}
template <class V>
const options& engine<V>::opts() const {
  return impl_->o;
}

template <class V>
index_t engine<V>::traversed_edges() {
  impl& m = *impl_;
  if (m.nedge >= 0) return m.nedge;
  GPU500_CUDA_CHECK(cudaMemset(m.sum.data(), 0, sizeof(ull)));
  gpu::launch(reached_arcs_kernel<V>, gpu::grid_blocks(m.n, bfs_policy::block), bfs_policy::block, 0, nullptr,
              m.g.offsets, m.depth.data(), m.n, m.sum.data());
  ull h = 0;
  gpu::copy_bytes(&h, m.sum.data(), sizeof h);
  auto arcs = static_cast<index_t>(h);
  if (m.over_ranks()) arcs = m.x->comm().allreduce(arcs, dist::reduce_op::sum);
  m.nedge = m.o.directed ? arcs : arcs / 2;
  return m.nedge;
}

template class engine<std::uint32_t>;
template class engine<std::int64_t>;

}  // namespace gpu500::bfs::cuda
