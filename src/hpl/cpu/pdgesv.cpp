// HPL_pdgesv on the CPU (OpenBLAS): blocked right-looking LU with row partial pivoting on the
// distributed [A | b], followed by the back substitution (HPL_pdtrsv).
//
// Iteration k (panel of jb columns starting at global column k, owned by process column pcol
// and, for its top block, process row prow):
//   1. the process column pcol factors the panel (panel.cpp) and packs [ipiv | L1 | L2];
//   2. the pack is broadcast along every process row with the chosen BCAST topology;
//   3. every process swaps the rows of its trailing columns: the rows of U (positions k..k+jb)
//      are gathered in each process column with binary-exchange or spread-roll (SWAP, mix with its
//      column threshold), the displaced rows go back to their new owners;
//   4. U = L1^-1 U (DTRSM), A2 -= L2 U (DGEMM), and process row prow stores U.
// Look-ahead (DEPTH >= 1 and Q > 1, as netlib's HPL_pdgesvK2): the owner of panel k+1 first
// updates those columns, factors and broadcasts panel k+1, then updates the rest.
#include <cblas.h>

#include <algorithm>
#include <cstring>

#include "../solver.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/core/timer.hpp"
#include "gpu500/hpl/matgen.hpp"
#include "panel.hpp"

// LAPACK's row interchanges (the BLAS library's LAPACK: OpenBLAS's is blocked and threaded over
// columns), Fortran interface.
extern "C" void dlaswp_(const int* n, double* a, const int* lda, const int* k1, const int* k2, const int* ipiv,
                        const int* incx);

namespace gpu500::hpl::detail {

local_matrix make_local(const params& prm, const grid& g) {
  local_matrix m;
  static_cast<local_layout&>(m) = layout_of(prm.n, prm.nb, g, std::max(1, prm.align), 1);
  const double need = static_cast<double>(m.lda) * m.nq * 8.0;
  if (need > 1e15) throw resource_error("HPL: local matrix too large");
  m.a.assign(static_cast<std::size_t>(m.lda * m.nq), 0.0);
  generate_local(prm.n, prm.nb, g.p, g.q, g.myrow, g.mycol, m.a.data(), m.lda);
  return m;
}

namespace {

class cpu_solver {
 public:
  cpu_solver(const params& prm, const grid& g, local_matrix& m, std::vector<iter_time>* it,
             const std::function<void(std::int64_t)>& progress)
      : prm_(prm), g_(g), m_(m), iters_(it), progress_(progress), row_(g.comms->row), col_(g.comms->col), all_(g.comms->all) {}

  int factor_and_solve(std::vector<double>& x) {
    const std::int64_t n = prm_.n;
    const int nb = prm_.nb;
    const bool lookahead = prm_.depth >= 1 && g_.q > 1;
    std::vector<double> bufs[2];
    int cur = 0;
    if (n > 0 && lookahead) {
      if (g_.mycol == owner_of(0, nb, g_.q)) factor(0, bufs[0]);
      broadcast(0, bufs[0]);
    }
    for (std::int64_t k = 0; k < n; k += nb) {
      const int jb = static_cast<int>(std::min<std::int64_t>(nb, n - k));
      iter_time t;
      t.k = k;
      const double t0 = wall_time();
      if (!lookahead) {
        if (g_.mycol == owner_of(k, nb, g_.q)) factor(k, bufs[cur]);
        t.panel = wall_time() - t0;
        const double tb = wall_time();
        broadcast(k, bufs[cur]);
        t.bcast = wall_time() - tb;
        update(k, jb, bufs[cur], local_start(k + jb, nb, g_.mycol, g_.q), m_.nq, t);
      } else {
        const std::int64_t k1 = k + jb;
        const std::int64_t c_next = local_start(k1, nb, g_.mycol, g_.q);
        if (k1 < n && g_.mycol == owner_of(k1, nb, g_.q)) {
          const int jb1 = static_cast<int>(std::min<std::int64_t>(nb, n - k1));
          update(k, jb, bufs[cur], c_next, c_next + jb1, t);
          const double tp = wall_time();
          factor(k1, bufs[1 - cur]);
          t.panel = wall_time() - tp;
          const double tb = wall_time();
          broadcast(k1, bufs[1 - cur], /*root_async=*/true);  // sends go on during the update
          t.bcast = wall_time() - tb;
          update(k, jb, bufs[cur], c_next + jb1, m_.nq, t);
          const double tw = wall_time();
          row_.wait_sends();
          t.bcast += wall_time() - tw;
        } else {
          update(k, jb, bufs[cur], c_next, m_.nq, t);
          if (k1 < n) {
            const double tb = wall_time();
            broadcast(k1, bufs[1 - cur]);
            t.bcast = wall_time() - tb;
          }
        }
        cur = 1 - cur;
      }
      t.total = wall_time() - t0;
      if (iters_) iters_->push_back(t);
      if (progress_) progress_(k + jb);
    }
    back_substitution(x);
    return zero_;
  }

