// gpu500/core/splitmix.hpp — SplitMix64 (Steele, Lea & Flood, "Fast Splittable Pseudorandom
// Number Generators", OOPSLA 2014), the counter-based hash the project's host generators draw
// from (the dense Bellman-Ford matrices, the grid and geometric graphs): value k of a stream is a
// pure function of (seed, k), so a generated graph does not depend on the thread count.
#pragma once

#include <cstdint>

namespace gpu500 {

inline constexpr std::uint64_t splitmix_gamma = 0x9e3779b97f4a7c15ull;

/// One SplitMix64 step on the state x (x + gamma, then the finaliser).
[[nodiscard]] constexpr std::uint64_t splitmix64(std::uint64_t x) {
  x += splitmix_gamma;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/// A double in [0, 1) from the top 53 bits of h (every value exact).
[[nodiscard]] constexpr double unit_double(std::uint64_t h) { return static_cast<double>(h >> 11) * 0x1p-53; }

/// A float in [0, 1) from the top 24 bits of h (every value exact).
[[nodiscard]] constexpr float unit_float(std::uint64_t h) { return static_cast<float>(h >> 40) * 0x1p-24f; }

}  // namespace gpu500
