// gpu500/hpl/report.hpp — the HPL.out layout of netlib HPL 2.3 (HPL_pdinfo / HPL_pdtest /
// HPL_pddriver): banner and parameter echo, one result block per test, the final summary.
#pragma once

#include <cstdio>
#include <vector>

#include "gpu500/hpl/dat.hpp"
#include "gpu500/hpl/pdgesv.hpp"

namespace gpu500::hpl {

/// Banner, explanation, "The following parameter values will be used" and the residual preamble.
void print_header(std::FILE* out, const dat_file& d);
/// One test: the T/V table header (when `table_header`), the result row, start/end times and,
/// when checked, the residual block.
void print_result(std::FILE* out, const test_result& r, bool table_header);
/// "Finished ... tests" summary and "End of Tests.".
void print_summary(std::FILE* out, const std::vector<test_result>& results, double threshold);

}  // namespace gpu500::hpl
