// src/bfs/cuda/engine_impl.cuh — the host side of one Enterprise BFS engine (Liu & Huang, SC'15):
// its buffers, streams and the launch of every step of a level (queue generation, top-down,
// bottom-up, the device loop) with the grids of bfs_policy, and over MPI ranks the level's
// exchanges (the frontier's counts, the top-down pairs, the visited bitmap). The level loop that
// strings them together, and the public engine, are in engine.cu.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <cub/device/device_scan.cuh>
#include <vector>

#include "bottom_up.cuh"
#include "cluster_loop.cuh"
#include "device_loop.cuh"
#include "gpu500/bfs/cuda.hpp"
#include "gpu500/bfs/direction.hpp"
#include "gpu500/core/cuda/check.cuh"
#include "gpu500/core/cuda/launch.cuh"
#include "gpu500/core/cuda/memory.hpp"
#include "gpu500/core/timer.hpp"
#include "gpu500/dist/bitmap.hpp"
#include "gpu500/dist/device_exchange.hpp"
#include "over_ranks.cuh"
#include "policy.cuh"
#include "queue_gen.cuh"
#include "result.cuh"
#include "top_down.cuh"

namespace gpu500::bfs::cuda {

using namespace detail;
using gpu::device_buffer;

template <class V>
struct engine<V>::impl {
  csr_view<V> g;
  bool sorted;
  options o;
  index_t n = 0, arcs = 0, active = 0, sorted_deg32 = -1, total_hubs = 0;
  int sms = 1;
  index_t gen_warps = 0;
  unsigned gen_grid = 1;
  device_buffer<std::int32_t> depth;
  device_buffer<V> parent;
  graph::id_map<V> ids;       ///< report in original ids (empty: the graph's ids are the original ones)
  device_buffer<V> original;  ///< the last search's parents in original ids (when ids is not empty)
  device_buffer<std::int32_t> original_depth;  ///< its levels in original ids (levels_original(); on request)
  index_t root = -1;          ///< the last search's root (the graph's id)
  device_buffer<V> qbuf[2];
  device_buffer<index_t> counts, scanned;
  device_buffer<unsigned char> scan_temp;
  device_buffer<gen_totals> tot;
  device_buffer<V> hub_list;
  device_buffer<index_t> grid_pref;  ///< arc prefix of the grid queue (at most arcs / extreme + 1 entries)
  device_buffer<unsigned char> grid_temp;
  device_buffer<loop_result> loop_res;
  device_buffer<loop_counters> loop_cnt;  ///< the device loop's three rotating level counters
  device_buffer<loop_state> loop_pub;     ///< the device loop's state after levels in one block
  device_buffer<loop_entry> loop_queue[2];  ///< the device loop's frontier queues (vertices with row bounds)
  unsigned loop_blocks = 0;               ///< the device loop's cooperative grid (0: no cooperative launch here)
  unsigned cluster_blocks = 0;            ///< the cluster tier's blocks (0: no cluster tier here)
  device_buffer<ull> cluster_spill;       ///< the cluster tier's spill counter
  device_buffer<loop_result> cluster_res; ///< what the cluster tier left for the grid loop
  device_buffer<ull> sum;
  device_buffer<std::uint32_t> visited;  ///< bottom-up's bitmap of the vertices visited before the level
  gpu::pinned_buffer<gen_totals> h_tot;
  gpu::pinned_buffer<loop_result> h_loop;
  cudaStream_t st[2] = {};  ///< st[0]: the level's stream; st[1]: the grid queue / bottom-up warp class beside it
  cudaEvent_t fork = nullptr, join[2] = {};
  gen_params<V> last{};
  bool prepared = false;
  index_t nedge = -1;
  std::vector<level_info> trace;

