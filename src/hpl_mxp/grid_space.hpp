// GMRES on a P x Q grid (internal), shared by the CPU backend (every grid, 1 x 1 included: there
// every sum and broadcast below is a no-op) and the CUDA backend on grids of several processes
// (its 1 x 1 grid keeps GMRES's vectors on the GPU, cuda/refine.cuh): every vector is whole on
// every process (host memory, host_vectors); the matrix stays where the backend keeps it, in
// HPL's 2-D block-cyclic layout, behind grid_part:
//   A v: each process adds its rows of its columns (FP64, A regenerated), the sums are summed
//        over the grid;
//   the preconditioner: the triangular solves go block by block; a block row's processes add
//        their part of the product with the already solved blocks (a sum over the process row),
//        the owner of the diagonal block solves it and sends it to all; the processes of its
//        process column keep it in their local-column vector for the next blocks' products;
//        on the 1 x 1 grid one process holds every block: one triangular solve of the whole.
// The scalars that steer GMRES (inner products, norms) are rank 0's, so every process takes the
// same path. Also here: the diagonal and ||A||_oo from each process's row sums (grid_row_sums),
// the refinement step of a grid solve (refine_on_grid) and the figures it records in the result
// (set_input_norms, set_gmres_figures), and the grid's timing (slowest).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "cpu/lu.hpp"
#include "cpu/space.hpp"
#include "gmres.hpp"
#include "gpu500/core/timer.hpp"
#include "gpu500/dist/comm.hpp"
#include "gpu500/hpl_mxp/mxp.hpp"
#include "mpi/grid.hpp"

namespace gpu500::hpl_mxp::detail {

/// One process's part of the factored matrix, as the grid's GMRES uses it. Local indices are
/// those of gpu500/hpl/grid.hpp; the local-column vector xl (one FP32 entry per local column)
/// lives with the matrix.
struct grid_part {
  virtual ~grid_part() = default;
  /// full[gi] += sum over this process's columns gj of A(gi, gj) v[gj] for its rows gi (FP64,
  /// A as generated: drawn entries and the FP64 diagonal).
  virtual void add_product(const double* v, double* full) = 0;
  /// s[0..jb) = F(li0 .. li0 + jb, c0 .. c1) xl[c0 .. c1) with the FP32 factors F (c1 > c0).
  virtual void block_product(std::int64_t li0, std::int64_t jb, std::int64_t c0, std::int64_t c1,
                             float* s) = 0;
  /// yk = L11^-1 yk (lower: unit diagonal) or U11^-1 yk, the diagonal block at (li0, lj0).
  virtual void diagonal_solve(bool lower, std::int64_t li0, std::int64_t lj0, std::int64_t jb, float* yk) = 0;
  /// xl[lj0 .. lj0 + jb) = yk.
  virtual void set_solved(std::int64_t lj0, std::int64_t jb, const float* yk) = 0;
};

/// The diagonal and ||A||_oo (the same on every process) from sums[gi] = this process's part of
/// the sum of |A(gi, j)| over the drawn entries and own[gi] = the drawn diagonal entry where it is
/// local (0 elsewhere); both are summed over the grid here.
inline row_sums grid_row_sums(std::vector<double>& sums, std::vector<double>& own, diagonal d,
                              const process_grid& g) {
  g.all().allreduce(sums.data(), sums.size(), dist::reduce_op::sum);
  g.all().allreduce(own.data(), own.size(), dist::reduce_op::sum);  // each diagonal entry lives on one process
  row_sums s;
  s.diag.resize(sums.size());
  for (std::size_t i = 0; i < sums.size(); ++i) {
    const double off = sums[i] - std::fabs(own[i]);
    s.diag[i] = d == diagonal::reference ? off : 0.0;
    s.norm_inf = std::max(s.norm_inf, off + std::fabs(s.diag[i]));
  }
  return s;
}

class grid_space final : public host_vectors {
 public:
  grid_space(std::int64_t n, std::int64_t nb, int restart, grid_part& part, const process_grid& g,
             const std::vector<double>& b)
      : host_vectors(n, restart),
        nb_(nb),
        step_(g.p() == 1 && g.q() == 1 ? std::max<std::int64_t>(1, n) : nb),
        part_(part),
        g_(g),
        b_(b),
        y_(static_cast<std::size_t>(n)),
        s_(static_cast<std::size_t>(step_)),
        nq_(hpl::numroc(n, nb, g.mycol(), g.q())) {}
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
  void project(int k, const double* w, double* h) override {
    host_vectors::project(k, w, h);
    g_.all().bcast_bytes(h, sizeof(double) * k, 0);
  }
  double nrm2(const double* v) override { return g_.all().bcast(host_vectors::nrm2(v), 0); }
  double norm_inf(const double* v) override { return g_.all().bcast(host_vectors::norm_inf(v), 0); }

