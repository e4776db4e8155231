// An edge list taken from the caller's device arrays (see gpu500/graph/cuda.hpp): int64 ends and
// float weights that already live on the GPU (a PyTorch or CuPy array handed over by DLPack) become
// the pipeline's device_edge_list<V> without passing through host memory. One pass narrows the ids
// to V and checks them: the count of ends outside [0, n) with the first such edge, and the edges
// that join two distinct vertices (a graph of self-loops only has nothing to search), as
// upload_edge_list and graph::check_searchable do for a host list; it also writes the unit weights
// of an unweighted list searched by SSSP.
#include <cuda_runtime.h>

#include <limits>
#include <string>

#include "gpu500/core/cuda/check.cuh"
#include "gpu500/core/cuda/launch.cuh"
#include "gpu500/core/cuda/memory.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/graph/cuda.hpp"

namespace gpu500::graph::cuda {

namespace {

struct edge_check {
  unsigned long long bad;         ///< ends outside [0, n)
  unsigned long long first_bad;   ///< the lowest edge index with such an end
  unsigned long long proper;      ///< edges joining two distinct vertices
  long long largest;              ///< the largest end (vertex_count)
};

struct device_edges_policy {
  static constexpr int block = 256;
};

/// Narrows edge i's ends into s/d (when given) and counts what the checks need.
template <class V>
__global__ void check_narrow_kernel(const std::int64_t* src, const std::int64_t* dst, index_t m, index_t n, V* s,
                                    V* d, float* ones, edge_check* out) {
  unsigned long long bad = 0, proper = 0, first_bad = ~0ULL;
  long long largest = -1;
  for (index_t i : gpu::grid_stride(m)) {
    const std::int64_t u = src[i], v = dst[i];
    const long long hi = u > v ? u : v;
    if (hi > largest) largest = hi;
    if (u < 0 || v < 0 || (n > 0 && (u >= n || v >= n))) {
      ++bad;
      first_bad = min(first_bad, static_cast<unsigned long long>(i));
      continue;
    }
    proper += u != v;
    if (s) {
      s[i] = static_cast<V>(u);
      d[i] = static_cast<V>(v);
    }
    if (ones) ones[i] = 1.0f;
  }
  if (bad) {
    atomicAdd(&out->bad, bad);
    atomicMin(&out->first_bad, first_bad);
  }
  if (proper) atomicAdd(&out->proper, proper);
  atomicMax(&out->largest, largest);
}

template <class V>
edge_check run_check(const device_edge_arrays& a, index_t n, V* s, V* d, float* ones) {
  edge_check init{0, ~0ULL, 0, -1};
  gpu::device_buffer<edge_check> c(1);
  gpu::copy_bytes(c.data(), &init, sizeof init);
  if (a.num_edges > 0) {
    gpu::launch(check_narrow_kernel<V>, gpu::grid_blocks(a.num_edges, device_edges_policy::block),
                device_edges_policy::block, 0, nullptr, a.src, a.dst, a.num_edges, n, s, d, ones, c.data());
  }
  edge_check out{};
  gpu::copy_bytes(&out, c.data(), sizeof out);
  return out;
}

void check_pointers(const device_edge_arrays& a) {
  if (a.num_edges < 0) throw usage_error("graph: negative edge count");
  if (a.num_edges > 0 && (a.src == nullptr || a.dst == nullptr))
    throw usage_error("graph: device edge arrays without data");
}

}  // namespace

index_t device_vertex_count(const device_edge_arrays& a) {
  check_pointers(a);
  const edge_check c = run_check<std::int64_t>(a, 0, nullptr, nullptr, nullptr);
  if (c.bad)
    throw usage_error("graph: " + std::to_string(c.bad) + " edge ends are negative (the first in edge " +
                      std::to_string(c.first_bad) + ")");
  return static_cast<index_t>(c.largest + 1);
}

template <class V>
device_edge_list<V> copy_edge_list(const device_edge_arrays& a) {
  check_pointers(a);
  const index_t n = a.num_vertices, m = a.num_edges;
  if (n < 1) throw usage_error("graph: the vertex count must be positive");
  if (static_cast<std::uint64_t>(n - 1) > static_cast<std::uint64_t>(std::numeric_limits<V>::max()))
    throw usage_error("graph: " + std::to_string(n) + " vertices do not fit " + std::to_string(8 * sizeof(V)) +
                      "-bit vertex ids");
  device_edge_list<V> out = allocate_edge_list<V>(n, m, a.weighted());
  const edge_check c = run_check<V>(a, n, out.src.data(), out.dst.data(), a.weight ? nullptr : out.weight.data());
  if (c.bad)
    throw usage_error("graph: " + std::to_string(c.bad) + " edge ends lie outside [0, " + std::to_string(n) +
                      ") (the first in edge " + std::to_string(c.first_bad) + ")");
  if (c.proper == 0)
    throw usage_error("the graph: no edge joins two distinct vertices (" +
                      (m == 0 ? std::string("no edges") : std::to_string(m) + " self-loops") + "): nothing to search");
  if (a.weight) {
    GPU500_CUDA_CHECK(cudaMemcpy(out.weight.data(), a.weight, static_cast<std::size_t>(m) * sizeof(float),
                                 cudaMemcpyDeviceToDevice));
  }
  return out;
}

template device_edge_list<std::uint32_t> copy_edge_list<std::uint32_t>(const device_edge_arrays&);
template device_edge_list<std::int64_t> copy_edge_list<std::int64_t>(const device_edge_arrays&);

}  // namespace gpu500::graph::cuda
