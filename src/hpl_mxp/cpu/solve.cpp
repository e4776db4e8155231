// The CPU backend of HPL-MxP, one solver for every P x Q grid of processes (mpi/grid.hpp), the
// 1 x 1 grid included: there the grid is the process alone (a one-rank communicator, no MPI),
// every broadcast and sum over the grid is a no-op and nothing is copied. Each process holds its
// part of the FP32 matrix in HPL's 2-D block-cyclic layout (cpu/matrix.hpp), generates it in
// place (cpu/matgen.cpp), factors it without pivoting over the grid (cpu/lu.cpp), and the grid's
// flexible GMRES (grid_space.hpp) refines in FP64 over this process's part: A v regenerated from
// the LCG, the preconditioner's triangular solves block by block with OpenBLAS.
#include <cblas.h>

#include <algorithm>

#include "../backend.hpp"
#include "../grid_space.hpp"
#include "cpu/lu.hpp"
#include "gpu500/core/timer.hpp"

namespace gpu500::hpl_mxp::detail {

namespace {

// This process's part for the grid's GMRES (grid_space.hpp): the host matrix and OpenBLAS.
class host_part final : public grid_part {
 public:
  host_part(const local_matrix& m, const row_sums& sums)
      : m_(m), sums_(sums), acc_(static_cast<std::size_t>(m.mp)), xl_(static_cast<std::size_t>(m.nq)) {}
  void add_product(const double* v, double* full) override {
    local_product(m_, sums_.diag, v, acc_.data());
    for (std::int64_t li = 0; li < m_.mp; ++li) full[m_.grow[li]] += acc_[li];
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
  const local_matrix& m_;
  const row_sums& sums_;
  std::vector<double> acc_;
  std::vector<float> xl_;
};

}  // namespace

result solve_cpu(const options& o) {
  const bool alone = static_cast<long>(o.p) * o.q == 1;
  // The 1 x 1 grid is this process alone, even in a run of several (each solves on its own).
  const dist::communicator world = alone ? dist::communicator() : dist::communicator::world();
  check_grid_size(world, o.p, o.q);
  const process_grid g(world, o.p, o.q);
  result r;
  r.n = o.n;
  r.nb = o.nb;
  r.be = backend::cpu;
  r.prec = o.prec;
  stage(o, alone ? "generating the matrix" : "generating the matrix (P x Q grid)");
  g.all().barrier();
  stopwatch sw;
  local_matrix m(o.n, std::max(1, o.nb), g.myrow(), g.mycol(), g.p(), g.q());
  const row_sums sums = generate_local(m, o.diag, g);
  const std::vector<double> b = generate_b(o.n);
  r.t_generate = slowest(g, sw);
  stage(o, alone ? "LU without pivoting (FP32)" : "LU without pivoting (FP32, P x Q grid)");
  g.all().barrier();
  sw.restart();
  factor_local(m, g);
  r.t_lu = slowest(g, sw);
  stage(o, "GMRES refinement (FP64)");
  host_part part(m, sums);
  refine_on_grid(r, o, part, g, sums, b);
  return r;
}

}  // namespace gpu500::hpl_mxp::detail
