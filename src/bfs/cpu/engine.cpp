// Graph500 kernel 2 on the host: direction-optimising breadth-first search with OpenMP, one
// process or one rank of many (bfs/bfs.hpp). One process is the one-rank partition: every
// exchange below is skipped there and nothing is copied for it.
//
// Algorithm (Beamer, Asanović & Patterson, "Direction-Optimizing Breadth-First Search", SC'12;
// distributed as in the Graph500 MPI codes), per level, after one reduction of four counts
// (frontier vertices, frontier arcs, unexplored arcs, the last level's bytes) that feeds the
// direction rule (bfs/direction.hpp):
// - top-down: the frontier is a queue of owned rows; each thread scans the rows of its share of
//   the queue (dynamic chunks). A neighbour owned here is claimed in place by fetch_or on the
//   visited bitmap (the winner alone writes its parent) and appended to a thread-local buffer
//   flushed into the next queue by one fetch_add per 1024 rows; a neighbour owned elsewhere
//   becomes a (child, parent) pair in the thread's buffer for its owner. The pairs go out in one
//   all-to-all and the arrivals are claimed the same way.
// - bottom-up: the frontier is a bitmap of the owned rows, all-gathered into the whole graph's
//   bitmap; each thread owns whole 64-row words of the visited bitmap, walks their unvisited rows
//   and stops at the FIRST neighbour in the frontier (it becomes the parent). Words are owned, so
//   no atomics.
// The rows are the engine's own copy (built in the constructor, inside kernel 1): each row in
// descending degree class of its far ends (the bit width of the degree, from every vertex's owner:
// VS-Graph500's order, as the CUDA engines), so that a bottom-up row meets the frontier's hubs
// first, and in 32-bit columns where every id fits, so that a row that finds no parent streams
// half the bytes.
// A directed graph (cpu_options::directed; rows of out-arcs) runs top-down at every level: the
// bottom-up step needs a vertex's in-arcs, and a transposed copy of the rows would double kernel
// 1's sort and the engine's memory; top-down alone is correct on any graph, at the price of the
// direction optimisation's speed-up (docs/graph-files.md, "Directed or undirected").
// Invariants: visited bit of a row set <=> its parent != -1 (after each level); the frontier of
// level k holds exactly the vertices of level k, so a parent is a vertex of level(v) - 1. Levels do
// not depend on the thread or rank count; which of several same-level parents a vertex keeps may.
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>

#include "gpu500/bfs/bfs.hpp"
#include "gpu500/bfs/direction.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/core/timer.hpp"
#include "gpu500/dist/bitmap.hpp"
#include "gpu500/dist/by_rank.hpp"

namespace gpu500::bfs {

namespace {

using word_t = std::uint64_t;
constexpr int word_bits = 64;
constexpr std::size_t local_capacity = 1024;  // rows per thread-local buffer flush
constexpr index_t serial_arcs = 2048;          // top-down levels over fewer frontier arcs run serially
constexpr index_t serial_words = 256;          // bitmap passes over fewer words run serially
constexpr index_t short_queue = 4096;          // top-down queues up to this many rows are shared by arcs
constexpr index_t arc_chunk = 2048;            // ... in chunks of this many arcs

// A thread's buffer of claimed rows, flushed into a shared queue by one fetch_add on its tail per
// local_capacity rows (and once at the end).
struct local_queue {
  index_t* dst;
  index_t* tail;
  std::size_t fill = 0;
  index_t buf[local_capacity];

