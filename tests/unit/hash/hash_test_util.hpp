// Helpers shared by the hash tests: random operation batches.
#pragma once

#include <random>
#include <vector>

#include "gpu500/hash/common.hpp"

namespace gpu500::hash::testing {

/// n operations: ins% inserts, era% erases, the rest finds; keys uniform in [0, range).
inline std::vector<op> random_ops(std::mt19937_64& rng, std::size_t n, std::uint64_t range, int ins, int era) {
  std::vector<op> ops(n);
  for (auto& o : ops) {
    const int p = static_cast<int>(rng() % 100);
    o.kind = p < ins ? op_kind::insert : p < ins + era ? op_kind::erase : op_kind::find;
    o.key = rng() % range;
    o.value = rng() >> 8;
  }
  return ops;
}

}  // namespace gpu500::hash::testing
