// gpu500/bellman_ford/dense_graph.hpp — the dense weighted digraph of dense Bellman-Ford
// (Liu et al.) and its generator.
//
// A graph of N vertices is an N x N float32 matrix of edge weights; +infinity means "no edge".
// The matrix is stored with a padded leading dimension ld (a multiple of 32, so rows are 128-byte
// aligned and kernels may read float4); padding entries are +infinity and are never edges.
// Two layouts hold the same graph:
//   by_source: element (r, c) = weight of r -> c   (row j = out-edges of j: the paper's edge[j][v])
//   by_target: element (r, c) = weight of c -> r   (row v = in-edges of v: the transposed matrix
//              that BF_Reduce_Coarse reads one contiguous row of per vertex)
//
// Exactness: distances are float32 and every candidate is ONE float addition dist[j] + w(j, v);
// min is exact, so the minimum does not depend on evaluation order, and float addition is
// monotone, so the Bellman-Ford fixpoint equals what Dijkstra computes with the same additions.
// The generator draws INTEGER weights and checks N * max|w| < 2^24, so every sum is exact.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "gpu500/core/types.hpp"

namespace gpu500::bellman_ford {

inline constexpr float inf = std::numeric_limits<float>::infinity();

enum class layout { by_source, by_target };

struct dense_matrix {
  index_t n = 0;   ///< vertices
  index_t ld = 0;  ///< leading dimension (row pitch in floats), multiple of 32, >= n
  layout lay = layout::by_source;
  std::vector<float> w;  ///< ld * ld floats (padding rows/columns are +inf)

  /// An empty graph (no edges) of n vertices in the given layout.
  static dense_matrix empty(index_t n, layout lay = layout::by_source);
  /// Weight of the edge j -> v (+inf when there is none), whatever the layout.
  [[nodiscard]] float weight(index_t j, index_t v) const {
    return lay == layout::by_source ? w[static_cast<std::size_t>(j * ld + v)]
                                    : w[static_cast<std::size_t>(v * ld + j)];
  }
  void set_weight(index_t j, index_t v, float x) {
    (lay == layout::by_source ? w[static_cast<std::size_t>(j * ld + v)]
                              : w[static_cast<std::size_t>(v * ld + j)]) = x;
  }
  [[nodiscard]] std::size_t bytes() const { return w.size() * sizeof(float); }
};

/// The leading dimension used for n vertices.
index_t padded_ld(index_t n);

/// The same graph in the other layout (parallel blocked transpose).
dense_matrix transpose(const dense_matrix& m);

/// Random graph parameters. Each ordered pair j != v is an edge with probability `density`,
/// with an integer weight uniform in [wmin, wmax]. No self-loops. With `negative`, integer
/// potentials p(v) uniform in [0, wmax] are drawn and every weight becomes w + p(j) - p(v):
/// negative edges appear, but every cycle keeps its (non-negative) weight, so there is no
/// negative cycle, and dist'(v) = dist(v) + p(source) - p(v) (telescoping sum).
/// Every element is a pure function of (seed, j, v): the same graph for any thread count.
struct graph_params {
  index_t n = 1024;
  double density = 0.5;
  int wmin = 1, wmax = 100;
  bool negative = false;
  std::uint64_t seed = 1;
};

/// Throws usage_error on bad parameters (n < 1, density outside [0,1], wmin > wmax, wmin < 0,
/// or weights so large that sums would not be exact in float32); what generate() checks first.
void check_params(const graph_params& params);

/// Draws the graph (layout by_source). When `potentials` is given and params.negative, it
/// receives p(v). Throws as check_params on bad parameters.
dense_matrix generate(const graph_params& params, std::vector<float>* potentials = nullptr);

}  // namespace gpu500::bellman_ford
