// src/bfs/cpu/bottom_up.cpp — the bottom-up step of the host BFS engine (engine_impl.hpp): the
// frontier bitmap (all-gathered over ranks into the whole graph's); each thread owns whole 64-row
// words of the visited bitmap, walks their unvisited rows and stops at the first neighbour in the
// frontier, which becomes the parent. Words are owned, so no atomics.
#include <omp.h>

#include <bit>

#include "engine_impl.hpp"
#include "gpu500/core/timer.hpp"
#include "gpu500/dist/bitmap.hpp"

namespace gpu500::bfs {

// One bottom-up level from the front bitmap into next (then swapped into front). Returns the
// bytes sent to other ranks; *found and *found_arcs get the rows found and their degrees summed.
template <class V>
template <class C>
index_t cpu_engine<V>::impl::bottom_up(const C* col, int nt, index_t* found, index_t* found_arcs) {
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

#define GPU500_BFS_BOTTOM_UP(V, C) \
  template index_t cpu_engine<V>::impl::bottom_up<C>(const C*, int, index_t*, index_t*);
GPU500_BFS_BOTTOM_UP(std::uint32_t, std::uint32_t)
GPU500_BFS_BOTTOM_UP(std::uint32_t, std::int64_t)
GPU500_BFS_BOTTOM_UP(std::int64_t, std::uint32_t)
GPU500_BFS_BOTTOM_UP(std::int64_t, std::int64_t)
#undef GPU500_BFS_BOTTOM_UP

}  // namespace gpu500::bfs
