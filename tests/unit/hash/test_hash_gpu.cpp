// GPU tests of GLHT through the host API (skip without a GPU). Every result is checked on the
// host by model.hpp's checker, which shares no code with the kernels: after every concurrent batch
// the table's contents equal the sequential model for the keys the batch determines, and the
// snapshot's invariants hold (no key twice, every key within 31 of home, hop bitmaps exact).
#include <gtest/gtest.h>

#include <random>
#include <unordered_map>

#include "gpu500/core/device.hpp"
#include "gpu500/hash/hopscotch_map.hpp"
#include "gpu500/hash/model.hpp"
#include "glht_checks.hpp"
#include "glht_variants.hpp"
#include "hash_test_util.hpp"

using namespace gpu500;
using namespace gpu500::hash;
using namespace gpu500::hash::testing;

namespace {

// Every test here is parameterised by a variant; the pair-CAS variants skip below compute
// capability 9.0 (hopscotch_map refuses them there).
#define SKIP_WITHOUT_GPU()                                                \
  if (!gpu500::cuda_available()) GTEST_SKIP() << "no CUDA device";       \
  if (!runs_on(GetParam(), gpu500::cuda_devices().front().sm_major)) \
    GTEST_SKIP() << "the pair-CAS insert needs compute capability 9.0"


std::unordered_map<key_type, value_type> checked_contents(const hopscotch_map& t) {
  std::unordered_map<key_type, value_type> c;
  const auto rep = check_hopscotch_invariants(t.snapshot(), &c);
  EXPECT_TRUE(rep.ok) << rep.summary();
  return c;
}

}  // namespace

class Glht : public ::testing::TestWithParam<variant> {};

TEST_P(Glht, BulkOperationsMatchTheModel) {
  SKIP_WITHOUT_GPU();
  hopscotch_map t(1 << 14, options_of(GetParam()));
  std::mt19937_64 rng(3);
  std::vector<key_type> keys(10000);
  std::vector<value_type> vals(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = rng() >> 1, vals[i] = rng() >> 1;
  keys[17] = keys[4];  // a duplicate in the batch: exactly one inserts
  const auto st = t.insert(keys, vals);
  std::unordered_map<key_type, value_type> model;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (st[i] == insert_status::inserted) EXPECT_TRUE(model.emplace(keys[i], vals[i]).second);
    else EXPECT_EQ(st[i], insert_status::present);
  }
  EXPECT_EQ(model.size(), keys.size() - 1);
  EXPECT_EQ(checked_contents(t), model);
  EXPECT_EQ(t.size(), static_cast<index_t>(model.size()));
  std::vector<value_type> got;
  const auto f = t.find(keys, got);
  for (std::size_t i = 0; i < keys.size(); ++i) {
    ASSERT_TRUE(f[i]);
    ASSERT_EQ(got[i], model.at(keys[i]));
  }
  std::vector<key_type> half(keys.begin(), keys.begin() + 5000);
  const auto er = t.erase(half);
  std::size_t erased = 0;
  for (auto e : er) erased += e;
  EXPECT_EQ(erased, 4999u);  // the duplicate key is erased once
  for (auto k : half) model.erase(k);
  EXPECT_EQ(checked_contents(t), model);
  const auto f2 = t.find(keys, got);
  for (std::size_t i = 0; i < keys.size(); ++i) ASSERT_EQ(f2[i] != 0, model.count(keys[i]) != 0);
  // Reserved keys are refused.
  const auto bad = t.insert({empty_key, reserved_key}, {1, 2});
  EXPECT_EQ(bad[0], insert_status::invalid);
  EXPECT_EQ(bad[1], insert_status::invalid);
}

