// Graph500 kernel 2 on the host: direction-optimising breadth-first search with OpenMP.
//
// Algorithm (Beamer, Asanovic & Patterson, "Direction-Optimizing Breadth-First Search", SC'12):
// - top-down step: the frontier is a queue; each thread scans the adjacency of its share of the
//   queue (dynamic chunks), claims an unvisited neighbour by fetch_or on the visited bitmap (the
//   winner alone writes parents[v]) and appends it to a thread-local buffer that is flushed into
//   the next queue by one fetch_add per 1024 vertices;
// - bottom-up step: the frontier is a bitmap; each thread owns whole 64-vertex words of the
//   visited bitmap, walks the unvisited vertices of its words and stops at the FIRST neighbour
//   found in the frontier bitmap (it becomes the parent). Words are owned, so no atomics.
// - switching: top-down -> bottom-up when the frontier's arcs m_f exceed m_u / alpha (m_u = arcs
//   of the still unvisited vertices); bottom-up -> top-down when the
//   frontier holds fewer than n / beta vertices and shrinks.
// Invariants: visited bit of v set <=> parents[v] != -1 (after each step); the frontier of step
// k holds exactly the vertices of level k, so parents[v] is a vertex of level(v) - 1.
// Buffers (parents, queues, bitmaps) are allocated in the constructor and reused by every run().
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstring>

#include "gpu500/bfs/bfs.hpp"
#include "gpu500/core/error.hpp"

namespace gpu500::bfs {

namespace {

using word_t = std::uint64_t;
constexpr int word_bits = 64;
constexpr std::size_t local_capacity = 1024;  // vertices per thread-local buffer flush
constexpr index_t serial_arcs = 2048;          // top-down steps over fewer frontier arcs run serially
constexpr index_t serial_words = 256;          // bottom-up steps over fewer bitmap words run serially

inline bool test_bit(const word_t* bits, index_t v) {
  return (bits[v >> 6] >> (v & 63)) & 1u;
}

// A thread's buffer of discovered vertices, flushed into a shared queue by one fetch_add on its
// tail per local_capacity vertices (and once at the end).
template <class V>
struct local_queue {
  V* dst;
  index_t* tail;
  std::size_t fill = 0;
  V buf[local_capacity];

  local_queue(V* d, index_t* t) : dst(d), tail(t) {}
  ~local_queue() { flush(); }
  void push(index_t v) {
    buf[fill++] = static_cast<V>(v);
    if (fill == local_capacity) flush();
  }
  void flush() {
    if (!fill) return;
    const index_t at = std::atomic_ref<index_t>(*tail).fetch_add(static_cast<index_t>(fill), std::memory_order_relaxed);
    std::memcpy(dst + at, buf, fill * sizeof(V));
    fill = 0;
  }
};

}  // namespace

template <class V>
struct cpu_engine<V>::impl {
  graph::csr_view<V> g;
  cpu_options opt;
  index_t n = 0, words = 0;
  std::vector<std::int64_t> parents;
  std::vector<V> queue, next_queue;  // top-down frontiers
  std::vector<word_t> visited, front, next;
  index_t queue_size = 0;
  index_t last_root = -1;

  impl(graph::csr_view<V> view, cpu_options o) : g(view), opt(o) {
    GPU500_EXPECTS(g.first_vertex == 0 && g.local_vertices == g.num_vertices,
                   "bfs cpu engine: the graph must be whole (one process owns every vertex)");
    GPU500_EXPECTS(opt.alpha > 0 && opt.beta > 0, "bfs cpu engine: alpha and beta must be positive");
    GPU500_EXPECTS(opt.threads >= 0, "bfs cpu engine: thread count must be >= 0");
    n = g.num_vertices;
    words = (n + word_bits - 1) / word_bits;
    parents.assign(static_cast<std::size_t>(n), -1);
    queue.resize(static_cast<std::size_t>(n));
    next_queue.resize(static_cast<std::size_t>(n));
    visited.assign(static_cast<std::size_t>(words), 0);
    front.assign(static_cast<std::size_t>(words), 0);
    next.assign(static_cast<std::size_t>(words), 0);
  }

