// python/src/trees.cpp — a search tree turned into what Python callers read, in O(n) C++ rather
// than NumPy passes: BFS levels from the parents where the search returned none of its own (each
// vertex's chain walked once, the levels written back down it; on a large tree, pointer jumping over
// the host's cores instead), the reached vertices grouped by level with a counting sort (vertex ids
// in increasing order within a level; per-thread counts on a large tree), and those groups as the
// lists of NetworkX's bfs_layers, made of the caller's node objects (a reference each: no Python int
// is made per vertex), and the same for any list of vertex ids.
#include <omp.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core.hpp"
#include "gpu500/core/error.hpp"

namespace gpu500::python {
namespace {

/// Below this many vertices (or with one thread) the passes run on one core.
constexpr std::int64_t parallel_vertices = std::int64_t{1} << 16;
/// Above this many, the levels are walked on one core too: pointer jumping holds four arrays of
/// 8 bytes a vertex (8 GB at this size) where the walk holds one.
constexpr std::int64_t parallel_levels_max = std::int64_t{1} << 28;

[[noreturn]] void not_a_tree(std::int64_t root, std::int64_t v) {
  throw usage_error("the parents do not form a tree rooted at " + std::to_string(root) + " (vertex " + std::to_string(v) +
                    ")");
}

/// tree_levels by pointer jumping: every vertex keeps an ancestor and its distance to it, and
/// each round (one parallel pass) adds the ancestor's distance and jumps to the ancestor's
/// ancestor, so a vertex of depth d reaches the root in ceil(log2(d)) + 1 rounds. A chain that
/// meets an unreached vertex (named), or a vertex still away from the root after log2(n) + 2
/// rounds (a cycle: the smallest such vertex named), makes the parents no tree.
std::vector<std::int64_t> tree_levels_parallel(const std::int64_t* parent, std::int64_t n, std::int64_t root) {
  std::vector<std::int64_t> anc(static_cast<std::size_t>(n)), level(static_cast<std::size_t>(n));
  std::vector<std::int64_t> next_anc(static_cast<std::size_t>(n)), next_level(static_cast<std::size_t>(n));
  std::int64_t bad = n;
#pragma omp parallel for schedule(static) reduction(min : bad)
  for (std::int64_t v = 0; v < n; ++v) {
    const std::int64_t p = parent[v];
    if (v == root) {
      anc[v] = root, level[v] = 0;
    } else if (p < 0) {
      anc[v] = -1, level[v] = -1;  // unreached
    } else {
      if (p >= n) bad = std::min(bad, v);
      anc[v] = p < n ? p : -1, level[v] = 1;
    }
  }
  const int rounds = std::bit_width(static_cast<std::uint64_t>(n)) + 2;
  for (int r = 0; bad == n; ++r) {
    std::int64_t active = 0;
#pragma omp parallel for schedule(static) reduction(+ : active) reduction(min : bad)
    for (std::int64_t v = 0; v < n; ++v) {
      const std::int64_t a = anc[v];
      next_anc[v] = a, next_level[v] = level[v];
      if (a < 0 || a == root) continue;  // unreached, or its level is known
      const std::int64_t up = anc[a];
      if (up < 0) {  // its ancestor is unreached: named, as the walk on one core names it
        bad = std::min(bad, a);
        continue;
      }
      next_anc[v] = up, next_level[v] = level[v] + level[a];
      ++active;
    }
    anc.swap(next_anc);
    level.swap(next_level);
    if (active == 0) break;
    if (r == rounds) {  // some chain never reaches the root: a cycle
#pragma omp parallel for schedule(static) reduction(min : bad)
      for (std::int64_t v = 0; v < n; ++v)
        if (anc[v] >= 0 && anc[v] != root) bad = std::min(bad, v);
    }
  }
  if (bad < n) not_a_tree(root, bad);
  return level;
}

/// level[v]: the depth of v in the tree given by parent (-1: unreached, parent[root] == root).
/// usage_error when a chain does not end at the root (a cycle, or a parent that is unreached).
std::vector<std::int64_t> tree_levels(const std::int64_t* parent, std::int64_t n, std::int64_t root) {
  if (root < 0 || root >= n) throw usage_error("root " + std::to_string(root) + " is not a vertex");
  if (parent[root] != root) throw usage_error("the root " + std::to_string(root) + " is not its own parent");
  if (n >= parallel_vertices && n <= parallel_levels_max && omp_get_max_threads() > 1)
    return tree_levels_parallel(parent, n, root);
  constexpr std::int64_t unknown = -1, pending = -2;  // pending: on the chain being walked
  std::vector<std::int64_t> level(static_cast<std::size_t>(n), unknown);
  level[root] = 0;
  std::vector<std::int64_t> chain;
  for (std::int64_t v = 0; v < n; ++v) {
    if (level[v] != unknown || parent[v] < 0) continue;  // known, or unreached (stays -1)
    chain.clear();
    std::int64_t x = v;
    while (level[x] < 0) {
      if (level[x] == pending || parent[x] < 0 || parent[x] >= n) not_a_tree(root, x);
      level[x] = pending;
      chain.push_back(x);
      x = parent[x];
    }
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      level[*it] = level[x] + 1;
      x = *it;
    }
  }
  return level;
}

/// by_level with a team of threads, each counting and then placing its own range of vertices
/// (its offset in each level: the counts of the levels below and of the threads before it), so
/// the order within a level stays increasing.
std::pair<std::vector<std::int64_t>, std::vector<std::int64_t>> by_level_parallel(const std::int64_t* level,
                                                                                 std::int64_t n, std::int64_t depth,
                                                                                 int threads) {
  const auto L = static_cast<std::size_t>(depth + 1);
  std::vector<std::int64_t> count(static_cast<std::size_t>(threads) * L, 0);
  std::vector<std::int64_t> bounds(L + 1, 0), order;
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num(), T = omp_get_num_threads();
    const std::int64_t lo = n * t / T, hi = n * (t + 1) / T;
    std::int64_t* mine = count.data() + static_cast<std::size_t>(t) * L;
    for (std::int64_t v = lo; v < hi; ++v)
      if (level[v] >= 0) ++mine[level[v]];
#pragma omp barrier
#pragma omp single
    {
      std::int64_t at = 0;  // count[t][k] becomes thread t's first place in level k
      for (std::size_t k = 0; k < L; ++k) {
        bounds[k] = at;
        for (int u = 0; u < T; ++u) {
          const std::int64_t c = count[static_cast<std::size_t>(u) * L + k];
          count[static_cast<std::size_t>(u) * L + k] = at;
          at += c;
        }
      }
      bounds[L] = at;
      order.resize(static_cast<std::size_t>(at));
    }
    for (std::int64_t v = lo; v < hi; ++v)
      if (level[v] >= 0) order[static_cast<std::size_t>(mine[level[v]]++)] = v;
  }
  return {std::move(order), std::move(bounds)};
}

