// gpu500/dist/by_rank.hpp — grouping of outgoing items by destination rank on the host,
// OpenMP-parallel and deterministic: the send buffer of every exchange of the host engines
// (kernel 1's arcs, BFS (child, parent) pairs, SSSP requests, the validator's questions) is built
// with it. group_by_rank counts then fills (no scratch memory); concat_by_rank joins per-thread
// buffers that a loop filled itself (the BFS, the SSSP's relaxations) rank by rank.
//
// Items [0, slices.back()) are cut into one slice per thread; emit(i, out) calls out(rank, value)
// for every value item i sends. It is called twice per item (count, then fill), so it must emit
// the same values both times. Within one rank's block, values keep item order, then emission
// order, whatever the thread count: the buffer is the serial loop's, bit for bit.
#pragma once

#include <omp.h>

#include <algorithm>
#include <span>
#include <vector>

#include "gpu500/core/types.hpp"
#include "gpu500/graph/arc_sort.hpp"

namespace gpu500::dist {

/// out[...]: the values in rank order; counts[r]: how many go to rank r. out(rank, value) returns
/// the value's position in `out` (meaningful in the fill pass, the second call).
template <class T, class Emit>
void group_by_rank(int ranks, std::span<const index_t> slices, Emit&& emit, std::vector<T>& out,
                   std::vector<index_t>& counts) {
  const auto R = static_cast<std::size_t>(ranks);
  const int T_ = static_cast<int>(slices.size()) - 1;
  std::vector<index_t> cursor(static_cast<std::size_t>(T_) * R, 0);  // [thread][rank]
#pragma omp parallel num_threads(T_)
  for (int t = omp_get_thread_num(); t < T_; t += omp_get_num_threads()) {
    index_t* mine = cursor.data() + static_cast<std::size_t>(t) * R;
    for (index_t i = slices[t]; i < slices[t + 1]; ++i)
      emit(i, [mine](int r, const T&) -> index_t {
        ++mine[r];
        return 0;
      });
  }
  counts.assign(R, 0);
  index_t total = 0;
  for (std::size_t r = 0; r < R; ++r)
    for (std::size_t t = 0; t < static_cast<std::size_t>(T_); ++t) {
      const index_t c = cursor[t * R + r];
      cursor[t * R + r] = total;
      total += c;
      counts[r] += c;
    }
  out.resize(static_cast<std::size_t>(total));
  T* o = out.data();
#pragma omp parallel num_threads(T_)
  for (int t = omp_get_thread_num(); t < T_; t += omp_get_num_threads()) {
    index_t* mine = cursor.data() + static_cast<std::size_t>(t) * R;
    for (index_t i = slices[t]; i < slices[t + 1]; ++i)
      emit(i, [mine, o](int r, const T& v) -> index_t {
        const index_t p = mine[r]++;
        o[p] = v;
        return p;
      });
  }
}

/// Concatenates per-thread buffers rank by rank in thread order: scratch[t * ranks + r] holds
/// thread t's values for rank r (t < threads); out gets them in rank order, counts[r] how many
/// go to rank r. `out` keeps its capacity between calls.
template <class T>
void concat_by_rank(int ranks, int threads, const std::vector<std::vector<T>>& scratch, std::vector<T>& out,
                    std::vector<index_t>& counts) {
  const auto R = static_cast<std::size_t>(ranks);
  const auto T_ = static_cast<std::size_t>(threads);
  counts.assign(R, 0);
  std::vector<std::size_t> at(T_ * R);
  std::size_t total = 0;
  for (std::size_t r = 0; r < R; ++r)
    for (std::size_t t = 0; t < T_; ++t) {
      at[t * R + r] = total;
      total += scratch[t * R + r].size();
      counts[r] += static_cast<index_t>(scratch[t * R + r].size());
    }
  out.resize(total);
  T* o = out.data();
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < T_ * R; ++i)
    std::copy(scratch[i].begin(), scratch[i].end(), o + at[i]);
}

/// Slices of equal item counts for every thread of this rank.
inline std::vector<index_t> item_slices(index_t n) { return graph::even_slices(n, omp_get_max_threads()); }

}  // namespace gpu500::dist
