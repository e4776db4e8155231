// The Graph500 validator on the GPU (BFS and SSSP). It shares no code with the search kernels: it
// reads only the kernel-1 graph, the new -> original id map and the result arrays in ORIGINAL ids.
//
// 1. parents: every parent is -1 or a vertex; the root is its own parent; a reached vertex's
//    parent is reached;
// 2. the tree is rebuilt by pointer jumping (anc, len) <- (anc[anc], len + len[anc]) for
//    ceil(log2 n) + 1 rounds: a reached vertex whose ancestor is not the root afterwards lies on a
//    cycle; len is then the BFS depth (the reference rebuilds the same depth map by propagation);
//    SSSP: every reached vertex has a distance >= 0 and the root distance 0;
// 3. every arc (u, v) of the CSR (both directions, duplicates included): exactly one end reached ->
//    "edge connecting visited and unvisited vertices"; d(u) + w < d(v) -> "triangle rule" (w = 1 for
//    BFS, the float weight for SSSP, float arithmetic); parent[v] == u and d(v) == d(u) + w (exact)
//    -> v confirmed; arcs with u < v and both ends reached are counted (nedge);
// 4. every reached vertex but the root must be confirmed (catches non-edges and wrong levels);
// 5. nedge must equal the kernel's.
#include <cuda_runtime.h>

#include <string>

#include "gpu500/core/cuda/check.cuh"
#include "gpu500/core/cuda/launch.cuh"
#include "gpu500/core/cuda/memory.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/graph/cuda.hpp"
#include "gpu500/graph500/cuda_pipeline.hpp"

