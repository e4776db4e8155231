// The blocked LU's step arithmetic, shared by the CPU and CUDA backends (internal): for block
// column k of an n x n matrix with blocks of nb, the trailing update A22 -= L21 U12 in the three
// pieces of the look-ahead — the next block column, the next block row, and the rest — each as
// rows x cols at (row0, col0) relative to the trailing matrix's corner (k + jb, k + jb); the
// piece reads rows row0.. of L21 and columns col0.. of U12. The pieces tile A22 exactly.
#pragma once

#include <algorithm>
#include <cstdint>

namespace gpu500::hpl_mxp::detail {

struct gemm_piece {
  std::int64_t rows = 0, cols = 0, row0 = 0, col0 = 0;
};

struct lu_step {
  std::int64_t k = 0, jb = 0;  ///< first column and width of the block column
  std::int64_t off = 0, m2 = 0;  ///< the trailing matrix: corner (off, off), order m2
  gemm_piece next_column, next_row, rest;
};

inline lu_step lu_step_at(std::int64_t n, std::int64_t nb, std::int64_t k) {
  lu_step s;
  s.k = k;
  s.jb = std::min(nb, n - k);
  s.off = k + s.jb;
  s.m2 = n - s.off;
  const std::int64_t jn = std::min(nb, s.m2);  // width of the next block column
  s.next_column = {s.m2, jn, 0, 0};
  s.next_row = {jn, s.m2 - jn, 0, jn};
  s.rest = {s.m2 - jn, s.m2 - jn, jn, jn};
  return s;
}

}  // namespace gpu500::hpl_mxp::detail
