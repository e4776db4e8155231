// gpu500/hpl/matgen.hpp — HPL 2.3's pseudo-random matrix (HPL_pdmatgen), bit for bit.
//
// A 64-bit LCG x(k+1) = a x(k) + c mod 2^64, a = 6364136223846793005, c = 1, x(0) = 100.
// [A | b] is N x (N+1), column-major, 0-based: element (i, j) = 0.5 - x(1 + i + j N) / 2^64,
// b = column N. A jump x(k+m) = A_m x(k) + C_m lets every rank (and every GPU thread) start at
// its own entries: each rank generates only the blocks it owns in the 2-D block-cyclic layout.
#pragma once

#include <cstdint>
#include <vector>

#include "gpu500/core/types.hpp"

namespace gpu500::hpl {

inline constexpr std::uint64_t lcg_a = 6364136223846793005ULL;
inline constexpr std::uint64_t lcg_c = 1ULL;
inline constexpr std::uint64_t lcg_seed = 100ULL;

/// The affine map x -> mul x + add (mod 2^64).
struct lcg_jump {
  std::uint64_t mul = 1, add = 0;
  GPU500_HD std::uint64_t apply(std::uint64_t x) const { return mul * x + add; }
};

/// The jump by m steps, by repeated squaring: O(log m).
GPU500_HD inline lcg_jump lcg_jump_by(std::uint64_t m) {
  lcg_jump r{1, 0}, p{lcg_a, lcg_c};  // p = jump by 2^i
  while (m) {
    if (m & 1) r = lcg_jump{p.mul * r.mul, p.mul * r.add + p.add};
    p = lcg_jump{p.mul * p.mul, p.mul * p.add + p.add};
    m >>= 1;
  }
  return r;
}

/// The matrix value of a state: 0.5 - x / 2^64, in (-0.5, 0.5].
GPU500_HD inline double lcg_value(std::uint64_t x) {
  return 0.5 - static_cast<double>(x) * 5.421010862427522170037264e-20;  // 2^-64
}

/// The state x(k) from the seed.
GPU500_HD inline std::uint64_t lcg_state(std::uint64_t k) { return lcg_jump_by(k).apply(lcg_seed); }

/// Global element (i, j) of [A | b] for order n (j == n is b).
GPU500_HD inline double hpl_entry(std::int64_t n, std::int64_t i, std::int64_t j) {
  return lcg_value(lcg_state(1 + static_cast<std::uint64_t>(i) + static_cast<std::uint64_t>(j) * n));
}

/// The local part of [A | b] of process (myrow, mycol) on a P x Q grid with block size nb,
/// column-major with leading dimension lda >= local rows. Columns are the N+1 of [A | b].
void generate_local(std::int64_t n, int nb, int p, int q, int myrow, int mycol, double* a,
                    std::int64_t lda);

/// The whole of [A | b] (n x (n+1), lda = n) on one process, for tests and oracles.
std::vector<double> generate_global(std::int64_t n);

}  // namespace gpu500::hpl