  local_queue(index_t* d, index_t* t) : dst(d), tail(t) {}
  ~local_queue() { flush(); }
  local_queue(const local_queue&) = delete;
  local_queue& operator=(const local_queue&) = delete;
  void push(index_t v) {
    buf[fill++] = v;
    if (fill == local_capacity) flush();
  }
  void flush() {
    if (!fill) return;
    const index_t at = std::atomic_ref<index_t>(*tail).fetch_add(static_cast<index_t>(fill), std::memory_order_relaxed);
    std::memcpy(dst + at, buf, fill * sizeof(index_t));
    fill = 0;
  }
};

// A (child, parent) pair sent to the child's owner.
struct pair {
  std::int64_t child, parent;
};

}  // namespace

template <class V>
struct cpu_engine<V>::impl {
  dist::communicator own;  // a one-process engine's communicator (one rank)
  const dist::communicator& c;
  dist::block_partition part;
  graph::csr_view<V> g;
  cpu_options opt;
  int me = 0, ranks = 1;
  index_t n = 0, rows = 0, first = 0, words = 0;  // words: of the owned rows' bitmaps
  index_t graph_arcs = 0;                          // over every rank: bounds a level's exchange
  // The owned rows' columns, each row in descending far-end degree class: in 32 bits when every
  // vertex id fits (cols32), else in 64 (cols64); the other stays empty.
  // Arrays of a row or an arc are not value-initialised: their first touch is the parallel loop
  // that fills them, so that their pages spread over the memory of the threads that use them.
  graph::host_vector<std::uint32_t> cols32;
  graph::host_vector<std::int64_t> cols64;
  graph::host_vector<std::int64_t> parent;
  graph::host_vector<index_t> queue, next_queue;  // top-down frontiers (owned rows)
  index_t queue_size = 0;
  graph::host_vector<word_t> visited;       // owned rows
  std::vector<word_t> front, next;           // owned rows
  std::vector<word_t> whole;                 // the frontier over every rank (empty on one rank)
  std::vector<std::vector<pair>> scratch;    // [thread * ranks + rank]: pairs to send
  std::vector<pair> out, in;
  std::vector<index_t> counts;
  std::vector<index_t> arc_start;  // a short queue's rows' first arcs in the sequence of its arcs
  std::vector<dist::level_record> levels;
  double comm_seconds = 0;  // this level's time in exchanges
  bool prepared = false, searched = false;

  impl(const dist::communicator* comm, const dist::block_partition& p, graph::csr_view<V> view, cpu_options o)
      : c(comm ? *comm : own), part(p), g(view), opt(o) {
    GPU500_EXPECTS(opt.alpha > 0 && opt.beta > 0, "bfs cpu engine: alpha and beta must be positive");
    GPU500_EXPECTS(opt.threads >= 0, "bfs cpu engine: thread count must be >= 0");
    me = c.rank();
    ranks = c.size();
    GPU500_EXPECTS(part.ranks() == ranks, "bfs cpu engine: the partition is for another rank count");
    GPU500_EXPECTS(part.holds_rows(me, g), "bfs cpu engine: the graph's rows are not this rank's part of the partition");
    n = g.num_vertices;
    rows = g.local_vertices;
    first = g.first_vertex;
    words = dist::bitmap_words(rows);
    parent.resize(static_cast<std::size_t>(rows));
    queue.resize(static_cast<std::size_t>(rows));
    next_queue.resize(static_cast<std::size_t>(rows));
    visited.resize(static_cast<std::size_t>(words));
    prepare();  // parents to -1 and the visited bitmap to 0, in parallel
    front.assign(static_cast<std::size_t>(words), 0);
    next.assign(static_cast<std::size_t>(words), 0);
    if (ranks > 1) {
      GPU500_EXPECTS(words == dist::bitmap_slice_words(part, me), "bfs cpu engine: a rank's rows start at a word");
      whole.assign(static_cast<std::size_t>(dist::bitmap_words(n)), 0);
    }
    graph_arcs = c.allreduce(g.offsets[rows] - g.offsets[0], dist::reduce_op::sum);
    order_rows_by_degree();
  }

  int threads() const { return opt.threads > 0 ? opt.threads : omp_get_max_threads(); }
  index_t degree(index_t row) const { return g.offsets[row + 1] - g.offsets[row]; }

