// HPL-MxP on the host: the generator against the reference's plain LCG loop, the FP32 LU without
// pivoting against a Doolittle LU in double, the refinement's convergence and backward error on
// odd N and NB checked against a dense FP64 residual computed here, the failing matrix, options
// (fp8 refused on the CPU, with NB not a multiple of 16 and below compute capability 8.9), the
// memory plan (1-byte FP8 copies), the FP8 GEMMs' row padding staying inside the CUDA matrix,
// and the CPU solver's grid layout (the 1 x 1 grid's update pieces, a 2 x 3 layout's parts).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "backend.hpp"
#include "cpu/lu.hpp"
#include "gpu500/dist/grid.hpp"
#include "factor_check.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/hpl/grid.hpp"
#include "gpu500/hpl_mxp/mxp.hpp"
#include "schedule.hpp"

namespace gpu500::hpl_mxp {
namespace {

// The reference's generator as written there: one state stepped through A column by column.
struct plain_reference {
  std::vector<double> a, b;
  explicit plain_reference(std::int64_t n) : a(static_cast<std::size_t>(n * n)), b(static_cast<std::size_t>(n)) {
    std::uint64_t x = 1;
    std::vector<double> sums(static_cast<std::size_t>(n), 0.0);
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = 0; i < n; ++i) {
        x = x * 6364136223846793005ULL + 1ULL;
        a[j * n + i] = static_cast<double>(x) * 5.4210108624275222e-20 - 0.5;
        sums[i] += std::fabs(a[j * n + i]);
      }
    for (std::int64_t i = 0; i < n; ++i) a[i * n + i] = sums[i] - std::fabs(a[i * n + i]);
    x = 2;
    for (auto& v : b) {
      x = x * 6364136223846793005ULL + 1ULL;
      v = static_cast<double>(x) * 5.4210108624275222e-20 - 0.5;
    }
  }
};

// ||A x - b||_oo / (||A||_oo ||x||_oo + ||b||_oo) / (N eps) from a dense FP64 A.
double dense_backward_error(const plain_reference& ref, std::int64_t n, const std::vector<double>& x) {
  double nr = 0, na = 0, nx = 0, nb = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    double r = -ref.b[i], row = 0;
    for (std::int64_t j = 0; j < n; ++j) {
      r += ref.a[j * n + i] * x[j];
      row += std::fabs(ref.a[j * n + i]);
    }
    nr = std::max(nr, std::fabs(r));
    na = std::max(na, row);
    nx = std::max(nx, std::fabs(x[i]));
    nb = std::max(nb, std::fabs(ref.b[i]));
  }
  return nr / (na * nx + nb) / (static_cast<double>(n) * std::ldexp(1.0, -53));
}

options cpu_options(std::int64_t n, int nb) {
  options o;
  o.n = n;
  o.nb = nb;
  o.be = backend::cpu;
  o.prec = precision::fp32;
  return o;
}

TEST(HplMxpGenerator, MatchesThePlainReferenceLoop) {
  const std::int64_t n = 37;
  const plain_reference ref(n);
  std::vector<float> a(static_cast<std::size_t>(n * n));
  const auto sums = detail::generate_f32(n, diagonal::reference, a.data(), n);
  double norm = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    double row = 0;
    for (std::int64_t j = 0; j < n; ++j) {
      EXPECT_EQ(a[j * n + i], static_cast<float>(ref.a[j * n + i])) << i << "," << j;
      if (i != j) {
        EXPECT_EQ(drawn_entry(n, i, j), ref.a[j * n + i]);
      }
      row += std::fabs(ref.a[j * n + i]);
    }
    EXPECT_EQ(sums.diag[i], ref.a[i * n + i]);  // same summation order: bit for bit
    norm = std::max(norm, row);
  }
  EXPECT_NEAR(sums.norm_inf, norm, 1e-12 * norm);
  EXPECT_EQ(detail::generate_b(n), ref.b);
  for (std::int64_t i = 0; i < n; ++i) EXPECT_EQ(b_entry(i), ref.b[i]);
}