/// (order, bounds): the vertices of level k are order[bounds[k]:bounds[k + 1]], in increasing id.
std::pair<std::vector<std::int64_t>, std::vector<std::int64_t>> by_level(const std::int64_t* level, std::int64_t n) {
  std::int64_t depth = -1;
#pragma omp parallel for schedule(static) reduction(max : depth) if (n >= parallel_vertices)
  for (std::int64_t v = 0; v < n; ++v) depth = level[v] > depth ? level[v] : depth;
  // A team pays where the per-thread counts (threads x levels) stay well below the vertices: not
  // on a path or a long grid, whose levels are many.
  const int threads = omp_get_max_threads();
  if (n >= parallel_vertices && threads > 1 && (depth + 1) * threads * 8 <= n)
    return by_level_parallel(level, n, depth, threads);
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

/// [nodes[ids[0]], ..., nodes[ids[k - 1]]]: a new list of new references to the caller's objects
/// (every id must index the list nodes).
nb::list node_list(PyObject* nodes, const std::int64_t* ids, std::int64_t k) {
  PyObject* out = PyList_New(static_cast<Py_ssize_t>(k));
  if (out == nullptr) throw nb::python_error();
  for (std::int64_t i = 0; i < k; ++i) {
    PyObject* node = PyList_GET_ITEM(nodes, static_cast<Py_ssize_t>(ids[i]));
    Py_INCREF(node);
    PyList_SET_ITEM(out, static_cast<Py_ssize_t>(i), node);
  }
  return nb::steal<nb::list>(out);
}

/// The layers of a search as a list of Python lists: layer k holds nodes[v] for the vertices v of
/// level k, in increasing v (nodes must be a list of at least n entries).
nb::list layer_lists(const std::vector<std::int64_t>& order, const std::vector<std::int64_t>& bounds, PyObject* nodes) {
  nb::list out;
  for (std::size_t k = 0; k + 1 < bounds.size(); ++k)
    out.append(node_list(nodes, order.data() + bounds[k], bounds[k + 1] - bounds[k]));
  return out;
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
  m.def(
      "take_nodes",
      [](nb::list nodes, input_array<std::int64_t> ids) {
        const auto n = static_cast<std::int64_t>(nb::len(nodes));
        const std::int64_t* id = ids.data();
        const auto k = static_cast<Py_ssize_t>(ids.shape(0));
        for (Py_ssize_t i = 0; i < k; ++i)
          if (id[i] < 0 || id[i] >= n)
            throw usage_error("take_nodes: id " + std::to_string(id[i]) + " outside the " + std::to_string(n) + " nodes");
        return node_list(nodes.ptr(), id, k);
      },
      nb::arg("nodes"), nb::arg("ids"), "[nodes[i] for i in ids] (references to the same objects)");
  m.def(
      "tree_layers",
      [](input_array<std::int64_t> parent, std::int64_t root, nb::list nodes,
         std::optional<input_array<std::int64_t>> levels) {
        const std::int64_t* p = parent.data();
        const auto n = static_cast<std::int64_t>(parent.shape(0));
        if (static_cast<std::int64_t>(nb::len(nodes)) < n)
          throw usage_error("tree_layers: " + std::to_string(nb::len(nodes)) + " nodes for " + std::to_string(n) +
                            " vertices");
        if (levels && static_cast<std::int64_t>(levels->shape(0)) != n)
          throw usage_error("tree_layers: " + std::to_string(levels->shape(0)) + " levels for " + std::to_string(n) +
                            " vertices");
        const std::int64_t* given = levels ? levels->data() : nullptr;
        std::pair<std::vector<std::int64_t>, std::vector<std::int64_t>> r;
        {
          nb::gil_scoped_release unlocked;
          if (given) {
            r = by_level(given, n);
          } else {
            const std::vector<std::int64_t> level = tree_levels(p, n, root);
            r = by_level(level.data(), n);
          }
        }
        return layer_lists(r.first, r.second, nodes.ptr());
      },
      nb::arg("parent"), nb::arg("root"), nb::arg("nodes"), nb::arg("levels").none() = nb::none(),
      "The layers of a BFS tree (NetworkX's bfs_layers): a list per level of nodes[v] for its vertices v, in "
      "increasing v, from the search's levels where given, else from the parents (ValueError if they are not a "
      "tree)");
}

}  // namespace gpu500::python
