// bench/graph/serial_bfs.cpp — gpu500_serial_bfs: the textbook BFS (one FIFO queue, one thread,
// Cormen et al.'s BFS) on a graph file, the baseline bench/graph/shapes.sh sets beside the
// engines. It reads the file and builds the CSR with the library, then times each search from the
// roots given (the ones `gpu500 bfs` chose, so the same searches are compared) and prints one line
// per root and the harmonic mean of TEPS, counted as gpu500 counts them (input edges with both
// ends reached, self-loops left out, each undirected edge once).
//
//   gpu500_serial_bfs GRAPH ROOT [ROOT ...]
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "gpu500/core/cli.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/graph/csr.hpp"
#include "gpu500/graph/io.hpp"

using namespace gpu500;

int main(int argc, char** argv) try {
  if (argc < 3) throw usage_error("usage: gpu500_serial_bfs GRAPH ROOT [ROOT ...]");
  graph::read_options ro;
  ro.weights = false;
  const graph::graph_file f = graph::read_graph(argv[1], ro);
  const graph::csr<std::int64_t> g = graph::build_csr<std::int64_t>(f.edges);
  const index_t n = g.num_vertices;
  // An undirected file's CSR holds each edge twice; a directed (arc) file's also (build_csr
  // symmetrises), so the edges counted are the arcs with both ends reached, halved.
  std::vector<index_t> level(static_cast<std::size_t>(n)), queue(static_cast<std::size_t>(n));
  double inverse_sum = 0;
  int searches = 0;
  for (int a = 2; a < argc; ++a) {
    const index_t root = cli::parse_int(argv[a], "ROOT");
    if (root < 0 || root >= n) throw usage_error("ROOT " + std::to_string(root) + " outside the graph");
    std::fill(level.begin(), level.end(), -1);
    const auto t0 = std::chrono::steady_clock::now();
    index_t head = 0, tail = 0;
    level[root] = 0;
    queue[tail++] = root;
    while (head < tail) {
      const index_t u = queue[head++];
      for (index_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k) {
        const index_t v = g.columns[k];
        if (level[v] < 0) {
          level[v] = level[u] + 1;
          queue[tail++] = v;
        }
      }
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    index_t arcs = 0;  // untimed: the component's arcs
    for (index_t i = 0; i < tail; ++i) {
      const index_t u = queue[i];
      for (index_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k) arcs += g.columns[k] != u;
    }
    const double teps = static_cast<double>(arcs / 2) / seconds;
    std::printf("root %lld: %.6f s, %lld levels, %lld edges, %.4g TEPS\n", static_cast<long long>(root), seconds,
                static_cast<long long>(level[queue[tail - 1]] + 1), static_cast<long long>(arcs / 2), teps);
    inverse_sum += 1.0 / teps;
    ++searches;
  }
  std::printf("harmonic_mean_TEPS %.6g\n", searches / inverse_sum);
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "gpu500_serial_bfs: %s\n", e.what());
  return 2;
}