TEST(HplMxpGenerator, ZeroDiagonalAndRegeneratedProduct) {
  const std::int64_t n = 29;
  const plain_reference ref(n);
  std::vector<float> a(static_cast<std::size_t>(n * n));
  const auto zero = detail::generate_f32(n, diagonal::zero, a.data(), n);
  for (std::int64_t i = 0; i < n; ++i) EXPECT_EQ(a[i * n + i], 0.0f);
  EXPECT_EQ(zero.diag, std::vector<double>(n, 0.0));
  const auto sums = detail::generate_f32(n, diagonal::reference, a.data(), n);
  std::vector<double> v(n), y(n, 7.0);
  for (std::int64_t j = 0; j < n; ++j) v[j] = 1.0 / (1.0 + j);
  detail::matvec_regen(n, sums.diag, v.data(), y.data(), -1.0, 1.0);
  for (std::int64_t i = 0; i < n; ++i) {
    double want = 7.0;
    for (std::int64_t j = 0; j < n; ++j) want -= ref.a[j * n + i] * v[j];
    EXPECT_NEAR(y[i], want, 1e-12 * n);
  }
}

// Doolittle LU without pivoting in double: the oracle of the FP32 blocked LU.
void doolittle(std::vector<double>& a, std::int64_t n) {
  for (std::int64_t k = 0; k < n; ++k)
    for (std::int64_t i = k + 1; i < n; ++i) {
      a[k * n + i] /= a[k * n + k];
      for (std::int64_t j = k + 1; j < n; ++j) a[j * n + i] -= a[k * n + i] * a[j * n + k];
    }
}

TEST(HplMxpLu, BlockedFp32MatchesDoolittleOnOddSizes) {
  for (const auto& [n, nb] : {std::pair<std::int64_t, int>{37, 5}, {64, 64}, {101, 16}, {50, 200}}) {
    const std::int64_t lda = n + 3;
    std::vector<float> a(static_cast<std::size_t>(lda * n));
    detail::generate_f32(n, diagonal::reference, a.data(), lda);
    std::vector<double> ref(static_cast<std::size_t>(n * n));
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = 0; i < n; ++i) ref[j * n + i] = a[j * lda + i];
    detail::getrf_nopiv(a.data(), n, lda, nb);
    doolittle(ref, n);
    double worst = 0;
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = 0; i < n; ++i)
        worst = std::max(worst, std::fabs(a[j * lda + i] - ref[j * n + i]) / (1.0 + std::fabs(ref[j * n + i])));
    EXPECT_LT(worst, 1e-4) << "n=" << n << " nb=" << nb;
  }
}

// The look-ahead's three GEMM pieces (shared with the CUDA backend) cover every trailing entry
// exactly once, the first two being the next block column and row.
TEST(HplMxpLu, LookAheadPiecesTileTheTrailingMatrix) {
  for (const auto& [n, nb] : {std::pair<std::int64_t, std::int64_t>{37, 5}, {64, 64}, {100, 30}, {9, 20}, {7, 1}})
    for (std::int64_t k = 0; k < n; k += nb) {
      const detail::lu_step st = detail::lu_step_at(n, nb, k);
      EXPECT_EQ(st.off, std::min(n, k + nb));
      EXPECT_EQ(st.m2, n - st.off);
      std::vector<int> hits(static_cast<std::size_t>(st.m2 * st.m2), 0);
      for (const auto& g : {st.next_column, st.next_row, st.rest}) {
        ASSERT_GE(g.rows, 0);
        ASSERT_GE(g.cols, 0);
        for (std::int64_t j = g.col0; j < g.col0 + g.cols; ++j)
          for (std::int64_t i = g.row0; i < g.row0 + g.rows; ++i) ++hits[j * st.m2 + i];
      }
      for (int h : hits) EXPECT_EQ(h, 1) << "n=" << n << " nb=" << nb << " k=" << k;
      const std::int64_t jn = std::min(nb, st.m2);
      EXPECT_EQ(st.next_column.cols, jn);
      EXPECT_EQ(st.next_column.rows, st.m2);
      EXPECT_EQ(st.next_row.rows, jn);
    }
}

