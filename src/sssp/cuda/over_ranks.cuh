// src/sssp/cuda/over_ranks.cuh — the GPU SSSP engine over MPI ranks: the same bucket loop, phases
// and kernels as on one process (control.hpp), each rank holding its rows of a 1-D block
// partition, with one exchange after every phase.
//
// A phase runs on this rank's rows exactly as on one process (the host-loop kernel, Ranks = true),
// except that an arc into another rank's vertex becomes a 12-byte request to its owner
// (relax.cuh's send_request, filtered by this rank's smallest offer and the gathered settled
// bitmap), written into the owner's block of the send buffer (sized by the arcs whose heads it
// owns: a phase relaxes each row once). After the phase one MPI all-to-all of a few numbers per
// rank gives every rank the requests' counts and every rank's counters (so that decide() takes the
// same branch everywhere), the requests go to their owners (NCCL or CUDA-aware MPI), and the
// owner applies them with the compare-and-swap of a local relaxation (a light phase's arrivals
// join its out queue and R as local improvements do). A word lowered by an arrival names the
// arrival in its low half (remote_parent); a second pass writes the winner's vertex id into
// parent_far. Before a pull the bucket's vertices and distances of every rank are all-gathered
// (8 bytes a vertex); after a bucket, once enough rows were settled since the last gather to pay
// for its n/8 bytes a rank, the settled bitmaps are. The host runs decide() between phases (the
// persistent kernel and the near-far device loop run phases with no exchange between them: one
// process only). The rows may be relabelled within the blocks (report_original_ids): the
// output is mapped back to the original ids at the end, as on one process. Each phase's record
// in the trace holds its parts as the GPU timed them: the relaxation, the wait for the host's
// exchange, the apply. Included by engine_u32.cu and engine_i64.cu after engine.cuh.
#pragma once

#include <limits>
#include <string>

#include "engine.cuh"
#include "gpu500/core/timer.hpp"

