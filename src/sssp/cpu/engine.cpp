// src/sssp/cpu/engine.cpp — Graph500 kernel 3 on the host: parallel delta-stepping single-source
// shortest paths (OpenMP).
//
// Algorithm (Meyer & Sanders, "Delta-stepping: a parallelizable shortest path algorithm", 2003):
// vertices sit in buckets of width delta by tentative distance. The smallest non-empty bucket is
// processed in light iterations: every vertex of the bucket relaxes its light edges (w <= delta),
// which may refill the same bucket, until it stays empty; then every vertex settled in the bucket
// relaxes its heavy edges (w > delta) once, with its now final distance. Relaxations run in
// parallel over the bucket (dynamic chunks); each thread keeps its own bins and the next
// iteration's bucket is gathered from them (GAP-benchmark style, Beamer et al.).
//
// State of a vertex, one 64-bit word: (float bits of the tentative distance) << 32 | parent.
// Non-negative floats order like their bit patterns, so "strictly smaller distance" is an integer
// comparison, and a relaxation is a CAS loop that installs (d(u) + w, u) only when it is strictly
// smaller: the pair (distance, parent) can never be torn, and every distance is exactly one float
// addition d(parent) + w of the stored weight, read from the parent's word. Distances only
// decrease, every decrease queues the vertex again, so when the run ends d(v) == d(parent) + w
// holds exactly (the last writer relaxed v again with its final distance) and the parent graph
// is a tree (a cycle would need a strict decrease around a cycle of non-negative float sums).
// Unreached vertices get parent -1 and distance -1 (sssp.hpp). The 32-bit parent field limits
// the graph to fewer than 2^32 vertices (checked). A 4-byte copy of each distance (`bound`, an
// upper bound: it is written after each successful CAS) filters the relaxations that cannot
// improve before the 8-byte word is touched (most of them).
//
// Duplicate queue entries are filtered by a per-vertex stamp: the tag of the bucket the vertex is
// queued in, set by the pusher (exchange) and cleared when the vertex is taken out to be
// processed, so a bucket holds each vertex at most once and the shared frontier fits n entries.
// Clearing the stamp (a locked exchange) before reading the distance, and the pusher's CAS before
// reading the stamp, form a Dekker pair (seq_cst): an improvement made while the vertex is being
// taken out is either seen by the processing or queued again. Tags carry the run number, so the
// array is never reset. Each thread drains the pushes into the current bucket from its own bin
// before the barrier (up to drain_limit vertices, GAP style): few global iterations per bucket.
// Graph data (kernel 1, built in the constructor by rows.hpp): the engine keeps its own copy of the
// rows as packed (head, weight) pairs, light arcs first, each part sorted by head; internal vertex
// ids follow decreasing degree, so the state of the hubs, which most arcs point to, shares few cache
// lines. Parents and distances are mapped back to the graph's ids at the end of run().
// Float rounding: a heavy relaxation can in principle land in the current bucket again; such a
// push re-opens the bucket (its light iterations and the heavy pass of the re-processed vertices).
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "gpu500/core/error.hpp"
#include "gpu500/graph/arc_sort.hpp"
#include "gpu500/sssp/delta.hpp"
#include "gpu500/sssp/sssp.hpp"
#include "rows.hpp"

namespace gpu500::sssp {

namespace {

constexpr std::uint64_t unreached = ~std::uint64_t{0};  // distance bits 0xFFFFFFFF: above every float
constexpr int stamp_shift = 40;                          // stamp = run << 40 | (bucket + 1); 0: not queued
constexpr std::uint64_t max_bucket = (std::uint64_t{1} << stamp_shift) - 2;

inline std::uint64_t pack(float d, std::uint64_t parent) {
  std::uint32_t bits;
  std::memcpy(&bits, &d, sizeof bits);
  return (std::uint64_t{bits} << 32) | parent;
}
inline float dist_of(std::uint64_t key) {
  const auto bits = static_cast<std::uint32_t>(key >> 32);
  float d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}

}  // namespace

template <class V>
struct cpu_engine<V>::impl {
  struct alignas(64) thread_state {
    std::vector<std::vector<V>> bins;  // circular: bucket b lives in bins[b % nb]
    std::vector<V> settled;            // vertices processed in the current bucket (heavy pass)
    std::vector<V> work;               // the part of a bin being drained by its own thread
  };

