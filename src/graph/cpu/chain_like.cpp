// graph::chain_like (gpu500/graph/edge_list.hpp): whether a graph is paths and cycles only, the
// shape on which `--backend auto` takes the CPU backend (a level of one or two vertices costs the
// GPU a device round trip or a grid barrier, and a host core less).
#include <cstdint>
#include <vector>

#include "gpu500/graph/edge_list.hpp"

namespace gpu500::graph {

bool chain_like(const std::int64_t* src, const std::int64_t* dst, index_t m, index_t n) {
  if (m > n) return false;  // 2m edge ends over n vertices: one has three or more
  std::vector<std::uint8_t> ends(static_cast<std::size_t>(n), 0);
  for (index_t i = 0; i < m; ++i)
    for (const std::int64_t v : {src[i], dst[i]}) {
      if (v < 0 || v >= n) continue;  // the readers refuse such ids; nothing to count here
      if (++ends[static_cast<std::size_t>(v)] > 2) return false;
    }
  return true;
}

}  // namespace gpu500::graph
