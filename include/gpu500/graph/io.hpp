// gpu500/graph/io.hpp — reading graphs from files.
//
// Text edge lists: one edge per line, "u v" or "u v w" (every line alike), vertex ids are
// non-negative integers, weights finite non-negative floats; '#' and '%' start comments; blank
// lines are skipped. The vertex count is the largest id + 1 unless given. Any malformed line,
// negative or out-of-range id, or bad weight is a usage_error naming the file and the line.
#pragma once

#include <string>

#include "gpu500/graph/edge_list.hpp"

namespace gpu500::graph {

/// num_vertices < 0: derived from the largest id.
edge_list read_edge_list(const std::string& path, index_t num_vertices = -1);

}  // namespace gpu500::graph
