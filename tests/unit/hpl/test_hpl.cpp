// Unit tests of HPL: the generator against HPL 2.3's own figures (norms.txt), HPL.dat parsing,
// the solver against LAPACKE dgesv for every variant combination at awkward sizes, the HPL.out
// layout against the reference output, and the CUDA backend (skipped without a GPU).
#include <gtest/gtest.h>
#include <lapacke.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "gpu500/core/device.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/hpl/dat.hpp"
#include "gpu500/hpl/grid.hpp"
#include "gpu500/hpl/matgen.hpp"
#include "gpu500/hpl/pdgesv.hpp"
#include "gpu500/hpl/report.hpp"
#include "cpu/panel.hpp"  // internal: the panel offload's bookkeeping is tested on the host

using namespace gpu500;
using namespace gpu500::hpl;

namespace {

std::string testdata(const std::string& f) { return std::string(GPU500_TESTDATA_DIR) + "/hpl/" + f; }

struct norms_row {
  long n;
  double a_inf, a_1, b_inf, x_inf;
};
bool have_testdata() { return std::ifstream(testdata("norms.txt")).good(); }
// The shared test data sits next to the repository (../shared/testdata); a machine that has only
// the repository (the GPU machine) skips the tests that need it.
#define REQUIRE_TESTDATA() \
  if (!have_testdata()) GTEST_SKIP() << "no " << testdata("norms.txt") << " on this machine"

std::vector<norms_row> read_norms() {
  std::ifstream f(testdata("norms.txt"));
  std::vector<norms_row> rows;
  std::string line;
  while (std::getline(f, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ls(line);
    norms_row r{};
    if (ls >> r.n >> r.a_inf >> r.a_1 >> r.b_inf >> r.x_inf) rows.push_back(r);
  }
  return rows;
}

// LAPACK's answer for HPL's system of order n.
std::vector<double> lapack_solution(long n) {
  auto ab = generate_global(n);
  std::vector<lapack_int> ipiv(n);
  std::vector<double> b(ab.begin() + n * n, ab.begin() + n * n + n);
  const lapack_int info = LAPACKE_dgesv(LAPACK_COL_MAJOR, n, 1, ab.data(), n, ipiv.data(), b.data(), n);
  EXPECT_EQ(info, 0);
  return b;
}

double rel_diff(const std::vector<double>& x, const std::vector<double>& y) {
  double d = 0, s = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    d = std::max(d, std::fabs(x[i] - y[i]));
    s = std::max(s, std::fabs(y[i]));
  }
  return s > 0 ? d / s : d;
}

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
  REQUIRE_TESTDATA();
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
  REQUIRE_TESTDATA();
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
      {11, "0 1 Ps"},               {13, "abc threshold"},           {17, "0 4 NBMINs"},
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

// --- panel offload (GPU DGEMM inside the recursive panel), its bookkeeping on the host -------

namespace {
// A host stand-in for the device half: its own copy of the panel (m x jb, ld m, equal to the
// host's at the start as the CUDA backend's is), row moves, copies, and a plain triple-loop DGEMM
// (another summation order than the BLAS on the host side).
class host_offload final : public hpl::detail::panel_offload {
 public:
  host_offload(int w, std::int64_t m, std::vector<double> panel) : panel_offload(w), m_(m), d_(std::move(panel)) {}
  const std::vector<double>& device() const { return d_; }

