// Checks of GLHT's host API shared by test_hash_gpu (default sizes) and test_hash_gpu_long (full
// sizes): heavy contention at key range 100, and growth from a tiny table without losing a key.
// Every result is checked on the host by model.hpp (no code shared with the kernels).
#pragma once

#include <gtest/gtest.h>

#include <random>
#include <unordered_map>

#include "gpu500/hash/hopscotch_map.hpp"
#include "gpu500/hash/model.hpp"
#include "hash_test_util.hpp"

namespace gpu500::hash::testing {

/// Key range 100, `batches` mixed batches of 50,000 operations on a 128-bucket table: after every
/// batch the invariants hold and the contents equal the sequential model (no lost or phantom key).
inline void stress_key_range_100(const hopscotch_options& o, int batches) {
  hopscotch_map t(128, o);
  std::mt19937_64 rng(100);
  std::unordered_map<key_type, value_type> model;
  for (int b = 0; b < batches; ++b) {
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

/// `keys` bulk inserts into a 64-bucket table, then a mixed batch of `ops` operations (keys in
/// [0, range)) into a 32-bucket one: the sync calls grow and keep every key.
inline void grows_instead_of_losing_keys(const hopscotch_options& o, std::size_t keys_n, std::size_t ops_n,
                                         std::uint64_t range) {
  hopscotch_map t(64, o);
  std::vector<key_type> keys(keys_n);
  std::vector<value_type> vals(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = i * 2654435761ULL, vals[i] = i;
  const auto st = t.insert(keys, vals);
  for (auto s : st) ASSERT_EQ(s, insert_status::inserted);
  EXPECT_GT(t.grow_count(), 0);
  EXPECT_GE(t.capacity(), static_cast<index_t>(keys.size()));
  std::unordered_map<key_type, value_type> c;
  const auto inv = check_hopscotch_invariants(t.snapshot(), &c);
  ASSERT_TRUE(inv.ok) << inv.summary();
  ASSERT_EQ(c.size(), keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) ASSERT_EQ(c.at(keys[i]), vals[i]);
  // Growth in a mixed batch too.
  hopscotch_map m(32, o);
  std::mt19937_64 rng(5);
  const auto ops = random_ops(rng, ops_n, range, 60, 10);
  const auto res = m.mixed(ops);
  std::unordered_map<key_type, value_type> after;
  ASSERT_TRUE(check_hopscotch_invariants(m.snapshot(), &after).ok);
  const auto rep = check_batch({}, ops, res, after);
  EXPECT_TRUE(rep.ok) << rep.summary();
  EXPECT_GT(m.grow_count(), 0);
}

}  // namespace gpu500::hash::testing