  // Over MPI ranks (ranks > 1; one process is the one-rank case and uses none of this): g holds
  // this rank's rows of `part`, row l being vertex first + l, with vertex ids as columns; depth,
  // parent and the queues are per row, parents are vertex ids.
  dist::device_exchange* x = nullptr;
  dist::block_partition part;
  int me = 0, ranks = 1;
  index_t first = 0;
  index_t all_active = 0;                ///< Beamer's vertex count: `active` summed over the ranks
  index_t all_arcs = 0;                  ///< `arcs` summed over the ranks
  device_buffer<std::uint64_t> whole;    ///< every rank's visited bitmap, gathered before a bottom-up level
  device_buffer<std::uint64_t> seen;     ///< rank_sink::seen
  device_buffer<index_t> cursor, starts, displs;  ///< per rank: next free pair, its block's start; arrivals
  device_buffer<std::uint64_t> send, recv;         ///< pairs: the owners' blocks, the arrivals
  gpu::pinned_buffer<index_t> h_cursor;
  std::vector<index_t> h_starts, h_counts, h_recv, h_displs;
  std::vector<dist::level_record> records;  ///< the last search's levels with bytes and exchange time
  double comm_seconds = 0;                   ///< this level's time in exchanges
  index_t level_bytes = 0;                   ///< this level's bytes sent to other ranks
  [[nodiscard]] bool over_ranks() const { return ranks > 1; }
  [[nodiscard]] bool bitmap_on() const { return o.bitmap() || over_ranks(); }
  V* listing = nullptr;                      ///< where a top-down level over ranks lists the rows it finds
  device_buffer<index_t> found;              ///< their number
  gpu::pinned_buffer<index_t> h_found;
  [[nodiscard]] rank_sink<V> sink() const {
    if (!over_ranks()) return {};
    return {first, part.block(), me, seen.data(), cursor.data(), send.data(), listing, found.data()};
  }

  /// A level's frontier over every rank: vertices, their arcs, their hubs.
  struct frontier_sums {
    index_t nf, mf, fh;
  };
  /// The sums of a count pass's totals over the ranks (one reduction, which also carries the last
  /// level's bytes into its record); on one process the totals themselves.
  frontier_sums sum_over_ranks(const gen_totals& t) {
    if (!over_ranks()) return {static_cast<index_t>(t.nf), static_cast<index_t>(t.mf), static_cast<index_t>(t.fh)};
    index_t v[4] = {static_cast<index_t>(t.nf), static_cast<index_t>(t.mf), static_cast<index_t>(t.fh), level_bytes};
    stopwatch w;
    x->comm().allreduce(v, 4, dist::reduce_op::sum);
    comm_seconds += w.seconds();
    if (!records.empty()) records.back().bytes = v[3];
    level_bytes = 0;
    return {v[0], v[1], v[2]};
  }

  /// Over ranks, after a top-down expansion: the pairs go to their owners, and the arrivals here are
  /// claimed with depth `next` (claim_pairs_kernel). Returns the rows the level found here.
  index_t exchange_pairs(std::int32_t next) {
    gpu::copy_bytes_async(h_cursor.data(), cursor.data(), cursor.bytes(), st[0]);
    gpu::synchronize(st[0]);
    for (int r = 0; r < ranks; ++r) h_counts[r] = h_cursor.data()[r] - h_starts[r];
    gpu::copy_bytes_async(cursor.data(), starts.data(), starts.bytes(), st[0]);  // the next level's blocks: empty
    for (int r = 0; r < ranks; ++r)
      if (r != me) level_bytes += h_counts[r] * static_cast<index_t>(sizeof(std::uint64_t));
    stopwatch w;
    const index_t got = x->alltoallv(send, h_counts, recv, h_recv, h_starts.data());
    comm_seconds += w.seconds();
    if (got > 0) {
      h_displs.assign(static_cast<std::size_t>(ranks) + 1, 0);
      for (int r = 0; r < ranks; ++r) h_displs[r + 1] = h_displs[r] + h_recv[r];
      gpu::copy_bytes(displs.data(), h_displs.data(), h_displs.size() * sizeof(index_t));
      gpu::launch(claim_pairs_kernel<V>, gpu::grid_blocks(got, bfs_policy::block), bfs_policy::block, 0, st[0],
                  recv.data(), got, displs.data(), ranks, depth.data(), parent.data(), next, sink());
    }
    gpu::copy_bytes_async(h_found.data(), found.data(), sizeof(index_t), st[0]);
    gpu::synchronize(st[0]);
    return *h_found.data();
  }

  /// Over ranks, before a bottom-up level: this rank's visited bitmap (just made) gathered from
  /// every rank into `whole`, which also joins `seen` (a child visited needs no pair).
  void gather_visited() {
    gpu::synchronize(st[0]);
    stopwatch w;
    x->allgather_bitmap(part, reinterpret_cast<const std::uint64_t*>(visited.data()), whole.data());
    comm_seconds += w.seconds();
    level_bytes += dist::bitmap_slice_words(part, me) * static_cast<index_t>(sizeof(std::uint64_t)) * (ranks - 1);
    const auto words = static_cast<index_t>(whole.size());
    gpu::launch(or_words_kernel, blocks_for(words), bfs_policy::block, 0, st[0], whole.data(), words, seen.data());
  }

