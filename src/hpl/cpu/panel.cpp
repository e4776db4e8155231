// Recursive panel factorisation (see panel.hpp): HPL_pdrpan{ll,cr,rl}N over HPL_pdpan{ll,cr,rl}N.
#include "panel.hpp"

#include <cblas.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "gpu500/core/error.hpp"
#include "gpu500/core/timer.hpp"
#include "gpu500/hpl/grid.hpp"

// The panel runs its own OpenMP threads over the O rows; OpenBLAS is switched to one thread
// meanwhile (two spinning thread pools on the same cores would fight). Weak, so that another
// BLAS links too; declared here, since only OpenBLAS's cblas.h declares them.
extern "C" {
void openblas_set_num_threads(int);
int openblas_get_num_threads(void);
}
#pragma weak openblas_set_num_threads
#pragma weak openblas_get_num_threads

namespace gpu500::hpl::detail {
namespace {

struct blas_single_thread {
  int saved = 0;
  blas_single_thread() {
    if (&openblas_get_num_threads != nullptr && &openblas_set_num_threads != nullptr) {
      saved = openblas_get_num_threads();
      openblas_set_num_threads(1);
    }
  }
  ~blas_single_thread() {
    if (saved > 0) openblas_set_num_threads(saved);
  }
};

class factorizer {
 public:
  factorizer(const panel_view& pv, const panel_opts& po) : v_(pv), o_(po), ipiv_(pv.jb), row_(pv.jb + 1) {
    nt_ = po.threads == 1 ? 1
                          : static_cast<int>(std::max<std::int64_t>(
                                1, std::min<std::int64_t>({omp_get_max_threads(), v_.mo / 256, max_team})));
  }
  // The team meets at a barrier per column of the base case, so past some size it loses more
  // there than its rows gain: on a 64-core host (4 x H200, N = 90000, 1 x 1) 64 threads gave
  // 21.3 TFLOP/s with the GPU idle 12.6 s, 16 threads 46.0 with it idle 0.03 s.
  static constexpr std::int64_t max_team = 16;

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
    if (o_.offload && o_.offload->gemm(r0, c0, c1, k0, k1, ipiv_.data())) return;  // T and O rows there
    if (o_.offload) o_.offload->dirty(c0, c1);
    if (r0 < v_.jb)
      cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, v_.jb - r0, n, kk, -1.0, Tp(r0, k0), ldt(),
                  Tp(k0, c0), ldt(), 1.0, Tp(r0, c0), ldt());
    if (v_.mo > 0) {
#pragma omp parallel for num_threads(nt_) schedule(static, 1)
      for (int t = 0; t < nt_; ++t) {
        const auto [r0, r1] = rows_of(t, nt_);
        if (r1 > r0)
          cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(r1 - r0), n, kk, -1.0, Op(r0, k0),
                      static_cast<int>(v_.ldo), Tp(k0, c0), ldt(), 1.0, Op(r0, c0), static_cast<int>(v_.ldo));
      }
    }
  }
  // The O rows of thread t of nt: contiguous chunks, multiples of 8 rows.
  std::pair<std::int64_t, std::int64_t> rows_of(int t, int nt) const {
    const std::int64_t chunk = ((v_.mo + nt - 1) / nt + 7) / 8 * 8;
    const std::int64_t r0 = std::min(v_.mo, t * chunk);
    return {r0, std::min(v_.mo, r0 + chunk)};
  }
  // T(k0:k1, c0:c1) = L(k0:k1, k0:k1)^-1 T(k0:k1, c0:c1), L unit lower.
  void trsm_top(int k0, int k1, int c0, int c1) {
    if (c1 <= c0 || k1 <= k0) return;
    cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasUnit, k1 - k0, c1 - c0, 1.0, Tp(k0, k0),
                ldt(), Tp(k0, c0), ldt());
  }
  // Max-loc over column j (T rows >= j, all O rows of the column), swap, record the pivot.
  // `o_best`/`o_at`: the largest |O(i, j)| of this process and its row (-1: none).
  void pivot(int j, double o_best, std::int64_t o_at) {
    double best = -1;
    int where = -1;           // T row, or -1
    std::int64_t oi = -1;     // O row
    for (int r = j; r < v_.jb; ++r)
      if (std::fabs(T(r, j)) > best) best = std::fabs(T(r, j)), where = r;
    if (o_at >= 0 && o_best > best) best = o_best, where = -1, oi = o_at;
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
  // Base case, column by column, with OpenMP threads over the O rows (one BLAS-2 call per
  // column would be too small to thread): per column each thread finds the largest entry of
  // its rows; the master thread combines them, talks to the process column (HPL_pdmxswp) and
  // swaps; then every thread scales and (right-looking) updates its rows. T's rows belong to
  // the master. PFACT left brings column j up to date first with DTRSV on T and a DGEMV-like
  // loop; Crout does the column the same way (its U part is already final) and updates row j.
  void base(int c, int w) {
    const int e = c + w;
    if (o_.offload) o_.offload->dirty(c, e);
    std::vector<double> tb(nt_);
    std::vector<std::int64_t> ti(nt_);
#pragma omp parallel num_threads(nt_)
    {
      const int tid = omp_get_thread_num();
      const auto [r0, r1] = rows_of(tid, omp_get_num_threads());
      for (int j = c; j < e; ++j) {
#pragma omp barrier
        if (o_.pfact != fact::right && j > c) {
#pragma omp master
          {
            if (o_.pfact == fact::left)
              cblas_dtrsv(CblasColMajor, CblasLower, CblasNoTrans, CblasUnit, j - c, Tp(c, c), ldt(), Tp(c, j), 1);
            for (int r = j; r < v_.jb; ++r) {
              double sum = 0;
              for (int p = c; p < j; ++p) sum += T(r, p) * T(p, j);
              T(r, j) -= sum;
            }
          }
#pragma omp barrier
          double* dst = Op(0, j);
          for (int p = c; p < j; ++p) {
            const double u = T(p, j);
            const double* src = Op(0, p);
            for (std::int64_t i = r0; i < r1; ++i) dst[i] -= src[i] * u;
          }
        }
        double b = -1;
        std::int64_t bi = -1;
        const double* col = Op(0, j);
        for (std::int64_t i = r0; i < r1; ++i)
          if (std::fabs(col[i]) > b) b = std::fabs(col[i]), bi = i;
        tb[tid] = b;
        ti[tid] = bi;
#pragma omp barrier
#pragma omp master
        {
          double ob = -1;
          std::int64_t oi = -1;
          for (int t = 0; t < omp_get_num_threads(); ++t)
            if (ti[t] >= 0 && tb[t] > ob) ob = tb[t], oi = ti[t];
          pivot(j, ob, oi);
          const double p = T(j, j);
          if (p != 0.0)
            for (int r = j + 1; r < v_.jb; ++r) T(r, j) *= 1.0 / p;
          if (o_.pfact == fact::right && j + 1 < e && j + 1 < v_.jb)
            cblas_dger(CblasColMajor, v_.jb - j - 1, e - j - 1, -1.0, Tp(j + 1, j), 1, Tp(j, j + 1), ldt(),
                       Tp(j + 1, j + 1), ldt());
          if (o_.pfact == fact::crout && j > c && j + 1 < e)
            cblas_dgemv(CblasColMajor, CblasTrans, j - c, e - j - 1, -1.0, Tp(c, j + 1), ldt(), Tp(j, c), ldt(), 1.0,
                        Tp(j, j + 1), ldt());
        }
#pragma omp barrier
        const double p = T(j, j);
        double* cj = Op(0, j);
        if (p != 0.0) {
          const double s = 1.0 / p;
          for (std::int64_t i = r0; i < r1; ++i) cj[i] *= s;
        }
        if (o_.pfact == fact::right)
          for (int c2 = j + 1; c2 < e; ++c2) {
            const double u = T(j, c2);
            double* d = Op(0, c2);
            for (std::int64_t i = r0; i < r1; ++i) d[i] -= cj[i] * u;
          }
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
  int nt_ = 1;
};

}  // namespace

std::vector<std::int64_t> factor_panel(const panel_view& pv, const panel_opts& po, int* zero_pivots) {
  GPU500_EXPECTS(pv.jb >= 1 && pv.col != nullptr, "factor_panel: empty panel or no column communicator");
  GPU500_EXPECTS(po.offload == nullptr || pv.col->size() == 1, "factor_panel: the panel offload needs one process");
  if (po.offload) po.offload->begin(pv);
  if (po.threads == 1) return factorizer(pv, po).run(zero_pivots);
  blas_single_thread one;
  return factorizer(pv, po).run(zero_pivots);
}

void panel_offload::begin(const panel_view& v) {
  v_ = v;
  sync_.assign(v.jb, 0);
}

void panel_offload::dirty(int c0, int c1) {
  for (int c = c0; c < c1; ++c) sync_[c] = -1;
}

// Apply on the device the swaps of pivots p..cur-1 to the columns of [c0, c1) that are current
// at p (runs of equal p share one plan and one launch).
void panel_offload::catch_up(int c0, int c1, int cur, const std::int64_t* ipiv) {
  for (int c = c0; c < c1;) {
    const int p = sync_[c];
    int e = c + 1;
    while (e < c1 && sync_[e] == p) ++e;
    if (p >= 0 && p < cur) {
      const auto plan = plan_swaps(v_.k + p, cur - p, ipiv + p);
      std::vector<std::int64_t> dest, src;
      for (int t = 0; t < cur - p; ++t)
        if (plan.u_src[t] != v_.k + p + t) dest.push_back(p + t), src.push_back(plan.u_src[t] - v_.k);
      for (const auto& [d, s] : plan.moved) dest.push_back(d - v_.k), src.push_back(s - v_.k);
      if (!dest.empty()) dev_moves(c, e, dest, src);
      for (int i = c; i < e; ++i) sync_[i] = cur;
    }
    c = e;
  }
}

// Rows r0.. of the dirty columns of [c0, c1) to the device (T rows from T, the rest from O).
void panel_offload::put_rows(int r0, int c0, int c1) {
  for (int c = c0; c < c1;) {
    int e = c + 1;
    while (e < c1 && (sync_[e] < 0) == (sync_[c] < 0)) ++e;
    if (sync_[c] < 0) {
      if (r0 < v_.jb) dev_put(r0, v_.jb - r0, c, e - c, v_.t + r0 + static_cast<std::int64_t>(c) * v_.jb, v_.jb);
      if (v_.mo > 0) dev_put(v_.jb, v_.mo, c, e - c, v_.o + c * v_.ldo, v_.ldo);
    }
    c = e;
  }
}

bool panel_offload::gemm(int r0, int c0, int c1, int k0, int k1, const std::int64_t* ipiv) {
  const std::int64_t m = v_.jb + v_.mo;
  if (min_width_ <= 0 || std::min(c1 - c0, k1 - k0) < min_width_ || r0 < k1 || r0 >= m) return false;
  const double t0 = wall_time();
  catch_up(k0, k1, r0, ipiv);
  catch_up(c0, c1, r0, ipiv);
  put_rows(r0, k0, k1);
  put_rows(r0, c0, c1);
  // U: rows k0..k1 of the right-hand columns (rows < r0: never part of the invariant).
  dev_put(k0, k1 - k0, c0, c1 - c0, v_.t + k0 + static_cast<std::int64_t>(c0) * v_.jb, v_.jb);
  dev_gemm(r0, m - r0, c0, c1, k0, k1);
  if (r0 < v_.jb) dev_get(r0, v_.jb - r0, c0, c1 - c0, v_.t + r0 + static_cast<std::int64_t>(c0) * v_.jb, v_.jb);
  if (v_.mo > 0) dev_get(v_.jb, v_.mo, c0, c1 - c0, v_.o + c0 * v_.ldo, v_.ldo);
  dev_wait();
  for (int c = k0; c < k1; ++c) sync_[c] = r0;
  for (int c = c0; c < c1; ++c) sync_[c] = r0;
  ++calls_;
  seconds_ += wall_time() - t0;
  return true;
}

void panel_offload::finish(const std::int64_t* ipiv) {
  catch_up(0, v_.jb, v_.jb, ipiv);
  dev_put(0, v_.jb, 0, v_.jb, v_.t, v_.jb);
  put_rows(v_.jb, 0, v_.jb);  // r0 = jb: the O rows of the dirty columns
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
