// One kernel on a given graph, searched and validated as Graph500 does (see
// gpu500/graph500/searches.hpp).
#include "gpu500/graph500/searches.hpp"

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "gpu500/core/error.hpp"
#include "gpu500/core/stats.hpp"
#include "gpu500/graph/io.hpp"

namespace gpu500::graph500 {

namespace {

/// The search keys: the given root, or up to c.num_roots distinct random vertices with edges.
std::vector<std::int64_t> pick_keys(const pipeline& p, index_t n, const search_config& c) {
  std::vector<std::int64_t> keys;
  if (c.root >= 0) {
    keys.push_back(c.root);
    return keys;
  }
  std::mt19937_64 rng(c.seed);
  for (index_t tries = 0; tries < 64 * n && static_cast<int>(keys.size()) < c.num_roots; ++tries) {
    const auto v = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(n));
    if (p.has_edges(v) && std::find(keys.begin(), keys.end(), v) == keys.end()) keys.push_back(v);
  }
  if (keys.empty()) throw usage_error(c.graph_name + ": no vertex has an edge");
  return keys;
}

/// Vertex v as the output names it: by its label (graph::label_text) when the graph has labels,
/// else (or when v is no vertex) by its id.
std::string vertex_name(const search_config& c, std::int64_t v) {
  if (c.labels.empty() || v < 0 || v >= static_cast<std::int64_t>(c.labels.size())) return std::to_string(v);
  return graph::label_text(c.labels[static_cast<std::size_t>(v)]);
}

}  // namespace

search_report run_searches(pipeline& p, index_t n, const search_config& c, std::FILE* out, std::FILE* log) {
  p.generate();
  const double k1 = p.construct();
  const std::vector<std::int64_t> keys = pick_keys(p, n, c);
  const char* name = c.sssp ? "gpu500 sssp" : "gpu500 bfs";
  std::fprintf(log, "%s: %s, %lld vertices, kernel 1 %g s\n", name, p.description().c_str(),
               static_cast<long long>(n), k1);
  std::vector<double> times, edges;
  search_report rep;
  json::value& j = rep.json;
  j["graph"] = c.graph_name;
  j["backend"] = p.description();
  j["kernel"] = c.sssp ? "sssp" : "bfs";
  j["directed"] = c.directed;
  j["construction_time"] = k1;
  // An untimed warm-up search (thread pools, caches, lazy device state), as Graph500 3.0 does.
  c.sssp ? p.sssp(keys.front()) : p.bfs(keys.front());
  for (std::int64_t r : keys) {
    const double t = c.sssp ? p.sssp(r) : p.bfs(r);
    const index_t ne = c.sssp ? p.sssp_nedge() : p.bfs_nedge();
    std::string verdict = "not validated";
    if (c.validate) {
      const validation v = c.sssp ? p.validate_sssp(r) : p.validate_bfs(r);
      // The vertices of a failure's message named as the root is (by label when there are labels).
      verdict = v.ok ? "valid" : "INVALID: " + v.message_naming([&](std::int64_t x) { return vertex_name(c, x); });
      rep.valid = rep.valid && v.ok;
    }
    if (c.keep_tree && rep.tree_root < 0) {
      rep.tree_root = r;
      rep.tree = c.sssp ? p.sssp_tree() : p.bfs_tree();
    }
    const std::string name = vertex_name(c, r);
    std::fprintf(out, "root %s: %.6g s, %lld edges, %.4g TEPS, %s\n", name.c_str(), t, static_cast<long long>(ne),
                 ne > 0 ? ne / t : 0.0, verdict.c_str());
    json::value row;
    row["root"] = r;
    if (!c.labels.empty()) row["root_label"] = c.labels[static_cast<std::size_t>(r)];
    row["time"] = t;
    row["nedge"] = ne;
    row["valid"] = verdict == "valid";
    j["searches"].push_back(row);
    if (ne > 0) {
      times.push_back(t);
      edges.push_back(static_cast<double>(ne));
    }
  }
  const double hm = times.empty() ? 0.0 : summarize_teps(times, edges).harmonic_mean;
  std::fprintf(out, "harmonic_mean_TEPS: %g (%zu searches%s)\n", hm, keys.size(),
               !c.validate ? ", not validated" : rep.valid ? ", all valid" : ", SOME INVALID");
  j["harmonic_mean_TEPS"] = hm;
  j["valid"] = rep.valid;
  return rep;
}

}  // namespace gpu500::graph500