  // Every vertex's degree class, the bit width of its degree (0 isolated, 1 degree 1, 2 degrees
  // 2-3, ...), from its owner (a byte a vertex, all-gathered over several ranks), and each row
  // copied in descending class of its far ends, its arcs' order kept within a class (a stable
  // counting pass a row: a comparison sort of every row made kernel 1 half again as long).
  void order_rows_by_degree() {
    constexpr int classes = 64;
    const int nt = threads();
    std::vector<std::uint8_t> degree_class(static_cast<std::size_t>(n));
    std::vector<std::uint8_t> mine(ranks > 1 ? static_cast<std::size_t>(rows) : 0);
    std::uint8_t* own_classes = ranks > 1 ? mine.data() : degree_class.data();
#pragma omp parallel for num_threads(nt) schedule(static)
    for (index_t u = 0; u < rows; ++u) own_classes[u] = static_cast<std::uint8_t>(std::bit_width(static_cast<std::uint64_t>(degree(u))));
    if (ranks > 1) {
      std::vector<index_t> sizes(static_cast<std::size_t>(ranks));
      for (int r = 0; r < ranks; ++r) sizes[static_cast<std::size_t>(r)] = part.range(r).count;
      c.allgatherv_bytes(mine.data(), degree_class.data(), sizes.data(), 1);
    }
    const index_t base = g.offsets[0], arcs = g.offsets[rows] - base;
    const std::uint8_t* cls = degree_class.data();
    const auto order = [&](auto* cols) {
      using C = std::remove_pointer_t<decltype(cols)>;
#pragma omp parallel for num_threads(nt) schedule(dynamic, 256)
      for (index_t u = 0; u < rows; ++u) {
        const index_t b = g.offsets[u], e = g.offsets[u + 1];
        index_t at[classes] = {};
        for (index_t k = b; k < e; ++k) ++at[classes - 1 - cls[static_cast<index_t>(g.columns[k])]];
        index_t next_at = b;  // at[j]: where class slot j's arcs start
        for (index_t& a : at) next_at += std::exchange(a, next_at);
        for (index_t k = b; k < e; ++k) {
          const auto v = static_cast<index_t>(g.columns[k]);
          cols[at[classes - 1 - cls[v]]++] = static_cast<C>(v);
        }
      }
    };
    if (!opt.wide_columns && n <= static_cast<index_t>(std::numeric_limits<std::uint32_t>::max())) {
      cols32.resize(static_cast<std::size_t>(arcs));
      order(cols32.data() - base);
    } else {
      cols64.resize(static_cast<std::size_t>(arcs));
      order(cols64.data() - base);
    }
  }

  // Claims owned row l for parent p in the visited bitmap vis: true for the one caller that set
  // its bit (it alone writes par[l]).
  static bool claim(word_t* vis, std::int64_t* par, index_t l, std::int64_t p) {
    const word_t bit = word_t{1} << (l & 63);
    word_t* w = vis + (l >> 6);
    if (*w & bit) return false;  // a cheap plain test first
    if (std::atomic_ref<word_t>(*w).fetch_or(bit, std::memory_order_relaxed) & bit) return false;
    par[l] = p;
    return true;
  }