 private:
  // Panel pack layout: [ipiv (jb) | L1 (jb x jb) | L2 (mo x jb)].
  std::int64_t o_first(std::int64_t k, int jb) const {
    const std::int64_t ii = local_start(k, prm_.nb, g_.myrow, g_.p);
    return g_.myrow == owner_of(k, prm_.nb, g_.p) ? ii + jb : ii;
  }
  std::int64_t pack_size(std::int64_t k, int jb) const {
    return jb + static_cast<std::int64_t>(jb) * jb + (m_.mp - o_first(k, jb)) * jb;
  }

  void factor(std::int64_t k, std::vector<double>& buf) {
    const int nb = prm_.nb;
    const int jb = static_cast<int>(std::min<std::int64_t>(nb, prm_.n - k));
    const std::int64_t ii = local_start(k, nb, g_.myrow, g_.p);
    const std::int64_t jj = local_start(k, nb, g_.mycol, g_.q);
    const int prow = owner_of(k, nb, g_.p);
    const std::int64_t of = o_first(k, jb), mo = m_.mp - of;
    buf.assign(pack_size(k, jb), 0.0);
    double* t = buf.data() + jb;
    if (g_.myrow == prow)
      for (int c = 0; c < jb; ++c) std::memcpy(t + c * jb, m_.col(jj + c) + ii, sizeof(double) * jb);
    col_.bcast(t, static_cast<long>(jb) * jb, prow);
    const panel_view pv{.jb = jb, .k = k, .t = t, .o = m_.col(jj) + of, .ldo = m_.lda, .mo = mo, .o_first = of,
                        .nb = nb, .myrow = g_.myrow, .nprow = g_.p, .col = &col_};
    panel_opts po{prm_.pfact, prm_.rfact, prm_.nbmin, prm_.ndiv, /*threads=*/1};
    int zero = 0;
    const auto ipiv = factor_panel(pv, po, &zero);
    zero_ += zero;
    for (int j = 0; j < jb; ++j) buf[j] = static_cast<double>(ipiv[j]);
    if (g_.myrow == prow)
      for (int c = 0; c < jb; ++c) std::memcpy(m_.col(jj + c) + ii, t + c * jb, sizeof(double) * jb);
    double* l2 = t + static_cast<std::int64_t>(jb) * jb;
    for (int c = 0; c < jb; ++c) std::memcpy(l2 + c * mo, m_.col(jj + c) + of, sizeof(double) * mo);
  }

  void broadcast(std::int64_t k, std::vector<double>& buf, bool root_async = false) {
    const int jb = static_cast<int>(std::min<std::int64_t>(prm_.nb, prm_.n - k));
    const int pcol = owner_of(k, prm_.nb, g_.q);
    if (g_.mycol != pcol) buf.assign(pack_size(k, jb), 0.0);
    row_.bcast_panel(buf.data(), static_cast<long>(buf.size()), pcol, prm_.bc, root_async);
  }