namespace gpu500::sssp::cuda {

namespace detail {

/// A bucket vertex as the pull's all-gather carries it: its row at its owner and its distance.
struct bucket_entry {
  std::uint32_t row;
  float dist;
};
static_assert(sizeof(bucket_entry) == 8);

/// Numbers every rank sends every other after a phase: the requests for it, then this rank's
/// counters (out, r_append, chunks, heavy_est, min_next) and the requests it sent in all.
inline constexpr int payload_width = 7;

/// Apply, pass 1: each arrival relaxes its row as a local arc would (compare-and-swap, strictly
/// lower only), naming itself in the word's low half; in a light phase an improved row joins the
/// out queue and R (push_improved), appending after what the phase appended (the same counters).
static __global__ void __launch_bounds__(search_policy::block) apply_kernel(work_ref w, const request* in, index_t n,
                                                                            counters* c) {
  __shared__ warp_scratch scratch[search_policy::block / 32];
  warp_scratch& sm = scratch[threadIdx.x >> 5];
  const control s = *w.ctrl;
  const bool light = s.phase == phase_light || s.phase == phase_light_big;  // grid-uniform
  staged_list q{sm.qbuf, 0, &c->out, w.lists[s.out_list] + s.out_size};
  staged_list r{sm.rbuf, 0, &c->r_append, w.lists[list_r] + s.r_size};
  for (index_t base = gpu::global_warp_id() * 32; base < n; base += gpu::grid_warps() * 32) {  // warp-uniform
    const index_t i = base + lane_id();
    std::uint32_t v[1] = {0};
    bool improved[1] = {false};
    if (i < n) {
      const request a = in[i];
      v[0] = a.row;
      const unsigned nb = __float_as_uint(a.dist);
      const std::uint32_t tag = remote_parent | static_cast<std::uint32_t>(i);
      const unsigned long long cur = __ldcg(w.dp + a.row);
      if (nb < static_cast<unsigned>(cur >> 32)) {
        const unsigned long long old = atomicCAS(w.dp + a.row, cur, (static_cast<unsigned long long>(nb) << 32) | tag);
        improved[0] = old == cur || relax_retry(w.dp, a.row, nb, tag, old);
      }
    }
    if (light) push_improved<1>(w, s, q, r, v, improved);
  }
  if (light) {
    stage_flush(q);
    stage_flush(r);
  }
}

/// Apply, pass 2: the arrival a row's word names (its distance and index) is the row's parent:
/// the sender's vertex id (from rank r: arrivals [displs[r], displs[r + 1])).
static __global__ void remote_parents_kernel(const unsigned long long* dp, rank_ref rk, const request* in, index_t n,
                                             const index_t* displs, int ranks) {
  for (index_t i : gpu::grid_stride(n)) {
    const request a = in[i];
    const unsigned long long mine = (static_cast<unsigned long long>(__float_as_uint(a.dist)) << 32) |
                                    (remote_parent | static_cast<std::uint32_t>(i));
    if (__ldcg(dp + a.row) == mine)
      rk.parent_far[a.row] = static_cast<std::int64_t>(dist::cuda::sender_of(displs, ranks, i)) * rk.block + a.from;
  }
}

/// Packed words -> Graph500 output per row (vertex ids; -1 where unreached). With an id map
/// (report_original_ids), output row o is this rank's original row o: its word is new row
/// old2new[o] - first's (rows without arcs, past non_isolated, are unreached unless the root), its
/// parent's new id mapped by new2old, as finalize_range maps them on one process.
static __global__ void finalize_rows_kernel(index_t rows, work_ref w, rank_ref rk) {
  for (index_t o : gpu::grid_stride(rows)) {
    const index_t l = w.old2new ? mapped_id(w.old2new, w.map_wide, o) - rk.first : o;
    const unsigned long long x =
        w.old2new && l >= w.non_isolated && l != w.root ? ~0ull : __ldcg(w.dp + l);
    if (static_cast<unsigned>(x >> 32) == inf_bits) {
      w.parents[o] = -1;
      w.dist[o] = -1.0f;
      continue;
    }
    const auto low = static_cast<std::uint32_t>(x);
    const index_t p = l == w.root ? rk.first + l : (low & remote_parent) ? rk.parent_far[l] : rk.first + low;
    w.parents[o] = w.new2old ? mapped_id(w.new2old, w.map_wide, p) : p;
    w.dist[o] = dist_of(x);
  }
}

/// The pull's first step: this rank's rows of the bucket (list R) and their distances.
static __global__ void pack_bucket_kernel(const std::uint32_t* rows, index_t n, const unsigned long long* dp,
                                          bucket_entry* out) {
  for (index_t i : gpu::grid_stride(n)) out[i] = bucket_entry{rows[i], dist_of(__ldcg(dp + rows[i]))};
}

/// Every rank's bucket (from rank r: [displs[r], displs[r + 1])) into the bitmap of the bucket's
/// vertices and their distances (rank_ref::offered: final distances, below any offer).
static __global__ void scatter_bucket_kernel(const bucket_entry* in, index_t n, const index_t* displs, int ranks,
                                             rank_ref rk, std::uint64_t* bits) {
  for (index_t i : gpu::grid_stride(n)) {
    const std::int64_t v = static_cast<std::int64_t>(dist::cuda::sender_of(displs, ranks, i)) * rk.block + in[i].row;
    atomicOr(reinterpret_cast<unsigned long long*>(&bits[v >> 6]), 1ull << (v & 63));
    rk.offered[v] = __float_as_uint(in[i].dist);
  }
}

inline const char* phase_name(int phase) {
  static const char* const names[] = {"scan", "light", "light-chunks", "heavy", "heavy-chunks", "pull"};
  return phase >= 0 && phase < phase_kinds ? names[phase] : "done";
}

}  // namespace detail

template <class V>
void engine<V>::impl::join_ranks(dist::device_exchange& ex, const dist::block_partition& p) {
  GPU500_EXPECTS(!opt.directed, "sssp cuda over ranks: the graph is undirected (Graph500's)");
  x = &ex;
  part = p;
  me = ex.comm().rank();
  ranks = ex.comm().size();
  const auto R = static_cast<std::size_t>(ranks);
  rk.first = g.n > 0 ? part.range(me).first : 0;
  rk.block = part.block();
  offered = gpu::device_buffer<unsigned>(static_cast<std::size_t>(n_all));
  settled_all = gpu::device_buffer<std::uint64_t>(static_cast<std::size_t>(dist::bitmap_words(n_all)));
  if (pull_min_chunks > 0 || pull_first_arcs > 0) {
    bucket_bits = gpu::device_buffer<std::uint64_t>(settled_all.size());
    bucket_bits.zero();  // and zero again after each pull
  }
  parent_far = gpu::device_buffer<std::int64_t>(std::max<std::size_t>(static_cast<std::size_t>(g.n), 1));
  cursor = gpu::device_buffer<index_t>(R);
  starts = gpu::device_buffer<index_t>(R);
  displs = gpu::device_buffer<index_t>(R + 1);
  h_cursor = gpu::pinned_buffer<index_t>(R);
  h_displs = gpu::pinned_buffer<index_t>(R + 1);
  h_cnt = gpu::pinned_buffer<counters>(1);
  h_ctrl = gpu::pinned_buffer<control>(1);
  graph::csr_view<V> rows{n_all, rk.first, g.n, g.offsets, g.cols, g.weights};
  h_starts = dist::cuda::owner_block_starts(rows, part.block(), starts);  // the requests' blocks
  send_counts.assign(R, 0);
  recv_counts.assign(R, 0);
  payload.assign(R * payload_width, 0);
  recv_payload.assign(R * payload_width, 0);
  // A phase sends at most one request per owned arc and receives at most one per arc into the
  // owned rows (as many: the graph is undirected); sized here, outside the timed searches.
  send.reserve(static_cast<std::size_t>(arcs) + 1);
  recv.reserve(static_cast<std::size_t>(arcs) + 1);
  rk.offered = offered.data();
  rk.cursor = cursor.data();
  rk.send = send.data();
  rk.bucket_bits = bucket_bits.data();
  rk.parent_far = parent_far.data();
  timer.emplace(true, stream);
}

/// Where each rank's block of an all-to-all's or all-gather's arrivals starts (counts: per rank),
/// to `displs` on the device, ordered on the stream (sender_of reads it).
template <class V>
void engine<V>::impl::upload_displs(const std::vector<index_t>& counts) {
  index_t* d = h_displs.data();
  d[0] = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) d[r + 1] = d[r] + counts[r];
  GPU500_CUDA_CHECK(cudaMemcpyAsync(displs.data(), d, displs.bytes(), cudaMemcpyHostToDevice, stream));
}