 private:
  void product(const double* v, double* y) {
    std::fill(y, y + n_, 0.0);
    part_.add_product(v, y);
    g_.all().allreduce(y, static_cast<std::size_t>(n_), dist::reduce_op::sum);
  }
  // y_ = L^-1 y_ (lower) or U^-1 y_ by block rows of step_ rows (see the file comment).
  void solve_blocks(bool lower) {
    const std::int64_t blocks = (n_ + step_ - 1) / step_;
    for (std::int64_t t = 0; t < blocks; ++t) {
      const std::int64_t k = (lower ? t : blocks - 1 - t) * step_, jb = std::min(step_, n_ - k), kb = k / nb_;
      const int pr = static_cast<int>(kb % g_.p()), pc = static_cast<int>(kb % g_.q());
      if (g_.myrow() == pr) {
        const std::int64_t li0 = hpl::local_of(k, nb_, g_.p());
        // The solved blocks' columns here: global < k (lower) or >= k + jb (upper).
        const std::int64_t c0 = lower ? 0 : hpl::local_start(k + jb, nb_, g_.mycol(), g_.q());
        const std::int64_t c1 = lower ? hpl::local_start(k, nb_, g_.mycol(), g_.q()) : nq_;
        std::fill_n(s_.begin(), jb, 0.0f);
        if (c1 > c0) part_.block_product(li0, jb, c0, c1, s_.data());
        if (g_.row().size() > 1)
          g_.row().allreduce(s_.data(), static_cast<std::size_t>(jb), dist::reduce_op::sum);
        if (g_.mycol() == pc) {
          float* yk = y_.data() + k;
          for (std::int64_t i = 0; i < jb; ++i) yk[i] -= s_[i];
          part_.diagonal_solve(lower, li0, hpl::local_of(k, nb_, g_.q()), jb, yk);
        }
      }
      if (g_.all().size() > 1)
        g_.all().bcast_bytes(y_.data() + k, sizeof(float) * static_cast<std::size_t>(jb), g_.rank_of(pr, pc));
      if (g_.mycol() == pc) part_.set_solved(hpl::local_of(k, nb_, g_.q()), jb, y_.data() + k);
    }
  }

  std::int64_t nb_;
  // The rows solved at once: a block of the layout; on the 1 x 1 grid, whose one process holds
  // every diagonal block, the whole triangle (one triangular solve, no products, nothing sent).
  std::int64_t step_;
  grid_part& part_;
  const process_grid& g_;
  const std::vector<double>& b_;
  std::vector<float> y_, s_;
  std::int64_t nq_;
};

/// Seconds since the stopwatch started, the slowest process's.
inline double slowest(const process_grid& g, const stopwatch& sw) {
  return g.all().allreduce(sw.seconds(), dist::reduce_op::max);
}

/// r's ||A||_oo (from the generation's row sums) and ||b||_oo, which GMRES's stopping test uses.
inline void set_input_norms(result& r, const row_sums& sums, const std::vector<double>& b) {
  r.norm_a = sums.norm_inf;
  for (double v : b) r.norm_b = std::max(r.norm_b, std::fabs(v));
}

/// r's iteration counts and the norms of the last residual and of x, from GMRES.
inline void set_gmres_figures(result& r, const gmres_result& g) {
  r.iterations = g.iterations;
  r.restarts = g.restarts;
  r.norm_r = g.norm_r;
  r.norm_x = g.norm_x;
}

/// The refinement of a grid solve: GMRES from x = 0 over `part`; fills r's norms, iteration
/// counts, x and t_refine (the slowest process's, from a barrier).
inline void refine_on_grid(result& r, const options& o, grid_part& part, const process_grid& g,
                           const row_sums& sums, const std::vector<double>& b) {
  g.all().barrier();
  stopwatch sw;
  set_input_norms(r, sums, b);
  grid_space space(o.n, std::max(1, o.nb), gmres_restart, part, g, b);
  const gmres_result gr = fgmres(space, gmres_restart, o.max_iters, r.norm_a, r.norm_b, threshold);
  r.t_refine = slowest(g, sw);
  set_gmres_figures(r, gr);
  r.x.assign(space.x(), space.x() + o.n);
}

}  // namespace gpu500::hpl_mxp::detail
