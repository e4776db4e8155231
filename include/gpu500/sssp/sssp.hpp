// gpu500/sssp/sssp.hpp — single-source shortest paths (Graph500 kernel 3), one interface per backend.
//
// Distances are float32 and every distance is a single float addition d(parent) + w(parent, v) of
// the stored float weight, so the Graph500 validator's exact check d(v) == d(parent) + w holds.
// Unreached vertices have parent -1 and distance -1 (the reference's convention in its output);
// parent[root] == root, d(root) == 0. As for BFS, run(root) is the timed region and the engine
// keeps its buffers across searches.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "gpu500/core/types.hpp"
#include "gpu500/graph/csr.hpp"

namespace gpu500::sssp {

/// Options of the CPU engine: delta-stepping (Meyer & Sanders) with OpenMP.
struct cpu_options {
  int threads = 0;           ///< 0: OpenMP default
  /// Bucket width. <= 0 (default): adaptive, mean arc weight / mean degree of the non-isolated
  /// vertices (about 0.01 on Graph500 graphs, 1.5-2x faster there than the reference's 0.1).
  float delta = 0.f;
  bool no_light_heavy = false;  ///< relax every edge in the bucket phase (no light/heavy split)
  bool no_relabel = false;      ///< keep the graph's vertex ids inside (default: by decreasing degree)
};

/// The OpenMP engine: delta-stepping (src/sssp/cpu/sssp_cpu.cpp). Needs non-negative finite
/// weights and fewer than 2^32 vertices (usage_error otherwise). Memory held between searches:
/// 64 + 3 * sizeof(V) bytes per vertex and 8 bytes per arc (the engine's own rows: light arcs
/// first, internal ids by decreasing degree), plus per-thread bucket lists that keep their capacity.
/// Construction (kernel-1 work) needs 12 more bytes per arc (its sort's buckets: the `scratch` of
/// build_csr when given), 16 per vertex and, per thread, 24 bytes per arc of its largest sort
/// block (the radix sort putting a block in head order; blocks hold about 2^15 arcs unless one
/// row is longer) while it runs. Any csr_view, symmetric or not, is handled the same way.
template <class V>
class cpu_engine {
 public:
  /// `scratch` (optional): memory for the construction's sort, e.g. the one build_csr used.
  cpu_engine(graph::csr_view<V> g, cpu_options o = {}, graph::arc_sort_scratch* scratch = nullptr);
  ~cpu_engine();
  cpu_engine(const cpu_engine&) = delete;
  cpu_engine& operator=(const cpu_engine&) = delete;

  /// Untimed reset of the search state (Graph500's clean_shortest); run() calls it when the caller
  /// did not.
  void prepare();
  void run(index_t root);
  [[nodiscard]] std::span<const std::int64_t> parents() const;
  [[nodiscard]] std::span<const float> distances() const;
  [[nodiscard]] index_t traversed_edges() const;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

extern template class cpu_engine<std::uint32_t>;
extern template class cpu_engine<std::int64_t>;

}  // namespace gpu500::sssp
