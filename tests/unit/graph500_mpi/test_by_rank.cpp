// The host exchanges' grouping by destination rank (gpu500/dist/by_rank.hpp): the one-pass
// form (per-thread buffers, reused between calls) gives the two-pass form's buffer and counts bit
// for bit, for several thread and rank counts, items that emit nothing or many values, and a
// second call on the same scratch.
#include <gtest/gtest.h>
#include <omp.h>

#include <cstdint>
#include <vector>

#include "gpu500/dist/by_rank.hpp"

namespace gpu500::dist {
namespace {

struct item_value {
  std::int64_t item;
  std::int32_t serial;
  bool operator==(const item_value&) const = default;
};

TEST(GroupByRank, OnePassMatchesTwoPasses) {
  const int saved = omp_get_max_threads();
  std::vector<std::vector<item_value>> scratch;
  for (int threads : {1, 2, 3})
    for (int ranks : {1, 3, 5})
      for (index_t n : {index_t{0}, index_t{1}, index_t{37}, index_t{2000}}) {
        omp_set_num_threads(threads);
        // Item i emits (i * 7) % 5 values to ranks (i + j * 3) % ranks.
        auto emit = [ranks](index_t i, auto&& send) {
          for (int j = 0; j < static_cast<int>((i * 7) % 5); ++j)
            send(static_cast<int>((i + j * 3) % ranks), item_value{i, j});
        };
        const auto slices = item_slices(n);
        std::vector<item_value> two, one;
        std::vector<index_t> two_counts, one_counts;
        group_by_rank<item_value>(ranks, slices, emit, two, two_counts);
        for (int call = 0; call < 2; ++call) {  // the second call reuses the scratch buffers
          group_by_rank_once<item_value>(ranks, slices, emit, scratch, one, one_counts);
          EXPECT_EQ(one_counts, two_counts) << threads << " threads, " << ranks << " ranks, n " << n;
          EXPECT_TRUE(one == two) << threads << " threads, " << ranks << " ranks, n " << n;
        }
      }
  omp_set_num_threads(saved);
}

}  // namespace
}  // namespace gpu500::dist
