// The distributed-memory layer on however many ranks mpiexec gives: reductions, broadcasts,
// all-gathers, all-to-all (one MPI call and the split point-to-point path), the grouped exchange
// of counts, the block partition, the bitmap all-gather and the host-shared block. Every rank
// runs every check (collectives stay in step).
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu500/dist/bitmap.hpp"
#include "gpu500/dist/comm.hpp"
#include "gpu500/dist/node_shared.hpp"
#include "gpu500/dist/partition.hpp"
#include "gpu500/dist/trace.hpp"

namespace gpu500::dist {
namespace {

TEST(Dist, ReductionsAndBroadcast) {
  const auto c = communicator::world();
  const int R = c.size(), me = c.rank();
  EXPECT_EQ(c.allreduce(index_t{me + 1}, reduce_op::sum), index_t{R} * (R + 1) / 2);
  EXPECT_EQ(c.allreduce(me, reduce_op::max), R - 1);
  EXPECT_EQ(c.allreduce(static_cast<double>(me) + 0.5, reduce_op::min), 0.5);
  EXPECT_EQ(c.allreduce(std::uint64_t{1} << me, reduce_op::bor), (std::uint64_t{1} << R) - 1);
  EXPECT_TRUE(c.any(me == R - 1));
  EXPECT_FALSE(c.all(me == 0 && R > 1));
  float xs[3] = {1.f, 2.f, static_cast<float>(me)};
  c.allreduce(xs, 3, reduce_op::sum);
  EXPECT_EQ(xs[0], static_cast<float>(R));
  EXPECT_EQ(c.bcast(me * 7 + 3, R - 1), (R - 1) * 7 + 3);
  EXPECT_EQ(c.bcast(std::string(me == 0 ? "from the root" : ""), 0), "from the root");
  EXPECT_GE(c.node_size(), 1);
  c.barrier();
}

TEST(Dist, AllgatherAndAllgatherv) {
  const auto c = communicator::world();
  const int R = c.size(), me = c.rank();
  const std::vector<int> ranks = c.allgather(me);
  ASSERT_EQ(static_cast<int>(ranks.size()), R);
  for (int r = 0; r < R; ++r) EXPECT_EQ(ranks[r], r);
  // Rank r sends r elements (rank 0 none) of value 100 r + i.
  std::vector<std::int64_t> mine(static_cast<std::size_t>(me));
  for (int i = 0; i < me; ++i) mine[i] = 100 * me + i;
  for (std::size_t limit : {std::size_t{0}, std::size_t{8}}) {  // 8 bytes: one element a message
    auto c2 = c;
    c2.set_max_message_bytes(limit);
    const std::vector<std::int64_t> all = c2.allgatherv<std::int64_t>(mine);
    std::size_t k = 0;
    for (int r = 0; r < R; ++r)
      for (int i = 0; i < r; ++i) EXPECT_EQ(all[k++], 100 * r + i) << "limit " << limit;
    EXPECT_EQ(k, all.size());
  }
}

TEST(Dist, AlltoallvOneCallAndSplit) {
  const auto c = communicator::world();
  const int R = c.size(), me = c.rank();
  struct item {
    std::int32_t from, to, i;
  };
  // Rank s sends (s + 2 d) % 5 items to rank d (some blocks empty).
  auto count = [](int s, int d) { return static_cast<index_t>((s + 2 * d) % 5); };
  std::vector<index_t> counts(static_cast<std::size_t>(R));
  std::vector<item> send;
  for (int d = 0; d < R; ++d) {
    counts[d] = count(me, d);
    for (index_t i = 0; i < counts[d]; ++i) send.push_back({me, d, static_cast<std::int32_t>(i)});
  }
  // Every count, and every rank's total, is at most 4 R: a bound every rank knows. With it the
  // call picks its path without a reduction; a bound the counts pass is a logic error.
  const index_t bound = 4 * static_cast<index_t>(R);
  for (std::size_t limit : {std::size_t{0}, sizeof(item), 2 * sizeof(item) + 1}) {
    for (index_t b : {index_t{-1}, bound}) {
      auto c2 = c;
      c2.set_max_message_bytes(limit);
      std::vector<index_t> got;
      const std::vector<item> in = c2.alltoallv<item>(send, counts, &got, b);
      std::size_t k = 0;
      for (int s = 0; s < R; ++s) {
        EXPECT_EQ(got[s], count(s, me));
        for (index_t i = 0; i < count(s, me); ++i, ++k) {
          ASSERT_LT(k, in.size());
          EXPECT_EQ(in[k].from, s);
          EXPECT_EQ(in[k].to, me);
          EXPECT_EQ(in[k].i, i) << "limit " << limit << ", bound " << b;
        }
      }
      EXPECT_EQ(k, in.size());
    }
  }
  // Over several ranks every rank sends something ((s + 2 d) % 5 is not 0 for both d = 0 and 1),
  // so a bound of 0 is passed on every rank, and every rank throws (none is left in the exchange).
  if (R > 1) {
    EXPECT_THROW(c.alltoallv<item>(send, counts, nullptr, 0), std::logic_error);
  }
}

TEST(Dist, ExchangeCountsInGroups) {
  const auto c = communicator::world();
  const int R = c.size(), me = c.rank();
  // Rank s sends rank d the group {10 s + d, -s, d}; it gets back {10 s + me, -s, me} from each s.
  std::vector<index_t> send(3 * static_cast<std::size_t>(R)), got(send.size(), -7);
  for (int d = 0; d < R; ++d) {
    send[3 * d] = 10 * me + d;
    send[3 * d + 1] = -me;
    send[3 * d + 2] = d;
  }
  c.exchange_counts(send.data(), got.data(), 3);
  for (int s = 0; s < R; ++s) {
    EXPECT_EQ(got[3 * s], 10 * s + me);
    EXPECT_EQ(got[3 * s + 1], -s);
    EXPECT_EQ(got[3 * s + 2], me);
  }
}

TEST(Dist, BlockPartition) {
  for (index_t n : {index_t{0}, index_t{1}, index_t{4}, index_t{100}, index_t{1000}, index_t{1} << 20})
    for (int R : {1, 2, 3, 4, 7})
      for (index_t granule : {index_t{1}, index_t{64}}) {
        const block_partition p(n, R, granule);
        EXPECT_EQ(p.block() % granule, 0);
        index_t covered = 0;
        for (int r = 0; r < R; ++r) {
          const vertex_range q = p.range(r);
          EXPECT_EQ(q.first, std::min(n, covered));
          covered = q.end();
        }
        EXPECT_EQ(covered, n);
        for (index_t v = 0; v < n; v += 1 + n / 97) {
          const int r = p.owner(v);
          ASSERT_GE(r, 0);
          ASSERT_LT(r, R);
          EXPECT_TRUE(p.range(r).contains(v));
          EXPECT_EQ(p.global(r, p.local(v)), v);
          EXPECT_EQ(p.range(r).first + p.local(v), v);
        }
      }
  // Tiny graphs leave ranks without vertices.
  const block_partition tiny(4, 4);
  EXPECT_EQ(tiny.range(0).count, 4);
  EXPECT_EQ(tiny.range(3).count, 0);
}

TEST(Dist, BitmapAllgather) {
  const auto c = communicator::world();
  for (index_t n : {index_t{5}, index_t{64}, index_t{200}, index_t{1000}}) {
    const block_partition p(n, c.size());
    const vertex_range mine = p.range(c.rank());
    std::vector<std::uint64_t> slice(static_cast<std::size_t>(bitmap_slice_words(p, c.rank())), 0);
    for (index_t v = mine.first; v < mine.end(); ++v)
      if (v % 3 == 0 || v % 7 == 1) set_bit(slice.data(), v - mine.first);
    std::vector<std::uint64_t> all(static_cast<std::size_t>(bitmap_words(n)), ~std::uint64_t{0});
    allgather_bitmap(c, p, slice.data(), all.data());
    for (index_t v = 0; v < n; ++v) EXPECT_EQ(test_bit(all.data(), v), v % 3 == 0 || v % 7 == 1) << "n " << n << " v " << v;
  }
}

// Every rank of the host writes its own words of the block, and after sync() reads every other
// rank's; then all of them lower one word at once (an atomic minimum), and every rank sees the
// smallest. mpiexec starts every rank on this host, so all of them share the one block.
TEST(Dist, NodeSharedBlock) {
  const communicator c = communicator::world();
  constexpr std::size_t words = 1000;
  node_shared block(c, words * sizeof(std::uint64_t));
  ASSERT_EQ(block.ranks(), c.node_size());
  ASSERT_EQ(block.rank(), c.node_rank());
  EXPECT_EQ(block.shared(), c.node_size() > 1);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(block.data()) % 64, 0u);
  auto* w = static_cast<std::uint64_t*>(block.data());
  for (std::size_t i = 0; i < words; ++i) EXPECT_EQ(w[i], 0u) << "zero-filled";
  block.sync();
  for (std::size_t i = static_cast<std::size_t>(block.rank()); i < words; i += static_cast<std::size_t>(block.ranks()))
    w[i] = 1000 * i + static_cast<std::uint64_t>(block.rank());
  block.sync();
  for (std::size_t i = 0; i < words; ++i) ASSERT_EQ(w[i], 1000 * i + i % static_cast<std::size_t>(block.ranks()));
  block.sync();
  if (block.rank() == 0) w[0] = ~std::uint64_t{0};
  block.sync();
  std::atomic_ref<std::uint64_t> first(w[0]);
  const std::uint64_t mine = 7 + static_cast<std::uint64_t>(block.rank());
  for (std::uint64_t cur = first.load(); mine < cur && !first.compare_exchange_weak(cur, mine);) {
  }
  block.sync();
  EXPECT_EQ(first.load(), 7u);
  block.sync();  // no rank frees the window while another still reads it
}

TEST(Dist, OneRankCommunicatorIsLocal) {
  const communicator self;
  EXPECT_EQ(self.size(), 1);
  EXPECT_EQ(self.allreduce(index_t{5}, reduce_op::sum), 5);
  const std::vector<int> x = {1, 2, 3};
  const std::vector<index_t> counts = {3};
  EXPECT_EQ(self.alltoallv<int>(x, counts), x);
  EXPECT_EQ(self.allgatherv<int>(x), x);
  EXPECT_THROW(self.guard([] { throw std::runtime_error("one rank rethrows"); }), std::runtime_error);
  node_shared own(self, 24);
  EXPECT_FALSE(own.shared());
  EXPECT_EQ(own.ranks(), 1);
  static_cast<char*>(own.data())[23] = 1;
  own.sync();
}

TEST(Dist, TraceGathersEachRanksSecondsAndSteps) {
  const auto c = communicator::world();
  const double r = c.rank();
  std::vector<level_record> levels(2);
  levels[0].direction = "top-down";
  levels[0].compute_seconds = 1 + r, levels[0].comm_seconds = 2 + r;
  levels[0].steps = {{"reduce", 0.25 + r}, {"expand", 3e-6 * (r + 1)}};  // an exponent in the JSON
  levels[1].level = 1;
  levels[1].direction = "bottom-up";  // a level without steps
  std::string t = to_json(c, levels).dump(-1);
  std::string expand = "\"seconds_by_rank\":[", reduce = expand;
  for (int k = 0; k < c.size(); ++k) {
    const std::string sep = k ? "," : "";
    reduce += sep + json::value(0.25 + k).dump(-1);
    expand += sep + json::value(3e-6 * (k + 1)).dump(-1);
  }
  EXPECT_NE(t.find("\"steps\":[{\"step\":\"reduce\"," + reduce + "]},{\"step\":\"expand\"," + expand + "]}]"),
            std::string::npos)
      << t;
  EXPECT_EQ(t.find("\"steps\""), t.rfind("\"steps\"")) << t;  // the second level has none
  // A rank with another number of steps is a logic error on every rank.
  if (c.size() > 1) {
    if (c.rank() == 1) levels[1].steps = {{"scan", 1.0}};
    EXPECT_THROW((void)to_json(c, levels), std::logic_error);
  }
}

}  // namespace
}  // namespace gpu500::dist
