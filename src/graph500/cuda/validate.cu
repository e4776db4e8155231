// The Graph500 validator on the GPU (BFS and SSSP), on one process or over MPI ranks. It shares
// no code with the search kernels: it reads only the kernel-1 rows, the new -> original id map and
// the result arrays in ORIGINAL ids. Over ranks each rank holds a block of rows and its slice of
// the result; the slices are all-gathered, so every rank holds the whole parent (and distance)
// array, and each rank checks its own rows' arcs.
//
// 1. parents: every parent is -1 or a vertex; the root is its own parent; a reached vertex's
//    parent is reached;
// 2. the tree is rebuilt by pointer jumping (anc, len) <- (anc[anc], len + len[anc]) until every
//    ancestor is the root or -1, at most ceil(log2 n) + 1 rounds: a reached vertex whose ancestor
//    is not the root afterwards lies on a cycle; len is then the BFS depth (the reference rebuilds
//    the same depth map by propagation); SSSP: every reached vertex has a distance >= 0 and the
//    root distance 0;
// 3. every arc (u, v) of the rows (both directions, duplicates included): exactly one end reached
//    -> "edge connecting visited and unvisited vertices"; d(u) + w < d(v) -> "triangle rule" (w = 1
//    for BFS, the float weight for SSSP, float arithmetic); parent[u] == v and d(u) == d(v) + w
//    (exact) -> u confirmed (the rows hold both directions of every edge with its weight, so each
//    vertex is confirmed in its own row, on the rank that owns it); arcs with u < v and both ends
//    reached are counted (nedge, summed over the ranks);
// 4. every reached vertex but the root must be confirmed (catches non-edges and wrong levels);
// 5. nedge must equal the kernel's.
// Over ranks every rank returns the same verdict: the failure of the lowest rank that found one.
// Phases 1 and 2 read only the gathered arrays, so the ranks run them alike.
#include <cuda_runtime.h>

#include <string>

#include "gpu500/core/cuda/check.cuh"
#include "gpu500/core/cuda/launch.cuh"
#include "gpu500/core/cuda/memory.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/dist/device_exchange.hpp"
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

/// One round of pointer jumping; *pending is set where an ancestor is still neither the root nor -1.
__global__ void jump_kernel(const std::int64_t* anc, const std::int64_t* len, index_t n, index_t root,
                            std::int64_t* anc2, std::int64_t* len2, int* pending) {
  bool more = false;
  for (index_t v : gpu::grid_stride(n)) {
    const std::int64_t a = anc[v];
    if (a >= 0 && a != root) {
      const std::int64_t b = anc[a];
      anc2[v] = b;
      len2[v] = len[v] + len[a];
      more |= b >= 0 && b != root;
    } else {
      anc2[v] = a;
      len2[v] = len[v];
    }
  }
  if (__any_sync(0xffffffffu, more) && gpu::lane_id() == 0) *pending = 1;
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

/// Row r's vertex: its original id through new2old (one process, relabelled rows), else first + r.
template <class V>
__device__ index_t row_vertex(const V* new2old, index_t first, index_t r) {
  return new2old ? static_cast<index_t>(new2old[r]) : first + r;
}

/// One warp per row. Level is float for SSSP (dist) and int64 for BFS (len from the jumping);
/// parent and level hold every vertex; confirmed[r]: row r's vertex is confirmed by its parent.
template <class V, class Level>
__global__ void edges_kernel(graph::csr_view<V> g, const V* new2old, const std::int64_t* parent, const Level* level,
                             std::uint8_t* confirmed, ull* nedge, failure_record* f) {
  const int lane = gpu::lane_id();
  ull count = 0;
  for (index_t r : gpu::warp_stride(g.local_vertices)) {
    const index_t u = row_vertex(new2old, g.first_vertex, r);
    const std::int64_t pu = parent[u];
    const bool ru = pu >= 0;
    const Level du = level[u];
    bool confirms = false;
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
      if constexpr (sizeof(Level) == sizeof(float)) {
        const float w = g.weights[e];
        if (__fadd_rn(du, w) < dv || __fadd_rn(dv, w) < du) fail(f, triangle, u, v);
        confirms |= pu == v && du == __fadd_rn(dv, w);
      } else {
        if (du + 1 < dv || dv + 1 < du) fail(f, triangle, u, v);
        confirms |= pu == v && du == dv + 1;
      }
      count += u < v;
    }
    if (__any_sync(0xffffffffu, confirms) && lane == 0) confirmed[r] = 1;
  }
  for (int o = 16; o > 0; o >>= 1) count += __shfl_down_sync(0xffffffffu, count, o);
  if (lane == 0 && count) atomicAdd(nedge, count);
}

