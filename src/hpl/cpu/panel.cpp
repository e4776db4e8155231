// Recursive panel factorisation (see panel.hpp): HPL_pdrpan{ll,cr,rl}N over HPL_pdpan{ll,cr,rl}N.
#include "panel.hpp"

#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "gpu500/core/error.hpp"
#include "gpu500/hpl/grid.hpp"

namespace gpu500::hpl::detail {
namespace {

class factorizer {
 public:
  factorizer(const panel_view& pv, const panel_opts& po) : v_(pv), o_(po), ipiv_(pv.jb), row_(pv.jb + 1) {}

  std::vector<std::int64_t> run(int* zero) {
    recurse(0, v_.jb);
    if (zero) *zero = zero_;
    return std::move(ipiv_);
  }

 private:
  double& T(int r, int c) { return v_.t[r + static_cast<std::int64_t>(c) * v_.jb]; }
  double* Tp(int r, int c) { return v_.t + r + static_cast<std::int64_t>(c) * v_.jb; }
  double* Op(std::int64_t r, int c) { return v_.o + r + c * v_.ldo; }
  int ldt() const { return v_.jb; }

  // A(rows >= r0, c0:c1) -= A(rows >= r0, k0:k1) * T(k0:k1, c0:c1), rows over T and O.
  void gemm_below(int r0, int c0, int c1, int k0, int k1) {
    const int n = c1 - c0, kk = k1 - k0;
    if (n <= 0 || kk <= 0) return;
    if (r0 < v_.jb)
      cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, v_.jb - r0, n, kk, -1.0, Tp(r0, k0), ldt(),
                  Tp(k0, c0), ldt(), 1.0, Tp(r0, c0), ldt());
    if (v_.mo > 0)
      cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(v_.mo), n, kk, -1.0, Op(0, k0),
                  static_cast<int>(v_.ldo), Tp(k0, c0), ldt(), 1.0, Op(0, c0), static_cast<int>(v_.ldo));
  }
  // T(k0:k1, c0:c1) = L(k0:k1, k0:k1)^-1 T(k0:k1, c0:c1), L unit lower.
  void trsm_top(int k0, int k1, int c0, int c1) {
    if (c1 <= c0 || k1 <= k0) return;
    cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasUnit, k1 - k0, c1 - c0, 1.0, Tp(k0, k0),
                ldt(), Tp(k0, c0), ldt());
  }
  // Column j, rows >= j: -= A(rows >= j, c:j) * T(c:j, j).
  void gemv_col(int j, int c) {
    if (j <= c) return;
    cblas_dgemv(CblasColMajor, CblasNoTrans, v_.jb - j, j - c, -1.0, Tp(j, c), ldt(), Tp(c, j), 1, 1.0, Tp(j, j), 1);
    if (v_.mo > 0)
      cblas_dgemv(CblasColMajor, CblasNoTrans, static_cast<int>(v_.mo), j - c, -1.0, Op(0, c),
                  static_cast<int>(v_.ldo), Tp(c, j), 1, 1.0, Op(0, j), 1);
  }

  // Max-loc over column j (T rows >= j, all O rows of the column), swap, record the pivot.
  void pivot(int j) {
    double best = -1;
    int where = -1;           // T row, or -1
    std::int64_t oi = -1;     // O row
    for (int r = j; r < v_.jb; ++r)
      if (std::fabs(T(r, j)) > best) best = std::fabs(T(r, j)), where = r;
    if (v_.mo > 0) {
      const auto i = static_cast<std::int64_t>(cblas_idamax(static_cast<int>(v_.mo), Op(0, j), 1));
      if (std::fabs(*Op(i, j)) > best) best = std::fabs(*Op(i, j)), where = -1, oi = i;
    }
    const int winner = v_.col->maxloc(best);
    const bool mine = winner == v_.col->rank();
    // row_ = [position, panel row (jb)]
    if (mine) {
      if (where >= 0) {
        row_[0] = static_cast<double>(v_.k + where);
        for (int c = 0; c < v_.jb; ++c) row_[1 + c] = T(where, c);
      } else {
        row_[0] = static_cast<double>(global_of(v_.o_first + oi, v_.nb, v_.myrow, v_.nprow));
        for (int c = 0; c < v_.jb; ++c) row_[1 + c] = *Op(oi, c);
      }
    }
    v_.col->bcast(row_.data(), v_.jb + 1, winner);
    const auto pos = static_cast<std::int64_t>(row_[0]);
    ipiv_[j] = pos;
    if (pos < v_.k + v_.jb) {  // inside T: the same swap everywhere
      const int r = static_cast<int>(pos - v_.k);
      if (r != j) cblas_dswap(v_.jb, Tp(j, 0), ldt(), Tp(r, 0), ldt());
    } else {
      if (mine) cblas_dcopy(v_.jb, Tp(j, 0), ldt(), Op(oi, 0), static_cast<int>(v_.ldo));
      cblas_dcopy(v_.jb, row_.data() + 1, 1, Tp(j, 0), ldt());
    }
    if (row_[1 + j] == 0.0) ++zero_;
  }
  void scale(int j) {
    const double p = T(j, j);
    if (p == 0.0) return;
    const double s = 1.0 / p;
    for (int r = j + 1; r < v_.jb; ++r) T(r, j) *= s;
    if (v_.mo > 0) cblas_dscal(static_cast<int>(v_.mo), s, Op(0, j), 1);
  }

  void base(int c, int w) {
    const int e = c + w;
    for (int j = c; j < e; ++j) {
      switch (o_.pfact) {
        case fact::left:
          if (j > c) cblas_dtrsv(CblasColMajor, CblasLower, CblasNoTrans, CblasUnit, j - c, Tp(c, c), ldt(), Tp(c, j), 1);
          gemv_col(j, c);
          pivot(j);
          scale(j);
          break;
        case fact::crout:
          gemv_col(j, c);
          pivot(j);
          scale(j);
          if (j > c && j + 1 < e)
            cblas_dgemv(CblasColMajor, CblasTrans, j - c, e - j - 1, -1.0, Tp(c, j + 1), ldt(), Tp(j, c), ldt(), 1.0,
                        Tp(j, j + 1), ldt());
          break;
        case fact::right:
          pivot(j);
          scale(j);
          if (j + 1 < e) {
            if (j + 1 < v_.jb)
              cblas_dger(CblasColMajor, v_.jb - j - 1, e - j - 1, -1.0, Tp(j + 1, j), 1, Tp(j, j + 1), ldt(),
                         Tp(j + 1, j + 1), ldt());
            if (v_.mo > 0)
              cblas_dger(CblasColMajor, static_cast<int>(v_.mo), e - j - 1, -1.0, Op(0, j), 1, Tp(j, j + 1), ldt(),
                         Op(0, j + 1), static_cast<int>(v_.ldo));
          }
          break;
      }
    }
  }

  void recurse(int c, int w) {
    if (w <= o_.nbmin || w <= 1) return base(c, w);
    const int e = c + w;
    const int part = std::max(1, w / o_.ndiv);
    for (int ci = c; ci < e;) {
      const int wi = (e - ci < 2 * part) ? e - ci : part;  // the last part takes the remainder
      const int ce = ci + wi;
      switch (o_.rfact) {
        case fact::left:  // bring part i up to date with every part before it, then factor it
          trsm_top(c, ci, ci, ce);
          gemm_below(ci, ci, ce, c, ci);
          recurse(ci, wi);
          break;
        case fact::crout:  // column block from the parts before, factor, then its row block
          gemm_below(ci, ci, ce, c, ci);
          recurse(ci, wi);
          if (ce < e) {
            if (ci > c)
              cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, wi, e - ce, ci - c, -1.0, Tp(ci, c), ldt(),
                          Tp(c, ce), ldt(), 1.0, Tp(ci, ce), ldt());
            trsm_top(ci, ce, ce, e);
          }
          break;
        case fact::right:  // factor part i, then update everything right of it
          recurse(ci, wi);
          trsm_top(ci, ce, ce, e);
          gemm_below(ce, ce, e, ci, ce);
          break;
      }
      ci = ce;
    }
  }

  panel_view v_;
  panel_opts o_;
  std::vector<std::int64_t> ipiv_;
  std::vector<double> row_;
  int zero_ = 0;
};

}  // namespace

std::vector<std::int64_t> factor_panel(const panel_view& pv, const panel_opts& po, int* zero_pivots) {
  GPU500_EXPECTS(pv.jb >= 1 && pv.col != nullptr, "factor_panel: empty panel or no column communicator");
  return factorizer(pv, po).run(zero_pivots);
}

swap_plan plan_swaps(std::int64_t k, int jb, const std::int64_t* ipiv) {
  std::map<std::int64_t, std::int64_t> content;  // position -> original position of its content
  auto at = [&](std::int64_t p) {
    auto it = content.find(p);
    return it == content.end() ? p : it->second;
  };
  for (int j = 0; j < jb; ++j) {
    const std::int64_t a = k + j, b = ipiv[j];
    if (a == b) continue;
    const auto ca = at(a), cb = at(b);
    content[a] = cb;
    content[b] = ca;
  }
  swap_plan sp;
  sp.u_src.resize(jb);
  for (int t = 0; t < jb; ++t) sp.u_src[t] = at(k + t);
  for (const auto& [dest, src] : content)
    if (dest >= k + jb && src != dest) sp.moved.emplace_back(dest, src);
  return sp;
}

}  // namespace gpu500::hpl::detail
