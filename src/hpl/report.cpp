// The HPL.out layout, line for line as netlib HPL 2.3 prints it (checked against
// tests/data/hpl/reference_output_N6000_1x2.txt by the tests) under gpu500's own two-line title.
#include "gpu500/hpl/report.hpp"

#include <string>

#include "gpu500/config.hpp"

namespace gpu500::hpl {
namespace {

const char* const eq80 = "================================================================================";
const char* const dash80 = "--------------------------------------------------------------------------------";

// "LABEL  :" followed by the values, 8 per line, continuation lines indented by 8 spaces.
template <class T, class F>
void list(std::FILE* out, const char* label, const std::vector<T>& v, F fmt) {
  std::fprintf(out, "%s", label);
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i > 0 && i % 8 == 0) std::fprintf(out, "\n        ");
    else if (i > 0) std::fprintf(out, " ");
    std::fprintf(out, "%s", fmt(v[i]).c_str());
  }
  std::fprintf(out, "\n");
}
std::string d8(std::int64_t x) {
  char b[32];
  std::snprintf(b, sizeof b, "%8lld", static_cast<long long>(x));
  return b;
}
std::string fact_name(fact f) { return f == fact::left ? "    Left" : f == fact::crout ? "   Crout" : "   Right"; }
std::string bcast_name(bcast b) {
  static const char* n[] = {"   1ring", "  1ringM", "   2ring", "  2ringM", "   Blong", "  BlongM"};
  return n[static_cast<int>(b)];
}

}  // namespace

void print_header(std::FILE* out, const dat_file& d) {
  std::fprintf(out, "%s\n", eq80);
  // gpu500's own header; what follows keeps netlib HPL 2.3's HPL.out layout, which tools parse.
  std::fprintf(out, "gpu500 %s hpl  --  High-Performance Linpack benchmark  --  BLAS: %s\n", GPU500_VERSION, GPU500_BLAS);
  std::fprintf(out, "The layout of this output follows netlib HPL 2.3's HPL.out (Innovative Computing Laboratory, UTK)\n");
  std::fprintf(out, "%s\n\n", eq80);
  std::fprintf(out, "An explanation of the input/output parameters follows:\n");
  std::fprintf(out, "T/V    : Wall time / encoded variant.\n");
  std::fprintf(out, "N      : The order of the coefficient matrix A.\n");
  std::fprintf(out, "NB     : The partitioning blocking factor.\n");
  std::fprintf(out, "P      : The number of process rows.\n");
  std::fprintf(out, "Q      : The number of process columns.\n");
  std::fprintf(out, "Time   : Time in seconds to solve the linear system.\n");
  std::fprintf(out, "Gflops : Rate of execution for solving the linear system.\n\n");
  std::fprintf(out, "The following parameter values will be used:\n\n");
  list(out, "N      :", d.ns, [](std::int64_t x) { return d8(x); });
  list(out, "NB     :", d.nbs, [](int x) { return d8(x); });
  std::fprintf(out, "PMAP   : %s\n", d.pmap_col_major ? "Column-major process mapping" : "Row-major process mapping");
  list(out, "P      :", d.ps, [](int x) { return d8(x); });
  list(out, "Q      :", d.qs, [](int x) { return d8(x); });
  list(out, "PFACT  :", d.pfacts, fact_name);
  list(out, "NBMIN  :", d.nbmins, [](int x) { return d8(x); });
  list(out, "NDIV   :", d.ndivs, [](int x) { return d8(x); });
  list(out, "RFACT  :", d.rfacts, fact_name);
  list(out, "BCAST  :", d.bcasts, bcast_name);
  list(out, "DEPTH  :", d.depths, [](int x) { return d8(x); });
  if (d.swp == swap::bin_exch) std::fprintf(out, "SWAP   : Binary-exchange\n");
  else if (d.swp == swap::longs) std::fprintf(out, "SWAP   : Spread-roll (long)\n");
  else std::fprintf(out, "SWAP   : Mix (threshold = %d)\n", d.swap_threshold);
  std::fprintf(out, "L1     : %s form\n", d.l1_notrans ? "no-transposed" : "transposed");
  std::fprintf(out, "U      : %s form\n", d.u_notrans ? "no-transposed" : "transposed");
  if (d.swp != swap::bin_exch) std::fprintf(out, "EQUIL  : %s\n", d.equil ? "yes" : "no");
  std::fprintf(out, "ALIGN  : %d double precision words\n\n", d.align);
  std::fprintf(out, "%s\n\n", dash80);
  std::fprintf(out, "- The matrix A is randomly generated for each test.\n");
  std::fprintf(out, "- The following scaled residual check will be computed:\n");
  std::fprintf(out, "      ||Ax-b||_oo / ( eps * ( || x ||_oo * || A ||_oo + || b ||_oo ) * N )\n");
  std::fprintf(out, "- The relative machine precision (eps) is taken to be %26e\n", 1.1102230246251565e-16);
  std::fprintf(out, "- Computational tests pass if scaled residuals are less than %19.1f\n", d.threshold);
  std::fflush(out);
}