// The CUDA backend's FP8 GEMMs pad each piece's rows to 16 (cuBLASLt wants 16-byte multiples):
// with NB a multiple of 16 every piece starts on a multiple of 16 and its padded rows end inside
// the padded trailing matrix, whose last row lies inside the leading dimension.
TEST(HplMxpLu, Fp8PaddedPiecesStayInsideTheMatrix) {
  for (const std::int64_t n : {1, 15, 16, 17, 100, 700, 1003, 3001})
    for (const std::int64_t nb : {16, 48, 64, 160, 512})
      for (std::int64_t k = 0; k < n; k += nb) {
        const detail::lu_step st = detail::lu_step_at(n, nb, k);
        if (st.m2 <= 0) continue;
        ASSERT_EQ(st.jb, nb) << "a trailing update follows only full block columns";
        ASSERT_EQ(st.off % 16, 0);
        for (const auto& g : {st.next_column, st.next_row, st.rest}) {
          if (g.rows <= 0 || g.cols <= 0) continue;
          EXPECT_EQ(g.row0 % 16, 0) << "n=" << n << " nb=" << nb << " k=" << k;
          EXPECT_EQ(g.col0 % 16, 0);
          EXPECT_LE(g.row0 + detail::fp8_rows(g.rows), detail::fp8_rows(st.m2)) << "n=" << n << " nb=" << nb;
        }
        EXPECT_LE(st.off + detail::fp8_rows(st.m2), detail::cuda_leading_dimension(n));
      }
}

// The CPU solver is one over every grid: on the 1 x 1 grid its update pieces are the one-matrix
// LU's, and a process's part of any P x Q layout (here every part of a 2 x 3 one, odd N and NB,
// walked with one jump per run of consecutive global columns) holds the drawn entries.
TEST(HplMxpGridLayout, OneByOneIsTheWholeMatrixAndPartsHoldTheirEntries) {
  const dist::process_grid one(dist::communicator(), 1, 1);
  for (const auto& [n, nb] : {std::pair<std::int64_t, int>{37, 5}, {101, 16}, {50, 200}})
    for (std::int64_t k = 0; k < n; k += nb) {
      const detail::lu_step ref = detail::lu_step_at(n, nb, k);
      const auto pieces = detail::grid_pieces(n, nb, detail::grid_step_at(n, nb, k, one), one);
      const detail::gemm_piece want[3] = {ref.next_column, ref.next_row, ref.rest};
      for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(pieces[i].rows, want[i].rows) << n << " " << nb << " " << k << " " << i;
        EXPECT_EQ(pieces[i].cols, want[i].cols) << n << " " << nb << " " << k << " " << i;
        EXPECT_EQ(pieces[i].row0, want[i].row0);
        EXPECT_EQ(pieces[i].col0, want[i].col0);
      }
    }
  const std::int64_t n = 97, nb = 7;
  std::int64_t seen = 0;
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 3; ++c) {
      const detail::local_matrix m(n, nb, r, c, 2, 3);
      detail::walk_local(m, [&](std::int64_t li0, std::int64_t rows, std::int64_t lj, const double* vals) {
        for (std::int64_t i = 0; i < rows; ++i) EXPECT_EQ(vals[i], drawn_entry(n, m.grow[li0 + i], m.gcol[lj]));
      });
      seen += m.mp * m.nq;
    }
  EXPECT_EQ(seen, n * n);
}

// The check the CUDA tests apply to the device's low-precision factors (factor_check.hpp), on a
// host emulation of the device's rounding: it passes every format's factors and sees their
// rounding, sees none in FP32 factors, and fails a transposed L21 copy and a doubled update.
TEST(HplMxpLu, FactorCheckPassesEmulatedRoundingAndCatchesWrongUpdates) {
  const std::int64_t n = 300;
  std::vector<float> a(static_cast<std::size_t>(n * n));
  detail::generate_f32(n, diagonal::reference, a.data(), n);
  std::vector<float> f32 = a;
  detail::getrf_nopiv(f32.data(), n, n, 64);
  for (const std::int64_t nb : {64, 48}) {
    for (const precision p : {precision::fp8, precision::bf16, precision::fp16}) {
      const test::factor_check c = test::check_factors(a, test::emulated_lu(a, n, nb, p), n, nb, p);
      EXPECT_LE(c.worst, 1.0) << precision_name(p) << " nb=" << nb << " at " << c.wi << "," << c.wj;
      EXPECT_LE(c.frob, c.frob_bound) << precision_name(p) << " nb=" << nb;
      EXPECT_GT(c.frob, c.frob_bound / 20) << precision_name(p) << " nb=" << nb << ": no rounding seen";
    }
    const test::factor_check exact = test::check_factors(a, f32, n, nb, precision::fp8);
    EXPECT_LE(exact.worst, 1.0);
    EXPECT_LT(exact.frob, exact.frob_bound / 20) << "FP32 factors look rounded to E4M3";
    for (const auto bug : {test::emulated_bug::transposed_l21, test::emulated_bug::doubled_update}) {
      const test::factor_check c =
          test::check_factors(a, test::emulated_lu(a, n, nb, precision::fp8, bug), n, nb, precision::fp8);
      EXPECT_GT(c.worst, 1.0) << "bug " << static_cast<int>(bug) << " nb=" << nb;
      EXPECT_GT(c.frob, c.frob_bound) << "bug " << static_cast<int>(bug) << " nb=" << nb;
    }
  }
}

