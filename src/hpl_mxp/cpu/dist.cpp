// HPL-MxP's CPU backend on a P x Q grid of MPI processes (mpi/grid.hpp): the FP32 matrix in
// HPL's 2-D block-cyclic layout, generated in place (each process walks its own rows over its
// own column blocks: one jump per row and block), the row sums of |A| summed over the grid for
// the diagonal; LU without pivoting by block columns:
//   the owner of the diagonal block factors it and sends it along its process row and column;
//   the process column computes L21 = A21 U11^-1, the process row U12 = L11^-1 A12 (strsm);
//   L21 goes along the process rows, U12 along the process columns; every process updates its
//   part of A22 with one sgemm.
// GMRES (gmres.hpp) keeps every vector whole on every process: A v sums each process's rows of
// its columns over the grid; the triangular solves go block by block, each block row's
// processes adding their part of the product with the solved blocks (a sum over the process
// row), the owner of the diagonal block solving it and sending the block to all. The scalars
// that steer GMRES (inner products, norms) are rank 0's, so every process takes the same path.
#include <cblas.h>

#include <algorithm>
#include <cmath>

#include "../backend.hpp"
#include "cpu/lu.hpp"
#include "cpu/space.hpp"
#include "gpu500/core/timer.hpp"
#include "gpu500/hpl/grid.hpp"
#include "mpi/grid.hpp"

