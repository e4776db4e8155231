// Unit tests of HPL on the host: the generator against HPL 2.3's own figures (tests/data/hpl),
// HPL.dat parsing, the solver against LAPACKE dgesv for every variant combination at awkward
// sizes, and the HPL.out layout against the reference output.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>

#include "gpu500/config.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/hpl/dat.hpp"
#include "gpu500/hpl/grid.hpp"
#include "gpu500/hpl/matgen.hpp"
#include "gpu500/hpl/pdgesv.hpp"
#include "gpu500/hpl/report.hpp"
#include "support.hpp"

using namespace gpu500;
using namespace gpu500::hpl;
using namespace hpl_test;

namespace {

const char* good_dat =
    "HPLinpack benchmark input file\n"
    "Innovative Computing Laboratory, University of Tennessee\n"
    "HPL.out      output file name (if any)\n"
    "6            device out (6=stdout,7=stderr,file)\n"
    "2            # of problems sizes (N)\n"
    "29 30 34 35  Ns\n"
    "2            # of NBs\n"
    "1 2 3 4      NBs\n"
    "0            PMAP process mapping (0=Row-,1=Column-major)\n"
    "1            # of process grids (P x Q)\n"
    "1 2          Ps\n"
    "1 4          Qs\n"
    "16.0         threshold\n"
    "3            # of panel fact\n"
    "0 1 7        PFACTs (0=left, 1=Crout, 2=Right)\n"
    "2            # of recursive stopping criterium\n"
    "2 4          NBMINs (>= 1)\n"
    "1            # of panels in recursion\n"
    "2            NDIVs\n"
    "3            # of recursive panel fact.\n"
    "0 1 2        RFACTs (0=left, 1=Crout, 2=Right)\n"
    "2            # of broadcast\n"
    "0 9          BCASTs (0=1rg,1=1rM,2=2rg,3=2rM,4=Lng,5=LnM)\n"
    "2            # of lookahead depth\n"
    "0 1          DEPTHs (>=0)\n"
    "5            SWAP (0=bin-exch,1=long,2=mix)\n"
    "-3           swapping threshold\n"
    "3            L1 in (0=transposed,1=no-transposed) form\n"
    "1            U  in (0=transposed,1=no-transposed) form\n"
    "4            Equilibration (0=no,1=yes)\n"
    "0            memory alignment in double (> 0)\n";

dat_file parse_text(const std::string& s) {
  std::istringstream in(s);
  return parse_dat(in, "HPL.dat");
}
// The good file with line `lineno` (1-based) replaced.
std::string with_line(int lineno, const std::string& text) {
  std::istringstream in(good_dat);
  std::string out, line;
  for (int i = 1; std::getline(in, line); ++i) out += (i == lineno ? text : line) + "\n";
  return out;
}

}  // namespace

// --- generator ------------------------------------------------------------------------------

TEST(HplGrid, LeadingDimensionIsRoundedAndNeverAPowerOfTwo) {
  EXPECT_EQ(leading_dimension(0, 8, 1), 1);     // an empty local matrix keeps lda 1
  EXPECT_EQ(leading_dimension(9, 8, 1), 24);    // 16 would be a power of two
  EXPECT_EQ(leading_dimension(17, 8, 1), 24);
  EXPECT_EQ(leading_dimension(5, 32, 32), 64);  // the GPU's minimum 32 is a power of two too
  EXPECT_EQ(leading_dimension(100, 32, 32), 128 + 32);
  EXPECT_EQ(leading_dimension(70, 32, 32), 96);
}

TEST(HplMatgen, FirstEntryAndJumpAhead) {
  EXPECT_EQ(hpl_entry(1000, 0, 0), -5.1599441937666413e-05);
  EXPECT_EQ(hpl_entry(7, 0, 0), -5.1599441937666413e-05);
  std::uint64_t x = lcg_seed;
  for (std::uint64_t m = 0; m < 300; ++m) {
    EXPECT_EQ(lcg_state(m), x) << "jump by " << m;
    x = lcg_a * x + lcg_c;
  }
  const auto j = lcg_jump_by(1000003);
  EXPECT_EQ(lcg_jump_by(1000000).apply(lcg_jump_by(3).apply(12345)), j.apply(12345));
}