TEST(HplMxpFormula, BackwardErrorAndFlops) {
  const double eps = std::ldexp(1.0, -53);
  EXPECT_DOUBLE_EQ(backward_error(1.0, 2.0, 3.0, 4.0, 10), 1.0 / 10.0 / (10 * eps));
  EXPECT_EQ(backward_error(1.0, 2.0, 3.0, 4.0, 0), 0.0);
  EXPECT_DOUBLE_EQ(flop_count(1000), 2.0 / 3.0 * 1e9 + 1.5e6);
  EXPECT_TRUE(std::isnan(backward_error(NAN, 1, 1, 1, 5)));
}

TEST(HplMxpSolve, ConvergesOnOddSizesAndPassesAnIndependentCheck) {
  for (const auto& [n, nb] : {std::pair<std::int64_t, int>{301, 37}, {128, 32}, {97, 200}, {4, 3}}) {
    const result r = solve(cpu_options(n, nb));
    const plain_reference ref(n);
    EXPECT_TRUE(r.passed) << "n=" << n << " berr=" << r.backward_error;
    EXPECT_GE(r.iterations, 1);
    EXPECT_LE(r.iterations, 10);
    ASSERT_EQ(static_cast<std::int64_t>(r.x.size()), n);
    const double berr = dense_backward_error(ref, n, r.x);
    EXPECT_LT(berr, threshold) << "n=" << n;
    EXPECT_NEAR(r.backward_error, berr, std::max(1.0, 0.5 * berr));  // rounding noise of two sums
    EXPECT_GT(r.gflops, 0.0);
  }
}

TEST(HplMxpSolve, OneIterationIsTheFp32SolutionAndIsNotEnough) {
  options o = cpu_options(400, 64);
  o.max_iters = 1;
  const result r = solve(o);
  EXPECT_EQ(r.iterations, 1);
  EXPECT_FALSE(r.passed) << r.backward_error;  // FP32 LU alone: far above 16
  EXPECT_GT(r.backward_error, threshold);
  EXPECT_LT(r.backward_error, 1e9);  // but it is the LU solution, not garbage
}

TEST(HplMxpSolve, ZeroDiagonalFailsWithinTheIterationLimit) {
  options o = cpu_options(120, 16);
  o.diag = diagonal::zero;
  const result r = solve(o);
  EXPECT_FALSE(r.passed);
  EXPECT_LE(r.iterations, o.max_iters);
  program_settings s;
  s.opt = o;
  s.quiet = true;
  EXPECT_EQ(run_program(s), 1);
  s.opt.diag = diagonal::reference;
  EXPECT_EQ(run_program(s), 0);
}

// For N = 2 and 3 the reference's matrix is singular (equal row sums leave a sign vector in its
// kernel: A (1, -1, -1) = 0 at N = 3): reported as FAILED, like any breakdown.
// The reference's matrix is singular for N = 1..3: refused with a message, before any work.
TEST(HplMxpSolve, ReferenceMatricesBelowOrderFourAreRefused) {
  for (std::int64_t n : {1, 2, 3}) {
    try {
      (void)solve(cpu_options(n, 2));
      ADD_FAILURE() << "N = " << n << " was solved";
    } catch (const usage_error& e) {
      EXPECT_NE(std::string(e.what()).find("singular below N = 4"), std::string::npos) << e.what();
    }
  }
  EXPECT_TRUE(solve(cpu_options(4, 2)).passed);
}