namespace gpu500::graph500::cuda {

using gpu::device_buffer;
using ull = unsigned long long;

namespace {

struct validate_policy {
  static constexpr int block = 256;
};

enum failure : int {
  ok = 0,
  parent_out_of_range,
  root_not_own_parent,
  parent_unreached,
  not_rooted,
  bad_distance,
  root_distance,
  visited_unvisited,
  triangle,
  not_confirmed,
};

struct failure_record {
  int code;
  long long a, b;
};

__device__ void fail(failure_record* f, int code, long long a, long long b) {
  if (atomicCAS(&f->code, 0, code) == 0) {
    f->a = a;
    f->b = b;
  }
}

__global__ void parents_kernel(const std::int64_t* parent, index_t n, index_t root, failure_record* f) {
  for (index_t v : gpu::grid_stride(n)) {
    const std::int64_t p = parent[v];
    if (p < -1 || p >= n) {
      fail(f, parent_out_of_range, v, p);
    } else if (v == root && p != root) {
      fail(f, root_not_own_parent, v, p);
    } else if (p >= 0 && parent[p] == -1) {
      fail(f, parent_unreached, v, p);
    }
  }
}

__global__ void jump_init_kernel(const std::int64_t* parent, index_t n, index_t root, std::int64_t* anc,
                                 std::int64_t* len) {
  for (index_t v : gpu::grid_stride(n)) {
    const std::int64_t p = parent[v];
    anc[v] = v == root ? root : p;
    len[v] = (v == root || p < 0) ? 0 : 1;
  }
}

__global__ void jump_kernel(const std::int64_t* anc, const std::int64_t* len, index_t n, index_t root,
                            std::int64_t* anc2, std::int64_t* len2) {
  for (index_t v : gpu::grid_stride(n)) {
    const std::int64_t a = anc[v];
    if (a >= 0 && a != root) {
      anc2[v] = anc[a];
      len2[v] = len[v] + len[a];
    } else {
      anc2[v] = a;
      len2[v] = len[v];
    }
  }
}

__global__ void rooted_kernel(const std::int64_t* anc, index_t n, index_t root, failure_record* f) {
  for (index_t v : gpu::grid_stride(n))
    if (anc[v] >= 0 && anc[v] != root) fail(f, not_rooted, v, anc[v]);
}

__global__ void distances_kernel(const std::int64_t* parent, const float* dist, index_t n, index_t root,
                                 failure_record* f) {
  for (index_t v : gpu::grid_stride(n)) {
    if (parent[v] < 0) continue;
    const float d = dist[v];
    if (!(d >= 0.0f) || d == __int_as_float(0x7f800000)) fail(f, bad_distance, v, parent[v]);
    if (v == root && d != 0.0f) fail(f, root_distance, v, 0);
  }
}

/// One warp per CSR row. Level is float for SSSP (dist) and int64 for BFS (len from the jumping).
template <class V, class Level>
__global__ void edges_kernel(graph::csr_view<V> g, const V* new2old, const std::int64_t* parent, const Level* level,
                             std::uint8_t* confirmed, ull* nedge, failure_record* f) {
  const int lane = gpu::lane_id();
  ull count = 0;
  for (index_t r : gpu::warp_stride(g.num_vertices)) {
    const index_t u = new2old ? static_cast<index_t>(new2old[r]) : r;
    const bool ru = parent[u] >= 0;
    const Level du = level[u];
    for (index_t e = g.offsets[r] + lane, end = g.offsets[r + 1]; e < end; e += 32) {
      const V c = g.columns[e];
      const index_t v = new2old ? static_cast<index_t>(new2old[c]) : static_cast<index_t>(c);
      const bool rv = parent[v] >= 0;
      if (ru != rv) {
        fail(f, visited_unvisited, u, v);
        continue;
      }
      if (!ru) continue;
      const Level dv = level[v];
      Level w;
      if constexpr (sizeof(Level) == sizeof(float)) {
        w = g.weights[e];
        if (__fadd_rn(du, w) < dv || __fadd_rn(dv, w) < du) fail(f, triangle, u, v);
        if (parent[v] == u && dv == __fadd_rn(du, w)) confirmed[v] = 1;
      } else {
        w = 1;
        if (du + w < dv || dv + w < du) fail(f, triangle, u, v);
        if (parent[v] == u && dv == du + w) confirmed[v] = 1;
      }
      count += u < v;
    }
  }
  for (int o = 16; o > 0; o >>= 1) count += __shfl_down_sync(0xffffffffu, count, o);
  if (lane == 0 && count) atomicAdd(nedge, count);
}

__global__ void confirmed_kernel(const std::int64_t* parent, const std::uint8_t* confirmed, index_t n, index_t root,
                                 failure_record* f) {
  for (index_t v : gpu::grid_stride(n))
    if (v != root && parent[v] >= 0 && !confirmed[v]) fail(f, not_confirmed, v, parent[v]);
}

std::string describe_failure(const failure_record& r) {
  const std::string a = std::to_string(r.a), b = std::to_string(r.b);
  switch (r.code) {
    case parent_out_of_range: return "parent of vertex " + a + " is " + b + ", not a vertex id";
    case root_not_own_parent: return "the root " + a + " has parent " + b + ", not itself";
    case parent_unreached: return "vertex " + a + " has parent " + b + ", which was not reached";
    case not_rooted: return "vertex " + a + " does not lead to the root through its parents (cycle via " + b + ")";
    case bad_distance: return "vertex " + a + " is reached but has no finite distance >= 0";
    case root_distance: return "the root " + a + " has a distance other than 0";
    case visited_unvisited: return "edge (" + a + ", " + b + ") connects visited and unvisited vertices";
    case triangle: return "triangle rule violated on edge (" + a + ", " + b + ")";
    case not_confirmed:
      return "path to vertex " + a + " not confirmed from predecessor " + b + " (no such edge at the right level)";
    default: return "unknown failure " + std::to_string(r.code);
  }
}

/// Shared driver: phases 1, 2 (jumping), then the edge pass with the given level array.
template <class V>
class checker {
 public:
  checker(graph::csr_view<V> g, const V* new2old, index_t root, const std::int64_t* parent)
      : g_(g), new2old_(new2old), root_(root), parent_(parent), n_(g.num_vertices), f_(1) {
    GPU500_CUDA_CHECK(cudaMemset(f_.data(), 0, sizeof(failure_record)));
  }

  [[nodiscard]] unsigned blocks() const { return gpu::grid_blocks(n_, validate_policy::block); }

  bool failed(validation& out) {
    failure_record r{};
    gpu::copy_bytes(&r, f_.data(), sizeof r);
    if (r.code == ok) return false;
    out.ok = false;
    out.message = describe_failure(r);
    return true;
  }