 protected:
  void dev_moves(int c0, int c1, const std::vector<std::int64_t>& dest, const std::vector<std::int64_t>& src) override {
    std::vector<double> tmp(src.size());
    for (int c = c0; c < c1; ++c) {
      for (std::size_t i = 0; i < src.size(); ++i) tmp[i] = at(src[i], c);
      for (std::size_t i = 0; i < dest.size(); ++i) at(dest[i], c) = tmp[i];
    }
  }
  void dev_put(std::int64_t r0, std::int64_t nr, int c0, int nc, const double* h, std::int64_t ldh) override {
    for (int c = 0; c < nc; ++c)
      for (std::int64_t r = 0; r < nr; ++r) at(r0 + r, c0 + c) = h[r + c * ldh];
  }
  void dev_get(std::int64_t r0, std::int64_t nr, int c0, int nc, double* h, std::int64_t ldh) override {
    for (int c = 0; c < nc; ++c)
      for (std::int64_t r = 0; r < nr; ++r) h[r + c * ldh] = at(r0 + r, c0 + c);
  }
  void dev_gemm(std::int64_t r0, std::int64_t m, int c0, int c1, int k0, int k1) override {
    for (int c = c0; c < c1; ++c)
      for (std::int64_t r = r0; r < r0 + m; ++r) {
        double s = 0;
        for (int p = k0; p < k1; ++p) s += at(r, p) * at(p, c);
        at(r, c) -= s;
      }
  }
  void dev_wait() override {}