namespace gpu500::hpl_mxp::detail {

namespace {

using dist::reduce_op;
using hpl::global_of;
using hpl::local_of;
using hpl::local_start;
using hpl::numroc;

// This process's part of the matrix: mp x nq FP32, leading dimension lld, and the global index
// of each local row and column.
struct local_matrix {
  std::int64_t n = 0, nb = 1, mp = 0, nq = 0, lld = 1;
  std::vector<float> a;
  std::vector<std::int64_t> grow, gcol;
  local_matrix(std::int64_t n_, std::int64_t nb_, const process_grid& g)
      : n(n_), nb(nb_), mp(numroc(n_, nb_, g.myrow, g.p)), nq(numroc(n_, nb_, g.mycol, g.q)),
        lld(std::max<std::int64_t>(1, mp)), a(static_cast<std::size_t>(lld * nq)), grow(mp), gcol(nq) {
    for (std::int64_t i = 0; i < mp; ++i) grow[i] = global_of(i, nb, g.myrow, g.p);
    for (std::int64_t j = 0; j < nq; ++j) gcol[j] = global_of(j, nb, g.mycol, g.q);
  }
  float* at(std::int64_t li, std::int64_t lj) { return a.data() + lj * lld + li; }
};

// Calls f(li0, rows, lj, vals) for every local column lj of every run of up to 64 local rows,
// vals the drawn entries of those rows in global column gcol[lj]; runs in parallel.
template <class F>
void walk_local(const local_matrix& m, F&& f) {
  constexpr std::int64_t run = 64;
  const hpl::lcg_jump by_n = hpl::lcg_jump_by(static_cast<std::uint64_t>(m.n));
  const std::int64_t runs = (m.mp + run - 1) / run;
#pragma omp parallel for schedule(dynamic, 1)
  for (std::int64_t t = 0; t < runs; ++t) {
    const std::int64_t li0 = t * run, rows = std::min(run, m.mp - li0);
    std::uint64_t x[run];
    double vals[run];
    for (std::int64_t lj0 = 0; lj0 < m.nq; lj0 += m.nb) {  // local column blocks: consecutive global columns
      for (std::int64_t r = 0; r < rows; ++r) x[r] = row_walk(m.n, m.grow[li0 + r], m.gcol[lj0], by_n).x;
      for (std::int64_t lj = lj0; lj < std::min(m.nq, lj0 + m.nb); ++lj) {
        for (std::int64_t r = 0; r < rows; ++r) {
          vals[r] = mxp_value(x[r]);
          x[r] = by_n.apply(x[r]);
        }
        f(li0, rows, lj, vals);
      }
    }
  }
}

// The local part of A in FP32; returns the whole diagonal and ||A||_oo (the same on every process).
row_sums generate_local(local_matrix& m, diagonal d, const process_grid& g) {
  std::vector<double> sums(static_cast<std::size_t>(m.n), 0.0), own(static_cast<std::size_t>(m.n), 0.0);
  walk_local(m, [&](std::int64_t li0, std::int64_t rows, std::int64_t lj, const double* vals) {
    float* col = m.at(li0, lj);
    for (std::int64_t r = 0; r < rows; ++r) {
      col[r] = static_cast<float>(vals[r]);
      sums[m.grow[li0 + r]] += std::fabs(vals[r]);
      if (m.grow[li0 + r] == m.gcol[lj]) own[m.gcol[lj]] = vals[r];
    }
  });
  g.all.allreduce(sums.data(), sums.size(), reduce_op::sum);
  g.all.allreduce(own.data(), own.size(), reduce_op::sum);  // each diagonal entry lives on one process
  row_sums s;
  s.diag.resize(static_cast<std::size_t>(m.n));
  for (std::int64_t i = 0; i < m.n; ++i) {
    const double off = sums[i] - std::fabs(own[i]);
    s.diag[i] = d == diagonal::reference ? off : 0.0;
    s.norm_inf = std::max(s.norm_inf, off + std::fabs(s.diag[i]));
  }
  for (std::int64_t li = 0; li < m.mp; ++li) {
    const std::int64_t gi = m.grow[li];
    if (hpl::owner_of(gi, m.nb, g.q) == g.mycol) *m.at(li, local_of(gi, m.nb, g.q)) = static_cast<float>(s.diag[gi]);
  }
  return s;
}

void broadcast(const dist::communicator& c, float* buf, std::int64_t count, int root) {
  if (count > 0 && c.size() > 1) c.bcast_bytes(buf, sizeof(float) * static_cast<std::size_t>(count), root);
}

// LU without pivoting of the distributed matrix (see the file comment).
void factor(local_matrix& m, const process_grid& g) {
  const int ld = static_cast<int>(m.lld);
  std::vector<float> d11, lbuf, ubuf;
  for (std::int64_t k = 0; k < m.n; k += m.nb) {
    const std::int64_t jb = std::min(m.nb, m.n - k), kb = k / m.nb;
    const int pr = static_cast<int>(kb % g.p), pc = static_cast<int>(kb % g.q);
    const std::int64_t li0 = local_start(k, m.nb, g.myrow, g.p), lj0 = local_start(k, m.nb, g.mycol, g.q);
    const std::int64_t li1 = local_start(k + jb, m.nb, g.myrow, g.p), lj1 = local_start(k + jb, m.nb, g.mycol, g.q);
    const std::int64_t mloc = m.mp - li1, nloc = m.nq - lj1;
    const bool in_row = g.myrow == pr, in_col = g.mycol == pc;
    d11.assign(static_cast<std::size_t>(jb * jb), 0.0f);
    if (in_row && in_col) {
      factor_block(m.at(li0, lj0), jb, m.lld);
      for (std::int64_t j = 0; j < jb; ++j) std::copy_n(m.at(li0, lj0 + j), jb, d11.data() + j * jb);
    }
    if (in_col) broadcast(g.col, d11.data(), jb * jb, pr);
    if (in_row) broadcast(g.row, d11.data(), jb * jb, pc);
    const int ijb = static_cast<int>(jb);
    lbuf.assign(static_cast<std::size_t>(std::max<std::int64_t>(0, mloc) * jb), 0.0f);
    ubuf.assign(static_cast<std::size_t>(std::max<std::int64_t>(0, nloc) * jb), 0.0f);
    if (in_col && mloc > 0) {
      cblas_strsm(CblasColMajor, CblasRight, CblasUpper, CblasNoTrans, CblasNonUnit, static_cast<int>(mloc), ijb, 1.0f,
                  d11.data(), ijb, m.at(li1, lj0), ld);
      for (std::int64_t j = 0; j < jb; ++j) std::copy_n(m.at(li1, lj0 + j), mloc, lbuf.data() + j * mloc);
    }
    if (in_row && nloc > 0) {
      cblas_strsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasUnit, ijb, static_cast<int>(nloc), 1.0f,
                  d11.data(), ijb, m.at(li0, lj1), ld);
      for (std::int64_t j = 0; j < nloc; ++j) std::copy_n(m.at(li0, lj1 + j), jb, ubuf.data() + j * jb);
    }
    broadcast(g.row, lbuf.data(), mloc * jb, pc);  // a process row shares its local rows: same mloc
    broadcast(g.col, ubuf.data(), nloc * jb, pr);  // a process column shares its columns: same nloc
    if (mloc > 0 && nloc > 0)
      cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(mloc), static_cast<int>(nloc), ijb, -1.0f,
                  lbuf.data(), static_cast<int>(mloc), ubuf.data(), ijb, 1.0f, m.at(li1, lj1), ld);
  }
}

class grid_space final : public host_vectors {
 public:
  grid_space(std::int64_t n, int restart, local_matrix& m, const process_grid& g, const row_sums& sums,
             const std::vector<double>& b)
      : host_vectors(n, restart), m_(m), g_(g), sums_(sums), b_(b), full_(static_cast<std::size_t>(n)),
        y_(static_cast<std::size_t>(n)), xl_(static_cast<std::size_t>(m.nq)), s_(static_cast<std::size_t>(m.nb)) {}
  void residual(const double* x, double* r) override {
    product(x, r);
    for (std::int64_t i = 0; i < n_; ++i) r[i] = b_[i] - r[i];
  }
  void matvec(const double* v, double* y) override { product(v, y); }
  void precondition(const double* v, double* z) override {
    for (std::int64_t i = 0; i < n_; ++i) y_[i] = static_cast<float>(v[i]);
    solve_blocks(true);
    solve_blocks(false);
    for (std::int64_t i = 0; i < n_; ++i) z[i] = y_[i];
  }
  // Rank 0's values, so that every process steers GMRES the same way.
  void project(int k, const double* w, double* h) override {
    host_vectors::project(k, w, h);
    g_.all.bcast_bytes(h, sizeof(double) * k, 0);
  }
  double nrm2(const double* v) override { return g_.all.bcast(host_vectors::nrm2(v), 0); }
  double norm_inf(const double* v) override { return g_.all.bcast(host_vectors::norm_inf(v), 0); }

