// src/sssp/cpu/engine_impl.hpp — Graph500 kernel 3 on the host: parallel delta-stepping single-source
// shortest paths (OpenMP), one process or one rank of many (sssp/sssp.hpp). One process is the
// one-rank partition: no request, reduction or exchange is made there and nothing is copied.
//
// Algorithm (Meyer & Sanders, "Delta-stepping: a parallelizable shortest path algorithm", 2003):
// vertices sit in buckets of width delta by tentative distance. The smallest non-empty bucket is
// processed in light iterations: every vertex of the bucket relaxes its light edges (w <= delta),
// which may refill the same bucket, until it stays empty; then every vertex settled in the bucket
// relaxes its heavy edges (w > delta) once, with its now final distance. Relaxations run in
// parallel over the bucket (dynamic chunks); each thread keeps its own bins and the next
// iteration's bucket is gathered from them (GAP-benchmark style, Beamer et al.).
// Over ranks (1-D block partition) every rank does this for the rows it owns, in step (docs/
// distributed.md): a relaxation of an arc to a vertex owned elsewhere is a request (row at the
// owner, distance, parent) sent after the phase in one all-to-all and offered there as a local
// relaxation. No request goes out with a distance above one any rank of the same host has
// offered that vertex in the search: the host's ranks share one table of offers
// (dist::node_shared), whose byte per vertex, the offer's bucket, answers most tests without the
// float. One reduction after each light iteration says whether the bucket is done everywhere; the
// next bucket is a min reduction. A bucket whose settled rows hold a large share of the graph's
// arcs (the hubs' early buckets) pulls instead of pushing its heavy arcs: its vertices and
// distances are all-gathered, and every owned row scans its heavy arcs, kept in ascending weight,
// for them (the rows are symmetric: a row's arcs are the arcs into it) and leaves once lo + w
// passes its best candidate. No request is sent for that bucket.
//
// State of a vertex, one 64-bit word: (float bits of the tentative distance) << 32 | parent.
// Non-negative floats order like their bit patterns, so "strictly smaller distance" is an integer
// comparison, and a relaxation is a CAS loop that installs (d(u) + w, u) only when it is strictly
// smaller: the pair (distance, parent) can never be torn, and every distance is exactly one float
// addition d(parent) + w of the stored weight, read from the parent's word. Distances only
// decrease, every decrease queues the vertex again, so when the run ends d(v) == d(parent) + w
// holds exactly (the last writer relaxed v again with its final distance) and the parent graph
// is a tree (a cycle would need a strict decrease around a cycle of non-negative float sums).
// The parent field holds a head id of the engine's rows, 32 bits: an owned row's internal id
// (below n, the owned rows), or n + the id of a vertex owned elsewhere; on one process the graph
// holds fewer than 2^32 vertices, over ranks n + the graph's vertices stay below 2^32 (checked).
// Unreached vertices get parent -1 and distance -1 (sssp.hpp). A 4-byte copy of each distance
// (`bound`, an upper bound: it is written after each successful CAS) filters the relaxations that
// cannot improve before the 8-byte word is touched (most of them).
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
// lines. Parents and distances are mapped back to the graph's ids at the end of run(). The
// adaptive delta and the bucket ring's size come from the whole graph's weights (reductions).
// Float rounding: a heavy relaxation can in principle land in the current bucket again; such a
// push re-opens the bucket (its light iterations and the heavy pass of the re-processed vertices).
// Files: this header holds the engine's state and its per-vertex and per-phase steps (the hot
// loops, inlined where they are called); engine.cpp builds the engine (kernel 1's part) and holds
// the public members; ranks.cpp the steps that only run over ranks (grouping and exchanging the
// requests, the pull's all-gather, the host's table of offers).
#pragma once

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>

#include "gpu500/core/error.hpp"
#include "gpu500/core/timer.hpp"
#include "gpu500/dist/bitmap.hpp"
#include "gpu500/dist/by_rank.hpp"
#include "gpu500/dist/node_shared.hpp"
#include "gpu500/graph/arc_sort.hpp"
#include "gpu500/sssp/delta.hpp"
#include "gpu500/sssp/sssp.hpp"
#include "rows.hpp"

