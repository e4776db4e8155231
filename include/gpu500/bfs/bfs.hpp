// gpu500/bfs/bfs.hpp — breadth-first search (Graph500 kernel 2), one interface for every backend.
//
// An engine is built once per graph (it allocates all its buffers then) and runs many searches:
// run(root) is the timed region (from before the root is visited until the parent array is in the
// engine's memory); parents() and traversed_edges() are untimed. Parents are int64 with -1 for
// unreached vertices and parent[root] == root.
// traversed_edges() is Graph500's nedge: input edges (self-loops excluded, duplicates counted) with
// both ends in the searched component — computed by the engine from its own result; the validator
// recounts it independently.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "gpu500/core/types.hpp"
#include "gpu500/graph/csr.hpp"

namespace gpu500::bfs {

/// Options of the CPU engine (the CUDA engine has its own technique options, see bfs/cuda.hpp).
struct cpu_options {
  int threads = 0;                   ///< 0: OpenMP default
  bool top_down_only = false;  ///< never switch to bottom-up steps (Beamer's direction optimisation off)
  double alpha = 15.0;         ///< switch to bottom-up when frontier arcs > unexplored arcs / alpha
  double beta = 18.0;          ///< back to top-down when frontier < n / beta
};

/// The OpenMP engine: direction-optimising BFS (src/bfs/cpu/bfs_cpu.cpp). Memory held between
/// searches: 8 + 2 * sizeof(V) bytes per vertex (parents, two queues) and three n-bit bitmaps.
template <class V>
class cpu_engine {
 public:
  cpu_engine(graph::csr_view<V> g, cpu_options o = {});
  ~cpu_engine();
  cpu_engine(const cpu_engine&) = delete;
  cpu_engine& operator=(const cpu_engine&) = delete;

  /// Untimed reset of the search state (Graph500's clean_pred); run() calls it when the caller did
  /// not.
  void prepare();
  /// The timed search.
  void run(index_t root);
  /// The last search's parents (n entries).
  [[nodiscard]] std::span<const std::int64_t> parents() const;
  /// Graph500 nedge of the last search.
  [[nodiscard]] index_t traversed_edges() const;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

extern template class cpu_engine<std::uint32_t>;
extern template class cpu_engine<std::int64_t>;

/// Convenience: one search, allocating everything (not for timed loops).
template <class V>
std::vector<std::int64_t> run(graph::csr_view<V> g, index_t root, cpu_options o = {});

}  // namespace gpu500::bfs