TEST(HplMatgen, NormsMatchHpl23) {
  const auto rows = read_norms();
  ASSERT_EQ(rows.size(), 3u);
  for (const auto& r : rows) {
    const auto ab = generate_global(r.n);
    double a_inf = 0, a_1 = 0, b_inf = 0;
    std::vector<double> rs(r.n, 0.0);
    for (long j = 0; j < r.n; ++j) {
      double cs = 0;
      for (long i = 0; i < r.n; ++i) {
        cs += std::fabs(ab[i + j * r.n]);
        rs[i] += std::fabs(ab[i + j * r.n]);
      }
      a_1 = std::max(a_1, cs);
    }
    for (long i = 0; i < r.n; ++i) {
      a_inf = std::max(a_inf, rs[i]);
      b_inf = std::max(b_inf, std::fabs(ab[i + r.n * r.n]));
    }
    EXPECT_NEAR(a_inf, r.a_inf, 5.1e-7) << "N=" << r.n;
    EXPECT_NEAR(a_1, r.a_1, 5.1e-7) << "N=" << r.n;
    EXPECT_NEAR(b_inf, r.b_inf, 5.1e-7) << "N=" << r.n;
  }
}

TEST(HplMatgen, LocalBlocksAreTheGlobalMatrixOnEveryGrid) {
  const long n = 37;
  const int nb = 5;
  const auto ab = generate_global(n);
  for (auto [p, q] : {std::pair{2, 2}, {3, 2}, {1, 4}})
    for (int r = 0; r < p; ++r)
      for (int c = 0; c < q; ++c) {
        const auto mp = numroc(n, nb, r, p), nq = numroc(n + 1, nb, c, q);
        std::vector<double> a(std::max<long>(1, mp * nq));
        generate_local(n, nb, p, q, r, c, a.data(), std::max<long>(1, mp));
        for (long jl = 0; jl < nq; ++jl)
          for (long il = 0; il < mp; ++il)
            ASSERT_EQ(a[il + jl * mp], ab[global_of(il, nb, r, p) + global_of(jl, nb, c, q) * n]);
      }
}

TEST(HplMatgen, SolutionNormMatchesHpl23) {
  const grid g = grid::create(1, 1, false);
  for (const auto& row : read_norms()) {
    if (row.n > 1000) continue;  // 4000 is covered on the GPU
    params prm;
    prm.n = row.n;
    prm.nb = 64;
    const auto r = run_test(prm, g, run_options{});
    EXPECT_TRUE(r.passed);
    EXPECT_NEAR(r.norm_x_inf, row.x_inf, 1e-5 * row.x_inf) << "N=" << row.n;
    EXPECT_NEAR(r.norm_a_inf, row.a_inf, 5.1e-7);
  }
}

// --- HPL.dat ----------------------------------------------------------------------------------

