// The Graph500 validator on the host, one process or over MPI ranks (see
// gpu500/graph500/validate.hpp). Every exchange is a request to an owner
// and a reply in the same order: requests for rank r are grouped, the owner answers them in the
// order received, and the asker reads the answers back in its own order. The arcs' far ends are
// the exception where memory allows: one float per vertex, all-gathered (see gather_fits). The loops over owned
// rows and requests are OpenMP-parallel; each thread keeps its own smallest violation.
#include "gpu500/graph500/validate.hpp"

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "gpu500/core/device.hpp"
#include "gpu500/dist/by_rank.hpp"
#include "validate_text.hpp"

namespace gpu500::graph500 {

using dist::group_by_rank;
using dist::item_slices;

namespace {

using dist::reduce_op;

/// The violation at the smallest vertex id seen by this rank; agree() makes it everyone's.
class violations {
 public:
  [[nodiscard]] bool wants(index_t where) const { return where < where_; }
  void report(index_t where, std::string msg) {
    if (where < where_) where_ = where, msg_ = std::move(msg);
  }
  /// Keeps the other's violation when it is at a smaller vertex (thread-safe).
  void merge(violations& other) {
#pragma omp critical(gpu500_mpi_validate_merge)
    report(other.where_, std::move(other.msg_));
  }
  /// Collective: the smallest violation over all ranks, the same on every rank.
  [[nodiscard]] validation agree(const dist::communicator& c, index_t nedge) {
    validation out;
    out.nedge = nedge;
    const index_t where = c.allreduce(where_, reduce_op::min);
    out.ok = where == none;
    if (!out.ok) {
      const int from = c.allreduce(where_ == where ? c.rank() : std::numeric_limits<int>::max(), reduce_op::min);
      detail::failed_message(out, c.bcast(c.rank() == from ? msg_ : std::string{}, from));
    }
    return out;
  }