 private:
  double& at(std::int64_t r, int c) { return d_[r + c * m_]; }
  std::int64_t m_;
  std::vector<double> d_;
};

struct factored {
  std::vector<std::int64_t> ipiv;
  std::vector<double> lu;  // m x jb, T rows first
  long offloaded = 0;
  std::vector<double> device;  // the device copy after finish() (with the offload)
};
// Factor an m x jb panel (global rows k..) with the CPU panel code; with min_width > 0 through
// the host offload.
factored factor_with(const std::vector<double>& panel, std::int64_t m, int jb, std::int64_t k, hpl::detail::panel_opts po,
                     int min_width) {
  std::vector<double> full = panel, t(static_cast<std::size_t>(jb) * jb);
  for (int c = 0; c < jb; ++c)
    for (int r = 0; r < jb; ++r) t[r + c * jb] = full[r + c * m];
  const hpl::detail::comm self;
  hpl::detail::panel_view pv;
  pv.jb = jb;
  pv.k = k;
  pv.t = t.data();
  pv.o = full.data() + jb;
  pv.ldo = m;
  pv.mo = m - jb;
  pv.o_first = k + jb;
  pv.nb = jb;
  pv.col = &self;
  host_offload off(min_width, m, panel);
  if (min_width > 0) po.offload = &off;
  factored f;
  f.ipiv = hpl::detail::factor_panel(pv, po);
  if (min_width > 0) off.finish(f.ipiv.data());
  for (int c = 0; c < jb; ++c)
    for (int r = 0; r < jb; ++r) full[r + c * m] = t[r + c * jb];
  f.lu = std::move(full);
  f.offloaded = off.calls();
  f.device = off.device();
  return f;
}
}  // namespace

// The offload (thresholds 1, 3, 8: every recursion level, some, only the widest) gives the same
// pivots and the same factors (to rounding) as the CPU alone, for every PFACT x RFACT, NBMIN,
// NDIV, both threading modes; panels with fewer rows than columns below T too. After finish()
// the device copy is exactly the host's factored panel (what the CUDA backend then updates with).
TEST(HplPanel, OffloadKeepsPivotsAndFactors) {
  int offloaded_runs = 0;
  for (auto [m, jb] : {std::pair{300L, 32}, {45L, 24}, {17L, 16}}) {
    std::vector<double> panel(static_cast<std::size_t>(m) * jb);
    std::uint64_t x = 12345;
    for (auto& v : panel) {
      x = x * 6364136223846793005ULL + 1442695040888963407ULL;
      v = 0.5 - static_cast<double>(x >> 11) * 0x1.0p-53;
    }
    for (auto pf : {fact::left, fact::crout, fact::right})
      for (auto rf : {fact::left, fact::crout, fact::right})
        for (auto [nbmin, ndiv] : {std::pair{1, 2}, {4, 2}, {2, 3}})
          for (int threads : {0, 1}) {
            const hpl::detail::panel_opts po{pf, rf, nbmin, ndiv, threads};
            const auto ref = factor_with(panel, m, jb, 7, po, 0);
            double scale = 0;
            for (double v : ref.lu) scale = std::max(scale, std::fabs(v));
            for (int w : {1, 3, 8}) {
              const auto got = factor_with(panel, m, jb, 7, po, w);
              const std::string what = "m=" + std::to_string(m) + " jb=" + std::to_string(jb) + " pfact " +
                                       std::to_string(static_cast<int>(pf)) + " rfact " +
                                       std::to_string(static_cast<int>(rf)) + " nbmin " + std::to_string(nbmin) +
                                       " ndiv " + std::to_string(ndiv) + " min width " + std::to_string(w);
              EXPECT_EQ(got.ipiv, ref.ipiv) << what;
              double d = 0;
              for (std::size_t i = 0; i < ref.lu.size(); ++i) d = std::max(d, std::fabs(got.lu[i] - ref.lu[i]));
              EXPECT_LT(d, 1e-12 * scale) << what;
              EXPECT_EQ(got.device, got.lu) << what << ": finish() leaves the device copy = the factored panel";
              if (w == 1) {
                EXPECT_GT(got.offloaded, 0) << what;
              }
              offloaded_runs += got.offloaded > 0;
            }
          }
  }
  EXPECT_GT(offloaded_runs, 3 * 9 * 3 * 2);
}

TEST(HplSolver, TooLargeGridIsAUsageError) { EXPECT_THROW(grid::create(2, 3, false), usage_error); }

// --- output layout ------------------------------------------------------------------------------

TEST(HplReport, ReproducesTheReferenceOutput) {
  REQUIRE_TESTDATA();
  std::ifstream f(testdata("reference_output_N6000_1x2.txt"));
  ASSERT_TRUE(f.good());
  std::stringstream want;
  want << f.rdbuf();
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

// --- CUDA backend -------------------------------------------------------------------------------

TEST(HplCuda, SolvesAndMatchesCpuAndNorms) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  const grid g = grid::create(1, 1, false);
  run_options gpu;
  gpu.be = backend::cuda;
  gpu.gather_x = true;
  gpu.timing = true;
  for (auto [n, nb, depth] : {std::tuple{1L, 64, 1}, {53L, 8, 1}, {1000L, 64, 0}, {4000L, 128, 1}, {6000L, 256, 1}}) {
    params p;
    p.n = n;
    p.nb = nb;
    p.depth = depth;
    const auto r = run_test(p, g, gpu);
    EXPECT_TRUE(r.passed) << "N=" << n << " resid " << r.resid;
    EXPECT_LT(r.resid, 1.0);
    ASSERT_EQ(r.x.size(), static_cast<std::size_t>(n));
    if (n <= 1000) {
      EXPECT_LT(rel_diff(r.x, lapack_solution(n)), 1e-10) << "N=" << n;
    }
    // The GPU generator and check against the CPU ones (independent code paths).
    run_options cpu;
    cpu.gather_x = true;
    const auto c = run_test(p, g, cpu);
    EXPECT_EQ(r.norm_a_inf, c.norm_a_inf) << "N=" << n;
    EXPECT_EQ(r.norm_b, c.norm_b) << "N=" << n;
    EXPECT_NEAR(r.norm_a_1, c.norm_a_1, 1e-9 * c.norm_a_1) << "N=" << n;
    EXPECT_LT(rel_diff(r.x, c.x), 1e-9) << "N=" << n;
    if (have_testdata())
      for (const auto& row : read_norms())
      if (row.n == n) {
        EXPECT_NEAR(r.norm_a_inf, row.a_inf, 5.1e-7);
        EXPECT_NEAR(r.norm_a_1, row.a_1, 5.1e-7);
        EXPECT_NEAR(r.norm_b, row.b_inf, 5.1e-7);
        EXPECT_NEAR(r.norm_x_inf, row.x_inf, 1e-5 * row.x_inf);
      }
    EXPECT_EQ(r.iters.size(), static_cast<std::size_t>((n + nb - 1) / nb));
  }
  // Segment settings change the schedule, not the answer.
  params p;
  p.n = 3000;
  p.nb = 128;
  run_options g2 = gpu;
  g2.seg_first = 1.0;
  g2.seg_growth = 1.0;
  run_options g3 = gpu;
  g3.swap_stream = false;
  const auto a = run_test(p, g, gpu), b = run_test(p, g, g2), c = run_test(p, g, g3);
  EXPECT_TRUE(a.passed);
  EXPECT_TRUE(b.passed);
  EXPECT_TRUE(c.passed);
  EXPECT_LT(rel_diff(a.x, b.x), 1e-12);
  EXPECT_LT(rel_diff(a.x, c.x), 1e-12);
}

// A CUDA variant (b) at N = 4000, NB = 128 against the default CUDA run: both pass, x agrees.
void expect_agrees_with_default_cuda(run_options b) {
  const grid g = grid::create(1, 1, false);
  params p;
  p.n = 4000;
  p.nb = 128;
  run_options a;
  a.be = b.be = backend::cuda;
  a.gather_x = b.gather_x = true;
  const auto ra = run_test(p, g, a), rb = run_test(p, g, b);
  EXPECT_TRUE(ra.passed);
  EXPECT_TRUE(rb.passed) << "resid " << rb.resid;
  EXPECT_LT(rel_diff(ra.x, rb.x), 1e-9);
}

// One CUDA run with a tail / GPU-panel setting: passes the residual check, x equals LAPACKE's.
// `p` gives the panel variant (PFACT, RFACT, NBMIN, NDIV); pgg: --panel-gemm-gpu.
test_result expect_cuda_variant_solves(long n, int nb, int depth, std::int64_t tail, std::int64_t gpanel, int pgg = 0,
                                       params p = {}, bool gpfirst = false) {
  p.n = n;
  p.nb = nb;
  p.depth = depth;
  run_options o;
  o.be = backend::cuda;
  o.gather_x = true;
  o.timing = true;
  o.tail_getrf = tail;
  o.gpu_panel = gpanel;
  o.panel_gemm_gpu = pgg;
  o.gpu_panel_first = gpfirst;
  const auto r = run_test(p, grid::create(1, 1, false), o);
  const std::string what = "N=" + std::to_string(n) + " NB=" + std::to_string(nb) + " depth " + std::to_string(depth) +
                           " tail " + std::to_string(tail) + " gpu panel " + std::to_string(gpanel) +
                           " panel gemm gpu " + std::to_string(pgg) + (gpfirst ? " gpu panel first " : " ") +
                           tv_code(p);
  EXPECT_TRUE(r.passed) << what << " resid " << r.resid;
  EXPECT_LT(r.resid, 1.0) << what;
  EXPECT_EQ(r.x.size(), static_cast<std::size_t>(n)) << what;
  if (r.x.size() == static_cast<std::size_t>(n)) {
    EXPECT_LT(rel_diff(r.x, lapack_solution(n)), 1e-10) << what;
  }
  return r;
}

// --tail-getrf: cuSOLVER finishes the trailing block (its own pivoting), the answer stays
// LAPACK's; tails that start mid-run (after a partial last panel too), cover the whole matrix,
// or never start.
TEST(HplCuda, TailGetrfMatchesLapack) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  for (auto [n, nb, depth, tail] : {std::tuple{1000L, 64, 1, 300L}, {1000L, 64, 0, 300L}, {1000L, 96, 1, 1000L},
                                    {1000L, 64, 1, 5000L}, {997L, 64, 1, 1L}, {997L, 32, 1, 61L}, {53L, 8, 1, 20L},
                                    {1L, 8, 1, 1L}}) {
    const auto r = expect_cuda_variant_solves(n, nb, depth, tail, 0);
    // CPU panels up to the first panel boundary kt with n - kt <= tail, then one tail entry;
    // no tail when that boundary is n itself.
    const std::int64_t t = std::min(tail, n);
    const std::int64_t kt = (n - t + nb - 1) / nb * nb;
    const std::int64_t entries = kt < n ? kt / nb + 1 : (n + nb - 1) / nb;
    EXPECT_EQ(r.iters.size(), static_cast<std::size_t>(entries)) << "N=" << n << " tail " << tail;
  }
  // A large tail against the run without it.
  run_options b;
  b.tail_getrf = 2500;
  expect_agrees_with_default_cuda(b);
}

