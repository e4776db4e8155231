// The bitmap all-gather of gpu500/dist/bitmap.hpp: one all-gather of whole words, rank r's slice
// landing at word r * block / 64.
#include "gpu500/dist/bitmap.hpp"

#include <vector>

#include "gpu500/core/error.hpp"

namespace gpu500::dist {

index_t bitmap_slice_words(const block_partition& p, int r) { return bitmap_words(p.range(r).count); }

void allgather_bitmap(const communicator& c, const block_partition& p, const std::uint64_t* local,
                      std::uint64_t* global) {
  GPU500_EXPECTS(p.block() % 64 == 0, "a bitmap partition needs blocks of whole 64-bit words");
  GPU500_EXPECTS(p.ranks() == c.size(), "the partition is over the communicator's ranks");
  // Ranks past the end own no vertex and send no word; every slice but the last is block/64 words,
  // so the concatenation in rank order is the global bitmap.
  std::vector<index_t> counts(static_cast<std::size_t>(c.size()));
  for (int r = 0; r < c.size(); ++r) counts[static_cast<std::size_t>(r)] = bitmap_slice_words(p, r);
  c.allgatherv_bytes(local, global, counts.data(), sizeof(std::uint64_t));
}

}  // namespace gpu500::dist
