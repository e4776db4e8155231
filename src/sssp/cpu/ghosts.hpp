// src/sssp/cpu/ghosts.hpp — the CPU SSSP engine's view of the vertices other ranks own (internal;
// built once in its constructor, none on one process). A ghost is a vertex owned elsewhere that
// is the head of one of this rank's arcs. The engine's rows name a head by one 32-bit id: an owned
// vertex by its internal id (below `rows`), a ghost by rows + its index here. A relaxation of an
// arc to a ghost becomes a request to the ghost's owner, sent only when it lowers the smallest
// distance this rank has offered the ghost in the search (`bound`); the owner names the parent of
// a request it keeps by the parent's ghost id among its own (the rows are symmetric: a parent on
// another rank is the head of one of the child's arcs, so it is one of the owner's ghosts).
#pragma once

#include <omp.h>

#include <atomic>
#include <cstdint>
#include <limits>
#include <vector>

#include "gpu500/core/error.hpp"
#include "gpu500/dist/partition.hpp"
#include "gpu500/graph/csr.hpp"

namespace gpu500::sssp::detail {

/// A relaxation request to the owner of the relaxed vertex: its index among the owner's rows,
/// the tentative distance and the parent that offers it (a global id). 16 bytes.
struct request {
  std::int64_t parent;
  std::uint32_t row;
  float dist;
};
static_assert(sizeof(request) == 16);

struct ghost_table {
  static constexpr std::uint32_t none = std::numeric_limits<std::uint32_t>::max();
  /// Every vertex of the graph -> the id the engine's rows give it as a head: an owned vertex its
  /// internal id, a ghost rows + its index, any other vertex `none`.
  graph::host_vector<std::uint32_t> head_of;
  std::vector<std::int64_t> global;  ///< ghost -> its vertex id
  std::vector<int> owner;            ///< ghost -> the rank that owns it
  std::vector<std::uint32_t> row;    ///< ghost -> its index among its owner's rows
  graph::host_vector<float> bound;   ///< ghost -> the smallest distance offered it in this search

  [[nodiscard]] index_t count() const { return static_cast<index_t>(global.size()); }

  /// The table of the rank owning g's rows under `part`; new_of: row -> internal id.
  template <class V>
  void build(const dist::block_partition& part, const graph::csr_view<V>& g, const std::uint32_t* new_of) {
    const index_t n = g.num_vertices, rows = g.local_vertices, first = g.first_vertex;
    const index_t arcs = g.offsets[rows] - g.offsets[0];
    head_of.resize(static_cast<std::size_t>(n));
    std::uint32_t* h = head_of.data();
#pragma omp parallel for schedule(static)
    for (index_t v = 0; v < n; ++v) h[v] = none;
    // Mark the heads owned elsewhere (0), then number them in vertex order.
#pragma omp parallel for schedule(static)
    for (index_t k = 0; k < arcs; ++k) {
      const auto v = static_cast<index_t>(g.columns[g.offsets[0] + k]);
      if (v < first || v >= first + rows) std::atomic_ref<std::uint32_t>(h[v]).store(0, std::memory_order_relaxed);
    }
    for (index_t v = 0; v < n; ++v) {
      if (v >= first && v < first + rows) {  // the owned block
        v = first + rows - 1;
        continue;
      }
      if (h[v] != 0) continue;
      if (rows + count() >= static_cast<index_t>(none))
        throw usage_error("sssp cpu engine: a rank's rows and ghosts pass the 32-bit ids of its rows");
      h[v] = static_cast<std::uint32_t>(rows + count());
      global.push_back(v);
      owner.push_back(part.owner(v));
      row.push_back(static_cast<std::uint32_t>(part.local(v)));
    }
#pragma omp parallel for schedule(static)
    for (index_t l = 0; l < rows; ++l) h[first + l] = new_of[l];
    bound.resize(global.size());
    reset();
  }

  /// Before a search: nothing offered yet.
  void reset() {
    float* b = bound.data();
    const index_t c = count();
#pragma omp parallel for schedule(static)
    for (index_t i = 0; i < c; ++i) b[i] = std::numeric_limits<float>::infinity();
  }
};

}  // namespace gpu500::sssp::detail