/// The bucket's vertices of every rank and their distances into bucket_bits and offered, for the
/// pull that comes next (collective). Returns the seconds spent in exchanges.
template <class V>
double engine<V>::impl::gather_bucket(const control& s) {
  const index_t mine = s.r_size;
  stopwatch t;
  const std::vector<index_t> counts = x->comm().allgather(mine);
  double comm = t.seconds();
  index_t total = 0;
  for (index_t k : counts) total += k;
  // The request buffers are free between phases: each holds the bucket entries (8 bytes < 12).
  const auto room = [](index_t k) { return static_cast<std::size_t>(k) * sizeof(bucket_entry) / sizeof(request) + 1; };
  auto* out = reinterpret_cast<bucket_entry*>(send.reserve(room(mine)));
  auto* in = reinterpret_cast<bucket_entry*>(recv.reserve(room(total)));
  rk.send = send.data();
  if (mine > 0)
    gpu::launch(pack_bucket_kernel, helper_policy::blocks(mine), helper_policy::block, 0, stream,
                static_cast<const std::uint32_t*>(w.lists[list_r]), mine, static_cast<const unsigned long long*>(w.dp), out);
  GPU500_CUDA_CHECK(cudaStreamSynchronize(stream));
  t.restart();
  x->allgatherv_bytes(out, in, counts.data(), sizeof(bucket_entry));
  comm += t.seconds();
  upload_displs(counts);
  if (total > 0)
    gpu::launch(scatter_bucket_kernel, helper_policy::blocks(total), helper_policy::block, 0, stream,
                static_cast<const bucket_entry*>(in), total, static_cast<const index_t*>(displs.data()), ranks, rk,
                bucket_bits.data());
  return comm;
}

