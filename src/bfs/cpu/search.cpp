// src/bfs/cpu/search.cpp — the level loop of the host BFS engine (engine_impl.hpp): one search
// from a root, level by level, after one reduction of four counts a level (frontier vertices,
// frontier arcs, unexplored arcs, the last level's bytes) that feeds the direction rule
// (bfs/direction.hpp); the frontier switched between its queue (top-down) and bitmap (bottom-up)
// forms when the direction changes; each level recorded (dist/trace.hpp).
#include <omp.h>

#include <atomic>
#include <bit>

#include "engine_impl.hpp"
#include "gpu500/bfs/direction.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/core/timer.hpp"

namespace gpu500::bfs {

// queue -> front bitmap (before a bottom-up level).
template <class V>
void cpu_engine<V>::impl::queue_to_bitmap(int nt) {
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
template <class V>
void cpu_engine<V>::impl::bitmap_to_queue(int nt) {
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

// One search from root over the columns col (cols32 or cols64, indexed by the graph's arc offsets).
template <class V>
template <class C>
void cpu_engine<V>::impl::search(const C* col, index_t root) {
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

template <class V>
void cpu_engine<V>::impl::run(index_t root) {
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

template void cpu_engine<std::uint32_t>::impl::run(index_t);
template void cpu_engine<std::int64_t>::impl::run(index_t);

}  // namespace gpu500::bfs
