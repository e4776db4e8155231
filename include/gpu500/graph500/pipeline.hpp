// gpu500/graph500/pipeline.hpp — what a backend provides to the Graph500 harness.
//
// The harness (graph500/harness.hpp) owns the benchmark's rules: it asks the pipeline to generate
// the edge list (untimed, reported as graph_generation), to run kernel 1 (timed as the reference
// times it), picks the 64 search keys with the reference's stream, runs an untimed validated warm-up
// search, then 64 timed BFS and 64 timed SSSP, validating each, and prints the output block.
// A pipeline keeps its graph and all search buffers between calls; every method except the
// timed ones (bfs, sssp) may be slow. Methods that return seconds measure their own region with the
// device synchronised (the result in the pipeline's memory) before the clock stops.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gpu500/core/error.hpp"
#include "gpu500/core/json.hpp"
#include "gpu500/core/types.hpp"
#include "gpu500/graph/edge_list.hpp"
#include "gpu500/graph/kronecker.hpp"

namespace gpu500::graph500 {

/// Outcome of validating one search (validation is independent of the kernels).
struct validation {
  /// Where `message` names a vertex: its id, written at message[at, at + size).
  struct mention {
    std::size_t at = 0, size = 0;
    std::int64_t vertex = 0;
  };
  bool ok = false;
  std::string message;  ///< the first violated rule, naming the vertex or edge (vertices by id)
  index_t nedge = 0;    ///< the validator's own count of input edges in the component
  std::vector<mention> vertices = {};  ///< every vertex `message` names, in order (other numbers are not)

  /// `message` with each vertex it names written as name(id) (e.g. its label in the file read).
  template <class Name>
  [[nodiscard]] std::string message_naming(Name&& name) const {
    std::string s;
    std::size_t from = 0;
    for (const mention& m : vertices) {
      s.append(message, from, m.at - from);
      s += name(m.vertex);
      from = m.at + m.size;
    }
    s.append(message, from, std::string::npos);
    return s;
  }
};

/// A search's output on the host, in the graph's own vertex ids (host_vectors: an engine's own
/// arrays can be handed over without a copy).
struct search_tree {
  graph::host_vector<std::int64_t> parent;  ///< -1: not reached; parent[root] = root
  graph::host_vector<float> distance;       ///< SSSP only
  graph::host_vector<std::int64_t> level;   ///< BFS: each vertex's level (-1: not reached) where the
                                            ///< backend's engine keeps them (CUDA), else empty
};

class pipeline {
 public:
  virtual ~pipeline() = default;

  /// One line describing the backend, e.g. "cpu, 16 OpenMP threads, 64-bit vertex ids".
  [[nodiscard]] virtual std::string description() const = 0;
  /// Width of the vertex ids of the kernel-1 graph (printed in the output).
  [[nodiscard]] virtual int vertex_bits() const = 0;

  /// Generate the edge list (untimed by Graph500's rules); returns seconds.
  virtual double generate() = 0;
  /// Kernel 1: edge list -> the searchable graph; returns seconds (the reference's construction_time).
  virtual double construct() = 0;
  /// True when v has at least one edge other than a self-loop (used to pick search keys).
  [[nodiscard]] virtual bool has_edges(index_t v) const = 0;

  /// Kernel 2: one timed BFS from root; returns seconds.
  virtual double bfs(index_t root) = 0;
  /// The BFS engine's own nedge for the last search (untimed).
  [[nodiscard]] virtual index_t bfs_nedge() = 0;
  /// Validate the last BFS (untimed); the validator shares no code with the engine.
  virtual validation validate_bfs(index_t root) = 0;

  /// Kernel 3: one timed SSSP from root; returns seconds.
  virtual double sssp(index_t root) = 0;
  [[nodiscard]] virtual index_t sssp_nedge() = 0;
  virtual validation validate_sssp(index_t root) = 0;

  /// The last BFS's / SSSP's output on the host (untimed), to be written out: call it after
  /// nedge and validation, as the CPU pipeline hands its engine's arrays over (no copy) and holds
  /// no result until the next search. A pipeline that cannot return it throws usage_error.
  virtual search_tree bfs_tree() { throw usage_error("this backend does not return its search output"); }
  virtual search_tree sssp_tree() { throw usage_error("this backend does not return its search output"); }

  /// Per-level record of the last searches for --json ({"bfs": [{level, direction, frontier,
  /// compute_seconds, ...}], ...}), or null when the backend keeps none.
  [[nodiscard]] virtual json::value trace() const { return nullptr; }
};

}  // namespace gpu500::graph500