  index_t count_at_least(index_t t) {
    GPU500_CUDA_CHECK(cudaMemset(sum.data(), 0, sizeof(ull)));
    gpu::launch(count_degree_at_least_kernel, gpu::grid_blocks(n, bfs_policy::block), bfs_policy::block, 0, nullptr,
                g.offsets, n, t, sum.data());
    ull h = 0;
    gpu::copy_bytes(&h, sum.data(), sizeof h);
    return static_cast<index_t>(h);
  }

  static unsigned gen_blocks(const gen_params<V>& p) { return gpu::grid_blocks(p.warps * 32, bfs_policy::block); }

  /// Blocks of bfs_policy::block threads for `threads` threads, at most expand_blocks_per_sm per SM.
  unsigned blocks_for(index_t threads) const {
    return gpu::grid_blocks(threads, bfs_policy::block, 1,
                            static_cast<unsigned>(sms) * bfs_policy::expand_blocks_per_sm);
  }

  /// Count pass over src for frontier depth `level`; synchronises and returns the totals.
  const gen_totals& count_pass(gen_source<V> src, std::int32_t level) {
    gen_params<V> p{};
    p.depth = depth.data();
    p.offsets = g.offsets;
    p.src = src;
    p.level = level;
    p.wb = o.wb();
    p.sorted_deg32 = sorted ? sorted_deg32 : -1;
    p.hub_threshold = o.hub_threshold;
    p.priority_degree = o.priority_degree;
    p.extreme = bfs_policy::extreme_degree;
    p.hubs = !o.hub_cache() ? hub_mode::none : !o.ts() ? hub_mode::atomic : hub_mode::scanned;
    p.hub_list = hub_list.data();
    p.hub_cap = static_cast<index_t>(hub_list.size());
    // As many warps as give each at least one full step (small lists: one block, a short scan),
    // at most the full generation grid.
    const index_t step = 32 * gen_unroll;
    const index_t want_warps = (src.count + step - 1) / step;
    p.warps = want_warps < 1 ? 1 : want_warps > gen_warps ? gen_warps : want_warps;
    p.tile = ((src.count + p.warps - 1) / p.warps + 31) / 32 * 32;
    if (p.tile == 0) p.tile = 32;
    last = p;
    gpu::fill_bytes_async(tot.data(), 0, sizeof(gen_totals), st[0]);
    gpu::launch(gen_count_kernel<V>, gen_blocks(p), bfs_policy::block, 0, st[0], p, counts.data(), tot.data());
    gpu::copy_bytes_async(h_tot.data(), tot.data(), sizeof(gen_totals), st[0]);
    gpu::synchronize(st[0]);
    return *h_tot.data();
  }

