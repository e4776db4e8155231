// graph::chain_like (gpu500/graph/edge_list.hpp): whether a graph is paths and cycles only, the
// shape on which `--backend auto` takes the CPU backend (a level of one or two vertices costs the
// GPU a device round trip or a grid barrier, and a host core less).
#include <algorithm>
#include <cstdint>
#include <vector>

#include "gpu500/graph/edge_list.hpp"

namespace gpu500::graph {

bool chain_like(const std::int64_t* src, const std::int64_t* dst, index_t m, index_t n) {
  if (m > n) return false;  // 2m edge ends over n vertices: one has three or more
  // The answer's memory follows the edges, not the vertex count: a file of two edges may name a
  // vertex 2^40 (n bytes of counters would then be a terabyte). Where n is far above the edge
  // ends, the ends are sorted and each run's length is its vertex's count.
  if (n > 4 * m + 1024) {
    std::vector<std::int64_t> ends;
    ends.reserve(2 * static_cast<std::size_t>(m));
    for (index_t i = 0; i < m; ++i)
      for (const std::int64_t v : {src[i], dst[i]})
        if (v >= 0 && v < n) ends.push_back(v);  // the readers refuse other ids; nothing to count
    std::sort(ends.begin(), ends.end());
    for (std::size_t i = 2; i < ends.size(); ++i)
      if (ends[i] == ends[i - 2]) return false;
    return true;
  }
  std::vector<std::uint8_t> ends(static_cast<std::size_t>(n), 0);
  for (index_t i = 0; i < m; ++i)
    for (const std::int64_t v : {src[i], dst[i]}) {
      if (v < 0 || v >= n) continue;
      if (++ends[static_cast<std::size_t>(v)] > 2) return false;
    }
  return true;
}

}  // namespace gpu500::graph