namespace gpu500::sssp {

template <class V>
struct cpu_engine<V>::impl {
  static constexpr std::uint64_t unreached = ~std::uint64_t{0};  // distance bits 0xFFFFFFFF: above every float
  static constexpr int stamp_shift = 40;                          // stamp = run << 40 | (bucket + 1); 0: not queued
  static constexpr std::uint64_t max_bucket = (std::uint64_t{1} << stamp_shift) - 2;
  /// The offered-bucket byte of a vertex nothing was offered in the search (254: bucket 254 or later).
  static constexpr std::uint8_t no_offer = 255;

  static std::uint64_t pack(float d, std::uint64_t parent) {
    std::uint32_t bits;
    std::memcpy(&bits, &d, sizeof bits);
    return (std::uint64_t{bits} << 32) | parent;
  }
  static float dist_of(std::uint64_t key) {
    const auto bits = static_cast<std::uint32_t>(key >> 32);
    float d;
    std::memcpy(&d, &bits, sizeof d);
    return d;
  }

  /// A relaxation request to the owner of the relaxed vertex: its row there (a block of the
  /// partition holds fewer than 2^32 vertices), the distance and the parent that offers it (a global
  /// id). 16 bytes.
  struct request {
    std::int64_t parent;
    std::uint32_t row;
    float dist;
  };
  static_assert(sizeof(request) == 16);
  /// A vertex of a pulled bucket: its row at its owner and its distance.
  struct pulled {
    std::uint32_t row;
    float dist;
  };

  struct alignas(64) thread_state {
    std::vector<std::vector<V>> bins;  // circular: bucket b lives in bins[b % nb]
    std::vector<V> settled;            // rows processed in the current bucket with heavy arcs (heavy pass)
    std::vector<V> work;               // the part of a bin being drained by its own thread
    index_t settled_arcs = 0;          // the arcs of the rows in `settled` (they decide a pull)
    std::vector<request>* send = nullptr;  // [rank]: this thread's requests of the phase (over ranks)
  };

  using arc_t = detail::row_arc;
  using row_t = detail::row_range;
  detail::phase_clock clk_;
  dist::communicator own_;  // a one-process engine's communicator (one rank)
  const dist::communicator& c_;
  dist::block_partition part_;
  graph::csr_view<V> g;
  cpu_options opt;
  int me = 0, ranks = 1;
  graph::raw_array<arc_t> arcs_;  // not value-initialised: every arc is placed once
  // Per-row arrays are host_vectors (not zeroed by resize) filled by parallel loops.
  graph::host_vector<row_t> rows_;                   // by internal id
  graph::host_vector<std::uint32_t> new_of, old_of;  // row <-> internal id
  index_t n = 0;            // owned rows (the graph's vertices on one process)
  index_t first = 0;        // the first owned vertex
  index_t graph_arcs = 0;   // over every rank (bounds a heavy pass's exchange)
  float delta = 0.1f;
  double inv_delta = 10.0;
  std::uint64_t nb = 0;  // circular bucket slots
  std::uint64_t run_id = 0;
  graph::host_vector<std::uint64_t> key, stamp, heavy_stamp;
  graph::host_vector<float> bound;  // an upper bound of each tentative distance (4 bytes: a cheaper filter)
  graph::host_vector<V> frontier, frontier2, settled;
  graph::host_vector<std::int64_t> parents;
  graph::host_vector<float> dist;
  std::vector<thread_state> local;
  // Over ranks: per vertex of the whole graph, a distance a rank of this host has offered it in
  // this search (the smallest one unless two offers raced) and that offer's bucket as a byte
  // (254 for any later bucket, no_offer before any offer); one copy per host, so that the host's
  // caches hold one and a vertex gets one request from the host, not one from each rank.
  std::optional<dist::node_shared> offers_;
  float* offered_ = nullptr;
  std::uint8_t* offered_bucket_ = nullptr;
  // Over ranks: every thread's requests per rank ([thread * ranks + rank]), the send buffer, its
  // counts and the arrivals, kept between phases.
  std::vector<std::vector<request>> scratch_;
  std::vector<request> out_, in_;
  std::vector<index_t> counts_;
  // Pulls: the share of the graph's arcs that makes a bucket pull, a bitmap of the pulled
  // bucket's head ids (cleared after each pull), the pairs gathered.
  bool pulls = false;
  double pull_share = 2.0;
  std::vector<std::uint64_t> pull_bits_;
  std::vector<pulled> pulled_mine_, pulled_all_;
  std::vector<dist::level_record> levels_;
  double comm_seconds_ = 0;  // this phase's time in exchanges
  index_t last_root = -1;

