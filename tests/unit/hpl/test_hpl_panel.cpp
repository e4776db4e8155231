// Unit test of the panel offload's bookkeeping (the GPU DGEMM inside the recursive CPU panel,
// src/hpl/cpu/panel.hpp) on the host: a host stand-in plays the device half.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "cpu/panel.hpp"  // internal: the panel offload's bookkeeping

using namespace gpu500;
using namespace gpu500::hpl;


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
