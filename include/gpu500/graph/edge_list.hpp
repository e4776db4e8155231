// gpu500/graph/edge_list.hpp — an edge list in generation order (Graph500's kernel 1 input).
#pragma once

#include <cstdint>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "gpu500/core/types.hpp"

namespace gpu500::graph {

/// An allocator whose value-less construct() leaves trivial elements uninitialised: resize(n) on
/// a host_vector does not zero it (a serial pass over hundreds of MB for kernel-1-sized arrays);
/// its pages are first touched by the parallel loops that fill them. assign(n, x) and
/// resize(n, x) still write x.
template <class T>
struct default_init_allocator : std::allocator<T> {
  using std::allocator<T>::allocator;
  template <class U>
  struct rebind {
    using other = default_init_allocator<U>;
  };
  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

/// A std::vector whose resize(n) leaves new trivial elements uninitialised (see above).
template <class T>
using host_vector = std::vector<T, default_init_allocator<T>>;

/// Edges as parallel arrays (structure of arrays): edge i is (src[i], dst[i]) with weight[i]
/// (weights empty for a BFS-only list). Self-loops and duplicate edges are kept, as generated.
struct edge_list {
  index_t num_vertices = 0;
  host_vector<std::int64_t> src, dst;
  host_vector<float> weight;

  [[nodiscard]] index_t size() const { return static_cast<index_t>(src.size()); }
  [[nodiscard]] bool weighted() const { return !weight.empty(); }
};

/// True when no vertex of the m edges (src[i], dst[i]) over n vertices has more than two edge ends
/// (a self-loop gives two): the graph is paths and cycles, whose searches meet a vertex or two per
/// level. O(1) when m > n (some vertex then has three ends), else one pass over n bytes.
[[nodiscard]] bool chain_like(const std::int64_t* src, const std::int64_t* dst, index_t m, index_t n);
[[nodiscard]] inline bool chain_like(const edge_list& el) {
  return chain_like(el.src.data(), el.dst.data(), el.size(), el.num_vertices);
}
/// What `--backend auto` means for a search on the graph, given what "auto" resolves to on this
/// host (resolve_auto_backend): the CPU backend for a chain_like graph (the shapes benchmark:
/// a path runs several times faster on the host's cores), else `resolved`.
[[nodiscard]] inline backend auto_search_backend(backend resolved, const std::int64_t* src, const std::int64_t* dst,
                                                 index_t m, index_t n) {
  return resolved == backend::cuda && chain_like(src, dst, m, n) ? backend::cpu : resolved;
}

}  // namespace gpu500::graph