  /// Write pass of the last count pass: classes in `want` go to out (class-major); with `hubs` the
  /// frontier hubs also go to the hub list (hub_mode::scanned).
  void write_pass(unsigned want, V* out, bool hubs = false) {
    if (hubs && last.hubs == hub_mode::scanned) want |= 1u << bfs_policy::hub_slot;
    std::size_t bytes = scan_temp.size();
    GPU500_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scan_temp.data(), bytes, counts.data(), scanned.data(),
                                                    last.warps * bfs_policy::slots, st[0]));
    gpu::launch(gen_write_kernel<V>, gen_blocks(last), bfs_policy::block, 0, st[0], last, scanned.data(), want, out);
  }

  /// The direction of the level whose count passes gave t (over every rank): Beamer's rule of
  /// every engine (gpu500/bfs/direction.hpp, over the vertices with arcs), and going bottom-up
  /// also Enterprise's gamma (HC).
  char decide(const frontier_sums& t, char dir, index_t prev_nf, double unexplored) const {
    if (o.directed) return 'T';  // rows hold out-arcs only: no bottom-up step
    const direction_rule rule{o.alpha, o.beta, false};
    const level_counts l{t.nf, prev_nf, t.mf, static_cast<index_t>(unexplored), all_active};
    const bool beamer = rule.bottom_up(dir == 'B', l);
    if (dir == 'B' || !o.hc()) return beamer ? 'B' : 'T';
    // Enterprise's gamma; Beamer's arc test stays as a safety net for roots whose frontier holds
    // few hubs but most of the remaining arcs (switching later there only costs time).
    const bool gamma_rule = total_hubs > 0 && static_cast<double>(t.fh) > o.gamma * static_cast<double>(total_hubs);
    return (gamma_rule || beamer) ? 'B' : 'T';
  }

  void fork_streams(int k) {
    if (k < 2) return;
    GPU500_CUDA_CHECK(cudaEventRecord(fork, st[0]));
    for (int i = 1; i < k; ++i) GPU500_CUDA_CHECK(cudaStreamWaitEvent(st[i], fork, 0));
  }
  void join_streams(int k) {
    for (int i = 1; i < k; ++i) {
      GPU500_CUDA_CHECK(cudaEventRecord(join[i], st[i]));
      GPU500_CUDA_CHECK(cudaStreamWaitEvent(st[0], join[i], 0));
    }
  }

  /// Top-down from the frontier queue q (classes 0..3 of the count pass t, class-major; null: BL,
  /// the status array). Over ranks followed by the exchange of the pairs it made, the rows it
  /// found listed at `list`; returns their number (-1 on one process, which lists nothing).
  index_t top_down(const V* q, const gen_totals& t, std::int32_t level, V* list = nullptr) {
    if (!over_ranks()) {
      expand<false>(q, t, level);
      return -1;
    }
    listing = list;
    gpu::fill_bytes_async(found.data(), 0, sizeof(index_t), st[0]);
    expand<true>(q, t, level);
    return exchange_pairs(level + 1);
  }
  template <bool Ranks>
  void expand(const V* q, const gen_totals& t, std::int32_t level) {
    const std::int32_t next = level + 1;
    if (!q || !o.wb()) {
      const index_t qn = q ? static_cast<index_t>(t.nf) : n;
      gpu::launch(td_cta_kernel<V, Ranks>, blocks_for(qn * bfs_policy::block), bfs_policy::block, 0, st[0], g, q, qn,
                  depth.data(), parent.data(), next, sink());
      return;
    }
    const index_t n0 = static_cast<index_t>(t.cls[0]), n1 = static_cast<index_t>(t.cls[1]),
                  n2 = static_cast<index_t>(t.cls[2]), n3 = static_cast<index_t>(t.cls[3]);
    // Classes 0..2 in one launch, the grid queue beside it on a second stream.
    const int ways = n3 ? 2 : 1;
    fork_streams(ways);
    class_blocks cb;
    cb.b[0] = n0 ? blocks_for(n0) : 0;
    cb.b[1] = n1 ? blocks_for(n1 * 32) : 0;
    cb.b[2] = n2 ? blocks_for(n2 * bfs_policy::block) : 0;
    if (cb.total())
      gpu::launch(td_fused_kernel<V, Ranks>, cb.total(), bfs_policy::block, 0, st[0], g, q, n0, n1, n2, cb,
                  depth.data(), parent.data(), next, sink());
    if (n3) grid_queue<Ranks>(q + n0 + n1 + n2, n3, next, st[1]);
    join_streams(ways);
  }

  /// The grid queue q3[0, n3) on stream s: arc prefix of its lists, then the edge-balanced kernel.
  template <bool Ranks>
  void grid_queue(const V* q3, index_t n3, std::int32_t next, cudaStream_t s) {
    gpu::launch(queue_degrees_kernel<V>, blocks_for(n3), bfs_policy::block, 0, s, g.offsets, q3, n3, grid_pref.data());
    std::size_t bytes = grid_temp.size();
    GPU500_CUDA_CHECK(cub::DeviceScan::InclusiveSum(grid_temp.data(), bytes, grid_pref.data() + 1,
                                                    grid_pref.data() + 1, n3, s));
    gpu::launch(td_grid_kernel<V, Ranks>, static_cast<unsigned>(sms) * bfs_policy::expand_blocks_per_sm,
                bfs_policy::block, 0, s, g, q3, n3, grid_pref.data(), depth.data(), parent.data(), next, sink());
  }

  /// Bottom-up from the unvisited queue uq (classes 4..5 of t; BL: the whole active range).
  template <bool Cache>
  void bottom_up_impl(const V* uq, const gen_totals& t, std::int32_t level) {
    const std::uint32_t* vis = nullptr;
    if (bitmap_on()) {  // snapshot before the level: never updated while the level runs
      const index_t words = (active + 31) / 32;
      gpu::launch(visited_bits_kernel, blocks_for(words * 32), bfs_policy::block, 0, st[0], depth.data(), active,
                  visited.data());
      vis = visited.data();
      if (over_ranks()) {
        gather_visited();
        vis = reinterpret_cast<const std::uint32_t*>(whole.data());
      }
    }
    const bu_params<V> p{g,   depth.data(), parent.data(), level, Cache ? hub_list.data() : nullptr, tot.data(),
                         vis, first};
    if (!o.ts()) {  // BL: one CTA per vertex of the whole active range
      gpu::launch(bu_cta_kernel<V, Cache>, blocks_for(active * bfs_policy::block), bfs_policy::block, 0, st[0], p,
                  static_cast<const V*>(nullptr), active);
      return;
    }
    const index_t n4 = static_cast<index_t>(t.cls[4]), n5 = static_cast<index_t>(t.cls[5]);
    if (!o.wb()) {
      gpu::launch(bu_cta_kernel<V, Cache>, blocks_for(n4 * bfs_policy::block), bfs_policy::block, 0, st[0], p, uq, n4);
      return;
    }
    const int ways = n5 ? 2 : 1;
    fork_streams(ways);
    if (n4) gpu::launch(bu_thread_kernel<V, Cache>, blocks_for(n4), bfs_policy::block, 0, st[0], p, uq, n4);
    if (n5) gpu::launch(bu_warp_kernel<V, Cache>, blocks_for(n5), bfs_policy::block, 0, st[1], p, uq + n4, n5);
    join_streams(ways);
  }
  void bottom_up(const V* uq, const gen_totals& t, std::int32_t level) {
    if (o.hub_cache())
      bottom_up_impl<true>(uq, t, level);
    else
      bottom_up_impl<false>(uq, t, level);
  }

  /// The device loop on the frontier list qbuf[from] (count vertices of depth `level`; a list of at
  /// most cluster_vertices goes to the cluster tier first); the frontier it stops on is left in the
  /// same buffer. Synchronises and returns what it handed back.
  const loop_result& device_loop(int from, index_t count, std::int32_t level) {
    GPU500_CUDA_CHECK(cudaMemsetAsync(loop_cnt.data(), 0, 3 * sizeof(loop_counters), st[0]));
    std::int32_t* d = depth.data();
    V* p = parent.data();
    V* q = qbuf[from].data();
    loop_entry* e0 = loop_queue[0].data();
    loop_entry* e1 = loop_queue[1].data();
    loop_counters* cnt = loop_cnt.data();
    loop_state* pub = loop_pub.data();
    loop_result* res = loop_res.data();
    const loop_result* start = nullptr;
    if (cluster_blocks > 0 && count <= bfs_policy::cluster_vertices) {  // the cluster tier first
      gpu::cluster_attributes attrs;
      const cudaLaunchConfig_t cfg = gpu::cluster_launch(cluster_blocks, bfs_policy::loop_block, cluster_smem_bytes,
                                                         st[0], cluster_blocks, false, attrs);
      GPU500_CUDA_CHECK(cudaLaunchKernelEx(&cfg, cluster_loop_kernel<V>, g, d, p, q, count, level, e1,
                                           cluster_spill.data(), cluster_res.data()));
      start = cluster_res.data();
    }
    void* args[] = {&g, &d, &p, &q, &e0, &e1, &count, &level, &start, &cnt, &pub, &res};
    GPU500_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(td_loop_kernel<V>), loop_blocks,
                                                  bfs_policy::loop_block, args, 0, st[0]));
    gpu::copy_bytes_async(h_loop.data(), loop_res.data(), sizeof(loop_result), st[0]);
    gpu::synchronize(st[0]);
    return *h_loop.data();
  }
  /// Whether a frontier of nf vertices and mf arcs fits the device loop (one process only: the loop
  /// runs level after level with no exchange between them).
  [[nodiscard]] bool fits_loop(index_t nf, index_t mf) const {
    return o.device_loop() && loop_blocks > 0 && !over_ranks() && nf >= 1 && nf <= bfs_policy::loop_vertices &&
           static_cast<ull>(arcs) <= loop_row_mask &&
           mf <= bfs_policy::loop_arcs;
  }

  void run(index_t root);
  /// The state over ranks (the constructor over ranks, after the one-process one; collective).
  void join_ranks(dist::device_exchange& ex, const dist::block_partition& p);
};

}  // namespace gpu500::bfs::cuda
