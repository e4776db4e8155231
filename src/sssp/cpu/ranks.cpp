// src/sssp/cpu/ranks.cpp — the host SSSP engine's steps that run over ranks only
// (engine_impl.hpp): the requests of a phase grouped by owner and exchanged, then offered to
// their rows; the pull's all-gather of a bucket's rows and the scan of the heavy arcs into the
// rows not yet settled; the reset of this rank's share of the host's table of offers.
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <limits>

#include "engine_impl.hpp"

namespace gpu500::sssp {

// Over ranks, after a phase: every thread's requests grouped by owner into out_ / counts_.
// Returns the bytes for other ranks.
template <class V>
index_t cpu_engine<V>::impl::group_requests() {
  dist::concat_by_rank(ranks, static_cast<int>(local.size()), scratch_, out_, counts_);
  index_t bytes = 0;
  for (int r = 0; r < ranks; ++r)
    if (r != me) bytes += counts_[static_cast<std::size_t>(r)] * static_cast<index_t>(sizeof(request));
  return bytes;
}

// The grouped requests to their owners in one all-to-all (`most`: no rank sends or receives
// more, the same on every rank), and the arrivals offered to their rows in parallel, a parent
// on another rank named by its head id here (n + its vertex id).
template <class V>
void cpu_engine<V>::impl::exchange(int nt, std::uint64_t cur_b, index_t most) {
  stopwatch t;
  c_.alltoallv_into<request>(out_, counts_, in_, nullptr, most);
  comm_seconds_ += t.seconds();
  const auto arrived = static_cast<index_t>(in_.size());
  const request* in = in_.data();
#pragma omp parallel num_threads(arrived < serial_below ? 1 : nt)
  {
    thread_state& th = local[static_cast<std::size_t>(omp_get_thread_num())];
#pragma omp for schedule(static)
    for (index_t i = 0; i < arrived; ++i)
      offer(th, new_of[in[i].row], in[i].dist, static_cast<std::uint64_t>(n + in[i].parent), cur_b);
  }
}

// The heavy step of bucket cur as a pull (R[0, rs): this rank's rows the bucket settled that have
// heavy arcs). Returns the bytes received from other ranks.
template <class V>
index_t cpu_engine<V>::impl::pull(int nt, const V* R, index_t rs, std::uint64_t cur) {
  // 1. The bucket's rows and distances, every rank's to every rank (one rank: its own, not copied).
  pulled_mine_.resize(static_cast<std::size_t>(rs));
  for (index_t i = 0; i < rs; ++i)
    pulled_mine_[i] = {old_of[static_cast<std::size_t>(R[i])], dist_of(key[static_cast<std::size_t>(R[i])])};
  const pulled* all = pulled_mine_.data();
  std::vector<index_t> counts{rs};
  index_t total = rs;
  if (ranks > 1) {
    stopwatch t;
    counts = c_.allgather(rs);
    total = 0;
    for (const index_t x : counts) total += x;
    pulled_all_.resize(static_cast<std::size_t>(total));
    c_.allgatherv_bytes(pulled_mine_.data(), pulled_all_.data(), counts.data(), sizeof(pulled));
    comm_seconds_ += t.seconds();
    all = pulled_all_.data();
  }
  // f(i, v) for every pair i and its vertex v, in parallel (a pair names its row on its rank).
  const auto for_each_pair = [&](auto&& f) {
    index_t at = 0;
    for (int r = 0; r < ranks; ++r) {
      const index_t base = part_.range(r).first, end = at + counts[static_cast<std::size_t>(r)];
#pragma omp parallel for num_threads(nt) schedule(static) if (end - at >= serial_below)
      for (index_t i = at; i < end; ++i) f(i, base + all[i].row);
      at = end;
    }
  };
  const auto head_of = [&](index_t v) {
    return v >= first && v < first + n ? index_t{new_of[static_cast<std::size_t>(v - first)]} : n + v;
  };
  // 2. The bucket's head ids into the bitmap; over ranks their distances into the host's offers
  //    (a final distance is at or below every offer, so the filter stays right, and no rank
  //    reads them before all have stored): each rank of the host stores a 1/ranks share.
  std::uint64_t* bits = pull_bits_.data();
  const int host_ranks = offers_ ? offers_->ranks() : 1, host_rank = offers_ ? offers_->rank() : 0;
  const index_t share_first = total * host_rank / host_ranks, share_end = total * (host_rank + 1) / host_ranks;
  float* offered = offered_;
  std::uint8_t* offered_bucket = offered_bucket_;
  for_each_pair([&](index_t i, index_t v) {
    const index_t h = head_of(v);
    std::atomic_ref<std::uint64_t>(bits[h >> 6]).fetch_or(std::uint64_t{1} << (h & 63), std::memory_order_relaxed);
    if (offered == nullptr || i < share_first || i >= share_end) return;
    const float d = all[i].dist;
    std::atomic_ref<float>(offered[v]).store(d, std::memory_order_relaxed);
    const double kd = static_cast<double>(d) * inv_delta;
    std::atomic_ref<std::uint8_t>(offered_bucket[v])
        .store(static_cast<std::uint8_t>(kd < no_offer - 1 ? kd : no_offer - 1), std::memory_order_relaxed);
  });
  if (offers_) {
    stopwatch t;
    offers_->sync();
    comm_seconds_ += t.seconds();
  }
  if (total == 0) return 0;  // a bucket of light arcs only: nothing to look for
  float lo = std::numeric_limits<float>::infinity();
  for (index_t i = 0; i < total; ++i) lo = std::min(lo, all[i].dist);
  // 3. Every owned row scans its heavy arcs in ascending weight for the bucket's vertices and
  //    keeps the best d(u) + w (the graph is symmetric: the arcs into the row are the row's
  //    arcs); it leaves once lo + w is above the best, with room for the float rounding of
  //    d(u) + w (a settled row at its first arc). Only this rank's rows change.
  const double margin = 1.0 + 4.0 * std::numeric_limits<float>::epsilon();
#pragma omp parallel num_threads(nt)
  {
    thread_state& th = local[static_cast<std::size_t>(omp_get_thread_num())];
#pragma omp for schedule(dynamic, 1024) nowait
    for (index_t x = 0; x < n; ++x) {
      const row_t r = rows_[static_cast<std::size_t>(x)];
      if (r.deg == r.light) continue;
      const std::uint64_t kx = std::atomic_ref<std::uint64_t>(key[static_cast<std::size_t>(x)]).load(std::memory_order_relaxed);
      float best = kx == unreached ? std::numeric_limits<float>::infinity() : dist_of(kx);
      index_t from = -1;
      const arc_t* a = arcs_.get() + r.begin;
      for (std::uint32_t k = r.light; k < r.deg; ++k) {
        if (static_cast<double>(lo) + a[k].w > static_cast<double>(best) * margin) break;
        const index_t h = a[k].v;
        if (!dist::test_bit(bits, h)) continue;
        const float dh = h < n ? dist_of(std::atomic_ref<std::uint64_t>(key[static_cast<std::size_t>(h)]).load(std::memory_order_relaxed))
                               : std::atomic_ref<float>(offered[h - n]).load(std::memory_order_relaxed);
        const float d = dh + a[k].w;
        if (d < best) best = d, from = h;
      }
      if (from >= 0) offer(th, x, best, static_cast<std::uint64_t>(from), cur);
    }
  }
  // 4. The bitmap cleared for the next pull (whole words: only this bucket's bits are set).
  for_each_pair([&](index_t, index_t v) {
    std::atomic_ref<std::uint64_t>(bits[head_of(v) >> 6]).store(0, std::memory_order_relaxed);
  });
  return (total - rs) * static_cast<index_t>(sizeof(pulled));
}

// Resets this rank's share of the host's offers, then waits for the host's other ranks (an
// offer left from the last search would drop a needed request).
template <class V>
void cpu_engine<V>::impl::clear_offers() {
  const index_t nv = g.num_vertices, hr = offers_->ranks(), r = offers_->rank();
  const index_t lo = nv * r / hr, hi = nv * (r + 1) / hr;
  std::fill(offered_ + lo, offered_ + hi, std::numeric_limits<float>::infinity());
  std::fill(offered_bucket_ + lo, offered_bucket_ + hi, no_offer);
  offers_->sync();
}

#define GPU500_SSSP_RANK_STEPS(V)                                                           \
  template index_t cpu_engine<V>::impl::group_requests();                                    \
  template void cpu_engine<V>::impl::exchange(int, std::uint64_t, index_t);                  \
  template index_t cpu_engine<V>::impl::pull(int, const V*, index_t, std::uint64_t);         \
  template void cpu_engine<V>::impl::clear_offers();
GPU500_SSSP_RANK_STEPS(std::uint32_t)
GPU500_SSSP_RANK_STEPS(std::int64_t)
#undef GPU500_SSSP_RANK_STEPS

}  // namespace gpu500::sssp
