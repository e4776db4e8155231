// bench/graph/graph_io.cpp — how fast graph files are read, per format (docs/graph-files.md).
//
// Generates the Graph500 Kronecker edge list (seeds 2,3, weighted) at SCALE, writes it once in
// every format (edge list .txt, Matrix Market .mtx, binary CSR .bin, and .txt.gz unless
// --no-gzip), then reads each file --repeat times with graph::read_graph and reports the best
// time as MB/s of file bytes and millions of edges per second, on all OpenMP threads and on one
// (the parallel parse's speed-up). Baseline measured in the same run: one parallel pass that
// counts the line ends of the mapped text file (no parser can beat it: the memory and page-cache
// limit of this host). The files are read from the page cache (each read once before timing).
// Every read is checked against the generated list (edge count and an order-free checksum).
//   bench_graph_io [SCALE] [--edgefactor 16] [--dir DIR] [--repeat 3] [--no-gzip] [--keep]
//                  [--json FILE]
#include <fcntl.h>
#include <omp.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "gpu500/core/cli.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/core/json.hpp"
#include "gpu500/core/timer.hpp"
#include "gpu500/graph/io.hpp"
#include "gpu500/graph/kronecker.hpp"

using namespace gpu500;

namespace {

/// An order-free checksum of the undirected edges (and the weights' bits).
std::uint64_t checksum(const graph::edge_list& el) {
  std::uint64_t s = 0;
#pragma omp parallel for reduction(+ : s)
  for (index_t i = 0; i < el.size(); ++i) {
    const auto u = static_cast<std::uint64_t>(std::min(el.src[i], el.dst[i]));
    const auto v = static_cast<std::uint64_t>(std::max(el.src[i], el.dst[i]));
    std::uint64_t h = (u * 0x9E3779B97F4A7C15ull) ^ (v + 0x632BE59BD9B4E019ull + (u << 6));
    if (el.weighted()) h += static_cast<std::uint64_t>(el.weight[i] * 1048576.0f);
    s += h * 0xBF58476D1CE4E5B9ull;
  }
  return s;
}

/// Seconds of one parallel pass counting '\n' over the mapped file (the page-cache read limit).
double count_lines_seconds(const std::string& path, index_t& lines) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  struct stat st{};
  ::fstat(fd, &st);
  const auto n = static_cast<std::size_t>(st.st_size);
  void* p = ::mmap(nullptr, n, PROT_READ, MAP_PRIVATE, fd, 0);
  ::close(fd);
  GPU500_EXPECTS(p != MAP_FAILED, "mmap of " + path);
  const char* s = static_cast<const char*>(p);
  stopwatch sw;
  index_t c = 0;
#pragma omp parallel for reduction(+ : c) schedule(static)
  for (std::size_t i = 0; i < n; ++i) c += s[i] == '\n';
  const double t = sw.seconds();
  ::munmap(p, n);
  lines = c;
  return t;
}

}  // namespace

int main(int argc, char** argv) try {
  int scale = 22, edgefactor = 16, repeat = 3;
  std::string dir = std::filesystem::temp_directory_path().string(), json_path;
  bool no_gzip = false, keep = false;
  cli::parser p("bench_graph_io", "Read speed of graph files in each format (graph::read_graph).");
  p.positional("SCALE", scale, "log2 of the vertex count (default 22)");
  p.option("--edgefactor", edgefactor, "edges per vertex (default 16)");
  p.option("--dir", dir, "directory of the generated files (default: the temporary directory)");
  p.option("--repeat", repeat, "reads of each file, the best kept (default 3)");
  p.flag("--no-gzip", no_gzip, "leave out the gzip-compressed edge list (slow to write)");
  p.flag("--keep", keep, "keep the generated files");
  p.output_file("--json", json_path, "write the figures to this JSON file");
  p.parse(argc, argv);
  if (p.help_requested()) {
    std::fputs(p.help().c_str(), stdout);
    return 0;
  }
  graph::kronecker_params kp;
  kp.scale = scale;
  kp.edgefactor = edgefactor;
  kp.check();
  const graph::edge_list el = graph::generate_kronecker(kp);
  const std::uint64_t want = checksum(el);
  const int threads = omp_get_max_threads();
  std::printf("SCALE %d, edgefactor %d: %lld vertices, %lld edges, %d OpenMP threads\n", scale, edgefactor,
              static_cast<long long>(el.num_vertices), static_cast<long long>(el.size()), threads);
  json::value j;
  j["scale"] = scale;
  j["edges"] = el.size();
  j["threads"] = threads;

  std::vector<std::string> names{"g.txt", "g.mtx", "g.bin"};
  if (!no_gzip) names.push_back("g.txt.gz");
  for (const std::string& name : names) {
    const std::string path = dir + "/gpu500_bench_" + name;
    stopwatch sw;
    graph::write_graph(path, el, {});
    const double wt = sw.seconds();
    const double mb = static_cast<double>(std::filesystem::file_size(path)) / 1e6;
    graph::read_graph(path);  // into the page cache
    for (const int t : {threads, 1}) {
      if (t == 1 && threads == 1) break;
      omp_set_num_threads(t);
      double best = 1e30;
      graph::graph_file g;
      for (int r = 0; r < std::max(1, repeat); ++r) {
        stopwatch rt;
        g = graph::read_graph(path);
        best = std::min(best, rt.seconds());
      }
      const bool ok = g.edges.size() == el.size() && checksum(g.edges) == want;
      std::printf("%-9s %2d threads: %8.1f MB in %7.3f s = %7.1f MB/s, %6.1f M edges/s (write %.1f s)%s\n",
                  name.c_str(), t, mb, best, mb / best, static_cast<double>(el.size()) / best / 1e6, wt,
                  ok ? "" : "  WRONG EDGES");
      json::value row;
      row["file"] = name;
      row["threads"] = t;
      row["megabytes"] = mb;
      row["seconds"] = best;
      row["MB_per_s"] = mb / best;
      row["edges_per_s"] = static_cast<double>(el.size()) / best;
      row["correct"] = ok;
      j["reads"].push_back(row);
      if (!ok) return 1;
    }
    omp_set_num_threads(threads);
    if (name == "g.txt") {
      index_t lines = 0;
      double best = 1e30;
      for (int r = 0; r < repeat; ++r) best = std::min(best, count_lines_seconds(path, lines));
      std::printf("%-9s %2d threads: line-end count (the read limit) %7.3f s = %7.1f MB/s\n", name.c_str(), threads,
                  best, mb / best);
      j["line_count_MB_per_s"] = mb / best;
    }
    if (!keep) std::filesystem::remove(path);
  }
  if (!json_path.empty()) json::write_file(json_path, j);
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "bench_graph_io: %s\n", e.what());
  return 2;
}
