// gpu500/graph/mrg.hpp — the Graph500 reference's random number generator, host and device.
//
// A multiple-recursive generator of order 5 modulo p = 2^31 - 1 (L'Ecuyer, Blouin & Couture 1993,
// the one in GSL): new = (107374182 z1 + 104480 z5) mod p, then the state shifts (z5 <- z4 ... z2 <- z1,
// z1 <- new) and the output is `new`. Skip-ahead by n steps multiplies the state vector by A^n, A the
// 5x5 companion matrix; the reference exposes skips of hi*2^128 + mid*2^64 + lo steps, and so do we.
// Skips use tables of A^(j*256^i) (24 byte positions x 256 values), built once on the host; the
// device generator receives the same tables (see graph/cuda). Results are bit-identical to the
// reference's generator for any skip.
#pragma once

#include <array>
#include <cstdint>

#include "gpu500/core/types.hpp"

namespace gpu500::graph {

inline constexpr std::uint32_t mrg_modulus = 0x7FFFFFFFu;
inline constexpr std::uint64_t mrg_x = 107374182u, mrg_y = 104480u;

GPU500_HD GPU500_FORCEINLINE std::uint32_t mrg_mod(std::uint64_t v) {
  // v < 2^64: two folds of 2^31 = 1 (mod p) bring it below 2p, one subtraction finishes.
  v = (v & mrg_modulus) + (v >> 31);
  v = (v & mrg_modulus) + (v >> 31);
  return static_cast<std::uint32_t>(v >= mrg_modulus ? v - mrg_modulus : v);
}

/// Generator state (z1 newest ... z5 oldest), each in [0, p).
struct mrg_state {
  std::uint32_t z1, z2, z3, z4, z5;

  /// One step; returns the new value in [0, p).
  GPU500_HD GPU500_FORCEINLINE std::uint32_t next() {
    // x z1 + y z5 < 2^59: one fold leaves it below 2^31 + 2^28, one subtraction finishes.
    std::uint64_t t = mrg_x * z1 + mrg_y * z5;
    t = (t & mrg_modulus) + (t >> 31);
    const std::uint32_t v = static_cast<std::uint32_t>(t >= mrg_modulus ? t - mrg_modulus : t);
    z5 = z4;
    z4 = z3;
    z3 = z2;
    z2 = z1;
    z1 = v;
    return v;
  }
};

/// The reference's seeding from two 64-bit user seeds (seed (2,3) gives (3,1,4,1,1)).
GPU500_HD inline mrg_state mrg_seed(std::uint64_t s1, std::uint64_t s2) {
  return {static_cast<std::uint32_t>((s1 & 0x3FFFFFFF) + 1), static_cast<std::uint32_t>(((s1 >> 30) & 0x3FFFFFFF) + 1),
          static_cast<std::uint32_t>((s2 & 0x3FFFFFFF) + 1), static_cast<std::uint32_t>(((s2 >> 30) & 0x3FFFFFFF) + 1),
          static_cast<std::uint32_t>(((s2 >> 60) << 4) + (s1 >> 60) + 1)};
}

/// A 5x5 matrix modulo p acting on the state vector (z1..z5).
struct mrg_matrix {
  std::uint32_t a[5][5];

  GPU500_HD mrg_state apply(const mrg_state& s) const {
    const std::uint32_t z[5] = {s.z1, s.z2, s.z3, s.z4, s.z5};
    std::uint32_t r[5];
    for (int i = 0; i < 5; ++i) {
      // Products are below 2^62: four of them sum below 2^64; fold that sum once (below 2^34),
      // add the fifth product (below 2^63 in all) and reduce.
      std::uint64_t acc = 0;
      for (int j = 0; j < 4; ++j) acc += static_cast<std::uint64_t>(a[i][j]) * z[j];
      acc = (acc & mrg_modulus) + (acc >> 31) + static_cast<std::uint64_t>(a[i][4]) * z[4];
      r[i] = mrg_mod(acc);
    }
    return {r[0], r[1], r[2], r[3], r[4]};
  }
};

/// Tables of A^(j * 256^i) for byte positions i = 0..23 and j = 0..255 (skips up to 2^192 - 1).
/// About 614 KB; trivially copyable so the device can hold a copy.
struct mrg_skip_table {
  static constexpr int positions = 24;
  mrg_matrix m[positions][256];

  /// The process-wide table (built on first use, thread-safe).
  static const mrg_skip_table& get();

  /// State advanced by hi*2^128 + mid*2^64 + lo steps.
  GPU500_HD mrg_state skip(mrg_state s, std::uint64_t hi, std::uint64_t mid, std::uint64_t lo) const {
    const std::uint64_t parts[3] = {lo, mid, hi};
    for (int p = 0; p < 3; ++p)
      for (int b = 0; b < 8; ++b) {
        const unsigned byte = static_cast<unsigned>((parts[p] >> (8 * b)) & 0xFF);
        if (byte) s = m[p * 8 + b][byte].apply(s);
      }
    return s;
  }
};

}  // namespace gpu500::graph
