// Concurrency drivers on std::thread, for ThreadSanitizer (GPU500_SANITIZE=thread) and as plain
// tests in every build: the CPU hopscotch table's single operations (Herlihy, Shavit & Tzafrir's
// segment locks and timestamps) under a concurrent mix, each thread checked against its own
// sequential model. OpenMP code is left out on purpose: libgomp is not instrumented, so TSan
// cannot see its barriers and would report every parallel region.
#include <gtest/gtest.h>

#include <omp.h>

#include <cstdint>
#include <random>
#include <thread>
#include <vector>

#include "gpu500/hash/cpu_hopscotch.hpp"

namespace {

using namespace gpu500::hash;

// The only value a key is ever given, so a concurrent reader can check what it sees.
value_type value_of(key_type k) { return k * 0x9E3779B97F4A7C15ull ^ 0x5bd1e995ull; }

TEST(HopscotchThreads, ConcurrentMixMatchesEachThreadsModel) {
  omp_set_num_threads(1);  // the table's OpenMP loops (allocation, size) stay on this thread
  constexpr int threads = 4;
  constexpr key_type keys = 4096;
  constexpr int ops = 100000;
  cpu_hopscotch_map map(2 * keys);
  // Thread t owns the keys k with k % threads == t: only it inserts or erases them, so its model
  // is exact; it also looks up the other threads' keys, which must hold value_of(k) when found.
  std::vector<std::vector<char>> present(threads, std::vector<char>(keys, 0));
  std::vector<std::int64_t> errors(threads, 0), no_room(threads, 0);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      std::mt19937_64 rng(1234 + t);
      auto& mine = present[t];
      for (int i = 0; i < ops; ++i) {
        const auto r = rng();
        const key_type own = (r >> 8) % (keys / threads) * threads + t;
        value_type v = 0;
        switch (r % 4) {
          case 0: {
            const auto s = map.insert(own, value_of(own));
            if (s == insert_status::no_room) { ++no_room[t]; break; }
            errors[t] += s != (mine[own] ? insert_status::present : insert_status::inserted);
            mine[own] = 1;
            break;
          }
          case 1:
            errors[t] += map.erase(own) != static_cast<bool>(mine[own]);
            mine[own] = 0;
            break;
          case 2:
            errors[t] += map.find(own, v) != static_cast<bool>(mine[own]) || (mine[own] && v != value_of(own));
            break;
          default: {  // another thread's key: present or not, never a wrong value
            const key_type other = (r >> 8) % keys;
            errors[t] += map.find(other, v) && v != value_of(other);
          }
        }
      }
    });
  for (auto& th : pool) th.join();
  std::int64_t expected = 0;
  for (int t = 0; t < threads; ++t) {
    EXPECT_EQ(errors[t], 0) << "thread " << t;
    EXPECT_EQ(no_room[t], 0) << "thread " << t << " at load <= 0.5";
    for (key_type k = t; k < keys; k += threads) {
      value_type v = 0;
      ASSERT_EQ(map.find(k, v), static_cast<bool>(present[t][k])) << "key " << k;
      expected += present[t][k];
    }
  }
  EXPECT_EQ(map.size(), expected);
}

}  // namespace
