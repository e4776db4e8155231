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
#include "hash_test_util.hpp"

using namespace gpu500;
using namespace gpu500::hash;
using gpu500::hash::testing::random_ops;

namespace {

#define SKIP_WITHOUT_GPU() \
  if (!gpu500::cuda_available()) GTEST_SKIP() << "no CUDA device"


std::unordered_map<key_type, value_type> checked_contents(const hopscotch_map& t) {
  std::unordered_map<key_type, value_type> c;
  const auto rep = check_hopscotch_invariants(t.snapshot(), &c);
  EXPECT_TRUE(rep.ok) << rep.summary();
  return c;
}

/// Table variants: tile size and find mode.
struct variant {
  int tile;
  find_mode find;
  bool precheck;
  slot_layout layout = slot_layout::split;
  bool static_stride = true;
  int min_blocks = 0;
  bool home_first = false;
  bool home_claim = false;
  bool pair_store = false;
  bool occupancy = false;
  bool fenced_atomics = false;  // the A/B of a full fence after the lock and the claim
  bool overlap_claim = false;   // tile 1 with occupancy bits: claim beside the member reads
  bool converge = true;         // tile 1: the warp re-converges before each operation (false: the A/B)
};
std::string name_of(const variant& v) {
  std::string n = "t";
  n.append(std::to_string(v.tile));
  n.append(v.find == find_mode::bitmap ? "_bitmap" : "_window");
  if (!v.precheck) n.append("_noprecheck");
  if (v.layout == slot_layout::interleaved) n.append("_aos");
  if (v.layout == slot_layout::record) n.append("_rec");
  if (!v.static_stride) n.append("_rs");
  if (v.min_blocks) n.append("_b" + std::to_string(v.min_blocks));
  if (v.home_first) n.append("_h1");
  if (v.home_claim) n.append("_hc");
  if (v.pair_store) n.append("_ps");
  if (v.occupancy) n.append("_oc");
  if (v.fenced_atomics) n.append("_fa");
  if (v.overlap_claim) n.append("_ov");
  if (v.tile == 1 && !v.converge) n.append("_nc");
  return n;
}
hopscotch_options options_of(const variant& v) {
  hopscotch_options o;
  o.tile = v.tile;
  o.find = v.find;
  o.precheck = v.precheck;
  o.layout = v.layout;
  o.static_stride = v.static_stride;
  o.min_blocks = v.min_blocks;
  o.home_first = v.home_first;
  o.home_claim = v.home_claim;
  o.pair_store = v.pair_store;
  o.occupancy = v.occupancy;
  o.fenced_atomics = v.fenced_atomics;
  o.overlap_claim = v.overlap_claim;
  o.converge = v.converge;
  return o;
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

// Heavy contention: key range 100, many iterations; no lost or phantom key, ever.
TEST_P(Glht, StressKeyRange100) {
  SKIP_WITHOUT_GPU();
  hopscotch_map t(128, options_of(GetParam()));
  std::mt19937_64 rng(100);
  std::unordered_map<key_type, value_type> model;
  for (int b = 0; b < 200; ++b) {
    const auto ops = random_ops(rng, 50000, 100, b % 2 ? 40 : 20, b % 2 ? 40 : 20);
    const auto res = t.mixed(ops);
    std::unordered_map<key_type, value_type> after;
    const auto inv = check_hopscotch_invariants(t.snapshot(), &after);
    ASSERT_TRUE(inv.ok) << "batch " << b << ": " << inv.summary();
    const auto rep = check_batch(model, ops, res, after);
    ASSERT_TRUE(rep.ok) << "batch " << b << ": " << rep.summary();
    model = std::move(after);
  }
}

TEST_P(Glht, GrowsInsteadOfLosingKeys) {
  SKIP_WITHOUT_GPU();
  hopscotch_map t(64, options_of(GetParam()));
  std::vector<key_type> keys(200000);
  std::vector<value_type> vals(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = i * 2654435761ULL, vals[i] = i;
  const auto st = t.insert(keys, vals);
  for (auto s : st) ASSERT_EQ(s, insert_status::inserted);
  EXPECT_GT(t.grow_count(), 0);
  EXPECT_GE(t.capacity(), static_cast<index_t>(keys.size()));
  const auto c = checked_contents(t);
  ASSERT_EQ(c.size(), keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) ASSERT_EQ(c.at(keys[i]), vals[i]);
  // Growth in a mixed batch too.
  hopscotch_map m(32, options_of(GetParam()));
  std::mt19937_64 rng(5);
  const auto ops = random_ops(rng, 100000, 50000, 60, 10);
  const auto res = m.mixed(ops);
  std::unordered_map<key_type, value_type> after;
  ASSERT_TRUE(check_hopscotch_invariants(m.snapshot(), &after).ok);
  const auto rep = check_batch({}, ops, res, after);
  EXPECT_TRUE(rep.ok) << rep.summary();
  EXPECT_GT(m.grow_count(), 0);
}

INSTANTIATE_TEST_SUITE_P(Variants, Glht,
                         ::testing::Values(variant{32, find_mode::window, true}, variant{32, find_mode::bitmap, true},
                                           variant{8, find_mode::bitmap, true}, variant{1, find_mode::bitmap, true},
                                           variant{1, find_mode::window, false}, variant{4, find_mode::window, false},
                                           variant{1, find_mode::bitmap, true, slot_layout::interleaved},
                                           variant{32, find_mode::window, true, slot_layout::interleaved},
                                           variant{1, find_mode::bitmap, false, slot_layout::interleaved},
                                           variant{1, find_mode::bitmap, true, slot_layout::interleaved, false},
                                           variant{1, find_mode::bitmap, false, slot_layout::interleaved, true, 8},
                                           variant{32, find_mode::window, false, slot_layout::split, false},
                                           variant{1, find_mode::bitmap, false, slot_layout::record},
                                           variant{1, find_mode::bitmap, true, slot_layout::record},
                                           variant{1, find_mode::bitmap, false, slot_layout::record, false},
                                           variant{32, find_mode::window, true, slot_layout::record},
                                           variant{8, find_mode::bitmap, false, slot_layout::record},
                                           variant{1, find_mode::bitmap, false, slot_layout::record, true, 0, true},
                                           variant{1, find_mode::bitmap, true, slot_layout::interleaved, true, 0, true},
                                           variant{1, find_mode::bitmap, false, slot_layout::record, true, 0, false, true},
                                           variant{1, find_mode::bitmap, false, slot_layout::record, true, 0, false, false, true},
                                           variant{1, find_mode::bitmap, false, slot_layout::record, true, 0, false, true, true},
                                           variant{1, find_mode::bitmap, true, slot_layout::record, true, 0, false, true, true},
                                           variant{1, find_mode::bitmap, true, slot_layout::interleaved, true, 0, false, true, true},
                                           variant{1, find_mode::bitmap, false, slot_layout::split, true, 0, false, true},
                                           variant{1, find_mode::bitmap, false, slot_layout::record, false, 0, false, true},
                                           variant{1, find_mode::bitmap, false, slot_layout::record, true, 0, false, true, true, true},
                                           variant{1, find_mode::bitmap, true, slot_layout::record, true, 0, false, true, true, true},
                                           variant{1, find_mode::bitmap, false, slot_layout::record, true, 0, false, false, false, true},
                                           variant{1, find_mode::bitmap, false, slot_layout::interleaved, true, 0, false, true, false, true},
                                           variant{1, find_mode::bitmap, false, slot_layout::record, false, 0, false, true, false, true},
                                           variant{32, find_mode::window, true, slot_layout::split, true, 0, false, false, false, true},
                                           variant{8, find_mode::bitmap, false, slot_layout::record, true, 0, false, false, false, true},
                                           variant{1, find_mode::bitmap, false, slot_layout::record, true, 0, false, false, false, true, true},
                                           variant{32, find_mode::window, true, slot_layout::split, true, 0, false, false, false, false, true},
                                           variant{1, find_mode::bitmap, false, slot_layout::record, true, 0, false, false, false, true, false, true},
                                           variant{1, find_mode::bitmap, false, slot_layout::record, true, 0, false, false, false, true, false, true, false},
                                           variant{1, find_mode::bitmap, true, slot_layout::record, true, 0, false, false, true, true, false, true},
                                           variant{1, find_mode::bitmap, false, slot_layout::interleaved, true, 0, false, false, false, true, false, true},
                                           variant{1, find_mode::bitmap, false, slot_layout::split, false, 0, false, false, false, true, false, true},
                                           variant{1, find_mode::bitmap, false, slot_layout::record, true, 0, false, false, false, true, false, false, false},
                                           variant{1, find_mode::bitmap, true, slot_layout::record, true, 0, false, false, false, false, false, false, false},
                                           variant{1, find_mode::window, false, slot_layout::split, true, 0, false, false, false, false, false, false, false}),
                         [](const auto& info) { return name_of(info.param); });