template <class V>
__global__ void confirmed_kernel(const V* new2old, index_t first, index_t rows, const std::int64_t* parent,
                                 const std::uint8_t* confirmed, index_t root, failure_record* f) {
  for (index_t r : gpu::grid_stride(rows)) {
    const index_t v = row_vertex(new2old, first, r);
    if (v != root && parent[v] >= 0 && !confirmed[r]) fail(f, not_confirmed, v, parent[v]);
  }
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

/// Shared driver: phases 1, 2 (jumping), then the edge pass with the given level array. Over
/// ranks (x with several ranks) the slices are gathered into whole arrays first and every verdict
/// is agreed on.
template <class V>
class checker {
 public:
  checker(graph::csr_view<V> g, const V* new2old, index_t root, const std::int64_t* parent,
          dist::device_exchange* x)
      : g_(g), new2old_(new2old), root_(root), n_(g.num_vertices), x_(x && x->comm().size() > 1 ? x : nullptr),
        f_(1) {
    GPU500_CUDA_CHECK(cudaMemset(f_.data(), 0, sizeof(failure_record)));
    if (!x_) {
      GPU500_EXPECTS(g.first_vertex == 0 && g.local_vertices == n_, "one process validates every row");
      parent_ = parent;
      return;
    }
    GPU500_EXPECTS(new2old == nullptr, "over ranks the validator reads the rows in their original ids");
    // The blocks in rank order must make up the vertices, as the slices are concatenated.
    counts_ = x_->comm().allgather(g.local_vertices);
    index_t before = 0;
    for (int r = 0; r < x_->comm().rank(); ++r) before += counts_[static_cast<std::size_t>(r)];
    index_t all = 0;
    for (index_t c : counts_) all += c;
    GPU500_EXPECTS(before == g.first_vertex && all == n_, "the ranks' rows are blocks of the vertices in rank order");
    whole_parent_ = gather(parent);
    parent_ = whole_parent_.data();
  }

  [[nodiscard]] unsigned blocks() const { return gpu::grid_blocks(n_, validate_policy::block); }

  /// True (and out filled) when some rank's checks failed; over ranks the lowest such rank's
  /// failure, the same on every rank.
  bool failed(validation& out) {
    failure_record r{};
    gpu::copy_bytes(&r, f_.data(), sizeof r);
    if (x_) {
      for (const failure_record& other : x_->comm().allgather(r))
        if (other.code != ok) {
          r = other;
          break;
        }
    }
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
    device_buffer<int> pending(1);
    jump_init_kernel<<<blocks(), validate_policy::block>>>(parent_, n_, root_, anc_.data(), len_.data());
    GPU500_CUDA_CHECK_LAUNCH();
    int rounds = 1;
    while ((index_t{1} << (rounds - 1)) < n_) ++rounds;
    for (int i = 0; i < rounds; ++i) {
      GPU500_CUDA_CHECK(cudaMemset(pending.data(), 0, sizeof(int)));
      jump_kernel<<<blocks(), validate_policy::block>>>(anc_.data(), len_.data(), n_, root_, anc2.data(),
                                                        len2.data(), pending.data());
      GPU500_CUDA_CHECK_LAUNCH();
      std::swap(anc_, anc2);
      std::swap(len_, len2);
      int more = 0;
      gpu::copy_bytes(&more, pending.data(), sizeof more);
      if (!more) break;  // every ancestor is the root or -1: further rounds change nothing
    }
    rooted_kernel<<<blocks(), validate_policy::block>>>(anc_.data(), n_, root_, f_.data());
    GPU500_CUDA_CHECK_LAUNCH();
    return !failed(out);
  }

  /// The distances (this process's slice); over ranks gathered into a whole array kept for edges().
  const float* distances(const float* dist, validation& out) {
    if (x_) {
      whole_dist_ = gather(dist);
      dist = whole_dist_.data();
    }
    distances_kernel<<<blocks(), validate_policy::block>>>(parent_, dist, n_, root_, f_.data());
    GPU500_CUDA_CHECK_LAUNCH();
    return failed(out) ? nullptr : dist;
  }

  /// Phases 3-5 over this process's rows; level holds every vertex.
  template <class Level>
  bool edges(const Level* level, index_t kernel_nedge, validation& out) {
    const index_t rows = g_.local_vertices;
    device_buffer<std::uint8_t> confirmed(static_cast<std::size_t>(rows) + 1);
    device_buffer<ull> nedge(1);
    GPU500_CUDA_CHECK(cudaMemset(confirmed.data(), 0, confirmed.size()));
    GPU500_CUDA_CHECK(cudaMemset(nedge.data(), 0, sizeof(ull)));
    if (rows > 0) {
      edges_kernel<V, Level><<<gpu::grid_blocks(rows * 32, validate_policy::block), validate_policy::block>>>(
          g_, new2old_, parent_, level, confirmed.data(), nedge.data(), f_.data());
      GPU500_CUDA_CHECK_LAUNCH();
    }
    if (failed(out)) return false;
    if (rows > 0) {
      confirmed_kernel<V><<<gpu::grid_blocks(rows, validate_policy::block), validate_policy::block>>>(
          new2old_, g_.first_vertex, rows, parent_, confirmed.data(), root_, f_.data());
      GPU500_CUDA_CHECK_LAUNCH();
    }
    if (failed(out)) return false;
    ull h = 0;
    gpu::copy_bytes(&h, nedge.data(), sizeof h);
    out.nedge = static_cast<index_t>(h);
    if (x_) out.nedge = x_->comm().allreduce(out.nedge, dist::reduce_op::sum);
    if (kernel_nedge >= 0 && out.nedge != kernel_nedge) {
      out.message = "wrong nedge_traversed: the kernel counted " + std::to_string(kernel_nedge) +
                    ", the validator " + std::to_string(out.nedge);
      return false;
    }
    return true;
  }

  [[nodiscard]] const std::int64_t* depth() const { return len_.data(); }

 private:
  /// Every rank's slice of T (its rows' entries) -> the whole array, on every rank.
  template <class T>
  device_buffer<T> gather(const T* mine) {
    device_buffer<T> whole(static_cast<std::size_t>(n_));
    x_->allgatherv_bytes(mine, whole.data(), counts_.data(), sizeof(T));
    return whole;
  }

  graph::csr_view<V> g_;
  const V* new2old_;
  index_t root_;
  const std::int64_t* parent_ = nullptr;  // every vertex's parent
  index_t n_;
  dist::device_exchange* x_;   // null on one process (or one rank)
  std::vector<index_t> counts_;  // over ranks: every rank's rows
  device_buffer<failure_record> f_;
  device_buffer<std::int64_t> whole_parent_, anc_, len_;
  device_buffer<float> whole_dist_;
};

}  // namespace