// --gpu-panel: panels of at most M rows factored by cuSOLVER on the GPU (its pivots become the
// row swaps of the trailing columns); alone, with the tail, without look-ahead, every panel.
TEST(HplCuda, GpuPanelMatchesLapack) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  for (auto [n, nb, depth, gpanel, tail] :
       {std::tuple{1000L, 64, 1, 500L, 0L}, {1000L, 64, 0, 500L, 0L}, {1000L, 64, 1, 5000L, 0L}, {997L, 96, 1, 600L, 200L},
        {997L, 32, 0, 997L, 61L}, {53L, 8, 1, 53L, 0L}, {1L, 8, 1, 1L, 0L}})
    expect_cuda_variant_solves(n, nb, depth, tail, gpanel);
  // Every panel on the GPU against the CPU panels.
  run_options b;
  b.gpu_panel = 4000;
  expect_agrees_with_default_cuda(b);
}

// --panel-gemm-gpu: the recursion's trailing DGEMMs of the CPU panels on the GPU (thresholds 1,
// 2, 8, 16: every level down to the base case, or only the widest), with look-ahead and without,
// with the tail and GPU panels taking the end, every PFACT x RFACT, NDIV 3; the answer stays
// LAPACK's and the GPU path really ran.
TEST(HplCuda, PanelGemmGpuMatchesLapack) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  for (auto [n, nb, depth, tail, gpanel, pgg] :
       {std::tuple{1000L, 64, 1, 0L, 0L, 1}, {1000L, 64, 0, 0L, 0L, 8}, {997L, 96, 1, 200L, 600L, 2},
        {1000L, 128, 1, 300L, 0L, 16}, {53L, 8, 1, 0L, 0L, 1}, {1L, 8, 1, 0L, 0L, 1}}) {
    const auto r = expect_cuda_variant_solves(n, nb, depth, tail, gpanel, pgg);
    if (n > 1) {
      EXPECT_GT(r.panel_gemms_gpu, 0) << "N=" << n << " pgg " << pgg;
    }
  }
  for (auto pf : {fact::left, fact::crout, fact::right})
    for (auto rf : {fact::left, fact::crout, fact::right}) {
      params p;
      p.pfact = pf;
      p.rfact = rf;
      p.nbmin = 2;
      p.ndiv = 3;
      const auto r = expect_cuda_variant_solves(700, 48, 1, 0, 0, 2, p);
      EXPECT_GT(r.panel_gemms_gpu, 0) << tv_code(p);
    }
  // --gpu-panel-first: panel 0 by cuSOLVER, the rest CPU panels with GPU DGEMMs (and GPU panels
  // at the end), with and without look-ahead.
  for (auto [n, nb, depth, gpanel] : {std::tuple{1000L, 64, 1, 300L}, {997L, 96, 0, 0L}, {53L, 8, 1, 0L}, {5L, 8, 1, 0L}})
    expect_cuda_variant_solves(n, nb, depth, 0, gpanel, 2, params{}, true);
  // Off by default: no GPU DGEMM inside a panel.
  EXPECT_EQ(expect_cuda_variant_solves(500, 64, 1, 0, 0).panel_gemms_gpu, 0);
  // Every eligible DGEMM on the GPU against the default run at N = 4000.
  run_options b;
  b.panel_gemm_gpu = 1;
  expect_agrees_with_default_cuda(b);
  b.gpu_panel_first = true;
  b.gpu_panel = 1500;
  expect_agrees_with_default_cuda(b);
  // --panel-up-all (the whole panel copied up instead of finish()).
  b.panel_up_all = true;
  expect_agrees_with_default_cuda(b);
}