/// Every rank's settled bitmap (this rank's rows as whole 64-bit words of its slice) gathered into
/// settled_all, which the requests are filtered by from then on (collective). Returns the seconds
/// spent in the exchange.
template <class V>
double engine<V>::impl::gather_settled() {
  GPU500_CUDA_CHECK(cudaStreamSynchronize(stream));
  stopwatch t;
  x->allgather_bitmap(part, reinterpret_cast<const std::uint64_t*>(w.settled), settled_all.data());
  rk.settled_all = settled_all.data();
  return t.seconds();
}

template <class V>
void engine<V>::impl::run_over_ranks(index_t root) {
  const dist::communicator& c = x->comm();
  const auto R = static_cast<std::size_t>(ranks);
  records.clear();
  w.root = part.owner(root) == me ? root - rk.first : -1;
  rk.settled_all = nullptr;
  settled_since_gather = 0;
  control s = initial_control(delta0, adaptive, delta_max, adaptive ? opt.grow_below : 0);
  s.pull_min_chunks = pull_min_chunks;
  s.pull_first_arcs = pull_first_arcs;
  gpu::launch(init_search_kernel, 1, 32, 0, stream, w, s);
  const auto blocks = static_cast<unsigned>(host_blocks);
  for (long long step = 0; s.phase != phase_done; ++step) {
    stopwatch sw;
    const int phase = s.phase;
    const std::int64_t listed = phase == phase_scan || phase == phase_pull ? g.n
                                : phase == phase_light_big || phase == phase_heavy_big ? s.n_chunks
                                                                                        : s.in_size;
    counters* cnt = w.cnt + step % 3;
    timer->mark("relax");
    GPU500_CUDA_CHECK(cudaMemcpyAsync(cursor.data(), starts.data(), starts.bytes(), cudaMemcpyDeviceToDevice, stream));
    gpu::launch(step_k, blocks, search_policy::block, 0, stream, g, w, step, rk);
    GPU500_CUDA_CHECK(cudaMemcpyAsync(h_cnt.data(), cnt, sizeof(counters), cudaMemcpyDeviceToHost, stream));
    GPU500_CUDA_CHECK(cudaMemcpyAsync(h_cursor.data(), cursor.data(), cursor.bytes(), cudaMemcpyDeviceToHost, stream));
    timer->mark("exchange");  // the stream waits for the host's exchange until the next mark
    GPU500_CUDA_CHECK(cudaStreamSynchronize(stream));
    const counters& mine = h_cnt.data()[0];
    index_t sent = 0;
    for (std::size_t r = 0; r < R; ++r) {
      send_counts[r] = h_cursor.data()[r] - h_starts[r];
      sent += send_counts[r];
    }
    for (std::size_t r = 0; r < R; ++r) {
      index_t* p = payload.data() + r * payload_width;
      p[0] = send_counts[r];
      p[1] = static_cast<index_t>(mine.out);
      p[2] = static_cast<index_t>(mine.r_append);
      p[3] = static_cast<index_t>(mine.chunks);
      p[4] = static_cast<index_t>(mine.heavy_est);
      p[5] = static_cast<index_t>(mine.min_next);
      p[6] = sent;
    }
    stopwatch t;
    c.exchange_counts(payload.data(), recv_payload.data(), payload_width);
    counters all{};
    reset(all);
    index_t arrivals = 0, requests = 0;
    for (std::size_t r = 0; r < R; ++r) {
      const index_t* p = recv_payload.data() + r * payload_width;
      recv_counts[r] = p[0];
      arrivals += p[0];
      all.out += static_cast<unsigned long long>(p[1]);
      all.r_append += static_cast<unsigned long long>(p[2]);
      all.chunks += static_cast<unsigned long long>(p[3]);
      all.heavy_est += static_cast<unsigned long long>(p[4]);
      all.min_next = std::min(all.min_next, static_cast<unsigned>(p[5]));
      requests += p[6];
    }
    // A light phase's requests may lower rows into the next queue at their owners: the loop goes
    // on while any were sent (an extra light phase at most finds its queues empty).
    if (phase == phase_light || phase == phase_light_big) all.out += static_cast<unsigned long long>(requests);
    if (requests > 0) {
      if (arrivals >= static_cast<index_t>(remote_parent) - 1)
        throw usage_error("the CUDA SSSP over MPI ranks received 2^31 requests or more in one phase: use more ranks");
      x->alltoallv_bytes(send.data(), send_counts.data(), recv.reserve(static_cast<std::size_t>(arrivals)),
                         recv_counts.data(), sizeof(request), h_starts.data());
    }
    double comm = t.seconds();
    timer->mark("apply");
    if (arrivals > 0) {
      upload_displs(recv_counts);
      gpu::launch(apply_kernel, blocks, search_policy::block, 0, stream, w, static_cast<const request*>(recv.data()),
                  arrivals, cnt);
      gpu::launch(remote_parents_kernel, helper_policy::blocks(arrivals), helper_policy::block, 0, stream,
                  static_cast<const unsigned long long*>(w.dp), rk, static_cast<const request*>(recv.data()), arrivals,
                  static_cast<const index_t*>(displs.data()), ranks);
      GPU500_CUDA_CHECK(cudaMemcpyAsync(h_cnt.data(), cnt, sizeof(counters), cudaMemcpyDeviceToHost, stream));
    }
    timer->end();
    GPU500_CUDA_CHECK(cudaStreamSynchronize(stream));
    const std::int64_t bucket_rows = s.r_all;
    decide(s, h_cnt.data()[0], all);
    // What the next phase needs gathered is this phase's communication: a pull's bucket, and
    // after a bucket the settled bitmaps, once enough rows are new to them to pay for their n/8
    // bytes a rank.
    if (phase == phase_pull) GPU500_CUDA_CHECK(cudaMemsetAsync(bucket_bits.data(), 0, bucket_bits.bytes(), stream));
    if (s.phase == phase_pull) comm += gather_bucket(s);
    if ((phase == phase_heavy || phase == phase_heavy_big || phase == phase_pull) && s.phase == phase_scan &&
        w.settled != nullptr) {
      settled_since_gather += bucket_rows;
      if (settled_since_gather * 64 >= n_all) {
        comm += gather_settled();
        settled_since_gather = 0;
      }
    }
    dist::record_phase(records, comm, static_cast<int>(step), phase_name(phase), listed,
                       dist::cuda::bytes_to_others(send_counts, me, sizeof(request)), sw.seconds());
    records.back().steps = timer->take();
    *h_ctrl.data() = s;
    GPU500_CUDA_CHECK(cudaMemcpyAsync(w.ctrl, h_ctrl.data(), sizeof(control), cudaMemcpyHostToDevice, stream));
  }
  gpu::launch(finalize_rows_kernel, helper_policy::blocks(std::max<index_t>(g.n, 1)), helper_policy::block, 0, stream,
              g.n, w, rk);
  GPU500_CUDA_CHECK(cudaStreamSynchronize(stream));
  dist::sum_over_ranks(c, records);
  last = s;
}

}  // namespace gpu500::sssp::cuda