  int threads() const { return opt.threads > 0 ? opt.threads : omp_get_max_threads(); }

  // One top-down step from queue[0, queue_size) into next_queue; returns the arcs of the new
  // frontier (sum of its degrees). Small frontiers (few arcs) run on the calling thread alone.
  index_t top_down(int nt, bool parallel) {
    const index_t* off = g.offsets;
    const V* col = g.columns;
    std::int64_t* par = parents.data();
    word_t* vis = visited.data();
    const V* q = queue.data();
    V* nq = next_queue.data();
    const index_t qs = queue_size;
    index_t tail = 0, scout = 0;
#pragma omp parallel num_threads(nt) reduction(+ : scout) if (parallel)
    {
      local_queue<V> out(nq, &tail);
#pragma omp for schedule(dynamic, 64) nowait
      for (index_t i = 0; i < qs; ++i) {
        const index_t u = static_cast<index_t>(q[i]);
        const index_t end = off[u + 1];
        for (index_t k = off[u]; k < end; ++k) {
          const index_t v = static_cast<index_t>(col[k]);
          const word_t bit = word_t{1} << (v & 63);
          if (vis[v >> 6] & bit) continue;  // cheap plain test first
          const word_t old = std::atomic_ref<word_t>(vis[v >> 6]).fetch_or(bit, std::memory_order_relaxed);
          if (old & bit) continue;
          par[v] = u;
          scout += off[v + 1] - off[v];
          out.push(v);
        }
      }
    }
    queue_size = tail;
    queue.swap(next_queue);
    return scout;
  }

  // queue -> front bitmap (before a bottom-up step).
  void queue_to_bitmap(int nt) {
    word_t* fr = front.data();
    const V* q = queue.data();
    const index_t qs = queue_size, w = words;
#pragma omp parallel num_threads(nt) if (w >= serial_words)
    {
#pragma omp for schedule(static)
      for (index_t i = 0; i < w; ++i) fr[i] = 0;
#pragma omp for schedule(static)
      for (index_t i = 0; i < qs; ++i) {
        const index_t v = static_cast<index_t>(q[i]);
        std::atomic_ref<word_t>(fr[v >> 6]).fetch_or(word_t{1} << (v & 63), std::memory_order_relaxed);
      }
    }
  }

  // One bottom-up step from the front bitmap into next (then swapped into front). Returns the
  // number of vertices found; *arcs gets their degree sum.
  index_t bottom_up(int nt, index_t* arcs) {
    const index_t* off = g.offsets;
    const V* col = g.columns;
    std::int64_t* par = parents.data();
    word_t* vis = visited.data();
    const word_t* fr = front.data();
    word_t* nx = next.data();
    const index_t w = words;
    const index_t tail_bits = n % word_bits;
    const word_t last_mask = tail_bits ? (word_t{1} << tail_bits) - 1 : ~word_t{0};
    index_t found = 0, found_arcs = 0;
#pragma omp parallel for num_threads(nt) schedule(dynamic, 16) reduction(+ : found, found_arcs) if (w >= serial_words)
    for (index_t i = 0; i < w; ++i) {
      word_t todo = ~vis[i];
      if (i == w - 1) todo &= last_mask;
      word_t got = 0;
      while (todo) {
        const int b = __builtin_ctzll(todo);
        todo &= todo - 1;
        const index_t v = i * word_bits + b;
        const index_t end = off[v + 1];
        for (index_t k = off[v]; k < end; ++k) {
          const index_t u = static_cast<index_t>(col[k]);
          if (test_bit(fr, u)) {
            par[v] = u;
            got |= word_t{1} << b;
            ++found;
            found_arcs += end - off[v];
            break;
          }
        }
      }
      nx[i] = got;
      vis[i] |= got;
    }
    front.swap(next);
    *arcs = found_arcs;
    return found;
  }