TEST(HplMxpOptions, RefusedSettings) {
  options o = cpu_options(100, 32);
  o.prec = precision::bf16;
  EXPECT_THROW(check_options(o), usage_error);
  o = cpu_options(-1, 32);
  EXPECT_THROW(check_options(o), usage_error);
  o = cpu_options(100, 0);
  EXPECT_THROW(check_options(o), usage_error);
  o = cpu_options(100, 32);
  o.max_iters = 0;
  EXPECT_THROW(check_options(o), usage_error);
  o = cpu_options(std::int64_t{1} << 30, 32);
  EXPECT_THROW(check_options(o), resource_error);
  EXPECT_THROW(parse_precision("fp4", "--precision"), usage_error);
  EXPECT_THROW(parse_precision("FP8", "--precision"), usage_error);
  EXPECT_EQ(parse_precision("fp16", "--precision"), precision::fp16);
  EXPECT_EQ(parse_precision("fp8", "--precision"), precision::fp8);
  EXPECT_STREQ(precision_name(precision::fp8), "fp8");
  // fp8: the CUDA backend only, NB a multiple of 16 (checked before any device is looked at).
  o = cpu_options(100, 32);
  o.prec = precision::fp8;
  EXPECT_THROW(check_options(o), usage_error);
  o.be = backend::cuda;
  for (const int nb : {100, 8, 24, 1}) {
    o.nb = nb;
    EXPECT_THROW(check_options(o), usage_error) << nb;
  }
  try {
    o.nb = 200;
    check_options(o);
    ADD_FAILURE() << "fp8 with NB 200 accepted";
  } catch (const usage_error& e) {
    EXPECT_NE(std::string(e.what()).find("multiple of 16"), std::string::npos) << e.what();
  }
}

// The rules accept results of at least 16 bits: every precision but fp8.
TEST(HplMxpOptions, Fp8IsNoValidSubmission) {
  EXPECT_FALSE(valid_for_submission(precision::fp8));
  for (const precision p : {precision::bf16, precision::fp16, precision::fp32}) EXPECT_TRUE(valid_for_submission(p));
}

// The one FP8 capability rule: 8.9 and newer pass; an older GPU is refused by name and version.
TEST(HplMxpOptions, Fp8NeedsComputeCapability89) {
  EXPECT_NO_THROW(detail::require_fp8_capability("device 0", 8, 9));
  EXPECT_NO_THROW(detail::require_fp8_capability("device 0", 9, 0));
  try {
    detail::require_fp8_capability("NVIDIA A100", 8, 0);
    ADD_FAILURE() << "8.0 was accepted";
  } catch (const usage_error& e) {
    EXPECT_NE(std::string(e.what()).find("NVIDIA A100 is 8.0"), std::string::npos) << e.what();
  }
  EXPECT_THROW(detail::require_fp8_capability("device 1", 8, 6), usage_error);
}

TEST(HplMxpSizing, LargestMultipleOfNbThatFits) {
  constexpr std::int64_t gib = std::int64_t{1} << 30;
  for (const auto& [be, mem] : {std::pair<backend, std::int64_t>{backend::cpu, gib}, {backend::cuda, 16 * gib}}) {
    const int nb = 256;
    const std::int64_t n = choose_n(be, precision::bf16, mem, nb);
    ASSERT_GT(n, 0);
    EXPECT_EQ(n % nb, 0);
    const std::int64_t usable = be == backend::cuda ? mem - std::max<std::int64_t>(mem * 6 / 100, 2 * gib) : mem / 2;
    EXPECT_LE(bytes_needed(be, precision::bf16, n, nb), usable);
    EXPECT_GT(bytes_needed(be, precision::bf16, n + nb, nb), usable);
  }
  EXPECT_EQ(choose_n(backend::cuda, precision::bf16, std::int64_t{1} << 30, 256), 0);  // below the 2 GiB margin
  // 80 GB: the plan of docs/hpl-mxp.md (FP32 matrix, two sets of BF16 panel copies) fits N >= 130000.
  EXPECT_GE(choose_n(backend::cuda, precision::bf16, 80LL * 1000 * 1000 * 1000, 2048), 130000);
}

