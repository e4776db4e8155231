// Graph500 validation on the host, after the reference's src/validate.c (see validate.hpp).
// Parallel with OpenMP; the first violation found (lowest vertex id among those reported by the
// threads) is named in the message.
#include "gpu500/graph500/validate.hpp"

#include <omp.h>

#include <atomic>
#include <limits>
#include <string>
#include <vector>

namespace gpu500::graph500 {

namespace {

/// Keeps the violation with the smallest vertex id seen by any thread.
class first_error {
 public:
  void report(index_t where, std::string msg) {
    if (where >= min_.load(std::memory_order_relaxed)) return;
#pragma omp critical(gpu500_validate_error)
    if (where < min_.load(std::memory_order_relaxed)) {
      min_.store(where, std::memory_order_relaxed);
      msg_ = std::move(msg);
    }
  }
  [[nodiscard]] bool any() const { return min_.load() != std::numeric_limits<index_t>::max(); }
  [[nodiscard]] const std::string& message() const { return msg_; }

 private:
  std::atomic<index_t> min_{std::numeric_limits<index_t>::max()};
  std::string msg_;
};

std::string vstr(index_t v) { return std::to_string(v); }

/// Checks 3-5 on the level/distance map d (d[v] < 0: not reached). w(k) gives arc k's weight.
template <class V, class Weight>
validation check_edges(graph::csr_view<V> g, index_t root, std::span<const std::int64_t> parent,
                       const std::vector<float>& d, Weight w, index_t kernel_nedge, first_error& err) {
  const index_t n = g.num_vertices;
  std::vector<char> confirmed(static_cast<std::size_t>(n), 0);
  index_t nedge = 0;
#pragma omp parallel for schedule(dynamic, 1024) reduction(+ : nedge)
  for (index_t u = 0; u < n; ++u) {
    const bool ru = parent[u] != -1;
    for (index_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k) {
      const index_t v = static_cast<index_t>(g.columns[k]);
      const bool rv = parent[v] != -1;
      if (ru != rv) {
        err.report(u, "edge (" + vstr(u) + ", " + vstr(v) + ") connects a reached and an unreached vertex");
        continue;
      }
      if (!ru) continue;
      if (u < v) ++nedge;
      const float wk = w(k);
      if (d[u] < 0 || d[v] < 0) continue;  // unconfirmed vertices are reported below
      if (d[u] + wk < d[v] || d[v] + wk < d[u])
        err.report(u, "triangle rule violated on edge (" + vstr(u) + ", " + vstr(v) + "): d = " +
                          std::to_string(d[u]) + ", " + std::to_string(d[v]) + ", w = " + std::to_string(wk));
      if (parent[v] == u && d[v] == d[u] + wk) confirmed[v] = 1;  // idempotent store, benign
    }
  }
#pragma omp parallel for schedule(static)
  for (index_t v = 0; v < n; ++v)
    if (v != root && parent[v] != -1 && !confirmed[v])
      err.report(v, "vertex " + vstr(v) + " is not confirmed by its parent " + vstr(parent[v]) +
                        " (no such edge, a cycle, or a wrong level/distance)");
  validation out;
  out.nedge = nedge;
  if (!err.any() && kernel_nedge >= 0 && kernel_nedge != nedge)
    err.report(0, "wrong nedge: the kernel reported " + vstr(kernel_nedge) + ", the validator counts " + vstr(nedge));
  out.ok = !err.any();
  out.message = out.ok ? "" : err.message();
  return out;
}

template <class V>
bool check_parents(graph::csr_view<V> g, index_t root, std::span<const std::int64_t> parent, first_error& err) {
  const index_t n = g.num_vertices;
  if (static_cast<index_t>(parent.size()) != n) {
    err.report(0, "parent array has " + vstr(static_cast<index_t>(parent.size())) + " entries, expected " + vstr(n));
    return false;
  }
  if (root < 0 || root >= n) {
    err.report(0, "root " + vstr(root) + " is not a vertex");
    return false;
  }
#pragma omp parallel for schedule(static)
  for (index_t v = 0; v < n; ++v)
    if (parent[v] < -1 || parent[v] >= n) err.report(v, "vertex " + vstr(v) + " has parent " + vstr(parent[v]) + " out of range");
  if (parent[root] != root) err.report(root, "the root " + vstr(root) + " is not its own parent (" + vstr(parent[root]) + ")");
  return !err.any();
}

}  // namespace

template <class V>
validation validate_bfs(graph::csr_view<V> g, index_t root, std::span<const std::int64_t> parent,
                        index_t kernel_nedge) {
  first_error err;
  if (!check_parents(g, root, parent, err)) return {false, err.message(), 0};
  const index_t n = g.num_vertices;
  // Level map from the parents: level-synchronous propagation along graph edges (u -> v where
  // parent[v] == u). Levels are stored as floats (exact for any realistic depth).
  std::vector<float> d(static_cast<std::size_t>(n), -1.0f);
  d[root] = 0;
  std::vector<index_t> frontier{root}, next;
  float level = 0;
  while (!frontier.empty()) {
    next.clear();
#pragma omp parallel
    {
      std::vector<index_t> local;
#pragma omp for schedule(dynamic, 64) nowait
      for (std::size_t i = 0; i < frontier.size(); ++i) {
        const index_t u = frontier[i];
        for (index_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k) {
          const index_t v = static_cast<index_t>(g.columns[k]);
          if (v != root && parent[v] == u && d[v] < 0) {
            d[v] = level + 1;  // every writer writes the same value; v is queued by its parent only
            local.push_back(v);
          }
        }
      }
#pragma omp critical(gpu500_validate_next)
      next.insert(next.end(), local.begin(), local.end());
    }
    // A vertex appears once per parallel edge to its parent: deduplicate.
    std::vector<index_t> uniq;
    uniq.reserve(next.size());
    for (index_t v : next)
      if (d[v] == level + 1) {
        d[v] = -2 - level;  // temporary mark: taken
        uniq.push_back(v);
      }
    for (index_t v : uniq) d[v] = level + 1;
    frontier.swap(uniq);
    level += 1;
  }
  return check_edges(g, root, parent, d, [](index_t) { return 1.0f; }, kernel_nedge, err);
}

template <class V>
validation validate_sssp(graph::csr_view<V> g, index_t root, std::span<const std::int64_t> parent,
                         std::span<const float> dist, index_t kernel_nedge) {
  first_error err;
  if (!check_parents(g, root, parent, err)) return {false, err.message(), 0};
  const index_t n = g.num_vertices;
  if (static_cast<index_t>(dist.size()) != n) return {false, "distance array has the wrong length", 0};
  if (g.weights == nullptr) return {false, "SSSP validation needs a weighted graph", 0};
  if (dist[root] != 0.0f) return {false, "the root's distance is " + std::to_string(dist[root]) + ", not 0", 0};
  std::vector<float> d(static_cast<std::size_t>(n));
#pragma omp parallel for schedule(static)
  for (index_t v = 0; v < n; ++v) {
    if (parent[v] == -1) {
      d[v] = -1;
    } else if (!(dist[v] >= 0.0f) || dist[v] == std::numeric_limits<float>::infinity()) {
      err.report(v, "reached vertex " + vstr(v) + " has distance " + std::to_string(dist[v]));
      d[v] = -1;
    } else {
      d[v] = dist[v];
    }
  }
  if (err.any()) return {false, err.message(), 0};
  return check_edges(g, root, parent, d, [&](index_t k) { return g.weights[k]; }, kernel_nedge, err);
}

template validation validate_bfs(graph::csr_view<std::uint32_t>, index_t, std::span<const std::int64_t>, index_t);
template validation validate_bfs(graph::csr_view<std::int64_t>, index_t, std::span<const std::int64_t>, index_t);
template validation validate_sssp(graph::csr_view<std::uint32_t>, index_t, std::span<const std::int64_t>,
                                  std::span<const float>, index_t);
template validation validate_sssp(graph::csr_view<std::int64_t>, index_t, std::span<const std::int64_t>,
                                  std::span<const float>, index_t);

}  // namespace gpu500::graph500
