// HPL-MxP's CPU backend on a P x Q grid of MPI processes (mpi/grid.hpp): the FP32 matrix in
// HPL's 2-D block-cyclic layout, generated in place (each process walks its own rows over its
// own column blocks: one jump per row and block), the row sums of |A| summed over the grid for
// the diagonal; LU without pivoting by block columns:
//   the owner of the diagonal block factors it and sends it along its process row and column;
//   the process column computes L21 = A21 U11^-1, the process row U12 = L11^-1 A12 (strsm);
//   L21 goes along the process rows, U12 along the process columns; every process updates its
//   part of A22 with one sgemm.
// GMRES runs on the grid as grid_space.hpp describes, over this process's host matrix.
#include <cblas.h>

#include <algorithm>
#include <cmath>

#include "../backend.hpp"
#include "../grid_space.hpp"
#include "cpu/lu.hpp"
#include "cpu/space.hpp"
#include "gpu500/core/timer.hpp"
#include "gpu500/hpl/grid.hpp"
#include "mpi/grid.hpp"

namespace gpu500::hpl_mxp::detail {

namespace {

using hpl::global_of;
using hpl::local_of;
using hpl::numroc;

// This process's part of the matrix: mp x nq FP32, leading dimension lld, and the global index
// of each local row and column.
struct local_matrix {
  std::int64_t n = 0, nb = 1, mp = 0, nq = 0, lld = 1;
  std::vector<float> a;
  std::vector<std::int64_t> grow, gcol;
  local_matrix(std::int64_t n_, std::int64_t nb_, const process_grid& g)
      : n(n_), nb(nb_), mp(numroc(n_, nb_, g.myrow(), g.p())), nq(numroc(n_, nb_, g.mycol(), g.q())),
        lld(std::max<std::int64_t>(1, mp)), a(static_cast<std::size_t>(lld * nq)), grow(mp), gcol(nq) {
    for (std::int64_t i = 0; i < mp; ++i) grow[i] = global_of(i, nb, g.myrow(), g.p());
    for (std::int64_t j = 0; j < nq; ++j) gcol[j] = global_of(j, nb, g.mycol(), g.q());
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
  const row_sums s = grid_row_sums(sums, own, d, g);
  for (std::int64_t li = 0; li < m.mp; ++li) {
    const std::int64_t gi = m.grow[li];
    if (hpl::owner_of(gi, m.nb, g.q()) == g.mycol()) *m.at(li, local_of(gi, m.nb, g.q())) = static_cast<float>(s.diag[gi]);
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
    const grid_step st = grid_step_at(m.n, m.nb, k, g);
    const std::int64_t jb = st.jb, li0 = st.li0, lj0 = st.lj0, li1 = st.li1, lj1 = st.lj1, mloc = st.mloc, nloc = st.nloc;
    const int pr = st.pr, pc = st.pc;
    const bool in_row = st.in_row, in_col = st.in_col;
    d11.assign(static_cast<std::size_t>(jb * jb), 0.0f);
    if (in_row && in_col) {
      factor_block(m.at(li0, lj0), jb, m.lld);
      for (std::int64_t j = 0; j < jb; ++j) std::copy_n(m.at(li0, lj0 + j), jb, d11.data() + j * jb);
    }
    if (in_col) broadcast(g.col(), d11.data(), jb * jb, pr);
    if (in_row) broadcast(g.row(), d11.data(), jb * jb, pc);
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
    broadcast(g.row(), lbuf.data(), mloc * jb, pc);  // a process row shares its local rows: same mloc
    broadcast(g.col(), ubuf.data(), nloc * jb, pr);  // a process column shares its columns: same nloc
    if (mloc > 0 && nloc > 0)
      cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(mloc), static_cast<int>(nloc), ijb, -1.0f,
                  lbuf.data(), static_cast<int>(mloc), ubuf.data(), ijb, 1.0f, m.at(li1, lj1), ld);
  }
}

// This process's part for the grid's GMRES (grid_space.hpp): the host matrix and OpenBLAS.
class host_part final : public grid_part {
 public:
  host_part(local_matrix& m, const row_sums& sums) : m_(m), sums_(sums), xl_(static_cast<std::size_t>(m.nq)) {}
  void add_product(const double* v, double* full) override {
    walk_local(m_, [&](std::int64_t li0, std::int64_t rows, std::int64_t lj, const double* vals) {
      const std::int64_t gj = m_.gcol[lj];
      for (std::int64_t r = 0; r < rows; ++r) {
        const std::int64_t gi = m_.grow[li0 + r];
        full[gi] += (gi == gj ? sums_.diag[gi] : vals[r]) * v[gj];
      }
    });
  }
  void block_product(std::int64_t li0, std::int64_t jb, std::int64_t c0, std::int64_t c1, float* s) override {
    cblas_sgemv(CblasColMajor, CblasNoTrans, static_cast<int>(jb), static_cast<int>(c1 - c0), 1.0f, m_.at(li0, c0),
                static_cast<int>(m_.lld), xl_.data() + c0, 1, 0.0f, s, 1);
  }
  void diagonal_solve(bool lower, std::int64_t li0, std::int64_t lj0, std::int64_t jb, float* yk) override {
    cblas_strsv(CblasColMajor, lower ? CblasLower : CblasUpper, CblasNoTrans, lower ? CblasUnit : CblasNonUnit,
                static_cast<int>(jb), m_.at(li0, lj0), static_cast<int>(m_.lld), yk, 1);
  }
  void set_solved(std::int64_t lj0, std::int64_t jb, const float* yk) override {
    std::copy_n(yk, jb, xl_.data() + lj0);
  }

 private:
  local_matrix& m_;
  const row_sums& sums_;
  std::vector<float> xl_;
};

}  // namespace

result solve_cpu_grid(const options& o) {
  const dist::communicator world = dist::communicator::world();
  check_grid_size(world, o.p, o.q);
  const process_grid g(world, o.p, o.q);
  result r;
  r.n = o.n;
  r.nb = o.nb;
  r.be = backend::cpu;
  r.prec = o.prec;
  stage(o, "generating the matrix (P x Q grid)");
  g.all().barrier();
  stopwatch sw;
  local_matrix m(o.n, std::max(1, o.nb), g);
  const row_sums sums = generate_local(m, o.diag, g);
  const std::vector<double> b = generate_b(o.n);
  r.t_generate = slowest(g, sw);
  stage(o, "LU without pivoting (FP32, P x Q grid)");
  g.all().barrier();
  sw.restart();
  factor(m, g);
  r.t_lu = slowest(g, sw);
  stage(o, "GMRES refinement (FP64)");
  host_part part(m, sums);
  refine_on_grid(r, o, part, g, sums, b);
  return r;
}

}  // namespace gpu500::hpl_mxp::detail
