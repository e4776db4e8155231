// The Kronecker generator on the GPU, device edge lists (allocation, upload, download), and the
// device-memory estimate of the CUDA Graph500 pipeline (see gpu500/graph/cuda.hpp).
//
// Each thread produces a contiguous run of edges of the list or of one rank's slice of it (the
// multi-rank pipeline's generator): it skips the seed state to its first edge's
// substream (e * 2^64 steps, with a device copy of the host's skip tables) and then moves from one
// edge's substream to the next with the single matrix A^(2^64). Every edge is made by the same
// make_kronecker_edge the host generator calls, so both lists are bit-identical.
#include <cuda_runtime.h>

#include <limits>
#include <string>

#include "gpu500/core/cuda/check.cuh"
#include "gpu500/core/cuda/launch.cuh"
#include "gpu500/core/cuda/memory.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/graph/cuda.hpp"

namespace gpu500::graph::cuda {

std::size_t pipeline_device_bytes(index_t n, index_t m, std::size_t vb, bool weighted, bool relabel) {
  const auto N = static_cast<std::size_t>(n), M = static_cast<std::size_t>(m);
  const std::size_t edge_list = 2 * M * vb + (weighted ? 4 * M : 0);
  const std::size_t csr = 8 * (N + 1) + 2 * M * vb + (weighted ? 8 * M : 0);
  const std::size_t maps = relabel ? 2 * N * vb : 0;
  // Kernel 1 peak: edge list + CSR + maps + degree/cursor + (relabel: sorted degrees, iota, radix temp).
  const std::size_t k1 = edge_list + csr + maps + 8 * N + (relabel ? 8 * N + vb * N + 16 * N : 0);
  // Steady state: CSR + maps + search engine (status, parents, the parents in original ids, two
  // queues, bitmap) + validator work arrays (original-id parents, ancestor/length pairs, depth,
  // flags) + an SSSP engine's arrays (its device loop's three bitmaps and 2.5 MB of lists among them).
  const std::size_t engine = 4 * N + vb * N + (relabel ? vb * N : 0) + 2 * vb * N + N / 8 + (std::size_t{16} << 20);
  const std::size_t validator = 8 * N + 32 * N + 4 * N + N;
  const std::size_t sssp = weighted ? 16 * N + 3 * N / 8 + (std::size_t{3} << 20) : 0;
  const std::size_t steady = csr + maps + engine + validator + sssp;
  return (k1 > steady ? k1 : steady) + (std::size_t{256} << 20);
}

namespace {

struct generator_policy {
  static constexpr int block = 256;
  static constexpr int edges_per_thread = 16;
};

/// Edges [first, first + m) of the graph into src/dst/w[0, m): each thread a run of
/// edges_per_thread of them.
template <class V>
__global__ void kronecker_kernel(const mrg_skip_table* table, mrg_state seed, scramble_key key, int scale, int a,
                                 int b, int c, index_t first, index_t m, V* src, V* dst, float* w) {
  const index_t lo = gpu::global_thread_id() * generator_policy::edges_per_thread;
  if (lo >= m) return;
  const index_t hi = lo + generator_policy::edges_per_thread < m ? lo + generator_policy::edges_per_thread : m;
  mrg_state s = table->skip(seed, 0, static_cast<std::uint64_t>(first + lo), 0);
  const mrg_matrix& step = table->m[8][1];  // A^(2^64): next edge's substream
  for (index_t e = lo; e < hi; ++e) {
    const kronecker_edge k = make_kronecker_edge(s, scale, a, b, c, key);
    src[e] = static_cast<V>(k.src);
    dst[e] = static_cast<V>(k.dst);
    if (w) w[e] = k.weight;
    s = step.apply(s);
  }
}

}  // namespace

template <class V>
device_edge_list<V> allocate_edge_list(index_t n, index_t m, bool weighted) {
  device_edge_list<V> el;
  el.num_vertices = n;
  el.num_edges = m;
  el.src = gpu::device_buffer<V>(static_cast<std::size_t>(m));
  el.dst = gpu::device_buffer<V>(static_cast<std::size_t>(m));
  if (weighted) el.weight = gpu::device_buffer<float>(static_cast<std::size_t>(m));
  return el;
}
template device_edge_list<std::uint32_t> allocate_edge_list<std::uint32_t>(index_t, index_t, bool);
template device_edge_list<std::int64_t> allocate_edge_list<std::int64_t>(index_t, index_t, bool);

template <class V>
device_edge_list<V> generate_kronecker_device(const kronecker_params& p, index_t first, index_t count) {
  p.check();
  const index_t n = p.num_vertices();
  GPU500_EXPECTS(first >= 0 && count >= 0 && first + count <= p.num_edges(), "edge slice outside the edge list");
  if (static_cast<std::uint64_t>(n - 1) > static_cast<std::uint64_t>(std::numeric_limits<V>::max()))
    throw usage_error("SCALE " + std::to_string(p.scale) + " does not fit " + std::to_string(8 * sizeof(V)) +
                      "-bit vertex ids");
  device_edge_list<V> el = allocate_edge_list<V>(n, count, p.weights);
  if (count == 0) return el;
  gpu::device_buffer<mrg_skip_table> table(1);
  gpu::copy_bytes(table.data(), &mrg_skip_table::get(), sizeof(mrg_skip_table));
  const index_t threads = gpu::ceil_div(count, generator_policy::edges_per_thread);
  const index_t blocks = gpu::ceil_div(threads, generator_policy::block);
  GPU500_EXPECTS(blocks < (index_t{1} << 31), "edge list too large for one launch");
  kronecker_kernel<V><<<static_cast<unsigned>(blocks), generator_policy::block>>>(
      table.data(), mrg_seed(p.seed1, p.seed2), make_scramble_key(p.seed1, p.seed2), p.scale, p.a, p.b, p.c, first,
      count, el.src.data(), el.dst.data(), p.weights ? el.weight.data() : nullptr);
  GPU500_CUDA_CHECK_LAUNCH();
  GPU500_CUDA_CHECK(cudaDeviceSynchronize());
  return el;
}

template <class V>
device_edge_list<V> generate_kronecker_device(const kronecker_params& p) {
  p.check();
  return generate_kronecker_device<V>(p, 0, p.num_edges());
}

template <class V>
device_edge_list<V> upload_edge_list(const edge_list& el) {
  const index_t n = el.num_vertices, m = el.size();
  GPU500_EXPECTS(el.dst.size() == el.src.size(), "edge list: src and dst differ in length");
  GPU500_EXPECTS(!el.weighted() || el.weight.size() == el.src.size(), "edge list: weights differ in length");
  if (n < 1) throw usage_error("graph: the vertex count must be positive");
  if (static_cast<std::uint64_t>(n - 1) > static_cast<std::uint64_t>(std::numeric_limits<V>::max()))
    throw usage_error("graph: " + std::to_string(n) + " vertices do not fit " + std::to_string(8 * sizeof(V)) +
                      "-bit vertex ids");
  std::vector<V> s(static_cast<std::size_t>(m)), d(static_cast<std::size_t>(m));
  for (index_t i = 0; i < m; ++i) {
    const std::int64_t u = el.src[i], v = el.dst[i];
    if (u < 0 || u >= n || v < 0 || v >= n)
      throw usage_error("graph: edge " + std::to_string(i) + " (" + std::to_string(u) + ", " + std::to_string(v) +
                        ") has an endpoint outside [0, " + std::to_string(n) + ")");
    s[i] = static_cast<V>(u);
    d[i] = static_cast<V>(v);
  }
  device_edge_list<V> out = allocate_edge_list<V>(n, m, el.weighted());
  gpu::copy_bytes(out.src.data(), s.data(), s.size() * sizeof(V));
  gpu::copy_bytes(out.dst.data(), d.data(), d.size() * sizeof(V));
  if (el.weighted()) gpu::copy_bytes(out.weight.data(), el.weight.data(), el.weight.size() * sizeof(float));
  return out;
}

template <class V>
edge_list download_edge_list(const device_edge_list<V>& el) {
  edge_list h;
  h.num_vertices = el.num_vertices;
  const auto s = gpu::to_host(el.src.data(), el.src.size()), d = gpu::to_host(el.dst.data(), el.dst.size());
  h.src.assign(s.begin(), s.end());
  h.dst.assign(d.begin(), d.end());
  if (!el.weight.empty()) {
    const auto w = gpu::to_host(el.weight.data(), el.weight.size());
    h.weight.assign(w.begin(), w.end());
  }
  return h;
}

template device_edge_list<std::uint32_t> generate_kronecker_device<std::uint32_t>(const kronecker_params&);
template device_edge_list<std::int64_t> generate_kronecker_device<std::int64_t>(const kronecker_params&);
template device_edge_list<std::int64_t> generate_kronecker_device<std::int64_t>(const kronecker_params&, index_t,
                                                                              index_t);
template device_edge_list<std::uint32_t> upload_edge_list<std::uint32_t>(const edge_list&);
template device_edge_list<std::int64_t> upload_edge_list<std::int64_t>(const edge_list&);
template edge_list download_edge_list<std::uint32_t>(const device_edge_list<std::uint32_t>&);
template edge_list download_edge_list<std::int64_t>(const device_edge_list<std::int64_t>&);

}  // namespace gpu500::graph::cuda