 private:
  // y = A v: each process's rows of its columns, summed over the grid.
  void product(const double* v, double* y) {
    std::fill(full_.begin(), full_.end(), 0.0);
    walk_local(m_, [&](std::int64_t li0, std::int64_t rows, std::int64_t lj, const double* vals) {
      const std::int64_t gj = m_.gcol[lj];
      for (std::int64_t r = 0; r < rows; ++r) {
        const std::int64_t gi = m_.grow[li0 + r];
        full_[gi] += (gi == gj ? sums_.diag[gi] : vals[r]) * v[gj];
      }
    });
    g_.all.allreduce(full_.data(), full_.size(), reduce_op::sum);
    std::copy(full_.begin(), full_.end(), y);
  }
  // y_ = L^-1 y_ (lower) or U^-1 y_ by block rows (see the file comment).
  void solve_blocks(bool lower) {
    const std::int64_t nb = m_.nb, blocks = (n_ + nb - 1) / nb;
    for (std::int64_t t = 0; t < blocks; ++t) {
      const std::int64_t k = (lower ? t : blocks - 1 - t) * nb, jb = std::min(nb, n_ - k), kb = k / nb;
      const int pr = static_cast<int>(kb % g_.p), pc = static_cast<int>(kb % g_.q);
      if (g_.myrow == pr) {
        const std::int64_t li0 = local_of(k, nb, g_.p);
        // The solved blocks' columns here: global < k (lower) or >= k + jb (upper).
        const std::int64_t c0 = lower ? 0 : local_start(k + jb, nb, g_.mycol, g_.q);
        const std::int64_t c1 = lower ? local_start(k, nb, g_.mycol, g_.q) : m_.nq;
        std::fill_n(s_.begin(), jb, 0.0f);
        if (c1 > c0) {
          for (std::int64_t l = c0; l < c1; ++l) xl_[l] = y_[m_.gcol[l]];
          cblas_sgemv(CblasColMajor, CblasNoTrans, static_cast<int>(jb), static_cast<int>(c1 - c0), 1.0f,
                      m_.at(li0, c0), static_cast<int>(m_.lld), xl_.data() + c0, 1, 0.0f, s_.data(), 1);
        }
        if (g_.row.size() > 1) g_.row.allreduce(s_.data(), static_cast<std::size_t>(jb), reduce_op::sum);
        if (g_.mycol == pc) {
          float* yk = y_.data() + k;
          for (std::int64_t i = 0; i < jb; ++i) yk[i] -= s_[i];
          const float* akk = m_.at(li0, local_of(k, nb, g_.q));
          cblas_strsv(CblasColMajor, lower ? CblasLower : CblasUpper, CblasNoTrans, lower ? CblasUnit : CblasNonUnit,
                      static_cast<int>(jb), akk, static_cast<int>(m_.lld), yk, 1);
        }
      }
      broadcast(g_.all, y_.data() + k, jb, g_.rank_of(pr, pc));
    }
  }

  local_matrix& m_;
  const process_grid& g_;
  const row_sums& sums_;
  const std::vector<double>& b_;
  std::vector<double> full_;
  std::vector<float> y_, xl_, s_;
};

// Seconds since `start`, the slowest process's.
double slowest(const process_grid& g, const stopwatch& sw) { return g.all.allreduce(sw.seconds(), reduce_op::max); }

}  // namespace

result solve_cpu_grid(const options& o) {
  const process_grid g(o.p, o.q);
  result r;
  r.n = o.n;
  r.nb = o.nb;
  r.be = backend::cpu;
  r.prec = o.prec;
  stage(o, "generating the matrix (P x Q grid)");
  g.all.barrier();
  stopwatch sw;
  local_matrix m(o.n, std::max(1, o.nb), g);
  const row_sums sums = generate_local(m, o.diag, g);
  const std::vector<double> b = generate_b(o.n);
  r.t_generate = slowest(g, sw);
  stage(o, "LU without pivoting (FP32, P x Q grid)");
  g.all.barrier();
  sw.restart();
  factor(m, g);
  r.t_lu = slowest(g, sw);
  stage(o, "GMRES refinement (FP64)");
  g.all.barrier();
  sw.restart();
  r.norm_a = sums.norm_inf;
  for (double v : b) r.norm_b = std::max(r.norm_b, std::fabs(v));
  grid_space space(o.n, gmres_restart, m, g, sums, b);
  const gmres_result gr = fgmres(space, gmres_restart, o.max_iters, r.norm_a, r.norm_b, threshold);
  r.t_refine = slowest(g, sw);
  r.iterations = gr.iterations;
  r.restarts = gr.restarts;
  r.norm_r = gr.norm_r;
  r.norm_x = gr.norm_x;
  r.x.assign(space.x(), space.x() + o.n);
  return r;
}

}  // namespace gpu500::hpl_mxp::detail