  // Swap and update local columns [c0, c1) (all of global index >= k + jb) with panel `buf`.
  void update(std::int64_t k, int jb, const std::vector<double>& buf, std::int64_t c0, std::int64_t c1, iter_time& t) {
    const std::int64_t nc = c1 - c0;
    if (nc <= 0) return;
    const int nb = prm_.nb;
    const double ts = wall_time();
    std::vector<std::int64_t> ipiv(jb);
    for (int j = 0; j < jb; ++j) ipiv[j] = static_cast<std::int64_t>(buf[j]);
    const int prow = owner_of(k, nb, g_.p);
    if (g_.p == 1) return update_local(k, jb, buf, ipiv, c0, c1, t, ts);
    const auto plan = plan_swaps(k, jb, ipiv.data());
    // Pack: records [code, row (nc)], code < jb: U row, code >= jb: displaced row at code - jb.
    std::vector<double> mine;
    auto put = [&](double code, std::int64_t pos) {
      mine.push_back(code);
      const std::int64_t li = local_of(pos, nb, g_.p);
      for (std::int64_t c = c0; c < c1; ++c) mine.push_back(m_.col(c)[li]);
    };
    for (int u = 0; u < jb; ++u)
      if (owner_of(plan.u_src[u], nb, g_.p) == g_.myrow) put(u, plan.u_src[u]);
    if (g_.myrow == prow)
      for (const auto& [dest, src] : plan.moved) put(static_cast<double>(jb + dest), src);
    const bool bin = prm_.swp == swap::bin_exch || (prm_.swp == swap::mix && nc <= prm_.swap_threshold);
    const auto all = col_.allgather(mine, bin);
    std::vector<double> u(static_cast<std::size_t>(jb) * nc);
    const std::int64_t rec = nc + 1;
    GPU500_EXPECTS(all.size() % rec == 0, "HPL row swap: malformed exchange");
    for (std::size_t r = 0; r < all.size(); r += rec) {
      const auto code = static_cast<std::int64_t>(all[r]);
      if (code < jb) {
        for (std::int64_t c = 0; c < nc; ++c) u[code + c * jb] = all[r + 1 + c];
      } else {
        const std::int64_t dest = code - jb;
        if (owner_of(dest, nb, g_.p) != g_.myrow) continue;
        const std::int64_t li = local_of(dest, nb, g_.p);
        for (std::int64_t c = 0; c < nc; ++c) m_.col(c0 + c)[li] = all[r + 1 + c];
      }
    }
    t.swap += wall_time() - ts;
    const double tu = wall_time();
    const double* l1 = buf.data() + jb;
    const double* l2 = l1 + static_cast<std::int64_t>(jb) * jb;
    cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasUnit, jb, static_cast<int>(nc), 1.0, l1, jb,
                u.data(), jb);
    const std::int64_t of = o_first(k, jb), mo = m_.mp - of;
    if (mo > 0)
      cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(mo), static_cast<int>(nc), jb, -1.0, l2,
                  static_cast<int>(mo), u.data(), jb, 1.0, m_.col(c0) + of, static_cast<int>(m_.lda));
    if (g_.myrow == prow) {
      const std::int64_t ii = local_start(k, nb, g_.myrow, g_.p);
      for (std::int64_t c = 0; c < nc; ++c) std::memcpy(m_.col(c0 + c) + ii, u.data() + c * jb, sizeof(double) * jb);
    }
    t.update += wall_time() - tu;
  }