template <class V>
validation validate_bfs(graph::csr_view<V> g, const V* new2old, index_t root, const std::int64_t* parent,
                        index_t kernel_nedge, dist::device_exchange* ranks) {
  validation out;
  checker<V> c(g, new2old, root, parent, ranks);
  if (!c.tree(out)) return out;
  if (!c.edges(c.depth(), kernel_nedge, out)) return out;
  out.ok = true;
  return out;
}

template <class V>
validation validate_sssp(graph::csr_view<V> g, const V* new2old, index_t root, const std::int64_t* parent,
                         const float* dist, index_t kernel_nedge, dist::device_exchange* ranks) {
  validation out;
  // (Over ranks a rank whose rows hold no arcs has no weights; the host cannot read g's offsets.)
  GPU500_EXPECTS(g.weights != nullptr || (ranks != nullptr && ranks->comm().size() > 1),
                 "SSSP validation needs a weighted graph");
  checker<V> c(g, new2old, root, parent, ranks);
  if (!c.tree(out)) return out;
  const float* whole = c.distances(dist, out);
  if (whole == nullptr) return out;
  if (!c.edges(whole, kernel_nedge, out)) return out;
  out.ok = true;
  return out;
}

std::size_t validator_device_bytes(index_t n, index_t rows) {
  // Per vertex: the whole parents and distances, the jumping's two (ancestor, length) pairs;
  // per row: its confirmed flag.
  return static_cast<std::size_t>(n) * (8 + 4 + 4 * 8) + static_cast<std::size_t>(rows) + 4096;
}

template validation validate_bfs<std::uint32_t>(graph::csr_view<std::uint32_t>, const std::uint32_t*, index_t,
                                                const std::int64_t*, index_t, dist::device_exchange*);
template validation validate_bfs<std::int64_t>(graph::csr_view<std::int64_t>, const std::int64_t*, index_t,
                                               const std::int64_t*, index_t, dist::device_exchange*);
template validation validate_sssp<std::uint32_t>(graph::csr_view<std::uint32_t>, const std::uint32_t*, index_t,
                                                 const std::int64_t*, const float*, index_t, dist::device_exchange*);
template validation validate_sssp<std::int64_t>(graph::csr_view<std::int64_t>, const std::int64_t*, index_t,
                                                const std::int64_t*, const float*, index_t, dist::device_exchange*);

}  // namespace gpu500::graph500::cuda
