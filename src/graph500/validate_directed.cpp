// The validator of searches on a directed graph (graph500/validate.hpp, validate_bfs_directed and
// validate_sssp_directed): one process, OpenMP, over the rows of build_csr_directed (a vertex's
// out-arcs). It shares no code with the engines, nor with the undirected validator, whose rules
// (an edge joins two reached vertices or two unreached ones; |d(u) - d(v)| <= w) do not hold for
// arcs: a vertex reached from the root may have arcs from vertices the root never reaches.
//
// Rules, checked in this order (the first violated one is reported, at its smallest vertex id):
//  1. every parent is -1 or a vertex; the root is its own parent (SSSP: at distance 0; every
//     reached vertex has a finite distance >= 0);
//  2. the parents form a tree rooted at the root: from every reached vertex the parent chain
//     reaches the root through reached vertices, without a cycle (BFS: the level of a vertex is
//     its depth in that tree);
//  3. every arc u -> v out of a reached u: v is reached, and d(v) <= d(u) + w (w = 1 for BFS; the
//     float weight and float arithmetic for SSSP) — nothing reachable is left unreached, and no
//     vertex is farther than an arc into it allows;
//  4. every reached vertex but the root is confirmed by an arc parent -> v with d(v) == d(parent)
//     + w exactly: the parent is a real in-arc at the right level or distance (with rule 2, every
//     reached vertex is reachable from the root, so unreachable vertices stay unreached);
//  5. nedge, the arcs out of reached vertices (self-loops excluded: kernel 1 holds none; duplicates
//     counted), equals the kernel's count.
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "gpu500/graph500/validate.hpp"
#include "validate_text.hpp"

