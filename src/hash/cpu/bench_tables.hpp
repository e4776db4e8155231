// src/hash/cpu/bench_tables.hpp — inside the hash benchmark: the list of tables a run takes
// (bench_tables.cpp), shared by the static and mixed runners of bench.cpp.
#pragma once

#include <string>
#include <vector>

#include "gpu500/core/types.hpp"

namespace gpu500::hash {

/// The tables to run: `asked`, or every table of the backend (the CPU table too when with_cpu).
/// Names must be named tables (or, with `variants`, any GLHT variant of parse_glht_variant);
/// usage_error names the known ones.
std::vector<std::string> tables_for(const std::vector<std::string>& asked, backend where, bool with_cpu, bool variants);

}  // namespace gpu500::hash
