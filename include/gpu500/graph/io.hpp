// gpu500/graph/io.hpp — reading graphs from files.
//
// Text edge lists: one edge per line, "u v" or "u v w" (every line alike), vertex ids are
// integers in [0, 2^48), weights finite non-negative floats (subnormals included); '#' and '%'
// start comments; blank lines are skipped. The vertex count is the largest id + 1 unless given.
// Any malformed line, out-of-range id, bad weight, NUL byte, or a file that looks like something
// else (gzip, Matrix Market) is a usage_error naming the file and the line; a vertex count whose
// graph cannot fit in host memory is a resource_error naming the bytes.
#pragma once

#include <string>

#include "gpu500/graph/edge_list.hpp"

namespace gpu500::graph {

/// The largest vertex count a graph file may give or imply (2^48): a larger id is bad input.
inline constexpr index_t max_vertices = index_t{1} << 48;

/// Host bytes a graph needs per vertex, at least: CSR offsets and the searches' and validators'
/// per-vertex arrays (parents, levels or distances, marks, frontiers).
inline constexpr index_t graph_bytes_per_vertex = 64;

/// num_vertices < 0: derived from the largest id.
edge_list read_edge_list(const std::string& path, index_t num_vertices = -1);

/// Throws resource_error (naming `what`, the vertices and the bytes) when a graph of num_vertices
/// vertices cannot fit in the host's available memory.
void check_graph_fits(index_t num_vertices, const std::string& what);

}  // namespace gpu500::graph