// fp8's copies take 1 byte an entry (the transposed L21 copy's rows padded to 16, a 16-byte scale
// slot after each copy) plus cuBLASLt's workspace and the amax scratch: exactly the plan.
TEST(HplMxpSizing, Fp8CopiesTakeOneByte) {
  constexpr std::int64_t gib = std::int64_t{1} << 30;
  const double extra = static_cast<double>(detail::fp8_workspace_bytes) + 4.0 * detail::fp8_amax_blocks;
  for (const auto& [n, nb] : {std::pair<std::int64_t, int>{40000, 512}, {100003, 2048}, {3001, 128}}) {
    const double lda = static_cast<double>(detail::cuda_leading_dimension(n));
    const double w = std::min<double>(nb, static_cast<double>(n));
    const double bf16 = static_cast<double>(bytes_needed(backend::cuda, precision::bf16, n, nb));
    const double fp8 = static_cast<double>(bytes_needed(backend::cuda, precision::fp8, n, nb));
    // bf16: two sets of L and U copies, 2 bytes an entry; fp8: 1 byte an entry, 16-byte slots.
    EXPECT_NEAR(bf16 - fp8, 8.0 * lda * w - (4.0 * lda * w + 4.0 * detail::fp8_scale_slot + extra), 2.0) << n;
    // On a 2 x 2 grid, process (0, 0)'s parts (a bf16 L21 part with the local leading dimension).
    const std::int64_t local_rows = hpl::numroc(n, nb, 0, 2);
    const double mp = static_cast<double>(local_rows), nq = mp;
    const double lld = static_cast<double>(detail::cuda_leading_dimension(local_rows));
    const double gbf16 = static_cast<double>(bytes_needed(backend::cuda, precision::bf16, n, nb, 2, 2));
    const double gfp8 = static_cast<double>(bytes_needed(backend::cuda, precision::fp8, n, nb, 2, 2));
    const double lrows = static_cast<double>(detail::fp8_rows(local_rows));
    EXPECT_NEAR(gbf16 - gfp8, 4.0 * w * (lld + nq) - (2.0 * (w * (lrows + nq) + 2.0 * detail::fp8_scale_slot) + extra),
                2.0)
        << n;
  }
  // The copies weigh less than the matrix: fp8 fits at least bf16's N on 80 GB, never less.
  const std::int64_t mem = 80LL * 1000 * 1000 * 1000;
  EXPECT_GE(choose_n(backend::cuda, precision::fp8, mem, 2048), choose_n(backend::cuda, precision::bf16, mem, 2048));
  EXPECT_EQ(choose_n(backend::cuda, precision::fp8, mem, 2048) % 2048, 0);
  EXPECT_LE(bytes_needed(backend::cuda, precision::fp8, choose_n(backend::cuda, precision::fp8, 16 * gib, 256), 256),
            16 * gib - 2 * gib);
}

TEST(HplMxpSizing, AGridProcessHoldsItsShare) {
  constexpr std::int64_t gib = std::int64_t{1} << 30;
  for (const backend be : {backend::cpu, backend::cuda}) {
    const std::int64_t n = 40000;
    const double one = static_cast<double>(bytes_needed(be, precision::bf16, n, 512));
    const double quarter = static_cast<double>(bytes_needed(be, precision::bf16, n, 512, 2, 2));
    // The matrix dominates: a 2 x 2 process needs about a quarter, never less.
    EXPECT_GT(quarter, 0.24 * one);
    EXPECT_LT(quarter, 0.35 * one);
    // Row and column 0 hold the most: an uneven split sizes by the larger share.
    EXPECT_GT(bytes_needed(be, precision::bf16, n + 512, 512, 2, 2), bytes_needed(be, precision::bf16, n, 512, 2, 2));
    // The same memory per process fits about twice the N on four processes, a multiple of NB.
    const std::int64_t mem = be == backend::cuda ? 40 * gib : 8 * gib;
    const std::int64_t n1 = choose_n(be, precision::bf16, mem, 512), n4 = choose_n(be, precision::bf16, mem, 512, 2, 2);
    EXPECT_EQ(n4 % 512, 0);
    EXPECT_GT(n4, 19 * n1 / 10);
    EXPECT_LT(n4, 21 * n1 / 10);
    const std::int64_t usable = be == backend::cuda ? mem - std::max<std::int64_t>(mem * 6 / 100, 2 * gib) : mem / 2;
    EXPECT_LE(bytes_needed(be, precision::bf16, n4, 512, 2, 2), usable);
    EXPECT_GT(bytes_needed(be, precision::bf16, n4 + 512, 512, 2, 2), usable);
  }
}

}  // namespace
}  // namespace gpu500::hpl_mxp