 private:
  static constexpr index_t none = std::numeric_limits<index_t>::max();
  index_t where_ = none;
  std::string msg_;
};

std::string str(index_t v) { return std::to_string(v); }
using detail::vertex_text;

/// Asks the owner of each vertex in `ask` (in this order) and returns the answers in the same
/// order; the owner answers a vertex v with answer(local index of v).
template <class Answer, class F>
std::vector<Answer> ask_owners(const dist::communicator& c, const dist::block_partition& part,
                               const std::vector<std::int64_t>& ask, F answer) {
  const auto n = static_cast<index_t>(ask.size());
  std::vector<index_t> slot(ask.size()), counts, got;
  std::vector<std::int64_t> grouped;
  group_by_rank<std::int64_t>(c.size(), item_slices(n), [&](index_t i, auto&& send) {
    slot[i] = send(part.owner(ask[i]), ask[i]);
  }, grouped, counts);
  const std::vector<std::int64_t> asked = c.alltoallv<std::int64_t>(grouped, counts, &got);
  grouped = {};
  const auto m = static_cast<index_t>(asked.size());
  std::vector<Answer> replies(asked.size());
#pragma omp parallel for schedule(static)
  for (index_t i = 0; i < m; ++i) replies[i] = answer(part.local(asked[i]));
  const std::vector<Answer> back = c.alltoallv<Answer>(replies, got);
  std::vector<Answer> out(ask.size());
#pragma omp parallel for schedule(static)
  for (index_t i = 0; i < n; ++i) out[i] = back[static_cast<std::size_t>(slot[i])];
  return out;
}

/// What the owner of an endpoint tells: is it reached, and its level or distance (< 0: none).
struct endpoint {
  float d;
  std::int32_t reached;
};

/// One float per vertex for the gathered path: -1 unreached, -2 reached without a level or
/// distance, else the level or distance (>= 0).
float endpoint_code(bool reached, float d) { return !reached ? -1.f : d >= 0 ? d : -2.f; }
endpoint endpoint_of(float code) { return code == -1.f ? endpoint{-1.f, 0} : endpoint{code >= 0 ? code : -1.f, 1}; }

/// The gathered path holds one float per vertex on every rank: it is taken when those n floats
/// (and the all-gather's copy) take at most an eighth of this rank's share of the host's available
/// memory; past that (thousands of ranks, SCALE 36+) each arc's head is asked of its owner.
bool gather_fits(index_t n, int ranks_on_host) {
  const std::int64_t share = host_available_memory() / std::max(1, ranks_on_host);
  return 2 * n * static_cast<std::int64_t>(sizeof(float)) <= share / 8;
}

/// Rule 1 (parent range and root) on the owned slice.
template <class V>
void check_parents(const dist::block_partition& part, graph::csr_view<V> g, index_t root,
                   std::span<const std::int64_t> parent, violations& err) {
  const index_t n = part.num_vertices();
#pragma omp parallel
  {
    violations mine;
#pragma omp for schedule(static) nowait
    for (index_t l = 0; l < g.local_vertices; ++l) {
      const index_t v = g.first_vertex + l, p = parent[l];
      if ((p < -1 || p >= n) && mine.wants(v)) mine.report(v, "vertex " + vertex_text(v) + " has parent " + str(p) + " out of range");
    }
    err.merge(mine);
  }
  if (g.first_vertex <= root && root < g.first_vertex + g.local_vertices) {
    const index_t p = parent[root - g.first_vertex];
    if (p != root) err.report(root, "the root " + vertex_text(root) + " is not its own parent (" + (p >= 0 ? vertex_text(p) : str(p)) + ")");
  }
}

/// A child's message to its parent's owner, and a level sent down to a child's owner.
struct child_of {
  std::int64_t parent, child;
};
struct level_of {
  std::int64_t vertex;
  float level;
};

/// Rule 2 for BFS: levels from the parents (d < 0: no level). Every reached vertex but the root
/// tells its parent's owner that it is a child (one message a vertex); the owners keep child
/// lists; then the levels spread from the root down those lists, one exchange per level, each
/// vertex's level sent once. A vertex whose parent chain does not reach the root (a cycle, an
/// unreached parent) never gets a level. Asking the parents' owners round after round instead
/// would send every vertex without a level again in every round.
template <class V>
std::vector<float> levels_from_parents(const dist::communicator& c, const dist::block_partition& part,
                                       graph::csr_view<V> g, index_t root,
                                       std::span<const std::int64_t> parent) {
  const index_t nl = g.local_vertices;
  std::vector<float> d(static_cast<std::size_t>(nl), -1.f);
  // 1. Child lists of the owned vertices (CSR by local index; order within a list is free).
  std::vector<index_t> first(static_cast<std::size_t>(nl) + 1, 0);
  std::vector<std::int64_t> children;
  {
    std::vector<child_of> grouped;
    std::vector<index_t> counts, got;
    group_by_rank<child_of>(c.size(), item_slices(nl), [&](index_t l, auto&& send) {
      const index_t v = g.first_vertex + l, p = parent[l];
      if (p >= 0 && v != root) send(part.owner(p), child_of{p, v});
    }, grouped, counts);
    const std::vector<child_of> in = c.alltoallv<child_of>(grouped, counts, &got);
    grouped = {};
    const auto m = static_cast<index_t>(in.size());
#pragma omp parallel for schedule(static)
    for (index_t i = 0; i < m; ++i) __atomic_fetch_add(&first[part.local(in[i].parent) + 1], 1, __ATOMIC_RELAXED);
    for (index_t l = 0; l < nl; ++l) first[l + 1] += first[l];
    std::vector<index_t> cursor(first.begin(), first.end() - 1);
    children.resize(in.size());
#pragma omp parallel for schedule(static)
    for (index_t i = 0; i < m; ++i)
      children[__atomic_fetch_add(&cursor[part.local(in[i].parent)], 1, __ATOMIC_RELAXED)] = in[i].child;
  }
  // 2. Levels down the lists, from the root.
  std::vector<index_t> frontier;
  if (g.first_vertex <= root && root < g.first_vertex + nl) {
    d[root - g.first_vertex] = 0.f;
    frontier.push_back(root - g.first_vertex);
  }
  while (c.allreduce(static_cast<index_t>(frontier.size()), reduce_op::sum) > 0) {
    std::vector<level_of> grouped;
    std::vector<index_t> counts, got;
    group_by_rank<level_of>(c.size(), item_slices(static_cast<index_t>(frontier.size())), [&](index_t i, auto&& send) {
      const index_t l = frontier[i];
      for (index_t k = first[l]; k < first[l + 1]; ++k)
        send(part.owner(children[k]), level_of{children[k], d[l] + 1.f});
    }, grouped, counts);
    const std::vector<level_of> in = c.alltoallv<level_of>(grouped, counts, &got);
    // Each vertex but the root is in one list (its parent's), so it arrives once, and never
    // had a level before: every arrival joins the next frontier.
    const auto m = static_cast<index_t>(in.size());
    frontier.resize(in.size());
#pragma omp parallel for schedule(static)
    for (index_t i = 0; i < m; ++i) {
      const index_t l = part.local(in[i].vertex);
      d[l] = in[i].level;
      frontier[i] = l;
    }
  }
  return d;
}

/// Rules 3-5 over the owned arcs, given d (< 0 for vertices without a level or distance).
template <class V>
validation check_arcs(const dist::communicator& c, const dist::block_partition& part, graph::csr_view<V> g,
                      index_t root, std::span<const std::int64_t> parent, const std::vector<float>& d, bool unit,
                      index_t kernel_nedge, bool by_request, violations& err) {
  // What each arc's head tells: gathered once per vertex when every rank can hold n of them, else
  // asked of the owners once per arc.
  const bool gathered = !by_request && c.all(gather_fits(part.num_vertices(), c.node_size()));
  std::vector<float> code;  // gathered: endpoint_code of every vertex
  std::vector<endpoint> far;  // asked: the answer for every owned arc, in arc order
  if (gathered) {
    std::vector<float> mine(static_cast<std::size_t>(g.local_vertices));
#pragma omp parallel for schedule(static)
    for (index_t l = 0; l < g.local_vertices; ++l) mine[l] = endpoint_code(parent[l] != -1, d[l]);
    code = c.allgatherv<float>(mine);
  } else {
    const index_t arcs = g.offsets[g.local_vertices];
    std::vector<std::int64_t> heads(g.columns, g.columns + arcs);
    far = ask_owners<endpoint>(c, part, heads, [&](index_t l) { return endpoint{d[l], parent[l] != -1}; });
  }
  index_t nedge = 0;
  // Gathered: each arc reads its head's code at random (n floats, far beyond the caches at large
  // SCALE), so the loop asks for the code of the arc prefetch_ahead arcs on, across rows.
  constexpr index_t prefetch_ahead = 16;
  const index_t arcs = g.offsets[g.local_vertices];
  const float* codes = code.data();
#pragma omp parallel reduction(+ : nedge)
  {
    violations mine;
#pragma omp for schedule(dynamic, 1024) nowait
    for (index_t l = 0; l < g.local_vertices; ++l) {
      const index_t u = g.first_vertex + l;
      const bool ru = parent[l] != -1;
      bool confirmed = !ru || u == root;
      for (index_t k = g.offsets[l]; k < g.offsets[l + 1]; ++k) {
        if (gathered && k + prefetch_ahead < arcs) __builtin_prefetch(codes + static_cast<index_t>(g.columns[k + prefetch_ahead]));
        const auto v = static_cast<index_t>(g.columns[k]);
        const endpoint e = gathered ? endpoint_of(code[static_cast<std::size_t>(v)]) : far[static_cast<std::size_t>(k)];
        if (ru != (e.reached != 0)) {
          if (mine.wants(u))
            mine.report(u, "edge (" + vertex_text(u) + ", " + vertex_text(v) + ") connects a reached and an unreached vertex");
          continue;
        }
        if (!ru) continue;
        if (u < v) ++nedge;
        const float w = unit ? 1.0f : g.weights[k];
        if (d[l] < 0 || e.d < 0) continue;  // no level: reported as unconfirmed below
        if ((d[l] + w < e.d || e.d + w < d[l]) && mine.wants(u))
          mine.report(u, "triangle rule violated on edge (" + vertex_text(u) + ", " + vertex_text(v) + "): d = " +
                             std::to_string(d[l]) + ", " + std::to_string(e.d) + ", w = " + std::to_string(w));
        if (v == parent[l] && d[l] == e.d + w) confirmed = true;
      }
      if (!confirmed && mine.wants(u))
        mine.report(u, "vertex " + vertex_text(u) + " is not confirmed by its parent " + vertex_text(parent[l]) +
                           " (no such edge, a cycle, or a wrong level/distance)");
    }
    err.merge(mine);
  }
  nedge = c.allreduce(nedge, reduce_op::sum);
  validation out = err.agree(c, nedge);
  if (out.ok && kernel_nedge >= 0 && kernel_nedge != nedge) {
    out.ok = false;
    out.message = "wrong nedge: the kernel reported " + str(kernel_nedge) + ", the validator counts " + str(nedge);
  }
  return out;
}

template <class V>
bool sizes_ok(graph::csr_view<V> g, index_t root, std::size_t parents, validation& out) {
  if (static_cast<index_t>(parents) != g.local_vertices) {
    out.message = "parent slice has " + str(static_cast<index_t>(parents)) + " entries, expected " + str(g.local_vertices);
    return false;
  }
  if (root < 0 || root >= g.num_vertices) {
    out.message = "root " + str(root) + " is not a vertex";
    return false;
  }
  return true;
}

}  // namespace

template <class V>
validation validate_bfs(const dist::communicator& c, const dist::block_partition& part, graph::csr_view<V> g,
                        index_t root, std::span<const std::int64_t> parent, index_t kernel_nedge, bool ask_owners) {
  validation bad;
  if (!c.all(sizes_ok(g, root, parent.size(), bad))) return {false, bad.message.empty() ? "bad input on another rank" : bad.message, 0};
  violations err;
  check_parents(part, g, root, parent, err);
  if (validation v = err.agree(c, 0); !v.ok) return v;
  const std::vector<float> d = levels_from_parents(c, part, g, root, parent);
  return check_arcs(c, part, g, root, parent, d, true, kernel_nedge, ask_owners, err);
}

template <class V>
validation validate_sssp(const dist::communicator& c, const dist::block_partition& part, graph::csr_view<V> g,
                         index_t root, std::span<const std::int64_t> parent, std::span<const float> dist,
                         index_t kernel_nedge, bool ask_owners) {
  validation bad;
  bool ok = sizes_ok(g, root, parent.size(), bad);
  if (ok && dist.size() != parent.size()) bad.message = "distance slice has the wrong length", ok = false;
  if (ok && g.weights == nullptr && g.offsets[g.local_vertices] > 0)
    bad.message = "SSSP validation needs a weighted graph", ok = false;
  if (!c.all(ok)) return {false, bad.message.empty() ? "bad input on another rank" : bad.message, 0};
  violations err;
  check_parents(part, g, root, parent, err);
  std::vector<float> d(parent.size(), -1.f);
#pragma omp parallel
  {
    violations mine;
#pragma omp for schedule(static) nowait
    for (index_t l = 0; l < g.local_vertices; ++l) {
      const index_t v = g.first_vertex + l;
      if (parent[l] == -1) continue;
      if (!(dist[l] >= 0.0f) || dist[l] == std::numeric_limits<float>::infinity()) {
        if (mine.wants(v)) mine.report(v, "reached vertex " + vertex_text(v) + " has distance " + std::to_string(dist[l]));
      } else {
        d[l] = dist[l];
      }
      if (v == root && dist[l] != 0.0f) mine.report(v, "the root's distance is " + std::to_string(dist[l]) + ", not 0");
    }
    err.merge(mine);
  }
  if (validation v = err.agree(c, 0); !v.ok) return v;
  return check_arcs(c, part, g, root, parent, d, false, kernel_nedge, ask_owners, err);
}



template <class V>
validation validate_bfs(graph::csr_view<V> g, index_t root, std::span<const std::int64_t> parent,
                        index_t kernel_nedge) {
  return validate_bfs(dist::communicator{}, dist::block_partition(g.num_vertices, 1), g, root, parent, kernel_nedge);
}

template <class V>
validation validate_sssp(graph::csr_view<V> g, index_t root, std::span<const std::int64_t> parent,
                         std::span<const float> dist, index_t kernel_nedge) {
  return validate_sssp(dist::communicator{}, dist::block_partition(g.num_vertices, 1), g, root, parent, dist,
                       kernel_nedge);
}

#define GPU500_VALIDATORS(V)                                                                                      \
  template validation validate_bfs<V>(graph::csr_view<V>, index_t, std::span<const std::int64_t>, index_t);        \
  template validation validate_sssp<V>(graph::csr_view<V>, index_t, std::span<const std::int64_t>,                 \
                                       std::span<const float>, index_t);                                          \
  template validation validate_bfs<V>(const dist::communicator&, const dist::block_partition&, graph::csr_view<V>, \
                                      index_t, std::span<const std::int64_t>, index_t, bool);                     \
  template validation validate_sssp<V>(const dist::communicator&, const dist::block_partition&, graph::csr_view<V>, \
                                       index_t, std::span<const std::int64_t>, std::span<const float>, index_t, bool);
GPU500_VALIDATORS(std::uint32_t)
GPU500_VALIDATORS(std::int64_t)
#undef GPU500_VALIDATORS

}  // namespace gpu500::graph500