  // The rows of queue[0, queue_size) scanned by `team` threads: every neighbour owned here claimed
  // and appended to next_queue at *tail, over ranks every other one a pair in the thread's buffer
  // for its owner. Returns the degrees of the rows claimed summed. A long queue is shared by rows
  // (dynamic chunks); a short one by its arcs (chunks of arc_chunk arcs, so that a hub alone in
  // the frontier is expanded by every thread, not by one). Every pointer and count in a local:
  // the loop is the kernel of the level.
  template <bool over_ranks, class C>
  index_t scan_frontier(const C* col, int team, index_t* tail) {
    const index_t* off = g.offsets;
    const index_t* q = queue.data();
    const index_t qs = queue_size;
    word_t* vis = visited.data();
    std::int64_t* par = parent.data();
    index_t* nq = next_queue.data();
    const index_t base = first;
    const int self = me, nr = ranks;
    const dist::block_partition pt = part;
    std::vector<pair>* slots = scratch.data();
    const bool by_arcs = team > 1 && qs <= short_queue;
    if (by_arcs) {  // the queue's arcs as one sequence: row i's start at arc_start[i]
      arc_start.resize(static_cast<std::size_t>(qs) + 1);
      arc_start[0] = 0;
      for (index_t i = 0; i < qs; ++i) arc_start[i + 1] = arc_start[i] + off[q[i] + 1] - off[q[i]];
    }
    const index_t* start = arc_start.data();
    const index_t chunks = by_arcs ? (start[qs] + arc_chunk - 1) / arc_chunk : 0;
    index_t arcs = 0;
#pragma omp parallel num_threads(team) reduction(+ : arcs)
    {
      local_queue found(nq, tail);
      std::vector<pair>* send = over_ranks ? slots + static_cast<std::size_t>(omp_get_thread_num()) * nr : nullptr;
      // Arcs [k, end) of row u.
      const auto scan = [&](index_t u, index_t k, index_t end) {
        const std::int64_t from = base + u;
        for (; k < end; ++k) {
          auto l = static_cast<index_t>(col[k]);  // one rank: the row is the vertex
          if constexpr (over_ranks) {
            const int owner = pt.owner(l);
            if (owner != self) {
              send[owner].push_back(pair{l, from});
              continue;
            }
            l -= base;
          }
          if (claim(vis, par, l, from)) {
            found.push(l);
            arcs += off[l + 1] - off[l];
          }
        }
      };
      if (by_arcs) {
#pragma omp for schedule(dynamic, 1) nowait
        for (index_t c = 0; c < chunks; ++c) {
          const index_t lo = c * arc_chunk, hi = std::min(lo + arc_chunk, start[qs]);
          index_t i = std::upper_bound(start, start + qs + 1, lo) - start - 1;
          for (; i < qs && start[i] < hi; ++i) {
            const index_t u = q[i];
            scan(u, off[u] + std::max(lo - start[i], index_t{0}), off[u] + std::min(hi, start[i + 1]) - start[i]);
          }
        }
      } else {
#pragma omp for schedule(dynamic, 64) nowait
        for (index_t i = 0; i < qs; ++i) scan(q[i], off[q[i]], off[q[i] + 1]);
      }
    }
    return arcs;
  }

  // One top-down level from queue[0, queue_size) into next_queue. Returns the bytes sent to other
  // ranks; *found_arcs gets the degrees of the rows claimed here summed.
  template <class C>
  index_t top_down(const C* col, int nt, bool parallel, index_t* found_arcs) {
    index_t tail = 0;
    const int team = parallel ? nt : 1;
    if (ranks == 1) {
      *found_arcs = scan_frontier<false>(col, team, &tail);
      queue_size = tail;
      queue.swap(next_queue);
      return 0;
    }
    // Every slot emptied here: a thread the runtime does not start leaves its own empty.
    const auto slots = static_cast<std::size_t>(team) * static_cast<std::size_t>(ranks);
    if (scratch.size() < slots) scratch.resize(slots);
    for (std::size_t i = 0; i < slots; ++i) scratch[i].clear();
    index_t arcs = scan_frontier<true>(col, team, &tail);
    dist::concat_by_rank(ranks, team, scratch, out, counts);
    index_t bytes = 0;
    for (int r = 0; r < ranks; ++r)
      if (r != me) bytes += counts[static_cast<std::size_t>(r)] * static_cast<index_t>(sizeof(pair));
    stopwatch t;
    // At most one pair per arc leaves or reaches a rank: the graph's arcs bound the exchange.
    c.alltoallv_into<pair>(out, counts, in, nullptr, graph_arcs);
    comm_seconds += t.seconds();
    const auto received = static_cast<index_t>(in.size());
    const pair* a = in.data();
    word_t* vis = visited.data();
    std::int64_t* par = parent.data();
    const index_t* off = g.offsets;
    const index_t base = first;
#pragma omp parallel num_threads(nt) reduction(+ : arcs)
    {
      local_queue found(next_queue.data(), &tail);
#pragma omp for schedule(static) nowait
      for (index_t i = 0; i < received; ++i) {
        const index_t l = a[i].child - base;
        if (claim(vis, par, l, a[i].parent)) {
          found.push(l);
          arcs += off[l + 1] - off[l];
        }
      }
    }
    queue_size = tail;
    queue.swap(next_queue);
    *found_arcs = arcs;
    return bytes;
  }