TEST_P(Glht, HighLoadFactorDisplaces) {
  SKIP_WITHOUT_GPU();
  // 0.8 fits H = 31 without growing; the displacement phase runs for the holes beyond reach.
  const index_t n = 1 << 16;
  hopscotch_map t(n, options_of(GetParam()));
  std::vector<key_type> keys(static_cast<std::size_t>(n * 80 / 100));
  std::vector<value_type> vals(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = fmix64(i + 99) >> 1, vals[i] = i;
  const auto st = t.insert(keys, vals);
  for (auto s : st) ASSERT_EQ(s, insert_status::inserted);
  EXPECT_EQ(t.grow_count(), 0);
  const auto c = checked_contents(t);
  EXPECT_EQ(c.size(), keys.size());
  // Past the limit of H = 31: the sync insert grows and keeps everything.
  std::vector<key_type> more(static_cast<std::size_t>(n * 20 / 100));
  std::vector<value_type> mv(more.size(), 7);
  for (std::size_t i = 0; i < more.size(); ++i) more[i] = fmix64(i + 99 + keys.size()) >> 1;
  for (auto s : t.insert(more, mv)) ASSERT_EQ(s, insert_status::inserted);
  EXPECT_EQ(checked_contents(t).size(), keys.size() + more.size());
  std::vector<value_type> got;
  const auto f = t.find(keys, got);
  for (std::size_t i = 0; i < keys.size(); ++i) {
    ASSERT_TRUE(f[i]);
    ASSERT_EQ(got[i], vals[i]);
  }
}

TEST_P(Glht, ConcurrentBatchesMatchTheModel) {
  SKIP_WITHOUT_GPU();
  for (auto [range, ins, era] : {std::tuple<std::uint64_t, int, int>{1000, 40, 40}, {100000, 20, 20},
                                 {100000, 60, 10}}) {
    hopscotch_map t(range < 10000 ? 256 : 1 << 15, options_of(GetParam()));
    std::mt19937_64 rng(range + ins);
    std::unordered_map<key_type, value_type> model;
    for (int b = 0; b < 20; ++b) {
      const auto ops = random_ops(rng, 100000, range, ins, era);
      const auto res = t.mixed(ops);
      std::unordered_map<key_type, value_type> after;
      const auto inv = check_hopscotch_invariants(t.snapshot(), &after);
      ASSERT_TRUE(inv.ok) << "range " << range << " batch " << b << ": " << inv.summary();
      const auto rep = check_batch(model, ops, res, after);
      ASSERT_TRUE(rep.ok) << "range " << range << " batch " << b << ": " << rep.summary();
      model = std::move(after);
    }
  }
}

// A table built for N buckets holds N keys at LF 0.8, 0.9 and 0.95 without growing: the keys
// that find no hole within reach go to the overflow stash. Every key is found with its value,
// absent keys miss, and erasing half of them (stash members included) leaves the rest.
TEST_P(Glht, HoldsEveryKeyUpToLoadFactor095WithoutGrowing) {
  SKIP_WITHOUT_GPU();
  const index_t n = 1 << 16;
  for (const int percent : {80, 90, 95}) {
    hopscotch_map t(n, options_of(GetParam()));
    std::vector<key_type> keys(static_cast<std::size_t>(n * percent / 100)), absent(20000);
    std::vector<value_type> vals(keys.size());
    for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = fmix64(i + 7 * percent) >> 1, vals[i] = i + 1;
    for (std::size_t i = 0; i < absent.size(); ++i) absent[i] = (fmix64(i + 1000000007ULL) >> 1) | 1ULL << 62;
    for (auto s : t.insert(keys, vals)) ASSERT_EQ(s, insert_status::inserted) << "LF " << percent;
    EXPECT_EQ(t.grow_count(), 0) << "LF " << percent;
    EXPECT_EQ(t.capacity(), n);
    std::unordered_map<key_type, value_type> model;
    for (std::size_t i = 0; i < keys.size(); ++i) model.emplace(keys[i], vals[i]);
    const auto snap = t.snapshot();
    std::size_t stashed = 0;
    for (auto k : snap.stash_keys) stashed += valid_key(k);
    if (percent == 95) {
      EXPECT_GT(stashed, 0u) << "LF 0.95 must overflow H = 31";
    }
    ASSERT_EQ(checked_contents(t), model) << "LF " << percent;
    std::vector<value_type> got;
    const auto f = t.find(keys, got);
    for (std::size_t i = 0; i < keys.size(); ++i) {
      ASSERT_TRUE(f[i]) << "LF " << percent << " key " << keys[i];
      ASSERT_EQ(got[i], vals[i]);
    }
    for (auto hit : t.find(absent, got)) ASSERT_FALSE(hit);
    std::vector<key_type> half;
    for (std::size_t i = 0; i < keys.size(); i += 2) half.push_back(keys[i]), model.erase(keys[i]);
    for (auto e : t.erase(half)) ASSERT_TRUE(e);
    ASSERT_EQ(checked_contents(t), model) << "LF " << percent << " after erasing half";
    EXPECT_EQ(t.size(), static_cast<index_t>(model.size()));
  }
}

// Heavy contention at key range 100 and growth from a tiny table, at sizes for the default run;
// test_hash_gpu_long runs them at full size.
TEST_P(Glht, StressKeyRange100) {
  SKIP_WITHOUT_GPU();
  stress_key_range_100(options_of(GetParam()), 40);
}

TEST_P(Glht, GrowsInsteadOfLosingKeys) {
  SKIP_WITHOUT_GPU();
  grows_instead_of_losing_keys(options_of(GetParam()), 20000, 20000, 10000);
}

INSTANTIATE_TEST_SUITE_P(Variants, Glht, ::testing::ValuesIn(all_variants()),
                         [](const auto& info) { return name_of(info.param); });
