// HPL's matrix generator on the host: each process generates only its own blocks of [A|b].
// Per local column, one jump to the first local row; then nb consecutive draws per row block and
// a jump over the (P-1) nb rows owned by the other process rows.
#include "gpu500/hpl/matgen.hpp"

#include "gpu500/hpl/grid.hpp"

namespace gpu500::hpl {

void generate_local(std::int64_t n, int nb, int p, int q, int myrow, int mycol, double* a, std::int64_t lda) {
  const std::int64_t mp = numroc(n, nb, myrow, p);
  const std::int64_t nq = numroc(n + 1, nb, mycol, q);
  if (mp == 0 || nq == 0) return;
  const lcg_jump skip = lcg_jump_by(static_cast<std::uint64_t>(p - 1) * nb);
#pragma omp parallel for schedule(static)
  for (std::int64_t jl = 0; jl < nq; ++jl) {
    const std::int64_t jg = global_of(jl, nb, mycol, q);
    const std::int64_t ig0 = global_of(0, nb, myrow, p);
    std::uint64_t x = lcg_state(1 + static_cast<std::uint64_t>(ig0) + static_cast<std::uint64_t>(jg) * n);
    double* col = a + jl * lda;
    for (std::int64_t il = 0; il < mp;) {
      const std::int64_t len = std::min<std::int64_t>(nb, mp - il);
      for (std::int64_t t = 0; t < len; ++t) {
        col[il + t] = lcg_value(x);
        x = lcg_a * x + lcg_c;
      }
      il += len;
      // x is now the state of the row just after this block; skip the other process rows' blocks.
      x = skip.apply(x);
    }
  }
}

std::vector<double> generate_global(std::int64_t n) {
  std::vector<double> a(static_cast<std::size_t>(n) * (n + 1));
  if (n > 0) generate_local(n, static_cast<int>(std::min<std::int64_t>(n, 1 << 30)), 1, 1, 0, 0, a.data(), n);
  return a;
}

}  // namespace gpu500::hpl