  /// Phases 1-2; on success len_ holds the tree depth of every reached vertex.
  bool tree(validation& out) {
    if (root_ < 0 || root_ >= n_) {
      out.message = "root " + std::to_string(root_) + " is not a vertex";
      return false;
    }
    parents_kernel<<<blocks(), validate_policy::block>>>(parent_, n_, root_, f_.data());
    GPU500_CUDA_CHECK_LAUNCH();
    if (failed(out)) return false;
    device_buffer<std::int64_t> anc2(static_cast<std::size_t>(n_)), len2(static_cast<std::size_t>(n_));
    anc_ = device_buffer<std::int64_t>(static_cast<std::size_t>(n_));
    len_ = device_buffer<std::int64_t>(static_cast<std::size_t>(n_));
    jump_init_kernel<<<blocks(), validate_policy::block>>>(parent_, n_, root_, anc_.data(), len_.data());
    GPU500_CUDA_CHECK_LAUNCH();
    int rounds = 1;
    while ((index_t{1} << (rounds - 1)) < n_) ++rounds;
    for (int i = 0; i < rounds; ++i) {
      jump_kernel<<<blocks(), validate_policy::block>>>(anc_.data(), len_.data(), n_, root_, anc2.data(),
                                                        len2.data());
      GPU500_CUDA_CHECK_LAUNCH();
      std::swap(anc_, anc2);
      std::swap(len_, len2);
    }
    rooted_kernel<<<blocks(), validate_policy::block>>>(anc_.data(), n_, root_, f_.data());
    GPU500_CUDA_CHECK_LAUNCH();
    return !failed(out);
  }

  bool distances(const float* dist, validation& out) {
    distances_kernel<<<blocks(), validate_policy::block>>>(parent_, dist, n_, root_, f_.data());
    GPU500_CUDA_CHECK_LAUNCH();
    return !failed(out);
  }

  template <class Level>
  bool edges(const Level* level, index_t kernel_nedge, validation& out) {
    device_buffer<std::uint8_t> confirmed(static_cast<std::size_t>(n_));
    device_buffer<ull> nedge(1);
    GPU500_CUDA_CHECK(cudaMemset(confirmed.data(), 0, confirmed.size()));
    GPU500_CUDA_CHECK(cudaMemset(nedge.data(), 0, sizeof(ull)));
    edges_kernel<V, Level><<<gpu::grid_blocks(n_ * 32, validate_policy::block), validate_policy::block>>>(
        g_, new2old_, parent_, level, confirmed.data(), nedge.data(), f_.data());
    GPU500_CUDA_CHECK_LAUNCH();
    if (failed(out)) return false;
    confirmed_kernel<<<blocks(), validate_policy::block>>>(parent_, confirmed.data(), n_, root_, f_.data());
    GPU500_CUDA_CHECK_LAUNCH();
    if (failed(out)) return false;
    ull h = 0;
    gpu::copy_bytes(&h, nedge.data(), sizeof h);
    out.nedge = static_cast<index_t>(h);
    if (kernel_nedge >= 0 && out.nedge != kernel_nedge) {
      out.message = "wrong nedge_traversed: the kernel counted " + std::to_string(kernel_nedge) +
                    ", the validator " + std::to_string(out.nedge);
      return false;
    }
    return true;
  }

  [[nodiscard]] const std::int64_t* depth() const { return len_.data(); }

 private:
  graph::csr_view<V> g_;
  const V* new2old_;
  index_t root_;
  const std::int64_t* parent_;
  index_t n_;
  device_buffer<failure_record> f_;
  device_buffer<std::int64_t> anc_, len_;
};

}  // namespace

template <class V>
validation validate_bfs(graph::csr_view<V> g, const V* new2old, index_t root, const std::int64_t* parent,
                        index_t kernel_nedge) {
  validation out;
  checker<V> c(g, new2old, root, parent);
  if (!c.tree(out)) return out;
  if (!c.edges(c.depth(), kernel_nedge, out)) return out;
  out.ok = true;
  return out;
}

template <class V>
validation validate_sssp(graph::csr_view<V> g, const V* new2old, index_t root, const std::int64_t* parent,
                         const float* dist, index_t kernel_nedge) {
  validation out;
  GPU500_EXPECTS(g.weights != nullptr, "SSSP validation needs a weighted graph");
  checker<V> c(g, new2old, root, parent);
  if (!c.tree(out)) return out;
  if (!c.distances(dist, out)) return out;
  if (!c.edges(dist, kernel_nedge, out)) return out;
  out.ok = true;
  return out;
}

template validation validate_bfs<std::uint32_t>(graph::csr_view<std::uint32_t>, const std::uint32_t*, index_t,
                                                const std::int64_t*, index_t);
template validation validate_bfs<std::int64_t>(graph::csr_view<std::int64_t>, const std::int64_t*, index_t,
                                               const std::int64_t*, index_t);
template validation validate_sssp<std::uint32_t>(graph::csr_view<std::uint32_t>, const std::uint32_t*, index_t,
                                                 const std::int64_t*, const float*, index_t);
template validation validate_sssp<std::int64_t>(graph::csr_view<std::int64_t>, const std::int64_t*, index_t,
                                                const std::int64_t*, const float*, index_t);

}  // namespace gpu500::graph500::cuda
