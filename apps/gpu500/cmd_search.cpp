// gpu500 bfs / gpu500 sssp: one kernel on a graph read from a file (edge list, Matrix Market or
// binary CSR, plain or gzip; docs/graph-files.md), through the same pipelines, engines and
// validators as the Graph500 benchmark (graph500::run_searches); --directed follows the file's arcs
// instead of both directions of every edge; --output writes one search's tree (with --labels, the
// per-root lines, a failed validation's message, the JSON record and --output name vertices by
// the file's labels).
#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>

#include "command.hpp"
#include "gpu500/core/atomic_file.hpp"
#include "gpu500/core/cli.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/core/timer.hpp"
#include "gpu500/graph/io.hpp"
#include "gpu500/graph500/searches.hpp"
#include "pipeline_flags.hpp"

namespace {

// Whether vertex v has an edge to another vertex (a self-loop alone leaves it isolated); directed:
// an arc out of v.
bool has_neighbour(const gpu500::graph::edge_list& el, std::int64_t v, bool directed) {
  const std::int64_t m = el.size();
  bool found = false;
#pragma omp parallel for reduction(|| : found) schedule(static)
  for (std::int64_t e = 0; e < m; ++e)
    found = found || (directed ? el.src[e] == v && el.dst[e] != v : (el.src[e] == v) != (el.dst[e] == v));
  return found;
}

int run_search(const gpu500::app::args_t& args, bool sssp) {
  using namespace gpu500;
  const char* name = sssp ? "gpu500 sssp" : "gpu500 bfs";
  graph500::search_config c;
  c.sssp = sssp;
  std::string json_path, output_path;
  graph::read_options ro;
  std::int64_t num_vertices = -1, seed = 1;
  bool no_validate = false, unit_weights = false, directed = false;
  std::string root_s;
  app::pipeline_flags flags;
  cli::parser p(name, std::string(sssp ? "Single-source shortest paths" : "Breadth-first search") +
                          " on a graph file (edge list \"u v [w]\", Matrix Market, or gpu500's binary CSR;\n"
                          "gzip too), each search validated as Graph500 validates; per-root time and TEPS,\n"
                          "harmonic mean last. Every edge is undirected unless --directed (docs/graph-files.md).");
  p.option("--graph", c.graph_name, "the graph file (required)");
  p.option("--format", [&ro](const std::string& v) { ro.format = graph::parse_file_format(v, "--format"); },
           "auto|snap|mtx|bin: the graph file's format (default auto: from its content)", "S");
  p.option("--vertices", num_vertices, "vertex count of an edge list (default: largest id + 1)");
  p.flag("--labels", ro.labels, "an edge list's vertex names are labels (strings, sparse ids), numbered in order of appearance");
  p.flag("--header", ro.header, "an edge list's first line (not a comment) names the columns: skipped");
  p.flag("--directed", directed,
         "each edge \"u v\" is the arc u -> v: the searches follow arcs (top-down only; a symmetric file stays undirected)");
  if (sssp) p.flag("--unit-weights", unit_weights, "every edge weighs 1 (a weight column is ignored)");
  p.option("--root", [&root_s](const std::string& v) { root_s = v; }, "search from this vertex only (with --labels: its name)",
           "N");
  p.option("--roots", c.num_roots, "otherwise: up to this many distinct random vertices with edges (default 16)");
  p.option("--seed", seed, "seed of the random roots (default 1)");
  p.flag("--no-validate", no_validate, "skip validation");
  p.output_file("--json", json_path, "write every figure to this JSON file");
  p.output_file("--output", output_path,
                "write the search from --root (or the first root) to this file, a line \"vertex parent level\" (bfs) "
                "or \"vertex parent distance\" (sssp) per vertex (default none)");
  flags.add(p, !sssp, sssp);  // only the chosen kernel's engine flags
  p.parse(args);
  if (p.help_requested()) {
    std::fputs(p.help().c_str(), stdout);
    return 0;
  }
  if (c.graph_name.empty()) throw usage_error(std::string(name) + ": --graph FILE is required");
  atomic_file::check_distinct({{"--graph", c.graph_name}}, {{"--json", json_path}, {"--output", output_path}});
  if (p.given("--root") && !ro.labels) c.root = cli::parse_int(root_s, "--root");
  if (p.given("--root") && !ro.labels && c.root < 0) throw usage_error("--root must be a vertex id >= 0");
  if (p.given("--root") && ro.labels && root_s.empty()) throw usage_error("--root: an empty vertex name");
  if (p.given("--vertices") && (num_vertices < 1 || num_vertices > graph::max_vertices))
    throw usage_error("--vertices must be in 1..2^48");
  if (num_vertices > 0) graph::check_graph_fits(num_vertices, "--vertices");
  if (num_vertices > 0 && c.root >= num_vertices)
    throw usage_error("--root " + std::to_string(c.root) + " is not a vertex (--vertices " + std::to_string(num_vertices) + ")");
  if (c.root < 0 && (c.num_roots < 1 || c.num_roots > 1 << 20)) throw usage_error("--roots must be in 1..1048576");
  c.seed = static_cast<std::uint64_t>(seed);
  c.validate = !no_validate;
  c.keep_tree = !output_path.empty();

  ro.num_vertices = num_vertices;
  ro.weights = sssp && !unit_weights;
  const stopwatch read_time;
  graph::graph_file file = graph::read_graph(c.graph_name, ro);
  std::string root_note;
  // A file of undirected edges (Matrix Market symmetric, a binary CSR without the directed flag)
  // holds both arcs of each edge: following its arcs is the undirected search.
  c.directed = directed && file.directed;
  char read_line[512];  // printed once every check has passed: an error is one line alone
  std::snprintf(read_line, sizeof read_line, "%s: %s read in %.3g s (%s%s, %s): %lld vertices, %lld %s%s\n", name,
                c.graph_name.c_str(), read_time.seconds(), graph::format_name(file.format), file.gzip ? ", gzip" : "",
                file.directed ? "general" : "symmetric", static_cast<long long>(file.edges.num_vertices),
                static_cast<long long>(file.edges.size()), c.directed ? "arcs, searched directed" : "edges",
                directed && !c.directed ? " (the file states undirected edges: searched undirected)" : "");
  graph::edge_list el = std::move(file.edges);
  if (sssp && unit_weights) el.weight.assign(el.src.size(), 1.0f);
  if (sssp && !el.weighted())
    throw usage_error(c.graph_name + ": SSSP needs weights (a third column; in Matrix Market, an integer or real field; "
                      "or --unit-weights)");
  if (p.given("--root") && ro.labels) {
    const auto at = std::find(file.labels.begin(), file.labels.end(), root_s);
    if (at == file.labels.end()) throw usage_error("--root '" + root_s + "' is not a vertex name of " + c.graph_name);
    c.root = at - file.labels.begin();
  }
  graph::check_searchable(el, c.graph_name, sssp);
  const index_t n = el.num_vertices;
  if (c.root >= n)
    throw usage_error("--root " + std::to_string(c.root) + " is not a vertex (the graph has " + std::to_string(n) + ")");
  // A root with no edge is searched alone: one vertex reached, 0 edges, "0 TEPS". Say why, and
  // name the usual cause (a file numbered from 1 has no vertex 0).
  if (c.root >= 0 && !has_neighbour(el, c.root, c.directed))
    root_note = std::string(name) + ": root " + (ro.labels ? graph::label_text(root_s) : std::to_string(c.root)) +
                (c.directed ? " has no arc out of it" : " has no edges (an isolated vertex)") +
                ": its search reaches it alone, 0 edges, 0 TEPS" +
                (c.root == 0 && !ro.labels ? "; a file whose vertices are numbered from 1 has no vertex 0 (try --root 1)"
                                           : "") +
                "\n";
  flags.set_bfs_runs(!sssp);
  flags.set_sssp_runs(sssp);
  flags.set_directed(c.directed);
  c.labels = file.labels;
  const std::unique_ptr<graph500::pipeline> pipe = flags.make(std::move(el));
  std::fputs(read_line, stderr);
  if (ro.labels)
    std::fprintf(stderr, "%s: vertex names are labels: ids 0..%lld in order of first appearance (the output names them)\n",
                 name, static_cast<long long>(n - 1));
  std::fputs(root_note.c_str(), stderr);
  const graph500::search_report r = graph500::run_searches(*pipe, n, c, stdout, stderr);
  if (!json_path.empty()) json::write_file(json_path, r.json);
  // A tree that failed validation is not written: a file at --output is always a valid search.
  if (!output_path.empty() && r.valid)
    graph::write_search_result(output_path, r.tree_root, r.tree.parent, r.tree.distance, file.labels, r.tree.level);
  if (!output_path.empty() && !r.valid) std::fprintf(stderr, "%s: %s not written: a search failed validation\n", name, output_path.c_str());
  return r.valid ? 0 : 1;
}

}  // namespace

GPU500_COMMAND(bfs, "Breadth-first search on a graph file, validated") { return run_search(args, false); }
GPU500_COMMAND(sssp, "Single-source shortest paths on a graph file, validated") { return run_search(args, true); }
