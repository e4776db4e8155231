// gpu500/graph/shapes.hpp — graphs that are not Kronecker: the high-diameter shapes of road
// networks, meshes and other near-planar graphs, whose searches run thousands of levels with
// small frontiers (the opposite of Graph500's handful of huge ones).
//  - grid: the 2-D or 3-D lattice (each vertex joined to its neighbour along every axis; 1-D is a
//    path), ids in row-major order (x fastest), so the rows of a CSR have the locality of a mesh;
//  - geometric: a random geometric graph, n points uniform in the unit square joined when closer
//    than r, with r chosen for a mean degree (Penrose, "Random Geometric Graphs"); ids follow the
//    cells of side >= r row by row, so near points have near ids, as in a road network's file.
// Each edge once (u < v), no self-loop, no duplicate; weights (when asked) uniform in [0, 1), from
// a counter-based hash of the seed and the edge's place, so the same parameters give the same
// file on any machine and thread count.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gpu500/graph/edge_list.hpp"

namespace gpu500::graph {

struct shape_params {
  enum class kind { grid, geometric };
  kind shape = kind::grid;
  std::vector<index_t> extents;  ///< grid: 1 to 3 extents (vertices per axis); geometric: {n}
  double mean_degree = 6.0;      ///< geometric: the mean degree r is chosen for
  std::uint64_t seed = 1;        ///< points and weights
  bool weights = true;

  /// "grid:1024x1024", "grid:100x100x100", "grid:1000000" (a path), "geometric:1000000" or
  /// "geometric:1000000:8" (mean degree 8). usage_error names what is wrong.
  static shape_params parse(const std::string& spec);
  /// usage_error unless the extents, vertex count (below 2^40) and degree are usable.
  void check() const;
  [[nodiscard]] index_t num_vertices() const;
  /// The spec it parses from ("grid:1024x1024", "geometric:1000000:6").
  [[nodiscard]] std::string name() const;
};

/// The edges of the shape (checked first: host memory included).
edge_list generate_shape(const shape_params& p);

/// A geometric graph's points in id order (its cells row by row, within a cell in generation
/// order): x[v], y[v] in [0, 1).
struct plane_points {
  std::vector<double> x, y;
};
[[nodiscard]] plane_points geometric_points(const shape_params& p);

/// The radius a geometric graph of n points uses for the mean degree d: sqrt(d / (pi n)), the
/// degree of a point away from the square's border.
[[nodiscard]] double geometric_radius(index_t n, double mean_degree);

}  // namespace gpu500::graph