  // Kernel 1's part of the engine (engine.cpp): the weights checked, delta, the relabelling, the
  // light/heavy rows, the host's table of offers, the per-vertex arrays.
  impl(const dist::communicator* comm, const dist::block_partition& p, graph::csr_view<V> view, cpu_options o,
       graph::arc_sort_scratch* scratch);

  static constexpr double adaptive_factor = 1.0;

  void ensure_threads(int nt) {
    if (static_cast<int>(local.size()) >= nt) return;
    local.resize(static_cast<std::size_t>(nt));
    for (auto& t : local) t.bins.resize(nb);
    if (ranks > 1) {  // the per-thread request buffers (stable: sized here once per team size)
      scratch_.resize(local.size() * static_cast<std::size_t>(ranks));
      for (std::size_t t = 0; t < local.size(); ++t) local[t].send = scratch_.data() + t * static_cast<std::size_t>(ranks);
    }
  }

  int threads() const { return opt.threads > 0 ? opt.threads : omp_get_max_threads(); }

  std::uint64_t bucket_of(float d) const { return static_cast<std::uint64_t>(static_cast<double>(d) * inv_delta); }

  // ---- one search ----
  // Per-search constants shared by the phases.
  std::uint64_t run_base = 0;
  bool split = true;
  std::atomic<bool> overflow{false};
  static constexpr index_t serial_below = 64;       // phases over fewer vertices run on the calling thread
  static constexpr std::size_t drain_limit = 1024;  // a thread drains its own current bin up to this size
  static constexpr index_t pf_items = 8;            // queue entries prefetched ahead (phase loops)
  static constexpr std::uint32_t pf_arcs = 16;      // arcs whose head's bound is prefetched ahead