  // One bottom-up level from the front bitmap into next (then swapped into front). Returns the
  // bytes sent to other ranks; *found and *found_arcs get the rows found and their degrees summed.
  template <class C>
  index_t bottom_up(const C* col, int nt, index_t* found, index_t* found_arcs) {
    const word_t* bits = front.data();  // one rank: the owned rows are the whole graph
    if (ranks > 1) {
      stopwatch t;
      dist::allgather_bitmap(c, part, front.data(), whole.data());
      comm_seconds += t.seconds();
      bits = whole.data();
    }
    const index_t* off = g.offsets;
    std::int64_t* par = parent.data();
    word_t* vis = visited.data();
    word_t* nx = next.data();
    const index_t w = words;
    const index_t tail_bits = rows % word_bits;
    const word_t last_mask = tail_bits ? (word_t{1} << tail_bits) - 1 : ~word_t{0};
    index_t count = 0, arcs = 0;
#pragma omp parallel for num_threads(nt) schedule(dynamic, 16) reduction(+ : count, arcs) if (w >= serial_words)
    for (index_t i = 0; i < w; ++i) {
      word_t todo = ~vis[i];
      if (i == w - 1) todo &= last_mask;
      word_t got = 0;
      while (todo) {
        const int b = std::countr_zero(todo);
        todo &= todo - 1;
        const index_t l = i * word_bits + b;
        const index_t end = off[l + 1];
        for (index_t k = off[l]; k < end; ++k) {
          const auto u = static_cast<index_t>(col[k]);
          if (dist::test_bit(bits, u)) {
            par[l] = u;
            got |= word_t{1} << b;
            ++count;
            arcs += end - off[l];
            break;
          }
        }
      }
      nx[i] = got;
      vis[i] |= got;
    }
    front.swap(next);
    *found = count;
    *found_arcs = arcs;
    return ranks > 1 ? w * static_cast<index_t>(sizeof(word_t)) * (ranks - 1) : 0;
  }

  // queue -> front bitmap (before a bottom-up level).
  void queue_to_bitmap(int nt) {
    word_t* fr = front.data();
    const index_t* q = queue.data();
    const index_t qs = queue_size, w = words;
#pragma omp parallel num_threads(nt) if (w >= serial_words)
    {
#pragma omp for schedule(static)
      for (index_t i = 0; i < w; ++i) fr[i] = 0;
#pragma omp for schedule(static)
      for (index_t i = 0; i < qs; ++i)
        std::atomic_ref<word_t>(fr[q[i] >> 6]).fetch_or(word_t{1} << (q[i] & 63), std::memory_order_relaxed);
    }
  }

  // front bitmap -> queue (before a top-down level).
  void bitmap_to_queue(int nt) {
    const word_t* fr = front.data();
    const index_t w = words;
    index_t tail = 0;
#pragma omp parallel num_threads(nt) if (w >= serial_words)
    {
      local_queue out_queue(queue.data(), &tail);
#pragma omp for schedule(static) nowait
      for (index_t i = 0; i < w; ++i)
        for (word_t bits = fr[i]; bits; bits &= bits - 1) out_queue.push(i * word_bits + std::countr_zero(bits));
    }
    queue_size = tail;
  }

  // Graph500's clean_pred (untimed in the reference too): parents to -1, the visited bitmap to
  // zero. run() calls it when the caller did not.
  void prepare() {
    const int nt = threads();
    std::int64_t* par = parent.data();
    word_t* vis = visited.data();
    const index_t nr = rows, w = words;
#pragma omp parallel num_threads(nt)
    {
#pragma omp for schedule(static) nowait
      for (index_t v = 0; v < nr; ++v) par[v] = -1;
#pragma omp for schedule(static) nowait
      for (index_t i = 0; i < w; ++i) vis[i] = 0;
    }
    prepared = true;
  }

