// gpu500/hpl_mxp/matgen.hpp — the HPL-MxP reference matrix generator (HPL-AI reference code by
// Tsai, Luszczek and Dongarra, matgen.c), computed entry by entry on any backend.
//
// The reference draws a 64-bit LCG x(k+1) = a x(k) + c mod 2^64 (a = 6364136223846793005, c = 1,
// HPL's constants) and maps each state to x * 2^-64 - 0.5, in [-0.5, 0.5):
//   A (n x n, column-major): seed 1, entry (i, j) is the state after 1 + i + j n steps;
//   b (length n):            seed 2, entry i is the state after 1 + i steps;
//   the diagonal is then replaced by the sum of the magnitudes of the row's off-diagonal
//   entries, so A is row diagonally dominant and LU without pivoting is stable.
// A row walk (row_walk) starts at entry (i, j0) with one jump and steps along the row with the
// constant jump by n: one multiply-add per entry, so a thread (GPU) or a block of rows (CPU)
// regenerates any part of A, the FP64 matrix never has to be stored.
#pragma once

#include <cstdint>

#include "gpu500/core/types.hpp"
#include "gpu500/hpl/matgen.hpp"

namespace gpu500::hpl_mxp {

inline constexpr std::uint64_t seed_a = 1;  ///< the reference's iseed for A
inline constexpr std::uint64_t seed_b = 2;  ///< the reference's iseed + 1 for b

/// The reference's value of a state: x * 2^-64 - 0.5.
GPU500_HD inline double mxp_value(std::uint64_t x) {
  return static_cast<double>(x) * 5.421010862427522170037264e-20 - 0.5;  // 2^-64
}

/// The off-diagonal entry (i, j) of A as drawn (the diagonal position holds a drawn value too,
/// which the diagonal replaces).
GPU500_HD inline double drawn_entry(std::int64_t n, std::int64_t i, std::int64_t j) {
  return mxp_value(hpl::lcg_jump_by(1 + static_cast<std::uint64_t>(i) + static_cast<std::uint64_t>(j) * n).apply(seed_a));
}

/// Entry i of b.
GPU500_HD inline double b_entry(std::int64_t i) {
  return mxp_value(hpl::lcg_jump_by(1 + static_cast<std::uint64_t>(i)).apply(seed_b));
}

/// Walks row i of A from column j0: value() is the drawn entry (i, j), next() moves to j + 1.
struct row_walk {
  std::uint64_t x;
  hpl::lcg_jump step;
  GPU500_HD row_walk(std::int64_t n, std::int64_t i, std::int64_t j0, const hpl::lcg_jump& by_n)
      : x(hpl::lcg_jump_by(1 + static_cast<std::uint64_t>(i) + static_cast<std::uint64_t>(j0) * n).apply(seed_a)),
        step(by_n) {}
  GPU500_HD double value() const { return mxp_value(x); }
  GPU500_HD void next() { x = step.apply(x); }
};

/// How the diagonal is set: the reference's (sum of the row's off-diagonal magnitudes), or zero
/// (a test matrix on which LU without pivoting breaks down, so the run must report FAILED).
enum class diagonal { reference, zero };

}  // namespace gpu500::hpl_mxp