namespace gpu500::graph500 {

namespace {

constexpr index_t none = std::numeric_limits<index_t>::max();

std::string str(index_t v) { return std::to_string(v); }
using detail::vertex_text;

// Rules 1 and 2 for BFS and SSSP alike: the tree's depth of every vertex (-1: unreached), or a
// message. A walk up a parent chain marks what it visits; a chain that meets its own walk again is
// a cycle, one that meets a finished vertex takes its depth.
std::string tree_depths(index_t n, index_t root, const std::int64_t* parent, std::vector<index_t>& depth) {
  for (index_t v = 0; v < n; ++v)
    if (parent[v] < -1 || parent[v] >= n) return "vertex " + vertex_text(v) + " has parent " + str(parent[v]) + " out of range";
  if (parent[root] != root) return "the root " + vertex_text(root) + " is not its own parent (" +
                                    (parent[root] >= 0 ? vertex_text(parent[root]) : str(parent[root])) + ")";
  constexpr index_t unknown = -2, walking = -3;
  depth.assign(static_cast<std::size_t>(n), unknown);
  depth[static_cast<std::size_t>(root)] = 0;
  std::vector<index_t> path;
  for (index_t v = 0; v < n; ++v) {
    if (depth[static_cast<std::size_t>(v)] != unknown) continue;
    if (parent[v] < 0) {
      depth[static_cast<std::size_t>(v)] = -1;
      continue;
    }
    path.clear();
    index_t x = v;
    while (depth[static_cast<std::size_t>(x)] == unknown && parent[x] >= 0) {
      depth[static_cast<std::size_t>(x)] = walking;
      path.push_back(x);
      x = parent[x];
    }
    const index_t top = depth[static_cast<std::size_t>(x)];
    if (top == walking) return "vertex " + vertex_text(v) + "'s parent chain has a cycle (through vertex " + vertex_text(x) + ")";
    if (top == -1 || (top == unknown && parent[x] < 0))
      return "vertex " + vertex_text(path.back()) + " has parent " + vertex_text(x) + ", which is not reached";
    index_t d = top;
    for (auto it = path.rbegin(); it != path.rend(); ++it) depth[static_cast<std::size_t>(*it)] = ++d;
  }
  return {};
}

// Rules 3-5 over the arcs, with d(v) the level (BFS: dist empty) or the float distance.
template <class V>
validation check_arcs(graph::csr_view<V> g, index_t root, const std::int64_t* parent, const std::vector<index_t>& depth,
                      const float* dist, index_t kernel_nedge) {
  const index_t n = g.num_vertices;
  std::vector<std::atomic<unsigned char>> confirmed(static_cast<std::size_t>(n));
  index_t bad3 = none, nedge = 0;
#pragma omp parallel for schedule(dynamic, 1024) reduction(min : bad3) reduction(+ : nedge)
  for (index_t u = 0; u < n; ++u) {
    if (parent[u] < 0) continue;
    for (index_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k) {
      const auto v = static_cast<index_t>(g.columns[k]);
      ++nedge;
      if (parent[v] < 0) {
        bad3 = std::min(bad3, u);
        continue;
      }
      bool exact = false, within = false;
      if (dist) {
        const float reach = dist[u] + g.weights[k];
        within = dist[v] <= reach;
        exact = dist[v] == reach;
      } else {
        within = depth[static_cast<std::size_t>(v)] <= depth[static_cast<std::size_t>(u)] + 1;
        exact = depth[static_cast<std::size_t>(v)] == depth[static_cast<std::size_t>(u)] + 1;
      }
      if (!within) bad3 = std::min(bad3, u);
      if (exact && parent[v] == u) confirmed[static_cast<std::size_t>(v)].store(1, std::memory_order_relaxed);
    }
  }
  validation out{false, {}, nedge};
  if (bad3 != none) {  // name the first offending arc of that row
    const index_t u = bad3;
    for (index_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k) {
      const auto v = static_cast<index_t>(g.columns[k]);
      const std::string arc = "arc " + vertex_text(u) + " -> " + vertex_text(v);
      if (parent[v] < 0) {
        detail::failed_message(out, arc + " leaves a reached vertex for an unreached one");
        return out;
      }
      if (dist && !(dist[v] <= dist[u] + g.weights[k])) {
        detail::failed_message(out, arc + ": d(v) = " + std::to_string(dist[v]) + " > d(u) + w = " + std::to_string(dist[u]) +
                                         " + " + std::to_string(g.weights[k]));
        return out;
      }
      if (!dist && depth[static_cast<std::size_t>(v)] > depth[static_cast<std::size_t>(u)] + 1) {
        detail::failed_message(out, arc + ": level " + str(depth[static_cast<std::size_t>(v)]) + " > " +
                                         str(depth[static_cast<std::size_t>(u)]) + " + 1");
        return out;
      }
    }
  }
  for (index_t v = 0; v < n; ++v)
    if (v != root && parent[v] >= 0 && !confirmed[static_cast<std::size_t>(v)].load(std::memory_order_relaxed)) {
      detail::failed_message(out, "vertex " + vertex_text(v) + " is not confirmed by an arc from its parent " +
                                       vertex_text(parent[v]) + " (no such arc, or a wrong level/distance)");
      return out;
    }
  if (kernel_nedge >= 0 && kernel_nedge != nedge) {
    out.message = "wrong nedge: the kernel reported " + str(kernel_nedge) + ", the validator counts " + str(nedge);
    return out;
  }
  out.ok = true;
  return out;
}

template <class V>
std::string check_sizes(graph::csr_view<V> g, index_t root, std::size_t parents) {
  if (g.first_vertex != 0 || g.local_vertices != g.num_vertices) return "the directed validator needs the whole graph";
  if (static_cast<index_t>(parents) != g.num_vertices)
    return "parent array has " + str(static_cast<index_t>(parents)) + " entries, expected " + str(g.num_vertices);
  if (root < 0 || root >= g.num_vertices) return "root " + str(root) + " is not a vertex";
  return {};
}

}  // namespace

template <class V>
validation validate_bfs_directed(graph::csr_view<V> g, index_t root, std::span<const std::int64_t> parent,
                                 index_t kernel_nedge) {
  std::string bad = check_sizes(g, root, parent.size());
  std::vector<index_t> depth;
  if (bad.empty()) bad = tree_depths(g.num_vertices, root, parent.data(), depth);
  if (!bad.empty()) return detail::failed(bad, 0);
  return check_arcs(g, root, parent.data(), depth, nullptr, kernel_nedge);
}

template <class V>
validation validate_sssp_directed(graph::csr_view<V> g, index_t root, std::span<const std::int64_t> parent,
                                  std::span<const float> dist, index_t kernel_nedge) {
  std::string bad = check_sizes(g, root, parent.size());
  if (bad.empty() && dist.size() != parent.size()) bad = "distance array has the wrong length";
  if (bad.empty() && g.weights == nullptr && g.num_arcs() > 0) bad = "SSSP validation needs a weighted graph";
  std::vector<index_t> depth;
  if (bad.empty()) bad = tree_depths(g.num_vertices, root, parent.data(), depth);
  if (bad.empty() && dist[static_cast<std::size_t>(root)] != 0.0f)
    bad = "the root's distance is " + std::to_string(dist[static_cast<std::size_t>(root)]) + ", not 0";
  for (index_t v = 0; bad.empty() && v < g.num_vertices; ++v) {
    const float d = dist[static_cast<std::size_t>(v)];
    if (parent[static_cast<std::size_t>(v)] >= 0 && !(std::isfinite(d) && d >= 0))
      bad = "reached vertex " + vertex_text(v) + " has distance " + std::to_string(d);
  }
  if (!bad.empty()) return detail::failed(bad, 0);
  return check_arcs(g, root, parent.data(), depth, dist.data(), kernel_nedge);
}

template validation validate_bfs_directed<std::uint32_t>(graph::csr_view<std::uint32_t>, index_t,
                                                         std::span<const std::int64_t>, index_t);
template validation validate_bfs_directed<std::int64_t>(graph::csr_view<std::int64_t>, index_t,
                                                        std::span<const std::int64_t>, index_t);
template validation validate_sssp_directed<std::uint32_t>(graph::csr_view<std::uint32_t>, index_t,
                                                          std::span<const std::int64_t>, std::span<const float>, index_t);
template validation validate_sssp_directed<std::int64_t>(graph::csr_view<std::int64_t>, index_t,
                                                         std::span<const std::int64_t>, std::span<const float>, index_t);

}  // namespace gpu500::graph500