TEST(HplDat, ParsesListsAndFallbacks) {
  const auto d = parse_text(good_dat);
  EXPECT_EQ(d.output_file, "HPL.out");
  EXPECT_EQ(d.device_out, 6);
  EXPECT_EQ(d.ns, (std::vector<std::int64_t>{29, 30}));
  EXPECT_EQ(d.nbs, (std::vector<int>{1, 2}));
  EXPECT_FALSE(d.pmap_col_major);
  EXPECT_EQ(d.ps, (std::vector<int>{1}));
  EXPECT_EQ(d.qs, (std::vector<int>{1}));
  EXPECT_DOUBLE_EQ(d.threshold, 16.0);
  EXPECT_EQ(d.pfacts, (std::vector<fact>{fact::left, fact::crout, fact::right}));  // 7 -> Right
  EXPECT_EQ(d.nbmins, (std::vector<int>{2, 4}));
  EXPECT_EQ(d.ndivs, (std::vector<int>{2}));
  EXPECT_EQ(d.bcasts, (std::vector<bcast>{bcast::ring1, bcast::ring1m}));  // 9 -> 1ringM
  EXPECT_EQ(d.depths, (std::vector<int>{0, 1}));
  EXPECT_EQ(d.swp, swap::longs);  // 5 -> long
  EXPECT_EQ(d.swap_threshold, 0);  // -3 -> 0
  EXPECT_EQ(d.l1_notrans, 0);      // 3 -> transposed
  EXPECT_EQ(d.u_notrans, 1);
  EXPECT_EQ(d.equil, 1);  // 4 -> yes
  EXPECT_EQ(d.align, 4);  // 0 -> 4
}

// Numbers are decimal, as netlib reads them (atoi): leading zeros mean nothing.
TEST(HplDat, LeadingZerosAreDecimal) {
  const auto d = parse_text(with_line(6, "010 0100     Ns"));
  EXPECT_EQ(d.ns, (std::vector<std::int64_t>{10, 100}));
  EXPECT_EQ(parse_text(with_line(8, "08 09        NBs")).nbs, (std::vector<int>{8, 9}));
}

TEST(HplDat, ErrorsShowNoRawBytes) {
  try {
    parse_text(with_line(13, std::string("1\x01\x1b[2J threshold")));
    ADD_FAILURE() << "accepted";
  } catch (const usage_error& e) {
    EXPECT_EQ(std::string(e.what()), "HPL.dat line 13: threshold: '1??[2J' is not a number");
  }
}

TEST(HplDat, EveryFallbackIsOneWarningNamingItsLine) {
  const auto d = parse_text(good_dat);
  const std::vector<std::string> want = {
      "HPL.dat line 15: PFACT 7 is not 0..2; using 2 (Right), as netlib HPL does",
      "HPL.dat line 23: BCAST 9 is not 0..5; using 1 (1ringM), as netlib HPL does",
      "HPL.dat line 26: SWAP 5 is not 0..2; using 1 (long), as netlib HPL does",
      "HPL.dat line 27: swapping threshold -3 is not >= 0; using 0, as netlib HPL does",
      "HPL.dat line 28: L1 3 is not 0 or 1; using 0 (transposed), as netlib HPL does",
      "HPL.dat line 30: EQUIL 4 is not 0 or 1; using 1 (yes), as netlib HPL does",
      "HPL.dat line 31: ALIGN 0 is not > 0; using 4, as netlib HPL does",
  };
  EXPECT_EQ(d.warnings, want);
  // Several bad values of one field: one line naming them all; the rest of the list stays.
  const auto r = parse_text(with_line(21, "-4 1 99 RFACTs"));
  EXPECT_EQ(r.rfacts, (std::vector<fact>{fact::right, fact::crout, fact::right}));
  ASSERT_GE(r.warnings.size(), 2u);  // after line 15's PFACT 7
  EXPECT_EQ(r.warnings[1], "HPL.dat line 21: RFACT -4, 99 are not 0..2; using 2 (Right), as netlib HPL does");
  const auto m = parse_text(with_line(9, "7 PMAP"));
  EXPECT_FALSE(m.pmap_col_major);
  EXPECT_EQ(m.warnings[0], "HPL.dat line 9: PMAP 7 is not 0 or 1; using 0 (row-major), as netlib HPL does");
  const auto u = parse_text(with_line(29, "-1 U form"));
  EXPECT_EQ(u.u_notrans, 0);
  EXPECT_NE(std::find(u.warnings.begin(), u.warnings.end(),
                      "HPL.dat line 29: U -1 is not 0 or 1; using 0 (transposed), as netlib HPL does"),
            u.warnings.end());
  const auto big = parse_text(with_line(26, "99999999999 SWAP"));  // beyond int: still long
  EXPECT_EQ(big.swp, swap::longs);
  const auto a = parse_text(with_line(31, "4000000 alignment"));
  EXPECT_EQ(a.align, 1 << 20);
  EXPECT_EQ(a.warnings.back(), "HPL.dat line 31: ALIGN 4000000 is not at most 2^20 doubles; using 1048576");
  // A file without fallbacks has no warnings; a file written by format_dat reads back without any.
  auto clean = d;
  clean.warnings.clear();
  std::istringstream again(format_dat(clean, "x"));
  EXPECT_TRUE(parse_dat(again, "again").warnings.empty());
}