  template <class C>
  void search(const C* col, index_t root) {
    const int nt = threads();
    levels.clear();
    queue_size = 0;
    index_t frontier_arcs = 0;  // of the owned frontier
    if (part.owner(root) == me) {
      const index_t l = root - first;
      claim(visited.data(), parent.data(), l, root);
      queue[0] = l;
      queue_size = 1;
      frontier_arcs = degree(l);
    }
    index_t frontier = queue_size;                                     // owned frontier rows
    index_t unexplored = g.offsets[rows] - g.offsets[0] - frontier_arcs;  // arcs of unvisited owned rows
    const direction_rule rule{opt.alpha, opt.beta, opt.top_down_only || opt.directed};
    bool bottom = false;
    index_t last_bytes = 0, previous_frontier = 0;
    for (int level = 0;; ++level) {
      stopwatch sw;
      comm_seconds = 0;
      // Global frontier vertices and arcs, unexplored arcs, and the last level's bytes: one
      // reduction (none on one rank).
      index_t sums[4] = {frontier, frontier_arcs, unexplored, last_bytes};
      if (ranks > 1) {
        stopwatch t;
        c.allreduce(sums, 4, dist::reduce_op::sum);
        comm_seconds += t.seconds();
      }
      if (!levels.empty()) levels.back().bytes = sums[3];
      if (sums[0] == 0) break;
      const bool was_bottom = bottom;
      bottom = rule.bottom_up(bottom, {sums[0], previous_frontier, sums[1], sums[2], n});
      previous_frontier = sums[0];
      if (bottom && !was_bottom) queue_to_bitmap(nt);
      if (!bottom && was_bottom) bitmap_to_queue(nt);
      if (bottom) {
        last_bytes = bottom_up(col, nt, &frontier, &frontier_arcs);
      } else {
        last_bytes = top_down(col, nt, ranks > 1 || frontier_arcs >= serial_arcs, &frontier_arcs);
        frontier = queue_size;
      }
      unexplored -= frontier_arcs;
      dist::record_phase(levels, comm_seconds, level, bottom ? "bottom-up" : "top-down", sums[0], 0, sw.seconds());
    }
  }

  void run(index_t root) {
    GPU500_EXPECTS(root >= 0 && root < n, "bfs: root out of range");
    if (!prepared) prepare();
    prepared = false;
    searched = true;
    const index_t base = g.offsets[0];
    if (cols32.empty())
      search(cols64.data() - base, root);
    else
      search(cols32.data() - base, root);
  }

  index_t traversed_edges() const {
    return searched ? graph::search_nedge(c, g, std::span<const std::int64_t>(parent), opt.directed, threads()) : 0;
  }
};

template <class V>
cpu_engine<V>::cpu_engine(graph::csr_view<V> g, cpu_options o)
    : impl_(std::make_unique<impl>(nullptr, dist::block_partition(g.num_vertices, 1), g, o)) {}
template <class V>
cpu_engine<V>::cpu_engine(const dist::communicator& c, const dist::block_partition& part, graph::csr_view<V> g,
                          cpu_options o)
    : impl_(std::make_unique<impl>(&c, part, g, o)) {}
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
std::span<std::int64_t> cpu_engine<V>::parents() {
  return impl_->parent;
}
template <class V>
std::span<const std::int64_t> cpu_engine<V>::parents() const {
  return impl_->parent;
}
template <class V>
index_t cpu_engine<V>::traversed_edges() const {
  return impl_->traversed_edges();
}
template <class V>
const std::vector<dist::level_record>& cpu_engine<V>::levels() const {
  return impl_->levels;
}

template <class V>
std::vector<std::int64_t> run(graph::csr_view<V> g, index_t root, cpu_options o) {
  cpu_engine<V> e(g, o);
  e.run(root);
  const auto p = std::as_const(e).parents();
  return {p.begin(), p.end()};
}

template class cpu_engine<std::uint32_t>;
template class cpu_engine<std::int64_t>;
template std::vector<std::int64_t> run<std::uint32_t>(graph::csr_view<std::uint32_t>, index_t, cpu_options);
template std::vector<std::int64_t> run<std::int64_t>(graph::csr_view<std::int64_t>, index_t, cpu_options);

}  // namespace gpu500::bfs
