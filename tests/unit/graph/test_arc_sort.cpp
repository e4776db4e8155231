// The stable two-level counting sort of kernel 1 (graph/arc_sort.hpp) against std::stable_sort:
// skewed keys (a few keys holding most arcs, as the hubs of a degree order), every thread count,
// emission order within a key, and the optional order by head.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <tuple>
#include <vector>

#include "gpu500/graph/arc_sort.hpp"

using namespace gpu500;
using namespace gpu500::graph;

namespace {

struct arc {
  index_t key;
  std::uint32_t head;
  float w;
};

// Items of 0..40 arcs each; keys drawn so that key 0..3 take about half the arcs (hubs), the rest
// spread over [0, keys); heads below head_limit with many repeats (duplicates to keep in order).
std::vector<std::vector<arc>> make_items(index_t items, index_t keys, std::uint32_t head_limit, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::vector<arc>> out(static_cast<std::size_t>(items));
  std::uint32_t serial = 0;
  for (auto& it : out) {
    const auto len = rng() % 41;
    for (std::uint64_t k = 0; k < len; ++k) {
      const index_t key = rng() % 2 ? static_cast<index_t>(rng() % std::min<index_t>(4, keys))
                                    : static_cast<index_t>(rng() % static_cast<std::uint64_t>(keys));
      // the weight tags the arc with its emission order, so that stability is visible
      it.push_back({key, static_cast<std::uint32_t>(rng() % head_limit), static_cast<float>(serial++)});
    }
  }
  return out;
}

void check(index_t keys, std::uint32_t head_limit, bool by_head, bool own_count) {
  const index_t items = 5000;
  const auto in = make_items(items, keys, head_limit, static_cast<unsigned>(keys * 7 + head_limit + by_head));
  std::vector<arc> want;
  for (const auto& it : in) want.insert(want.end(), it.begin(), it.end());
  std::stable_sort(want.begin(), want.end(), [by_head](const arc& a, const arc& b) {
    return by_head ? std::tie(a.key, a.head) < std::tie(b.key, b.head) : a.key < b.key;
  });
  auto emit = [&in](index_t i, auto&& out) {
    for (const arc& a : in[static_cast<std::size_t>(i)]) out(a.key, a.head, a.w);
  };
  auto count = [&in](index_t i, auto&& add) {
    for (const arc& a : in[static_cast<std::size_t>(i)]) add(a.key, index_t{1});
  };
  for (int t : {1, 2, 3, 8}) {
    std::vector<index_t> off(static_cast<std::size_t>(keys) + 1, -1);
    std::vector<arc> got(want.size(), arc{-1, 0, -1.f});
    auto place = [&got](index_t p, std::uint32_t h, float w) {
      ASSERT_EQ(got[static_cast<std::size_t>(p)].key, -1) << "position placed twice";
      got[static_cast<std::size_t>(p)] = {0, h, w};
    };
    arc_sort_scratch scratch;
    index_t n = 0;
    if (own_count || by_head)
      n = sort_arcs_by_key<std::uint32_t>(keys, static_cast<index_t>(want.size()), even_slices(items, t), count, emit,
                                          off.data(), place, by_head ? head_limit : 0, &scratch);
    else
      n = sort_arcs_by_key<std::uint32_t>(keys, static_cast<index_t>(want.size()), even_slices(items, t), emit,
                                          off.data(), place, &scratch);
    ASSERT_EQ(n, static_cast<index_t>(want.size()));
    ASSERT_EQ(off[0], 0);
    ASSERT_EQ(off[static_cast<std::size_t>(keys)], n);
    for (index_t k = 0; k < keys; ++k)
      for (index_t p = off[static_cast<std::size_t>(k)]; p < off[static_cast<std::size_t>(k) + 1]; ++p) {
        const auto P = static_cast<std::size_t>(p);
        ASSERT_EQ(want[P].key, k) << "threads " << t << " position " << p;
        ASSERT_EQ(got[P].head, want[P].head) << "threads " << t << " position " << p;
        ASSERT_EQ(got[P].w, want[P].w) << "threads " << t << " position " << p << " (order within the key)";
      }
  }
}

}  // namespace

TEST(ArcSort, StableByKeyWithSkewedKeys) {
  for (index_t keys : {1, 7, 1000, 300000}) check(keys, 1000, false, false);
}

TEST(ArcSort, CountFunctorGivesTheSameResult) {
  for (index_t keys : {5, 100000}) check(keys, 50, false, true);
}

TEST(ArcSort, HeadOrderWithinKeysIsStable) {
  // head limits needing one, two and three radix passes
  for (std::uint32_t limit : {1u, 2u, 3u, 1500u, 1u << 20, (1u << 22) + 5, 4000000000u})
    for (index_t keys : {3, 2000, 300000}) check(keys, limit, true, false);
}

TEST(ArcSort, NoKeysOrNoArcs) {
  std::vector<index_t> off(4, -1);
  const auto n = sort_arcs_by_key<std::uint32_t>(
      3, 0, even_slices(10, 2), [](index_t, auto&&) {}, off.data(), [](index_t, std::uint32_t, float) { FAIL(); });
  EXPECT_EQ(n, 0);
  EXPECT_EQ(off, (std::vector<index_t>{0, 0, 0, 0}));
}