TEST(HplDat, ExpandsInNetlibOrder) {
  const auto d = parse_text(good_dat);
  const auto t = expand(d);
  ASSERT_EQ(t.size(), 2u * 2 * 2 * 2 * 3 * 3 * 2 * 1);
  // Innermost NDIV, then NBMIN, PFACT, RFACT, BCAST, DEPTH, NB, N; grids outermost.
  EXPECT_EQ(t[0].nbmin, 2);
  EXPECT_EQ(t[1].nbmin, 4);
  EXPECT_EQ(t[2].pfact, fact::crout);
  EXPECT_EQ(t[6].rfact, fact::crout);
  EXPECT_EQ(t[18].bc, bcast::ring1m);
  EXPECT_EQ(t[36].depth, 1);
  EXPECT_EQ(t[72].nb, 2);
  EXPECT_EQ(t[144].n, 30);
  EXPECT_EQ(tv_code(t[0]), "WR00L2L2");
}

TEST(HplDat, BadFilesGiveOneClearUsageError) {
  EXPECT_THROW(read_dat("/nonexistent/HPL.dat"), usage_error);
  const std::vector<std::pair<int, std::string>> bad = {
      {5, "0   # of problems sizes"}, {5, "21  # of problems sizes"}, {5, "two # of Ns"},
      {6, "29 -1 Ns"},              {6, "29"},                       {8, "0 2 NBs"},
      {11, "0 1 Ps"},               {13, "abc threshold"},           {13, "nan threshold"},       {17, "0 4 NBMINs"},
      {19, "1 NDIVs"},              {25, "-1 1 DEPTHs"},             {26, "x SWAP"},
      {31, ""},
  };
  for (const auto& [line, text] : bad) {
    try {
      parse_text(with_line(line, text));
      ADD_FAILURE() << "line " << line << " '" << text << "' was accepted";
    } catch (const usage_error& e) {
      EXPECT_NE(std::string(e.what()).find("line " + std::to_string(line)), std::string::npos) << e.what();
    }
  }
  // A short file.
  std::string shortf(good_dat);
  shortf.resize(shortf.find("16.0"));
  EXPECT_THROW(parse_text(shortf), usage_error);
  EXPECT_THROW(parse_text(""), usage_error);
}

// --- solver against LAPACK ---------------------------------------------------------------------

TEST(HplSolver, EveryVariantMatchesLapackAtAwkwardSizes) {
  const grid g = grid::create(1, 1, false);
  run_options opt;
  opt.gather_x = true;
  int runs = 0;
  for (long n : {1L, 6L, 53L}) {  // N = 1, N < NB, N not a multiple of NB
    const auto ref = lapack_solution(n);
    for (auto pf : {fact::left, fact::crout, fact::right})
      for (auto rf : {fact::left, fact::crout, fact::right})
        for (auto sw : {swap::bin_exch, swap::longs, swap::mix})
          for (int depth : {0, 1})
            for (auto [nbmin, ndiv] : {std::pair{1, 2}, {2, 3}, {4, 2}}) {
              params p;
              p.n = n;
              p.nb = 8;
              p.pfact = pf;
              p.rfact = rf;
              p.swp = sw;
              p.swap_threshold = 4;
              p.depth = depth;
              p.nbmin = nbmin;
              p.ndiv = ndiv;
              p.bc = static_cast<bcast>(runs % 6);
              const auto r = run_test(p, g, opt);
              ASSERT_EQ(r.x.size(), static_cast<std::size_t>(n));
              EXPECT_TRUE(r.passed) << tv_code(p) << " N=" << n << " resid " << r.resid;
              EXPECT_LT(rel_diff(r.x, ref), 1e-11) << tv_code(p) << " N=" << n;
              ++runs;
            }
  }
  EXPECT_EQ(runs, 3 * 3 * 3 * 3 * 2 * 3);
}

