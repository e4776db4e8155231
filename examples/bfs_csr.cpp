// BFS on the user's own CSR through gpu500's public API: the CPU engine (gpu500::bfs), and the
// CUDA engine (gpu500::bfs_cuda) when the package was built with CUDA and a GPU is present. Each
// result is checked against a plain queue BFS: every reached vertex's parent is a neighbour one
// level closer to the root, and the reached sets agree.
#include <cstdint>
#include <cstdio>
#include <deque>
#include <span>
#include <vector>

#include "gpu500/bfs/bfs.hpp"
#include "gpu500/graph/csr.hpp"
#if EXAMPLE_WITH_CUDA
#include "gpu500/bfs/cuda.hpp"
#include "gpu500/core/cuda/memory.hpp"
#include "gpu500/core/device.hpp"
#endif

namespace {

// The user's graph: 10 vertices, 9 undirected edges stored both ways; vertices 8 and 9 are isolated.
const std::vector<gpu500::index_t> offsets = {0, 3, 5, 8, 10, 13, 15, 17, 18, 18, 18};
const std::vector<std::int64_t> columns = {1, 2, 3, 0, 4, 0, 5, 6, 0, 4, 1, 3, 7, 2, 6, 2, 5, 4};

std::vector<int> levels_from(gpu500::index_t root) {
  std::vector<int> level(offsets.size() - 1, -1);
  std::deque<gpu500::index_t> q{root};
  level[root] = 0;
  while (!q.empty()) {
    const gpu500::index_t v = q.front();
    q.pop_front();
    for (gpu500::index_t a = offsets[v]; a < offsets[v + 1]; ++a)
      if (level[columns[a]] < 0) level[columns[a]] = level[v] + 1, q.push_back(columns[a]);
  }
  return level;
}

bool check(const char* engine, std::span<const std::int64_t> parent, gpu500::index_t root) {
  const std::vector<int> level = levels_from(root);
  for (std::size_t v = 0; v < level.size(); ++v) {
    const std::int64_t p = parent[v];
    const bool ok = level[v] < 0 ? p == -1 : v == static_cast<std::size_t>(root) ? p == root : p >= 0 && level[p] == level[v] - 1;
    if (!ok) {
      std::printf("%s: vertex %zu has parent %lld (level %d): wrong\n", engine, v, static_cast<long long>(p), level[v]);
      return false;
    }
  }
  std::printf("%s: parents from root %lld:", engine, static_cast<long long>(root));
  for (const std::int64_t p : parent) std::printf(" %lld", static_cast<long long>(p));
  std::printf("  (valid)\n");
  return true;
}

}  // namespace

int main() {
  const gpu500::index_t n = static_cast<gpu500::index_t>(offsets.size()) - 1, root = 0;
  // A view of the user's arrays: no copy.
  const gpu500::graph::csr_view<std::int64_t> g{n, 0, n, offsets.data(), columns.data(), nullptr};
  gpu500::bfs::cpu_engine<std::int64_t> cpu(g);
  cpu.run(root);
  bool ok = check("cpu", cpu.parents(), root);
  std::printf("cpu: %lld edges traversed\n", static_cast<long long>(cpu.traversed_edges()));

#if EXAMPLE_WITH_CUDA
  if (!gpu500::cuda_available()) {
    std::printf("cuda: no GPU here, the CUDA engine is skipped\n");
  } else {
    // The same arrays on the device (32-bit ids there), then the Enterprise engine on them.
    const std::vector<std::uint32_t> cols32(columns.begin(), columns.end());
    const auto d_off = gpu500::gpu::to_device(std::span<const gpu500::index_t>(offsets));
    const auto d_col = gpu500::gpu::to_device(std::span<const std::uint32_t>(cols32));
    const gpu500::graph::csr_view<std::uint32_t> dg{n, 0, n, d_off.data(), d_col.data(), nullptr};
    gpu500::bfs::cuda::engine<std::uint32_t> gpu(dg, /*degree_sorted=*/false);
    gpu.run(root);
    const std::vector<std::uint32_t> p32 = gpu500::gpu::to_host(gpu.parents_original(), static_cast<std::size_t>(n));
    std::vector<std::int64_t> parent(p32.size());
    for (std::size_t v = 0; v < p32.size(); ++v) parent[v] = p32[v] == ~std::uint32_t{0} ? -1 : std::int64_t{p32[v]};
    ok = check("cuda", parent, root) && ok;
  }
#endif
  return ok ? 0 : 1;
}
