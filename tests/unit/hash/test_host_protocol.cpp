// GLHT's device code itself (hopscotch_ref with one thread per operation: insert, erase, find,
// the locked fallback, displacement, the overflow stash, occupancy bits), compiled for the host by
// host_shim.hpp and run on std::threads, with a yield at the protocol's race windows
// (GPU500_HASH_JITTER) and the locked fallback after 2 inconsistent look-ups. No GPU needed: every
// tile-1 variant of glht_variants.hpp runs small tables (32-128 buckets, key ranges up to 150% of
// the buckets, a stash of 64 pairs, so that the stash fills and its pairs change homes) under four
// threads, with the key classes of glht_stress:
// stable keys (never erased: every find returns their value), keys owned by one thread (it checks
// every status and find exactly) and shared keys (a value found must carry its key). After each
// round, the host oracle checks the table (model.hpp's invariants, stash and occupancy bits
// included) and the contents against what the threads know. The host's memory model is stronger
// than the GPU's, so this finds protocol races and logic errors, not missing fences.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <random>
#include <thread>
#include <unordered_map>
#include <vector>

#define GPU500_HASH_JITTER 1
#define GPU500_HASH_OPTIMISTIC_TRIES 2
#include "host_shim.hpp"

#include "glht_variants.hpp"
#include "gpu500/hash/hopscotch_ref.cuh"
#include "gpu500/hash/model.hpp"

using namespace gpu500::hash;
using namespace gpu500::hash::testing;

