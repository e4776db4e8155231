// libFuzzer target: the graph file readers (graph::read_graph) on arbitrary bytes, written to a
// scratch file (the readers take a path: they mmap it). Built once per format as
// fuzz_graph_{auto,snap,mtx,bin} (FUZZ_GRAPH_FORMAT): auto detects the format, gzip included.
// Properties beyond "no crash, no sanitizer report": a refusal is a usage_error or
// resource_error of one printable line; an accepted graph has every id below its vertex count
// (at most 2^48), matching array sizes, and finite non-negative weights.
#include <unistd.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include "check.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/graph/io.hpp"

#ifndef FUZZ_GRAPH_FORMAT
#define FUZZ_GRAPH_FORMAT detect
#endif

using namespace gpu500;

namespace {

// One scratch file per process, in memory where there is a tmpfs.
const std::string& scratch() {
  static const std::string path = [] {
    const char* dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    return std::string(dir) + "/gpu500-fuzz-" + std::to_string(getpid()) + ".graph";
  }();
  return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::FILE* f = std::fopen(scratch().c_str(), "wb");
  FUZZ_CHECK(f != nullptr);
  FUZZ_CHECK(std::fwrite(data, 1, size, f) == size);
  std::fclose(f);
  graph::read_options o;
  o.format = graph::file_format::FUZZ_GRAPH_FORMAT;
  o.chunks = 1 + static_cast<int>(size % 3);  // the parallel parse's chunk cuts, 1 to 3 chunks
  o.weights = size % 2 == 0;
  graph::graph_file g;
  try {
    g = graph::read_graph(scratch(), o);
  } catch (const usage_error& e) {
    fuzz::check_one_line(e.what());
    return 0;
  } catch (const resource_error& e) {
    fuzz::check_one_line(e.what());
    return 0;
  }
  const auto& el = g.edges;
  FUZZ_CHECK(el.num_vertices >= 0 && el.num_vertices <= graph::max_vertices);
  FUZZ_CHECK(el.src.size() == el.dst.size());
  FUZZ_CHECK(el.weight.empty() || el.weight.size() == el.src.size());
  for (std::size_t i = 0; i < el.src.size(); ++i)
    FUZZ_CHECK(el.src[i] >= 0 && el.src[i] < el.num_vertices && el.dst[i] >= 0 && el.dst[i] < el.num_vertices);
  for (const float w : el.weight) FUZZ_CHECK(std::isfinite(w) && w >= 0);
  return 0;
}
