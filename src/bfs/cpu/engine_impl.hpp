// src/bfs/cpu/engine_impl.hpp — Graph500 kernel 2 on the host: direction-optimising breadth-first
// search with OpenMP, one process or one rank of many (bfs/bfs.hpp). One process is the one-rank
// partition: every exchange below is skipped there and nothing is copied for it.
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
// Files: this header holds the engine's state and its helpers (the thread-local queue, the claim
// of a row); engine.cpp builds the engine (the rows' copy in degree-class order, kernel 1's part),
// resets it (prepare) and holds the public members; search.cpp the level loop (the direction rule,
// the switches between queue and bitmap); top_down.cpp and bottom_up.cpp the two steps of a level.
#pragma once

#include <omp.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <vector>

#include "gpu500/bfs/bfs.hpp"

namespace gpu500::bfs {

template <class V>
struct cpu_engine<V>::impl {
  using word_t = std::uint64_t;
  static constexpr int word_bits = 64;
  static constexpr std::size_t local_capacity = 1024;  // rows per thread-local buffer flush
  static constexpr index_t serial_arcs = 2048;  // top-down levels over fewer frontier arcs run serially
  static constexpr index_t serial_words = 256;  // bitmap passes over fewer words run serially
  static constexpr index_t short_queue = 4096;  // top-down queues up to this many rows are shared by arcs
  static constexpr index_t arc_chunk = 2048;    // ... in chunks of this many arcs

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

  impl(const dist::communicator* comm, const dist::block_partition& p, graph::csr_view<V> view,
       cpu_options o);
  int threads() const { return opt.threads > 0 ? opt.threads : omp_get_max_threads(); }
  index_t degree(index_t row) const { return g.offsets[row + 1] - g.offsets[row]; }

  // Every vertex's degree class and each row copied in descending class of its far ends (engine.cpp).
  void order_rows_by_degree();

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

  // The steps of a level (top_down.cpp, bottom_up.cpp; scan_frontier is top-down's kernel).
  template <bool over_ranks, class C>
  index_t scan_frontier(const C* col, int team, index_t* tail);
  template <class C>
  index_t top_down(const C* col, int nt, bool parallel, index_t* found_arcs);
  template <class C>
  index_t bottom_up(const C* col, int nt, index_t* found, index_t* found_arcs);

  // The level loop and the switches of the frontier's form (search.cpp).
  void queue_to_bitmap(int nt);
  void bitmap_to_queue(int nt);
  template <class C>
  void search(const C* col, index_t root);
  void run(index_t root);

  // engine.cpp.
  void prepare();
  index_t traversed_edges() const;
};

}  // namespace gpu500::bfs