  // Install (nd, parent) in owned row v (internal id) when strictly smaller, and queue v in `me`'s
  // bins unless it is queued in that bucket already (see the stamps).
  GPU500_FORCEINLINE void offer(thread_state& me, index_t v, float nd, std::uint64_t parent, std::uint64_t cur_b) {
    std::atomic_ref<float> bv(bound[static_cast<std::size_t>(v)]);
    if (!(nd < bv.load(std::memory_order_relaxed))) return;  // cannot improve: skip the 8-byte word
    const std::uint64_t cand = pack(nd, parent);
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

  // Relax arc a of row u (distance du; `from`: u's vertex id, read over ranks only): an owned head
  // is offered the distance in place, a vertex owned elsewhere gets a request to its owner unless
  // a rank of this host has offered it as much already (its offer's bucket byte answers first: a
  // later bucket is above that offer, an earlier one or none yet below it; only the same bucket
  // reads the float). Every byte and float stored is of an offer sent, so a race between threads
  // or ranks (a larger offer stored over a smaller one) only lets a redundant request through.
  // (over_ranks false: one process, where every head is owned and this is offer() alone.)
  template <bool over_ranks>
  GPU500_FORCEINLINE void relax(thread_state& me, index_t u, float du, const arc_t a, std::uint64_t cur_b,
                                std::int64_t from) {
    const float nd = du + a.w;
    if (!over_ranks || static_cast<index_t>(a.v) < n)
      return offer(me, static_cast<index_t>(a.v), nd, static_cast<std::uint64_t>(u), cur_b);
    const index_t v = static_cast<index_t>(a.v) - n;
    const double kd = static_cast<double>(nd) * inv_delta;
    const auto bd = static_cast<std::uint8_t>(kd < no_offer - 1 ? kd : no_offer - 1);
    std::atomic_ref<std::uint8_t> ob(offered_bucket_[v]);
    const std::uint8_t known = ob.load(std::memory_order_relaxed);
    if (bd > known) return;
    std::atomic_ref<float> best(offered_[v]);
    if (bd == known && !(nd < best.load(std::memory_order_relaxed))) return;
    best.store(nd, std::memory_order_relaxed);
    if (bd < known) ob.store(bd, std::memory_order_relaxed);
    me.send[part_.owner(v)].push_back(request{from, static_cast<std::uint32_t>(part_.local(v)), nd});
  }

  std::int64_t vertex_of(index_t u) const { return first + old_of[static_cast<std::size_t>(u)]; }

  // Light step for vertex u taken out of bucket cb: clear its queued stamp, then read its distance.
  template <bool over_ranks>
  GPU500_FORCEINLINE void light_vertex(thread_state& me, index_t u, std::uint64_t cb, std::uint64_t heavy_tag) {
    std::atomic_ref<std::uint64_t> sv(stamp[static_cast<std::size_t>(u)]);
    if (sv.load(std::memory_order_relaxed) != 0) sv.exchange(0, std::memory_order_seq_cst);
    const float du = dist_of(std::atomic_ref<std::uint64_t>(key[static_cast<std::size_t>(u)]).load(std::memory_order_seq_cst));
    if (bucket_of(du) != cb) return;  // stale: improved into an earlier bucket meanwhile
    const row_t r = rows_[static_cast<std::size_t>(u)];
    const arc_t* a = arcs_.get() + r.begin;
    if (split && r.deg > r.light) {  // heavy arcs to relax once the bucket is settled
      std::atomic_ref<std::uint64_t> hv(heavy_stamp[static_cast<std::size_t>(u)]);
      if (hv.load(std::memory_order_relaxed) != heavy_tag && hv.exchange(heavy_tag, std::memory_order_relaxed) != heavy_tag) {
        me.settled.push_back(static_cast<V>(u));
        me.settled_arcs += r.deg;
      }
    }
    const std::int64_t from = over_ranks ? vertex_of(u) : 0;
    for (std::uint32_t k = 0; k < r.light; ++k) relax<over_ranks>(me, u, du, a[k], cb, from);
  }

  template <bool over_ranks>
  GPU500_FORCEINLINE void heavy_vertex(thread_state& me, index_t u, std::uint64_t cb) {
    const float du = dist_of(std::atomic_ref<std::uint64_t>(key[static_cast<std::size_t>(u)]).load(std::memory_order_relaxed));
    const row_t r = rows_[static_cast<std::size_t>(u)];
    const arc_t* a = arcs_.get() + r.begin;
    const std::int64_t from = over_ranks ? vertex_of(u) : 0;
    const std::uint32_t ahead = r.deg > pf_arcs ? r.deg - pf_arcs : 0;
    std::uint32_t k = r.light;
    for (; k < ahead; ++k) {
      const index_t h = a[k + pf_arcs].v;
      if (!over_ranks || h < n)
        __builtin_prefetch(&bound[static_cast<std::size_t>(h)]);
      else
        __builtin_prefetch(offered_bucket_ + (h - n));
      relax<over_ranks>(me, u, du, a[k], cb, from);
    }
    for (; k < r.deg; ++k) relax<over_ranks>(me, u, du, a[k], cb, from);
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
  // Kept out of line: inlined into the bucket loop, the light phase's loop lost registers.
  template <class Body, class Out, class Pre>
  [[gnu::noinline]] index_t phase(int nt, const V* items, index_t count, Body&& body, Out&& out, V* dst, Pre&& pre) {
    index_t tail = 0;
    for (auto& r : scratch_) r.clear();  // over ranks: a thread the runtime does not start leaves none
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

  // Over ranks, after a phase: every thread's requests grouped by owner into out_ / counts_.
  // Returns the bytes for other ranks.
  index_t group_requests();  // ranks.cpp

  // The grouped requests to their owners in one all-to-all (`most`: no rank sends or receives
  // more, the same on every rank), and the arrivals offered to their rows in parallel, a parent
  // on another rank named by its head id here (n + its vertex id).
  void exchange(int nt, std::uint64_t cur_b, index_t most);  // ranks.cpp

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

  index_t settled_arcs() const {
    index_t s = 0;
    for (const auto& t : local) s += t.settled_arcs;
    return s;
  }

  // The heavy step of bucket cur as a pull (R[0, rs): this rank's rows the bucket settled that have
  // heavy arcs). Returns the bytes received from other ranks.
  index_t pull(int nt, const V* R, index_t rs, std::uint64_t cur);  // ranks.cpp

  void record(int phase_no, const char* what, index_t count, index_t bytes, double seconds) {
    dist::record_phase(levels_, comm_seconds_, phase_no, what, count, bytes, seconds);
  }

  // The bucket loop: light iterations of the current bucket until it stays empty (on every rank),
  // the heavy pass (a push, or a pull) of the rows it settled, then the next non-empty bucket
  // (the smallest over the ranks); one phase() (a parallel region) per light iteration and per
  // heavy push, each followed over ranks by the exchange of its requests (bucket_loop.hpp).
  template <bool over_ranks>
  void search_phases(int nt, V* F, V* F2, V* R, index_t fsize);

  // Resets this rank's share of the host's offers, then waits for the host's other ranks (an
  // offer left from the last search would drop a needed request).
  void clear_offers();  // ranks.cpp

  // Graph500's clean_shortest (untimed in the reference too): every tentative distance and parent
  // to "unreached", over ranks nothing offered. run() calls it when the caller did not.
  bool prepared = false;
  void prepare() {
    const int nt = threads();
    const index_t nn = n;
    std::uint64_t* K = key.data();
    float* B = bound.data();
    // The output arrays again after take_result (not zeroed: the loop below touches them first,
    // so that the timed search does not).
    const bool remade = parents.size() != static_cast<std::size_t>(nn);
    parents.resize(static_cast<std::size_t>(nn));
    dist.resize(static_cast<std::size_t>(nn));
    std::int64_t* P = parents.data();
    float* D = dist.data();
#pragma omp parallel for num_threads(nt) schedule(static)
    for (index_t v = 0; v < nn; ++v) {
      K[v] = unreached;
      B[v] = std::numeric_limits<float>::infinity();
      if (remade) {
        P[v] = -1;
        D[v] = -1.f;
      }
    }
    if (offers_) clear_offers();
    prepared = true;
  }

  void run(index_t root) {
    GPU500_EXPECTS(root >= 0 && root < g.num_vertices, "sssp: root out of range");
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
    levels_.clear();
    const index_t nn = n;
    std::uint64_t* K = key.data();
    float* B = bound.data();
    last_root = root;
    V* F = frontier.data();
    V* F2 = frontier2.data();
    V* R = settled.data();
    index_t fsize = 0;
    if (part_.owner(root) == me) {
      const index_t r = new_of[static_cast<std::size_t>(root - first)];  // internal id from here on
      K[r] = pack(0.f, static_cast<std::uint64_t>(r));
      B[r] = 0.f;
      stamp[static_cast<std::size_t>(r)] = run_base | 1;  // queued in bucket 0
      F[0] = static_cast<V>(r);
      fsize = 1;
    }
    if (ranks > 1)
      search_phases<true>(nt, F, F2, R, fsize);
    else
      search_phases<false>(nt, F, F2, R, fsize);
    if (ranks > 1 ? c_.any(overflow.load()) : overflow.load())
      throw error("sssp: a tentative distance fell outside the bucket range (delta " + std::to_string(delta) +
                  " too small for these distances, or an internal error)");

    // Output in the graph's ids, from the packed words: a gather (sequential writes, one random
    // read of the row's word; the parent's old id is mostly a hub's, cached). A parent owned
    // elsewhere is head n + its id.
    std::int64_t* P = parents.data();
    float* D = dist.data();
    const std::uint32_t* o2n = new_of.data();
    const std::int64_t base = first;
#pragma omp parallel for num_threads(nt) schedule(static)
    for (index_t o = 0; o < nn; ++o) {
      const std::uint64_t kv = K[o2n[o]];
      if (kv == unreached) {
        P[o] = -1;
        D[o] = -1.f;
      } else {
        const index_t p = static_cast<index_t>(kv & 0xFFFFFFFFu);
        P[o] = p < nn ? base + old_of[static_cast<std::size_t>(p)] : p - nn;
        D[o] = dist_of(kv);
      }
    }
  }

  index_t traversed_edges() const {
    if (last_root < 0) return 0;
    return graph::search_nedge(c_, g, std::span<const std::int64_t>(parents), opt.directed, threads());
  }
};

}  // namespace gpu500::sssp

#include "bucket_loop.hpp"  // the bucket loop's definition