TEST(HplSolver, LargerSystemPassesAndCountsFlops) {
  const grid g = grid::create(1, 1, false);
  params p;
  p.n = 700;
  p.nb = 32;
  const auto r = run_test(p, g, run_options{});
  EXPECT_TRUE(r.checked);
  EXPECT_TRUE(r.passed);
  EXPECT_LT(r.resid, 1.0);
  EXPECT_NEAR(r.gflops, (2.0 / 3 * 700 + 1.5) * 700.0 * 700 / r.time / 1e9, 1e-9 * r.gflops);
  // A failing threshold is reported as failed (strictly below the threshold passes).
  p.threshold = r.resid;
  EXPECT_FALSE(run_test(p, g, run_options{}).passed);
}

TEST(HplSolver, TooLargeGridIsAUsageError) { EXPECT_THROW(grid::create(2, 3, false), usage_error); }

// --- output layout ------------------------------------------------------------------------------

// netlib's HPL.out line for line, but its four title lines (netlib's version and authors), which
// gpu500's own two replace.
TEST(HplReport, ReproducesTheReferenceOutput) {
  std::ifstream f(testdata("reference_output_N6000_1x2.txt"));
  ASSERT_TRUE(f.good());
  std::stringstream want;
  std::string line;
  for (int i = 0; std::getline(f, line); ++i) {
    if (i == 1)
      want << "gpu500 " << GPU500_VERSION << " hpl  --  High-Performance Linpack benchmark  --  BLAS: " << GPU500_BLAS
           << "\nThe layout of this output follows netlib HPL 2.3's HPL.out (Innovative Computing Laboratory, UTK)\n";
    ASSERT_FALSE(i == 1 && line.rfind("HPLinpack 2.3", 0) != 0) << "the reference's title moved: " << line;
    if (i >= 1 && i <= 4) continue;
    want << line << '\n';
  }
  params p;  // the reference run: N=6000 NB=192 1x2 WR11C2R4, mix 64
  p.n = 6000;
  p.nb = 192;
  p.p = 1;
  p.q = 2;
  test_result r;
  r.prm = p;
  r.time = 13.00;
  r.gflops = 1.1084e+01;
  r.start_time = "Sat Nov 21 22:20:24 2026\n";
  r.end_time = "Sat Nov 21 22:20:37 2026\n";
  r.checked = r.passed = true;
  r.resid = 2.51116102e-03;
  char* buf = nullptr;
  std::size_t len = 0;
  std::FILE* out = open_memstream(&buf, &len);
  print_header(out, single(p));
  print_result(out, r, true);
  print_summary(out, {r}, p.threshold);
  std::fclose(out);
  const std::string got(buf, len);
  std::free(buf);
  EXPECT_EQ(got, want.str());
}

TEST(HplReport, FailedResidualPrintsTheNorms) {
  test_result r;
  r.checked = true;
  r.passed = false;
  r.resid = 20;
  r.start_time = r.end_time = "x\n";
  char* buf = nullptr;
  std::size_t len = 0;
  std::FILE* out = open_memstream(&buf, &len);
  print_result(out, r, false);
  std::fclose(out);
  const std::string got(buf, len);
  std::free(buf);
  EXPECT_NE(got.find("...... FAILED"), std::string::npos);
  EXPECT_NE(got.find("||b||_oo . . ."), std::string::npos);
  EXPECT_EQ(got.find("T/V"), std::string::npos);
}
