// python/src/trees.cpp — a search tree turned into what Python callers read, in O(n) C++ rather
// than NumPy passes: BFS levels from the parents (each vertex's chain walked once, the levels
// written back down it), and the reached vertices grouped by level with a counting sort (the
// layers of NetworkX's bfs_layers: vertex ids in increasing order within a layer).
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core.hpp"
#include "gpu500/core/error.hpp"

namespace gpu500::python {
namespace {

/// level[v]: the depth of v in the tree given by parent (-1: unreached, parent[root] == root).
/// usage_error when a chain does not end at the root (a cycle, or a parent that is unreached).
std::vector<std::int64_t> tree_levels(const std::int64_t* parent, std::int64_t n, std::int64_t root) {
  if (root < 0 || root >= n) throw usage_error("root " + std::to_string(root) + " is not a vertex");
  if (parent[root] != root) throw usage_error("the root " + std::to_string(root) + " is not its own parent");
  constexpr std::int64_t pending = -2;  // on the chain being walked
  std::vector<std::int64_t> level(static_cast<std::size_t>(n), -1);
  std::vector<char> done(static_cast<std::size_t>(n), 0);
  level[root] = 0;
  done[root] = 1;
  std::vector<std::int64_t> chain;
  for (std::int64_t v = 0; v < n; ++v) {
    if (done[v] || parent[v] < 0) continue;
    chain.clear();
    std::int64_t x = v;
    while (!done[x]) {
      if (parent[x] < 0 || parent[x] >= n || level[x] == pending)
        throw usage_error("the parents do not form a tree rooted at " + std::to_string(root) + " (vertex " +
                          std::to_string(x) + ")");
      level[x] = pending;
      chain.push_back(x);
      x = parent[x];
    }
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      level[*it] = level[x] + 1;
      done[*it] = 1;
      x = *it;
    }
  }
  return level;
}

/// (order, bounds): the vertices of level k are order[bounds[k]:bounds[k + 1]], in increasing id.
std::pair<std::vector<std::int64_t>, std::vector<std::int64_t>> by_level(const std::int64_t* level, std::int64_t n) {
  std::int64_t depth = -1;
  for (std::int64_t v = 0; v < n; ++v) depth = level[v] > depth ? level[v] : depth;
  std::vector<std::int64_t> bounds(static_cast<std::size_t>(depth + 2), 0);
  for (std::int64_t v = 0; v < n; ++v)
    if (level[v] >= 0) ++bounds[level[v] + 1];
  for (std::size_t k = 1; k < bounds.size(); ++k) bounds[k] += bounds[k - 1];
  std::vector<std::int64_t> order(static_cast<std::size_t>(bounds.back()));
  std::vector<std::int64_t> next(bounds.begin(), bounds.end() - 1);
  for (std::int64_t v = 0; v < n; ++v)
    if (level[v] >= 0) order[next[level[v]]++] = v;
  return {std::move(order), std::move(bounds)};
}

}  // namespace

void bind_trees(nb::module_& m) {
  m.def(
      "tree_levels",
      [](input_array<std::int64_t> parent, std::int64_t root) {
        const std::int64_t* p = parent.data();
        const auto n = static_cast<std::int64_t>(parent.shape(0));
        std::vector<std::int64_t> level;
        {
          nb::gil_scoped_release unlocked;
          level = tree_levels(p, n, root);
        }
        return to_numpy<std::int64_t>(std::move(level));
      },
      nb::arg("parent"), nb::arg("root"), "BFS levels (-1: unreached) from a parent tree; ValueError if it is not one");
  m.def(
      "by_level",
      [](input_array<std::int64_t> level) {
        const std::int64_t* l = level.data();
        const auto n = static_cast<std::int64_t>(level.shape(0));
        std::pair<std::vector<std::int64_t>, std::vector<std::int64_t>> r;
        {
          nb::gil_scoped_release unlocked;
          r = by_level(l, n);
        }
        return nb::make_tuple(to_numpy<std::int64_t>(std::move(r.first)), to_numpy<std::int64_t>(std::move(r.second)));
      },
      nb::arg("level"),
      "(order, bounds): the vertices of level k are order[bounds[k]:bounds[k+1]], in increasing id");
}

}  // namespace gpu500::python
