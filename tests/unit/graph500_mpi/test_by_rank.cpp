// The host exchanges' grouping by destination rank (gpu500/dist/by_rank.hpp): group_by_rank gives
// the serial loop's buffer and counts bit for bit (each rank's block in item order, then emission
// order), for several thread and rank counts and items that emit nothing or many values.
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

TEST(GroupByRank, MatchesTheSerialLoop) {
  const int saved = omp_get_max_threads();
  for (int threads : {1, 2, 3})
    for (int ranks : {1, 3, 5})
      for (index_t n : {index_t{0}, index_t{1}, index_t{37}, index_t{2000}}) {
        omp_set_num_threads(threads);
        // Item i emits (i * 7) % 5 values to ranks (i + j * 3) % ranks.
        auto emit = [ranks](index_t i, auto&& send) {
          for (int j = 0; j < static_cast<int>((i * 7) % 5); ++j)
            send(static_cast<int>((i + j * 3) % ranks), item_value{i, j});
        };
        std::vector<std::vector<item_value>> by_rank(static_cast<std::size_t>(ranks));
        for (index_t i = 0; i < n; ++i)
          emit(i, [&by_rank](int r, const item_value& v) { by_rank[static_cast<std::size_t>(r)].push_back(v); });
        std::vector<item_value> serial;
        std::vector<index_t> serial_counts;
        for (const auto& b : by_rank) {
          serial.insert(serial.end(), b.begin(), b.end());
          serial_counts.push_back(static_cast<index_t>(b.size()));
        }
        std::vector<item_value> grouped;
        std::vector<index_t> counts;
        group_by_rank<item_value>(ranks, item_slices(n), emit, grouped, counts);
        EXPECT_EQ(counts, serial_counts) << threads << " threads, " << ranks << " ranks, n " << n;
        EXPECT_TRUE(grouped == serial) << threads << " threads, " << ranks << " ranks, n " << n;
      }
  omp_set_num_threads(saved);
}

}  // namespace
}  // namespace gpu500::dist
