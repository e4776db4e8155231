// Bucket-synchronous delta-stepping over MPI ranks on the host, OpenMP inside each rank (see
// sssp.hpp).
#include "sssp.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <limits>

#include "gpu500/dist/by_rank.hpp"
#include "gpu500/core/timer.hpp"
#include "gpu500/dist/bitmap.hpp"

namespace gpu500::graph500::mpi {

using dist::group_by_rank_once;
using dist::arc_slices;

namespace {

constexpr float unreached = std::numeric_limits<float>::infinity();
constexpr index_t no_bucket = std::numeric_limits<index_t>::max();
/// offered_bucket_ of a vertex this rank has offered nothing in the search.
constexpr std::uint8_t no_offer = 255;

}  // namespace

sssp_engine::sssp_engine(const dist::communicator& c, const dist::block_partition& part,
                         graph::csr_view<std::int64_t> g, sssp_policy pol)
    : c_(c),
      part_(part),
      g_(g),
      pol_(pol),
      offers_(c, static_cast<std::size_t>(part.num_vertices()) * (sizeof(float) + 1)) {
  const auto rows = static_cast<std::size_t>(g.local_vertices);
  dist_.assign(rows, unreached);
  parent_.assign(rows, -1);
  bucket_.assign(rows, -1);
  settled_mark_.assign(rows, 0);
  lowered_.assign(rows, 0);
  offered_ = static_cast<float*>(offers_.data());
  offered_bucket_ = reinterpret_cast<std::uint8_t*>(offered_ + part.num_vertices());
  clear_offers();
  build_light_rows();
  build_pull_rows();
}

void sssp_engine::build_light_rows() {
  if (pol_.no_light_heavy || g_.weights == nullptr) return;
  const graph::csr_view<std::int64_t>& g = g_;
  const sssp_policy& pol = pol_;
  const auto rows = static_cast<std::size_t>(g.local_vertices);
  // The light arcs, row by row in the rows' order (so the requests are the same, in the same
  // order, as a filter of the whole rows would give).
  const auto n = static_cast<index_t>(rows);
  light_off_.assign(rows + 1, 0);
#pragma omp parallel for schedule(static)
  for (index_t u = 0; u < n; ++u) {
    index_t light = 0;
    for (index_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k) light += g.weights[k] < pol.delta;
    light_off_[u + 1] = light;
  }
  for (index_t u = 0; u < n; ++u) light_off_[u + 1] += light_off_[u];
  if (light_off_[n] == g.offsets[n] - g.offsets[0]) {  // every arc light (delta above every weight)
    light_off_.clear();                                 // the rows themselves serve: no copy
    return;
  }
  light_col_.resize(static_cast<std::size_t>(light_off_[n]));
  light_wt_.resize(static_cast<std::size_t>(light_off_[n]));
#pragma omp parallel for schedule(static)
  for (index_t u = 0; u < n; ++u) {
    index_t p = light_off_[u];
    for (index_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k)
      if (g.weights[k] < pol.delta) light_col_[p] = g.columns[k], light_wt_[p++] = g.weights[k];
  }
}

void sssp_engine::build_pull_rows() {
  // Pulls need heavy arcs somewhere; the ranks agree on that and on the graph's arcs (collective,
  // whatever this rank holds).
  const index_t rows = g_.local_vertices, arcs = g_.offsets[rows] - g_.offsets[0];
  // (A rank that owns no vertex holds no weights either: whether the search splits the arcs is
  // the policy's, the same on every rank.)
  const bool split = !pol_.no_light_heavy;
  const index_t heavy = split && g_.weights != nullptr ? arcs - (light_off_.empty() ? arcs : light_off_[rows]) : 0;
  index_t sums[2] = {arcs, heavy};
  c_.allreduce(sums, 2, dist::reduce_op::sum);
  graph_arcs_ = sums[0];
  pulls_ = split && sums[1] > 0 && pol_.pull_share <= 1;
  if (!pulls_) return;
  // Each row's heavy arcs in ascending weight, so that a pull leaves a row once lo + w reaches
  // its best candidate (d(u) >= lo for every vertex of the bucket).
  heavy_off_.assign(static_cast<std::size_t>(rows) + 1, 0);
  for (index_t u = 0; u < rows; ++u)  // no light rows here: every arc of this rank is light
    heavy_off_[u + 1] = heavy_off_[u] + (light_off_.empty() ? 0 : g_.degree(u) - (light_off_[u + 1] - light_off_[u]));
  heavy_col_.resize(static_cast<std::size_t>(heavy_off_[rows]));
  heavy_wt_.resize(static_cast<std::size_t>(heavy_off_[rows]));
#pragma omp parallel
  {
    std::vector<std::uint64_t> keys;  // (weight's bits, arc): non-negative floats sort as integers
#pragma omp for schedule(dynamic, 256)
    for (index_t u = 0; u < rows; ++u) {
      keys.clear();
      for (index_t k = g_.offsets[u]; k < g_.offsets[u + 1]; ++k)
        if (g_.weights[k] >= pol_.delta)
          keys.push_back(std::uint64_t{std::bit_cast<std::uint32_t>(g_.weights[k])} << 32 |
                         static_cast<std::uint64_t>(k - g_.offsets[u]));
      std::sort(keys.begin(), keys.end());
      index_t p = heavy_off_[u];
      for (const std::uint64_t key : keys) {
        const index_t k = g_.offsets[u] + static_cast<index_t>(key & 0xFFFFFFFFu);
        heavy_col_[p] = g_.columns[k];
        heavy_wt_[p++] = g_.weights[k];
      }
    }
  }
  bucket_bits_.assign(static_cast<std::size_t>(dist::bitmap_words(part_.num_vertices())), 0);
}

void sssp_engine::clear_offers() {
  // Each rank of the host clears its slice (its pages then sit near it); no rank offers anything
  // before all of them are done (an offer left from the last search would drop a needed request).
  const index_t n = part_.num_vertices(), ranks = offers_.ranks(), r = offers_.rank();
  const index_t first = n * r / ranks, end = n * (r + 1) / ranks;
  std::fill(offered_ + first, offered_ + end, unreached);
  std::fill(offered_bucket_ + first, offered_bucket_ + end, no_offer);
  offers_.sync();
}

void sssp_engine::prepare() {
  std::fill(dist_.begin(), dist_.end(), unreached);
  std::fill(parent_.begin(), parent_.end(), -1);
  std::fill(bucket_.begin(), bucket_.end(), -1);
  clear_offers();
  buckets_.clear();
  recent_.fill({});
}

void sssp_engine::enqueue(index_t l, float d, index_t floor) {
  const double k = static_cast<double>(d) / static_cast<double>(pol_.delta);
  const index_t b = std::max(floor, k >= 9e18 ? no_bucket - 1 : static_cast<index_t>(k));
  bucket_[l] = b;
  recent_bucket& r = recent_[static_cast<std::size_t>(b) % recent_.size()];
  if (r.rows == nullptr || r.bucket != b) r = {b, &buckets_[b]};
  r.rows->push_back(l);
}

void sssp_engine::forget(const std::map<index_t, std::vector<index_t>>::iterator& it) {
  recent_bucket& r = recent_[static_cast<std::size_t>(it->first) % recent_.size()];
  if (r.rows == &it->second) r.rows = nullptr;
}

index_t sssp_engine::relax(const std::vector<index_t>& rows, arcs which, index_t floor) {
  const float delta = pol_.delta;
  // The light phases read the light rows, and the heavy ones the pulls' weight-ordered heavy rows
  // where they were built: the same arcs as a filter of the whole rows, in another order within a
  // row. The offers may then drop other requests (of a vertex twice in a row, the heavier arc's
  // when it comes second), but only ones that cannot lower a distance, so the distances and the
  // parents, the smallest at each final distance, are the same.
  const bool light_rows = which == arcs::light && !light_off_.empty();
  const bool heavy_rows = which == arcs::heavy && pulls_;
  const bool own_rows = light_rows || heavy_rows;
  const index_t* off = light_rows ? light_off_.data() : heavy_rows ? heavy_off_.data() : g_.offsets;
  const std::int64_t* col = light_rows ? light_col_.data() : heavy_rows ? heavy_col_.data() : g_.columns;
  const float* wt = light_rows ? light_wt_.data() : heavy_rows ? heavy_wt_.data() : g_.weights;
  auto chosen = [&](index_t k) {
    return own_rows || which == arcs::all || ((wt[k] < delta) == (which == arcs::light));
  };
  const index_t first = g_.first_vertex;
  const index_t* q = rows.data();
  const auto nq = static_cast<index_t>(rows.size());
  const float* dist = dist_.data();
  float* offered = offered_;
  std::uint8_t* offered_bucket = offered_bucket_;
  const double per_bucket = 1.0 / static_cast<double>(delta);
  group_by_rank_once<request>(
      c_.size(), arc_slices(q, nq, off),
      [&](index_t i, auto&& send) {
        // The rows are scattered and short, and every arc reads offered[] at random: the misses,
        // not the arithmetic, bound this loop. So the row offsets six rows ahead, the arcs four
        // rows ahead, the offered[] entries of the first arcs of the row two ahead, and within a
        // longer row each arc's entry `ahead` arcs on, are fetched early (hints only: the
        // requests are the same). A row is about 16 arcs: prefetching inside the row alone left
        // its first arcs' misses in the open (perf: half the loop's samples on that load). SCALE
        // 22 on 2 ranks, three alternated pairs: heavy-phase compute 0.79-0.83 s against
        // 0.85-0.90 s with the in-row prefetch alone.
        constexpr index_t ahead = 16;
        if (i + 6 < nq) __builtin_prefetch(off + q[i + 6]);
        if (i + 4 < nq) {
          const index_t r = q[i + 4], at = off[r];
          __builtin_prefetch(col + at);
          if (off[r + 1] - at > 8) __builtin_prefetch(col + at + 8);
          if (wt != nullptr) __builtin_prefetch(wt + at);
        }
        if (i + 2 < nq) {
          const index_t r = q[i + 2], b = off[r], e = std::min(off[r + 1], b + ahead);
          for (index_t k = b; k < e; ++k) __builtin_prefetch(offered_bucket + col[k]);
        }
        const index_t u = q[i];
        const float du = dist[u];
        const index_t end = off[u + 1];
        for (index_t k = off[u]; k < end; ++k) {
          if (k + ahead < end) __builtin_prefetch(offered_bucket + col[k + ahead]);
          if (!chosen(k)) continue;
          // A distance above one this rank or another of its host already offered the vertex
          // cannot lower it (the owner applied or applies the smaller one in the same phase:
          // the ranks relax in step, a phase's offers all sent before any rank's next phase):
          // not sent. Equal ones are (the smallest parent at the final distance wins). The byte
          // of the vertex's smallest offer's bucket answers first: a later bucket is above that
          // offer, an earlier one (or none yet) below it; only a distance in the same bucket
          // reads the float. Every byte and float stored is of an offer that was sent, so a
          // race between threads or ranks here (a larger offer stored over a smaller one) only
          // lets a redundant request through.
          const float d = du + wt[k];
          const std::int64_t v = col[k];
          const double kd = static_cast<double>(d) * per_bucket;
          const auto bd = static_cast<std::uint8_t>(kd < no_offer - 1 ? kd : no_offer - 1);
          std::atomic_ref<std::uint8_t> ob(offered_bucket[v]);
          const std::uint8_t known = ob.load(std::memory_order_relaxed);
          if (bd > known) continue;
          std::atomic_ref<float> best(offered[v]);
          if (bd == known && d > best.load(std::memory_order_relaxed)) continue;
          best.store(d, std::memory_order_relaxed);
          if (bd < known) ob.store(bd, std::memory_order_relaxed);
          send(part_.owner(v), request{first + u, static_cast<std::uint32_t>(part_.local(v)), d});
        }
      },
      scratch_, out_, counts_);
  index_t bytes = 0;
  for (std::size_t r = 0; r < counts_.size(); ++r)
    if (static_cast<int>(r) != c_.rank()) bytes += counts_[r] * static_cast<index_t>(sizeof(request));
  stopwatch t;
  // A phase sends at most one request per owned arc and receives at most one per arc into the
  // owned rows: the graph's arcs bound every count, so no reduction picks the MPI call.
  c_.alltoallv_into<request>(out_, counts_, in_, nullptr, graph_arcs_);
  comm_seconds_ += t.seconds();
  apply(in_, floor);
  return bytes;
}

void sssp_engine::apply(const std::vector<request>& in, index_t floor) {
  const auto n = static_cast<index_t>(in.size());
  float* dist = dist_.data();
  std::int64_t* parent = parent_.data();
  char* lowered = lowered_.data();
  // 1. Every distance falls to the smallest request (a compare-and-swap minimum); a vertex whose
  //    distance fell is marked.
#pragma omp parallel for schedule(static)
  for (index_t i = 0; i < n; ++i) {
    const index_t l = in[i].local;
    std::atomic_ref<float> d(dist[l]);
    float cur = d.load(std::memory_order_relaxed);
    while (in[i].dist < cur && !d.compare_exchange_weak(cur, in[i].dist, std::memory_order_relaxed)) {
    }
    if (in[i].dist < cur) std::atomic_ref<char>(lowered[l]).store(1, std::memory_order_relaxed);
  }
  // 2. A marked vertex takes the smallest parent among the requests that gave its new distance
  //    (a request at that distance exists: the one that lowered it last).
#pragma omp parallel for schedule(static)
  for (index_t i = 0; i < n; ++i) {
    const index_t l = in[i].local;
    if (lowered[l] == 1) std::atomic_ref<std::int64_t>(parent[l]).store(std::numeric_limits<std::int64_t>::max(),
                                                                        std::memory_order_relaxed);
  }
#pragma omp parallel for schedule(static)
  for (index_t i = 0; i < n; ++i) {
    const index_t l = in[i].local;
    if (lowered[l] != 1 || in[i].dist != dist[l]) continue;
    std::atomic_ref<std::int64_t> p(parent[l]);
    std::int64_t cur = p.load(std::memory_order_relaxed);
    while (in[i].parent < cur && !p.compare_exchange_weak(cur, in[i].parent, std::memory_order_relaxed)) {
    }
  }
  // 3. Every marked vertex is queued once, in request order (the buckets are not thread-safe).
  for (index_t i = 0; i < n; ++i) {
    const index_t l = in[i].local;
    if (lowered[l] == 1) {
      lowered[l] = 0;
      enqueue(l, dist[l], floor);
    }
  }
}

void sssp_engine::record(int phase, const char* what, index_t local_count, index_t bytes, double seconds) {
  record_phase(levels_, comm_seconds_, phase, what, local_count, bytes, seconds);
}

void sssp_engine::run(index_t root) {
  levels_.clear();
  if (part_.owner(root) == c_.rank()) {
    const index_t l = root - g_.first_vertex;
    dist_[l] = 0.f;
    parent_[l] = root;
    enqueue(l, 0.f, 0);
  }
  const bool split = !pol_.no_light_heavy;
  int phase = 0;
  for (index_t b = 0;;) {
    // The smallest bucket (>= b) with a live entry anywhere; stale entries are dropped on the way.
    index_t mine = no_bucket;
    for (auto it = buckets_.lower_bound(b); it != buckets_.end();) {
      std::erase_if(it->second, [&](index_t l) { return bucket_[l] != it->first; });
      if (!it->second.empty()) {
        mine = it->first;
        break;
      }
      forget(it);
      it = buckets_.erase(it);
    }
    b = c_.allreduce(mine, dist::reduce_op::min);
    if (b == no_bucket) break;
    settled_.clear();
    index_t settled_arcs = 0;  // of this rank's rows settled in bucket b
    index_t bucket_arcs = 0;   // of every rank's, known when the bucket is done
    for (bool first = true;; first = false) {  // light phases until bucket b stays empty on every rank
      stopwatch sw;
      comm_seconds_ = 0;
      frontier_.clear();
      if (auto it = buckets_.find(b); it != buckets_.end()) {
        for (index_t l : it->second)
          if (bucket_[l] == b) {
            bucket_[l] = -1;
            frontier_.push_back(l);
          }
        forget(it);
        buckets_.erase(it);
      }
      for (index_t l : frontier_)
        if (!settled_mark_[l]) {
          settled_mark_[l] = 1;
          settled_.push_back(l);
          settled_arcs += g_.degree(l);
        }
      // One reduction: the phase's frontier everywhere (none ends the bucket) and the arcs of the
      // rows the bucket settled, which decide whether its heavy step pulls. Not in a bucket's
      // first phase: b is the smallest bucket with a live entry on some rank, so that phase's
      // frontier is not empty everywhere (and the settled arcs are summed when the bucket ends).
      if (!first) {
        index_t sums[2] = {static_cast<index_t>(frontier_.size()), settled_arcs};
        c_.allreduce(sums, 2, dist::reduce_op::sum);
        if (sums[0] == 0) {
          bucket_arcs = sums[1];
          break;
        }
      }
      const index_t bytes = relax(frontier_, split ? arcs::light : arcs::all, b);
      record(phase++, split ? "light" : "all", static_cast<index_t>(frontier_.size()), bytes, sw.seconds());
    }
    for (index_t l : settled_) settled_mark_[l] = 0;
    if (split) {
      stopwatch sw;
      comm_seconds_ = 0;
      const bool pull_now =
          pulls_ && static_cast<double>(bucket_arcs) >= pol_.pull_share * static_cast<double>(graph_arcs_);
      const index_t bytes = pull_now ? pull(b) : relax(settled_, arcs::heavy, b + 1);
      record(phase++, pull_now ? "pull" : "heavy", static_cast<index_t>(settled_.size()), bytes, sw.seconds());
    }
  }
  sum_over_ranks(c_, levels_);  // the trace's counts and bytes: one reduction per search
}

index_t sssp_engine::pull(index_t b) {
  // 1. Every rank's rows of the bucket and their distances, to every rank.
  pulled_mine_.clear();
  for (const index_t l : settled_) pulled_mine_.push_back({static_cast<std::uint32_t>(l), dist_[l]});
  stopwatch t;
  const std::vector<index_t> counts = c_.allgather(static_cast<index_t>(pulled_mine_.size()));
  index_t total = 0;
  for (const index_t n : counts) total += n;
  pulled_all_.resize(static_cast<std::size_t>(total));
  c_.allgatherv_bytes(pulled_mine_.data(), pulled_all_.data(), counts.data(), sizeof(pulled));
  comm_seconds_ += t.seconds();
  // f(i, v) for every pair i and its vertex v, in parallel (a pair names its row on its rank).
  const auto for_each_pair = [&](auto&& f) {
    index_t at = 0;
    for (std::size_t r = 0; r < counts.size(); ++r) {
      const index_t base = part_.range(static_cast<int>(r)).first, end = at + counts[r];
#pragma omp parallel for schedule(static)
      for (index_t i = at; i < end; ++i) f(i, base + pulled_all_[i].local);
      at = end;
    }
  };
  // 2. The bucket's vertices into this rank's bitmap, their distances into the host's offers (a
  //    final distance is at or below every offer, so the filter stays right, and no rank relaxes
  //    until all have pulled), and the smallest of them, lo. The offers are one array per host:
  //    each of its ranks stores a 1/ranks share of the pairs, and all have stored before any
  //    reads (16 ranks each storing every pair wrote each line 16 times, from 16 cores).
  std::uint64_t* bits = bucket_bits_.data();
  float* offered = offered_;
  std::uint8_t* offered_bucket = offered_bucket_;
  const double per_bucket = 1.0 / static_cast<double>(pol_.delta);
  const index_t share_first = total * offers_.rank() / offers_.ranks();
  const index_t share_end = total * (offers_.rank() + 1) / offers_.ranks();
  for_each_pair([&](index_t i, index_t v) {
    std::atomic_ref<std::uint64_t>(bits[v >> 6]).fetch_or(std::uint64_t{1} << (v & 63), std::memory_order_relaxed);
    if (i < share_first || i >= share_end) return;
    const float d = pulled_all_[i].dist;
    std::atomic_ref<float>(offered[v]).store(d, std::memory_order_relaxed);
    const double kd = static_cast<double>(d) * per_bucket;
    std::atomic_ref<std::uint8_t>(offered_bucket[v])
        .store(static_cast<std::uint8_t>(kd < no_offer - 1 ? kd : no_offer - 1), std::memory_order_relaxed);
  });
  {
    stopwatch ts;
    offers_.sync();
    comm_seconds_ += ts.seconds();
  }
  float lo = unreached;
  for (const pulled& x : pulled_all_) lo = std::min(lo, x.dist);
  // 3. Every owned row not settled (queued in a later bucket, or not reached) scans its heavy arcs
  //    in ascending weight for the bucket's vertices and keeps the best d(u) + w, the smallest u
  //    among equals, as the push's requests would give it (the graph is symmetric: the arcs into
  //    the row are the row's arcs). It leaves the row once lo + w is above the best with room for
  //    the float rounding of d(u) + w. Only this rank's rows change: no request is sent.
  const index_t rows = g_.local_vertices;
  const index_t* off = heavy_off_.data();
  const std::int64_t* col = heavy_col_.data();
  const float* wt = heavy_wt_.data();
  float* dist = dist_.data();
  std::int64_t* parent = parent_.data();
  const double margin = 1.0 + 4.0 * std::numeric_limits<float>::epsilon();
  pull_lowered_.clear();
#pragma omp parallel
  {
    std::vector<index_t> lowered;
#pragma omp for schedule(dynamic, 1024) nowait
    for (index_t v = 0; v < rows; ++v) {
      if (off[v] == off[v + 1] || (bucket_[v] == -1 && dist[v] != unreached)) continue;  // none, or settled
      float best = dist[v];
      std::int64_t from = parent[v];
      bool lower = false;
      for (index_t k = off[v]; k < off[v + 1]; ++k) {
        if (static_cast<double>(lo) + wt[k] > static_cast<double>(best) * margin) break;
        const std::int64_t u = col[k];
        if (!dist::test_bit(bits, u)) continue;
        const float d = std::atomic_ref<float>(offered[u]).load(std::memory_order_relaxed) + wt[k];
        if (d < best) {
          best = d, from = u, lower = true;
        } else if (lower && d == best && u < from) {
          from = u;
        }
      }
      if (lower) {
        dist[v] = best;
        parent[v] = from;
        lowered.push_back(v);
      }
    }
#pragma omp critical(gpu500_mpi_sssp_pull)
    pull_lowered_.insert(pull_lowered_.end(), lowered.begin(), lowered.end());
  }
  std::sort(pull_lowered_.begin(), pull_lowered_.end());  // queued in row order, whatever the threads did
  for (const index_t v : pull_lowered_) enqueue(v, dist[v], b + 1);
  // 4. The bitmap cleared for the next pull (whole words: only this bucket's bits are set).
  for_each_pair(
      [&](index_t, index_t v) { std::atomic_ref<std::uint64_t>(bits[v >> 6]).store(0, std::memory_order_relaxed); });
  return (total - counts[static_cast<std::size_t>(c_.rank())]) * static_cast<index_t>(sizeof(pulled));
}

index_t sssp_engine::traversed_edges() const {
  return graph::reached_edges(c_, g_, std::span<const std::int64_t>(parent_));
}

}  // namespace gpu500::graph500::mpi
