// src/sssp/cpu/bucket_loop.hpp — the host delta-stepping engine's bucket loop (one process and
// over ranks): light iterations of the current bucket until it stays empty on every rank, the
// heavy pass (a push, or a pull) of the rows it settled, then the next non-empty bucket (the
// smallest over the ranks). One phase() (a parallel region) per light iteration and per heavy
// push, each followed over ranks by the exchange of its requests. Included by engine_impl.hpp,
// whose class it completes.
#pragma once

#include "engine_impl.hpp"

namespace gpu500::sssp {

template <class V>
template <bool over_ranks>
inline void cpu_engine<V>::impl::search_phases(int nt, V* F, V* F2, V* R, index_t fsize) {
  std::uint64_t cur = 0, visit = 1;
  int phase_no = 0;
  while (true) {
    const std::uint64_t slot = cur % nb, heavy_tag = run_base | visit;
    for (auto& t : local) t.settled_arcs = 0;
    index_t bucket_arcs = 0;  // of the rows the bucket settled, over the ranks
    // Light iterations of bucket cur until it stays empty.
    for (bool more = true; more;) {
      stopwatch sw;
      comm_seconds_ = 0;
      const index_t count = fsize;
      fsize = phase(
          nt, F, fsize, [&](thread_state& me, index_t u) GPU500_FORCEINLINE_LAMBDA { light_vertex<over_ranks>(me, u, cur, heavy_tag); },
          [slot](thread_state& me) GPU500_FORCEINLINE_LAMBDA -> std::vector<V>& { return me.bins[slot]; }, F2,
          [this](index_t u) GPU500_FORCEINLINE_LAMBDA { prefetch_light(u); });
      index_t bytes = 0;
      more = fsize > 0;
      if (over_ranks) {
        // One reduction: what is left of the bucket anywhere (rows not taken yet, requests in
        // flight: none ends it), the requests (they bound the exchange) and the settled arcs.
        bytes = group_requests();
        const auto sent = static_cast<index_t>(out_.size());
        index_t sums[3] = {fsize + sent, sent, settled_arcs()};
        stopwatch t;
        c_.allreduce(sums, 3, dist::reduce_op::sum);
        comm_seconds_ += t.seconds();
        if (sums[1] > 0) {  // the arrivals in this bucket join the next iteration
          exchange(nt, cur, sums[1]);
          for (auto& t : local) gather(t.bins[slot], F2, fsize);
        }
        more = sums[0] > 0;
        bucket_arcs = sums[2];
      }
      std::swap(F, F2);
      record(phase_no++, split ? "light" : "all", count, bytes, sw.seconds());
    }
    // Heavy pass over the rows settled in this bucket, with their final distances: pushed, or
    // pulled where they hold pull_share of the graph's arcs (every rank decides alike).
    if (split) {
      stopwatch sw;
      comm_seconds_ = 0;
      index_t rs = 0;
      for (auto& t : local) gather(t.settled, R, rs);
      if (!over_ranks) bucket_arcs = settled_arcs();
      const bool pull_now =
          pulls && static_cast<double>(bucket_arcs) >= pull_share * static_cast<double>(graph_arcs);
      index_t bytes = 0;
      if (pull_now) {
        bytes = pull(nt, R, rs, cur);
      } else {
        phase(
            nt, R, rs, [&](thread_state& me, index_t u) GPU500_FORCEINLINE_LAMBDA { heavy_vertex<over_ranks>(me, u, cur); },
            [](thread_state& me) GPU500_FORCEINLINE_LAMBDA -> std::vector<V>& { return me.settled; }, R,  // settled stays empty
            [this](index_t u) GPU500_FORCEINLINE_LAMBDA { prefetch_heavy(u); });
        if (over_ranks) {  // each row once: at most one request per arc
          bytes = group_requests();
          exchange(nt, cur, graph_arcs);
        }
      }
      record(phase_no++, pull_now ? "pull" : "heavy", rs, bytes, sw.seconds());
    }
    std::uint64_t j = next_bucket(cur);
    if (over_ranks) {  // the smallest next bucket over the ranks (none: every rank's bins empty)
      const index_t next = c_.allreduce(j == nb ? std::numeric_limits<index_t>::max() : static_cast<index_t>(cur + j),
                                        dist::reduce_op::min);
      j = next == std::numeric_limits<index_t>::max() ? nb : static_cast<std::uint64_t>(next) - cur;
    }
    if (j == nb) break;
    cur += j;
    ++visit;
    fsize = 0;
    for (auto& t : local) gather(t.bins[cur % nb], F, fsize);
  }
  if (over_ranks) dist::sum_over_ranks(c_, levels_);  // the trace's counts and bytes: one reduction
}

}  // namespace gpu500::sssp