namespace {

/// Pairs of the test tables' stash: 64 instead of stash_pairs(n) = 256, so that the homes' stash
/// windows overlap and pairs change hands between homes often.
constexpr std::uint64_t kStashPairs = 64;

/// A table in host memory with the layout hopscotch_map gives it on the device.
struct host_table {
  std::uint64_t n, slots;
  std::vector<std::uint64_t> words, meta, occ, stash;
  hopscotch_view v;
  host_table(std::uint64_t buckets, const hopscotch_options& o) : n(buckets), slots(buckets + hop_range) {
    v = view_options(o);
    const bool records = o.layout == slot_layout::record;
    words.assign((records ? 4 : 2) * slots, empty_key);
    v.keys = words.data();
    v.values = o.layout == slot_layout::split ? words.data() + slots : words.data() + 1;
    if (records) {
      v.meta = words.data() + 2;
      for (std::uint64_t s = 0; s < slots; ++s) words[4 * s + 1] = words[4 * s + 2] = words[4 * s + 3] = 0;
    } else {
      meta.assign(slots, 0);
      v.meta = meta.data();
    }
    if (o.occupancy) occ.assign((slots + 63) / 64, 0), v.occ = occ.data();
    stash.assign(2 * kStashPairs, empty_key);
    v.stash = stash.data();
    v.stash_slots = kStashPairs;
    v.n_buckets = n;
  }
  [[nodiscard]] table_snapshot snapshot() const {
    table_snapshot s;
    s.n_buckets = n;
    for (std::uint64_t i = 0; i < slots; ++i) {
      s.keys.push_back(*v.key_ptr(i));
      s.values.push_back(*v.value_ptr(i));
      s.meta.push_back(*v.meta_ptr(i));
    }
    s.occupancy = occ;
    for (std::uint64_t i = 0; i < v.stash_slots; ++i)
      s.stash_keys.push_back(stash[2 * i]), s.stash_values.push_back(stash[2 * i + 1]);
    return s;
  }
};

value_type value_for(key_type k, std::uint64_t tag) { return (k << 32) | (tag & 0xffffffffULL) | 1; }

struct round_result {
  std::int64_t wrong = 0, lost = 0, stashed = 0;
  std::string first;
};

/// One round: `threads` threads, `ops` operations each, on a table of n buckets and `keys` keys.
/// S: the slot stride the host API's kernels would compile in (0: read at run time).
template <int S>
round_result run_round(const hopscotch_options& o, std::uint64_t seed, int threads, int ops) {
  std::mt19937_64 rng(seed);
  const std::uint64_t n = 32 + rng() % 97;
  // Key ranges of 40% to 200% of the buckets (at most 192 keys), mostly present: past n + 32 keys
  // the stash must take the rest.
  const int keys = static_cast<int>(std::min<std::uint64_t>(192, n * (40 + rng() % 161) / 100));
  const int s1 = keys / 4, s2 = keys / 2;  // stable [0, s1), owned [s1, s2), shared [s2, keys)
  host_table table(n, o);
  const tile<1> t;
  const hopscotch_ref<1, S> ref(table.v);
  round_result r;
  for (int j = 0; j < s1; ++j)  // s1 <= 0.375 n: they fit in the slots
    if (ref.insert(t, j, value_for(j, 7)) != insert_status::inserted) ++r.lost;
  std::vector<value_type> owned(static_cast<std::size_t>(keys), 0);  // each entry written by its owner only
  std::atomic<std::int64_t> wrong{0}, lost{0};
  std::vector<std::thread> pool;
  for (int id = 0; id < threads; ++id) {
    pool.emplace_back([&, id] {
      std::mt19937_64 g(seed * 1315423911ULL + static_cast<std::uint64_t>(id));
      const int ins = 30 + static_cast<int>(seed % 41), era = 5 + static_cast<int>((seed >> 3) % 21);
      for (int i = 0; i < ops; ++i) {
        const int p = static_cast<int>(g() % 100);
        const int j = static_cast<int>(g() % static_cast<std::uint64_t>(keys));
        const key_type k = static_cast<key_type>(j);
        const bool mine = j >= s1 && j < s2 && (j - s1) % threads == id;
        const bool writable = j >= s2 || mine;
        if (p < ins && writable) {
          const value_type val = value_for(k, g());
          const insert_status st = ref.insert(t, k, val);
          if (mine && st != insert_status::no_room) {  // no_room: the home's stash window is full
            if (st != (owned[j] ? insert_status::present : insert_status::inserted)) ++wrong;
            if (st == insert_status::inserted) owned[j] = val;
          }
        } else if (p < ins + era && writable) {
          const bool e = ref.erase(t, k);
          if (mine) {
            if (e != (owned[j] != 0)) ++wrong;
            owned[j] = 0;
          }
        } else {
          value_type got = 0;
          const bool f = ref.find(t, k, got);
          if (j < s1) {
            if (!f) ++lost;
            else if (got != value_for(k, 7)) ++wrong;
          } else if (mine) {
            if (f != (owned[j] != 0)) ++(f ? wrong : lost);
            else if (f && got != owned[j]) ++wrong;
          } else if (f && (got >> 32) != k) {
            ++wrong;  // a value never stored for k
          }
        }
      }
    });
  }
  for (auto& th : pool) th.join();
  r.wrong += wrong, r.lost += lost;
  std::unordered_map<key_type, value_type> contents;
  const auto snap = table.snapshot();
  for (auto k : snap.stash_keys) r.stashed += valid_key(k);
  const auto inv = check_hopscotch_invariants(snap, &contents);
  if (!inv.ok) r.first = "invariants: " + inv.summary();
  for (int j = 0; j < keys; ++j) {
    const auto it = contents.find(static_cast<key_type>(j));
    if (j < s1 && (it == contents.end() || it->second != value_for(j, 7))) ++r.lost;
    if (j >= s1 && j < s2 && (it != contents.end()) != (owned[j] != 0)) ++r.lost;
    if (j >= s1 && j < s2 && it != contents.end() && it->second != owned[j]) ++r.wrong;
    if (it != contents.end() && (it->second >> 32) != static_cast<key_type>(j)) ++r.wrong;
  }
  if (contents.size() > static_cast<std::size_t>(keys)) ++r.wrong;  // a key nobody inserted
  return r;
}

std::vector<variant> thread_per_op_variants() {
  std::vector<variant> v;
  for (const auto& x : all_variants())
    if (x.tile == 1) v.push_back(x);
  return v;
}

}  // namespace

class HostProtocol : public ::testing::TestWithParam<variant> {};

TEST_P(HostProtocol, ThreadsNeverSeeAWrongAnswerOrLoseAKey) {
  const hopscotch_options o = options_of(GetParam());
  const std::uint64_t fallbacks_before = detail::jitter_fallbacks;
  std::int64_t stashed = 0;
  for (std::uint64_t round = 0; round < 150; ++round) {
    const auto r = !o.static_stride                      ? run_round<0>(o, round + 1, 4, 500)
                   : o.layout == slot_layout::record      ? run_round<4>(o, round + 1, 4, 500)
                   : o.layout == slot_layout::interleaved ? run_round<2>(o, round + 1, 4, 500)
                                                          : run_round<1>(o, round + 1, 4, 500);
    ASSERT_EQ(r.wrong, 0) << "round " << round;
    ASSERT_EQ(r.lost, 0) << "round " << round;
    ASSERT_TRUE(r.first.empty()) << "round " << round << ": " << r.first;
    stashed += r.stashed;
  }
  std::cout << "locked finds: " << detail::jitter_fallbacks - fallbacks_before << ", keys left in the stash: " << stashed
            << "\n";
  EXPECT_GT(stashed, 0) << "the rounds must exercise the stash";
}

INSTANTIATE_TEST_SUITE_P(Variants, HostProtocol, ::testing::ValuesIn(thread_per_op_variants()),
                         [](const auto& info) { return name_of(info.param); });