  // front bitmap -> queue (before a top-down step).
  void bitmap_to_queue(int nt) {
    const word_t* fr = front.data();
    V* q = queue.data();
    const index_t w = words;
    index_t tail = 0;
#pragma omp parallel num_threads(nt) if (w >= serial_words)
    {
      local_queue<V> out(q, &tail);
#pragma omp for schedule(static) nowait
      for (index_t i = 0; i < w; ++i) {
        word_t bits = fr[i];
        while (bits) {
          const int b = __builtin_ctzll(bits);
          bits &= bits - 1;
          out.push(i * word_bits + b);
        }
      }
    }
    queue_size = tail;
  }

  // Graph500's clean_pred (untimed in the reference too): parents to -1, the visited bitmap to
  // zero. run() calls it when the caller did not.
  bool prepared = false;
  void prepare() {
    const int nt = threads();
    std::int64_t* par = parents.data();
    word_t* vis = visited.data();
    const index_t nn = n, w = words;
#pragma omp parallel num_threads(nt)
    {
#pragma omp for schedule(static) nowait
      for (index_t v = 0; v < nn; ++v) par[v] = -1;
#pragma omp for schedule(static) nowait
      for (index_t i = 0; i < w; ++i) vis[i] = 0;
    }
    prepared = true;
  }

  void run(index_t root) {
    GPU500_EXPECTS(root >= 0 && root < n, "bfs: root out of range");
    if (!prepared) prepare();
    prepared = false;
    const int nt = threads();
    std::int64_t* par = parents.data();
    word_t* vis = visited.data();
    const index_t nn = n;
    last_root = root;
    par[root] = root;
    vis[root >> 6] |= word_t{1} << (root & 63);
    queue[0] = static_cast<V>(root);
    queue_size = 1;

    const index_t total_arcs = g.num_arcs();
    index_t frontier_arcs = g.degree(root);            // m_f
    index_t unexplored_arcs = total_arcs - frontier_arcs;  // m_u
    index_t frontier_size = 1, prev_size = 0;
    bool bottom = false;
    while (frontier_size > 0) {
      if (!bottom) {
        if (!opt.top_down_only && frontier_arcs > static_cast<double>(unexplored_arcs) / opt.alpha) {
          queue_to_bitmap(nt);
          bottom = true;
        }
      } else if (frontier_size < static_cast<double>(nn) / opt.beta && frontier_size < prev_size) {
        bitmap_to_queue(nt);
        bottom = false;
      }
      prev_size = frontier_size;
      if (bottom) {
        frontier_size = bottom_up(nt, &frontier_arcs);
      } else {
        frontier_arcs = top_down(nt, frontier_arcs >= serial_arcs);
        frontier_size = queue_size;
      }
      unexplored_arcs -= frontier_arcs;
    }
  }

  index_t traversed_edges() const { return last_root < 0 ? 0 : graph::reached_edges(g, parents, threads()); }
};

template <class V>
cpu_engine<V>::cpu_engine(graph::csr_view<V> g, cpu_options o) : impl_(std::make_unique<impl>(g, o)) {}
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
index_t cpu_engine<V>::traversed_edges() const {
  return impl_->traversed_edges();
}

template <class V>
std::vector<std::int64_t> run(graph::csr_view<V> g, index_t root, cpu_options o) {
  cpu_engine<V> e(g, o);
  e.run(root);
  const auto p = e.parents();
  return {p.begin(), p.end()};
}

template class cpu_engine<std::uint32_t>;
template class cpu_engine<std::int64_t>;
template std::vector<std::int64_t> run<std::uint32_t>(graph::csr_view<std::uint32_t>, index_t, cpu_options);
template std::vector<std::int64_t> run<std::int64_t>(graph::csr_view<std::int64_t>, index_t, cpu_options);

}  // namespace gpu500::bfs
