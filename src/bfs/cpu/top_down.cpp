// src/bfs/cpu/top_down.cpp — the top-down step of the host BFS engine (engine_impl.hpp): the
// frontier queue's rows scanned by the threads (by rows, or by arcs when the queue is short), every
// unvisited neighbour owned here claimed into the next queue; over ranks a neighbour owned
// elsewhere becomes a (child, parent) pair for its owner, the pairs exchanged in one all-to-all
// and the arrivals claimed the same way.
#include <omp.h>

#include <algorithm>
#include <atomic>

#include "engine_impl.hpp"
#include "gpu500/core/timer.hpp"
#include "gpu500/dist/by_rank.hpp"

namespace gpu500::bfs {

// The rows of queue[0, queue_size) scanned by `team` threads: every neighbour owned here claimed
// and appended to next_queue at *tail, over ranks every other one a pair in the thread's buffer
// for its owner. Returns the degrees of the rows claimed summed. A long queue is shared by rows
// (dynamic chunks); a short one by its arcs (chunks of arc_chunk arcs, so that a hub alone in
// the frontier is expanded by every thread, not by one). Every pointer and count in a local:
// the loop is the kernel of the level.
template <class V>
template <bool over_ranks, class C>
index_t cpu_engine<V>::impl::scan_frontier(const C* col, int team, index_t* tail) {
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
template <class V>
template <class C>
index_t cpu_engine<V>::impl::top_down(const C* col, int nt, bool parallel, index_t* found_arcs) {
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

#define GPU500_BFS_TOP_DOWN(V, C) template index_t cpu_engine<V>::impl::top_down<C>(const C*, int, bool, index_t*);
GPU500_BFS_TOP_DOWN(std::uint32_t, std::uint32_t)
GPU500_BFS_TOP_DOWN(std::uint32_t, std::int64_t)
GPU500_BFS_TOP_DOWN(std::int64_t, std::uint32_t)
GPU500_BFS_TOP_DOWN(std::int64_t, std::int64_t)
#undef GPU500_BFS_TOP_DOWN

}  // namespace gpu500::bfs