  // One process row: the swaps are local, by the BLAS library's dlaswp on the block of columns
  // (rows k .. k + jb - 1 of them, 1-based pivots relative to row k), and U is updated in place,
  // as netlib does for P = 1.
  void update_local(std::int64_t k, int jb, const std::vector<double>& buf, const std::vector<std::int64_t>& ipiv,
                    std::int64_t c0, std::int64_t c1, iter_time& t, double ts) {
    const std::int64_t nc = c1 - c0;
    {
      std::vector<int> rel(static_cast<std::size_t>(jb));
      for (int j = 0; j < jb; ++j) rel[j] = static_cast<int>(ipiv[j] - k + 1);  // ipiv[j] >= k + j
      const int n = static_cast<int>(nc), lda = static_cast<int>(m_.lda), k1 = 1, k2 = jb, inc = 1;
      dlaswp_(&n, m_.col(c0) + k, &lda, &k1, &k2, rel.data(), &inc);
    }
    t.swap += wall_time() - ts;
    const double tu = wall_time();
    const double* l1 = buf.data() + jb;
    const double* l2 = l1 + static_cast<std::int64_t>(jb) * jb;
    const int ld = static_cast<int>(m_.lda);
    cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasUnit, jb, static_cast<int>(nc), 1.0, l1, jb,
                m_.col(c0) + k, ld);
    const std::int64_t mo = m_.mp - (k + jb);
    if (mo > 0)
      cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(mo), static_cast<int>(nc), jb, -1.0, l2,
                  static_cast<int>(mo), m_.col(c0) + k, ld, 1.0, m_.col(c0) + k + jb, ld);
    t.update += wall_time() - tu;
  }

  // U x = y, block row by block row from the bottom; every process ends with the whole x.
  void back_substitution(std::vector<double>& x) {
    const std::int64_t n = prm_.n;
    const int nb = prm_.nb;
    x.assign(n, 0.0);
    if (n == 0) return;
    const int cb = owner_of(n, nb, g_.q);
    const std::int64_t lb = local_of(n, nb, g_.q);
    const std::int64_t ncol_a = numroc(n, nb, g_.mycol, g_.q);  // local columns of A (not b)
    std::vector<double> s(nb), xl;
    const std::int64_t last = (n - 1) / nb * nb;
    for (std::int64_t k0 = last; k0 >= 0; k0 -= nb) {
      const int w = static_cast<int>(std::min<std::int64_t>(nb, n - k0));
      const int prow = owner_of(k0, nb, g_.p), pcol = owner_of(k0, nb, g_.q);
      if (g_.myrow == prow) {
        const std::int64_t li = local_of(k0, nb, g_.p);
        std::fill(s.begin(), s.begin() + w, 0.0);
        if (g_.mycol == cb)
          for (int r = 0; r < w; ++r) s[r] = m_.col(lb)[li + r];
        const std::int64_t cs = local_start(k0 + w, nb, g_.mycol, g_.q);
        if (ncol_a > cs) {  // s -= A(rows of the block, local columns right of it) x(those columns)
          xl.resize(static_cast<std::size_t>(ncol_a - cs));
          for (std::int64_t c = cs; c < ncol_a; ++c) xl[c - cs] = x[global_of(c, nb, g_.mycol, g_.q)];
          cblas_dgemv(CblasColMajor, CblasNoTrans, w, static_cast<int>(ncol_a - cs), -1.0, m_.col(cs) + li,
                      static_cast<int>(m_.lda), xl.data(), 1, 1.0, s.data(), 1);
        }
        row_.allreduce_sum(s.data(), w);
        if (g_.mycol == pcol) {
          const std::int64_t lc = local_of(k0, nb, g_.q);
          cblas_dtrsv(CblasColMajor, CblasUpper, CblasNoTrans, CblasNonUnit, w, m_.col(lc) + li,
                      static_cast<int>(m_.lda), s.data(), 1);
        }
      }
      const int root = rank_of(prow, pcol);
      if (g_.myrow == prow && g_.mycol == pcol) std::copy(s.begin(), s.begin() + w, x.begin() + k0);
      all_.bcast(x.data() + k0, w, root);
    }
  }
  int rank_of(int r, int c) const { return prm_.pmap_col_major ? c * g_.p + r : r * g_.q + c; }

  const params& prm_;
  const grid& g_;
  local_matrix& m_;
  std::vector<iter_time>* iters_;
  const std::function<void(std::int64_t)>& progress_;
  const comm& row_;
  const comm& col_;
  const comm& all_;
  int zero_ = 0;
};

}  // namespace

int cpu_pdgesv(const params& prm, const grid& g, local_matrix& m, std::vector<double>& x, std::vector<iter_time>* iters,
               const std::function<void(std::int64_t)>& progress) {
  return cpu_solver(prm, g, m, iters, progress).factor_and_solve(x);
}

}  // namespace gpu500::hpl::detail