  using arc_t = detail::row_arc;
  using row_t = detail::row_range;
  detail::phase_clock clk_;
  graph::csr_view<V> g;
  cpu_options opt;
  graph::raw_array<arc_t> arcs_;  // not value-initialised: every arc is placed once
  // Per-vertex arrays are host_vectors (not zeroed by resize) filled by parallel loops.
  graph::host_vector<row_t> rows_;                   // by internal id
  graph::host_vector<std::uint32_t> new_of, old_of;  // internal id <-> graph id
  index_t n = 0;
  float delta = 0.1f;
  double inv_delta = 10.0;
  float max_weight = 0.f;
  std::uint64_t nb = 0;  // circular bucket slots
  std::uint64_t run_id = 0;
  graph::host_vector<std::uint64_t> key, stamp, heavy_stamp;
  graph::host_vector<float> bound;  // an upper bound of each tentative distance (4 bytes: a cheaper filter)
  graph::host_vector<V> frontier, frontier2, settled;
  graph::host_vector<std::int64_t> parents;
  graph::host_vector<float> dist;
  std::vector<thread_state> local;
  index_t last_root = -1;

  impl(graph::csr_view<V> view, cpu_options o, graph::arc_sort_scratch* scratch) : g(view), opt(o) {
    GPU500_EXPECTS(g.first_vertex == 0 && g.local_vertices == g.num_vertices,
                   "sssp cpu engine: the graph must be whole (one process owns every vertex)");
    GPU500_EXPECTS(g.weights != nullptr || g.num_arcs() == 0, "sssp cpu engine: the graph has no weights");
    GPU500_EXPECTS(opt.threads >= 0, "sssp cpu engine: thread count must be >= 0");
    n = g.num_vertices;
    if (static_cast<std::uint64_t>(n) >= (std::uint64_t{1} << 32))
      throw usage_error("sssp cpu engine: " + std::to_string(n) +
                        " vertices; the packed (distance, parent) word holds parents below 2^32");
    // Weights non-negative and finite (their maximum sizes the circular bucket array, their mean
    // the adaptive delta); the vertices with edges.
    const index_t arcs = g.num_arcs();
    const float* w = g.weights;
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
    if (bad >= 0) throw usage_error("sssp: weight " + std::to_string(bad) + " is negative or not finite");
    max_weight = mx;
    delta = opt.delta;
    if (!(delta > 0.f)) {
      // Adaptive (sssp/delta.hpp): mean weight / mean degree of the vertices with edges. On Graph500 graphs
      // (SCALE 18, 2 cores) smaller deltas were faster still on one thread, larger ones worse;
      // this is the compromise between work and synchronisation (bench/kernels-cpu.cpp --sweep-delta).
      delta = static_cast<float>(adaptive_factor * sssp::mean_weight_per_degree(sum, static_cast<double>(arcs),
                                                                                static_cast<double>(active)));
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
    detail::build_light_heavy_rows(g, new_of.data(), opt.no_light_heavy ? std::numeric_limits<float>::infinity() : delta,
                                   arcs_, rows_, scratch);
    clk_.lap("sort + rows");
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

  static constexpr double adaptive_factor = 1.0;

  void ensure_threads(int nt) {
    if (static_cast<int>(local.size()) >= nt) return;
    local.resize(static_cast<std::size_t>(nt));
    for (auto& t : local) t.bins.resize(nb);
  }

  int threads() const { return opt.threads > 0 ? opt.threads : omp_get_max_threads(); }

  std::uint64_t bucket_of(float d) const { return static_cast<std::uint64_t>(static_cast<double>(d) * inv_delta); }

  // ---- one search ----
  // Per-search constants shared by the phases.
  std::uint64_t run_base = 0;
  bool split = true;
  std::atomic<bool> overflow{false};
  static constexpr index_t serial_below = 64;   // phases over fewer vertices run on the calling thread
  static constexpr std::size_t drain_limit = 1024;
  static constexpr index_t pf_items = 8;          // queue entries prefetched ahead (phase loops)
  static constexpr std::uint32_t pf_arcs = 16;    // arcs whose head's bound is prefetched ahead  // a thread drains its own current bin up to this size

  // Relax arc k of u (distance du): install (du + w, u) in its head v when strictly smaller and
  // queue v in `me`'s bins unless it is queued in that bucket already (see the stamps).
  GPU500_FORCEINLINE void relax(thread_state& me, index_t u, float du, const arc_t a, std::uint64_t cur_b) {
    const index_t v = static_cast<index_t>(a.v);
    const float nd = du + a.w;
    std::atomic_ref<float> bv(bound[static_cast<std::size_t>(v)]);
    if (!(nd < bv.load(std::memory_order_relaxed))) return;  // cannot improve: skip the 8-byte word
    const std::uint64_t cand = pack(nd, static_cast<std::uint64_t>(u));
    std::atomic_ref<std::uint64_t> kv(key[static_cast<std::size_t>(v)]);
    std::uint64_t old = kv.load(std::memory_order_relaxed);
    while ((cand >> 32) < (old >> 32)) {
      if (kv.compare_exchange_weak(old, cand, std::memory_order_seq_cst, std::memory_order_relaxed)) {
        bv.store(nd, std::memory_order_relaxed);  // racing stores may leave a larger value: still a bound
        std::uint64_t b = bucket_of(nd);
        if (b < cur_b) b = cur_b;  // cannot happen (nd >= du), kept as a guard
        if (b - cur_b >= nb || b >= max_bucket) overflow.store(true, std::memory_order_relaxed);
        const std::uint64_t st = run_base | (b + 1);
        std::atomic_ref<std::uint64_t> sv(stamp[static_cast<std::size_t>(v)]);
        if (sv.load(std::memory_order_seq_cst) != st && sv.exchange(st, std::memory_order_seq_cst) != st)
          me.bins[b % nb].push_back(static_cast<V>(v));
        return;
      }
    }
  }

  // Light step for vertex u taken out of bucket cb: clear its queued stamp, then read its distance.
  GPU500_FORCEINLINE void light_vertex(thread_state& me, index_t u, std::uint64_t cb, std::uint64_t heavy_tag) {
    std::atomic_ref<std::uint64_t> sv(stamp[static_cast<std::size_t>(u)]);
    if (sv.load(std::memory_order_relaxed) != 0) sv.exchange(0, std::memory_order_seq_cst);
    const float du = dist_of(std::atomic_ref<std::uint64_t>(key[static_cast<std::size_t>(u)]).load(std::memory_order_seq_cst));
    if (bucket_of(du) != cb) return;  // stale: improved into an earlier bucket meanwhile
    const row_t r = rows_[static_cast<std::size_t>(u)];
    const arc_t* a = arcs_.get() + r.begin;
    if (split && r.deg > r.light) {  // heavy arcs to relax once the bucket is settled
      std::atomic_ref<std::uint64_t> hv(heavy_stamp[static_cast<std::size_t>(u)]);
      if (hv.load(std::memory_order_relaxed) != heavy_tag && hv.exchange(heavy_tag, std::memory_order_relaxed) != heavy_tag)
        me.settled.push_back(static_cast<V>(u));
    }
    for (std::uint32_t k = 0; k < r.light; ++k) relax(me, u, du, a[k], cb);
  }

  GPU500_FORCEINLINE void heavy_vertex(thread_state& me, index_t u, std::uint64_t cb) {
    const float du = dist_of(std::atomic_ref<std::uint64_t>(key[static_cast<std::size_t>(u)]).load(std::memory_order_relaxed));
    const row_t r = rows_[static_cast<std::size_t>(u)];
    const arc_t* a = arcs_.get() + r.begin;
    const std::uint32_t ahead = r.deg > pf_arcs ? r.deg - pf_arcs : 0;
    std::uint32_t k = r.light;
    for (; k < ahead; ++k) {
      __builtin_prefetch(&bound[a[k + pf_arcs].v]);
      relax(me, u, du, a[k], cb);
    }
    for (; k < r.deg; ++k) relax(me, u, du, a[k], cb);
  }

  // Append a thread's list to dst at an atomically reserved position and clear it.
  static void gather(std::vector<V>& list, V* dst, index_t& tail) {
    if (list.empty()) return;
    const index_t at =
        std::atomic_ref<index_t>(tail).fetch_add(static_cast<index_t>(list.size()), std::memory_order_relaxed);
    std::memcpy(dst + at, list.data(), list.size() * sizeof(V));
    list.clear();
  }

  // Apply body(me, item) to items[0, count): on the calling thread for small counts, else in
  // parallel (dynamic chunks). Then each thread drains its own list out(me) with body while it
  // holds at most `limit` vertices, and what is left of every thread's list is appended to dst.
  template <class Body, class Out, class Pre>
  index_t phase(int nt, const V* items, index_t count, Body&& body, Out&& out, V* dst, Pre&& pre) {
    index_t tail = 0;
    if (count < serial_below || nt == 1) {
      for (index_t i = 0; i < count; ++i) body(local[0], static_cast<index_t>(items[i]));
      drain(local[0], out(local[0]), nt == 1 ? ~std::size_t{0} : static_cast<std::size_t>(serial_below), body);
      for (int t = 0; t < static_cast<int>(local.size()); ++t) gather(out(local[static_cast<std::size_t>(t)]), dst, tail);
      return tail;
    }
#pragma omp parallel num_threads(nt)
    {
      thread_state& me = local[static_cast<std::size_t>(omp_get_thread_num())];
#pragma omp for schedule(dynamic, 32) nowait
      for (index_t i = 0; i < count; ++i) {
        if (i + pf_items < count) pre(static_cast<index_t>(items[i + pf_items]));
        body(me, static_cast<index_t>(items[i]));
      }
      drain(me, out(me), drain_limit, body);
      gather(out(me), dst, tail);  // only this thread's list: no barrier needed before it
    }
    // Lists of threads beyond this region's team (none normally) are gathered here.
    for (std::size_t t = static_cast<std::size_t>(nt); t < local.size(); ++t) gather(out(local[t]), dst, tail);
    return tail;
  }

  // Apply body to the vertices of `list` (this thread's own pushes) while it holds at most
  // `limit` of them; what body pushes meanwhile lands in `list` again.
  template <class Body>
  GPU500_FORCEINLINE void drain(thread_state& me, std::vector<V>& list, std::size_t limit, Body& body) {
    while (!list.empty() && list.size() <= limit) {
      me.work.swap(list);
      for (const V u : me.work) body(me, static_cast<index_t>(u));
      me.work.clear();
    }
  }

  // What a light step and a heavy step of u read first.
  GPU500_FORCEINLINE void prefetch_light(index_t u) const {
    __builtin_prefetch(&stamp[static_cast<std::size_t>(u)]);
    __builtin_prefetch(&key[static_cast<std::size_t>(u)]);
    __builtin_prefetch(&rows_[static_cast<std::size_t>(u)]);
  }
  GPU500_FORCEINLINE void prefetch_heavy(index_t u) const {
    __builtin_prefetch(&key[static_cast<std::size_t>(u)]);
    __builtin_prefetch(&rows_[static_cast<std::size_t>(u)]);
  }

  // Distance from cur to the next bucket: the smallest non-empty one (0: cur again, when a heavy
  // edge re-opened it); nb when every bin is empty.
  std::uint64_t next_bucket(std::uint64_t cur) const {
    std::uint64_t j = nb;
    for (const auto& t : local)
      for (std::uint64_t i = 0; i < j; ++i)
        if (!t.bins[(cur + i) % nb].empty()) {
          j = i;
          break;
        }
    return j;
  }

  // The bucket loop: light iterations of the current bucket until it stays empty, the heavy pass
  // of the vertices it settled, then the next non-empty bucket; one phase() (a parallel region)
  // per light iteration and per heavy pass.
  void search_phases(int nt, V* F, V* F2, V* R, index_t fsize) {
    std::uint64_t cur = 0, visit = 1;
    while (true) {
      const std::uint64_t slot = cur % nb, heavy_tag = run_base | visit;
      // Light iterations of bucket cur until it stays empty.
      while (fsize > 0) {
        fsize = phase(
            nt, F, fsize, [&](thread_state& me, index_t u) GPU500_FORCEINLINE_LAMBDA { light_vertex(me, u, cur, heavy_tag); },
            [slot](thread_state& me) GPU500_FORCEINLINE_LAMBDA -> std::vector<V>& { return me.bins[slot]; }, F2,
            [this](index_t u) GPU500_FORCEINLINE_LAMBDA { prefetch_light(u); });
        std::swap(F, F2);
      }
      // Heavy pass over the vertices settled in this bucket, with their final distances.
      if (split) {
        index_t rs = 0;
        for (auto& t : local) gather(t.settled, R, rs);
        phase(
            nt, R, rs, [&](thread_state& me, index_t u) GPU500_FORCEINLINE_LAMBDA { heavy_vertex(me, u, cur); },
            [](thread_state& me) GPU500_FORCEINLINE_LAMBDA -> std::vector<V>& { return me.settled; }, R,  // settled stays empty
            [this](index_t u) GPU500_FORCEINLINE_LAMBDA { prefetch_heavy(u); });
      }
      const std::uint64_t j = next_bucket(cur);
      if (j == nb) break;
      cur += j;
      ++visit;
      fsize = 0;
      for (auto& t : local) gather(t.bins[cur % nb], F, fsize);
    }
  }

  // Graph500's clean_shortest (untimed in the reference too): every tentative distance and parent
  // to "unreached". run() calls it when the caller did not.
  bool prepared = false;
  void prepare() {
    const int nt = threads();
    const index_t nn = n;
    std::uint64_t* K = key.data();
    float* B = bound.data();
#pragma omp parallel for num_threads(nt) schedule(static)
    for (index_t v = 0; v < nn; ++v) {
      K[v] = unreached;
      B[v] = std::numeric_limits<float>::infinity();
    }
    prepared = true;
  }

  void run(index_t root) {
    GPU500_EXPECTS(root >= 0 && root < n, "sssp: root out of range");
    if (!prepared) prepare();
    prepared = false;
    const int nt = threads();
    ensure_threads(nt);
    ++run_id;
    if (run_id >= (std::uint64_t{1} << (64 - stamp_shift))) {  // stamps would wrap: start over
      std::fill(stamp.begin(), stamp.end(), 0);
      std::fill(heavy_stamp.begin(), heavy_stamp.end(), 0);
      run_id = 1;
    }
    run_base = run_id << stamp_shift;
    split = !opt.no_light_heavy;
    overflow.store(false);
    const index_t nn = n;
    std::uint64_t* K = key.data();
    float* B = bound.data();
    last_root = root;
    root = new_of[static_cast<std::size_t>(root)];  // internal id from here on
    K[root] = pack(0.f, static_cast<std::uint64_t>(root));
    B[root] = 0.f;
    stamp[static_cast<std::size_t>(root)] = run_base | 1;  // queued in bucket 0

    V* F = frontier.data();
    V* F2 = frontier2.data();
    V* R = settled.data();
    F[0] = static_cast<V>(root);
    index_t fsize = 1;
    search_phases(nt, F, F2, R, fsize);
    if (overflow.load())
      throw error("sssp: a tentative distance fell outside the bucket range (delta " + std::to_string(delta) +
                  " too small for these distances, or an internal error)");

    // Output in the graph's ids, from the packed words: a gather (sequential writes, one random
    // read of the vertex's word; the parent's old id is mostly a hub's, cached).
    std::int64_t* P = parents.data();
    float* D = dist.data();
    const std::uint32_t* o2n = new_of.data();
#pragma omp parallel for num_threads(nt) schedule(static)
    for (index_t o = 0; o < nn; ++o) {
      const std::uint64_t kv = K[o2n[o]];
      if (kv == unreached) {
        P[o] = -1;
        D[o] = -1.f;
      } else {
        P[o] = old_of[kv & 0xFFFFFFFFu];
        D[o] = dist_of(kv);
      }
    }
  }

  index_t traversed_edges() const { return last_root < 0 ? 0 : graph::reached_edges(g, parents, threads()); }
};

template <class V>
cpu_engine<V>::cpu_engine(graph::csr_view<V> g, cpu_options o, graph::arc_sort_scratch* scratch)
    : impl_(std::make_unique<impl>(g, o, scratch)) {}
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
std::span<const std::int64_t> cpu_engine<V>::parents() const {
  return impl_->parents;
}
template <class V>
std::span<const float> cpu_engine<V>::distances() const {
  return impl_->dist;
}
template <class V>
index_t cpu_engine<V>::traversed_edges() const {
  return impl_->traversed_edges();
}

template class cpu_engine<std::uint32_t>;
template class cpu_engine<std::int64_t>;

}  // namespace gpu500::sssp
