// gpu500/graph500/searches.hpp — one kernel (BFS or SSSP) on a given graph, the way the Graph500
// benchmark runs it: kernel 1 on the pipeline, search keys (given, or distinct random vertices
// with edges), an untimed warm-up search, then each search timed, counted (nedge) and validated;
// TEPS summarised by the harmonic mean. The `gpu500 bfs` and `gpu500 sssp` commands run it on a
// graph read from a file.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "gpu500/core/json.hpp"
#include "gpu500/graph500/pipeline.hpp"

namespace gpu500::graph500 {

struct search_config {
  bool sssp = false;         ///< kernel 3 (else kernel 2)
  std::int64_t root = -1;    ///< >= 0: search from this vertex only
  int num_roots = 16;        ///< otherwise: up to this many distinct random vertices with edges
  std::uint64_t seed = 1;    ///< seed of the random roots
  bool validate = true;
  std::string graph_name;    ///< reported in the output (e.g. the file name)
  bool keep_tree = false;    ///< return the output of the first search (search_report::tree)
  /// Vertex names (vertex i is labels[i]; empty: none): each per-root line names its root, and a
  /// failed validation's message the vertices it names, by label (graph::label_text); the JSON
  /// record gives the root as "root_label" beside the id.
  std::vector<std::string> labels;
  bool directed = false;     ///< the searches follow arcs (reported in the output and the JSON)
};

struct search_report {
  bool valid = true;  ///< every search validated (true when validation is off)
  json::value json;   ///< every figure
  std::int64_t tree_root = -1;  ///< with keep_tree: the root of the first search
  search_tree tree;             ///< with keep_tree: its output
};

/// Runs kernel 1 and the searches on a pipeline over a graph of n vertices; prints one line per
/// search and the harmonic mean on `out`, and the backend and kernel-1 time on `log`.
search_report run_searches(pipeline& p, index_t n, const search_config& c, std::FILE* out, std::FILE* log);

}  // namespace gpu500::graph500