void print_result(std::FILE* out, const test_result& r, bool table_header) {
  if (table_header) {
    std::fprintf(out, "\n%s\n", eq80);
    std::fprintf(out, "T/V                N    NB     P     Q               Time                 Gflops\n");
    std::fprintf(out, "%s\n", dash80);
  }
  std::fprintf(out, "%s%12lld %5d %5d %5d %18.2f    %19.4e\n", tv_code(r.prm).c_str(),
               static_cast<long long>(r.prm.n), r.prm.nb, r.prm.p, r.prm.q, r.time, r.gflops);
  std::fprintf(out, "HPL_pdgesv() start time %s\n", r.start_time.c_str());
  std::fprintf(out, "HPL_pdgesv() end time   %s\n", r.end_time.c_str());
  if (r.checked) {
    std::fprintf(out, "%s\n", dash80);
    std::fprintf(out, "%s%16.8e%s%s\n", "||Ax-b||_oo/(eps*(||A||_oo*||x||_oo+||b||_oo)*N)= ", r.resid, " ...... ",
                 r.passed ? "PASSED" : "FAILED");
    if (!r.passed) {
      std::fprintf(out, "%s%18.6f\n", "||Ax-b||_oo  . . . . . . . . . . . . . . . . . = ", r.norm_r);
      std::fprintf(out, "%s%18.6f\n", "||A||_oo . . . . . . . . . . . . . . . . . . . = ", r.norm_a_inf);
      std::fprintf(out, "%s%18.6f\n", "||A||_1  . . . . . . . . . . . . . . . . . . . = ", r.norm_a_1);
      std::fprintf(out, "%s%18.6f\n", "||x||_oo . . . . . . . . . . . . . . . . . . . = ", r.norm_x_inf);
      std::fprintf(out, "%s%18.6f\n", "||x||_1  . . . . . . . . . . . . . . . . . . . = ", r.norm_x_1);
      std::fprintf(out, "%s%18.6f\n", "||b||_oo . . . . . . . . . . . . . . . . . . . = ", r.norm_b);
    }
    std::fprintf(out, "%s\n", eq80);
  }
  std::fflush(out);
}

void print_summary(std::FILE* out, const std::vector<test_result>& results, double threshold) {
  int total = 0, passed = 0, failed = 0, skipped = 0;
  for (const auto& r : results) {
    if (r.skipped) { ++skipped; continue; }
    ++total;
    if (r.checked) (r.passed ? passed : failed)++;
  }
  if (threshold <= 0) std::fprintf(out, "%s\n", eq80);  // results were not closed by a residual block
  std::fprintf(out, "\nFinished %6d tests with the following results:\n", total);
  if (threshold > 0) {
    std::fprintf(out, "         %6d tests completed and passed residual checks,\n", passed);
    std::fprintf(out, "         %6d tests completed and failed residual checks,\n", failed);
  } else {
    std::fprintf(out, "         %6d tests completed without checking,\n", total);
  }
  std::fprintf(out, "         %6d tests skipped because of illegal input values.\n", skipped);
  std::fprintf(out, "%s\n", dash80);
  std::fprintf(out, "\nEnd of Tests.\n");
  std::fprintf(out, "%s\n", eq80);
  std::fflush(out);
}

}  // namespace gpu500::hpl
