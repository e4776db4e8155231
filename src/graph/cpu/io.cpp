// Text edge-list reader (see gpu500/graph/io.hpp): one "u v" or "u v w" edge a line. Refuses, in
// one line naming the file and the line, what is not such a list (NUL bytes, a gzip stream, a
// Matrix Market file), ids above 2^48 and weights that are not finite non-negative numbers; and,
// as a resource_error naming the bytes, a vertex count whose graph cannot fit in host memory.
#include "gpu500/graph/io.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "gpu500/core/device.hpp"
#include "gpu500/core/error.hpp"

namespace gpu500::graph {

namespace {

/// The line as it may be shown in a message: control and non-ASCII bytes as '?', at most 60 bytes.
std::string shown(const std::string& line) {
  std::string s = line.substr(0, 60);
  for (char& c : s)
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) c = '?';
  return line.size() > 60 ? s + "..." : s;
}

/// What a file that is not a text edge list looks like, from one of its lines (empty: nothing known).
std::string looks_like(const std::string& line, index_t lineno) {
  if (lineno == 1 && line.size() >= 2 && line[0] == '\x1f' && line[1] == '\x8b')
    return "looks like a gzip-compressed file; decompress it first";
  if (line.rfind("%%MatrixMarket", 0) == 0)
    return "looks like a Matrix Market file (%%MatrixMarket header); convert it to a \"u v [w]\" edge list";
  if (line.find('\0') != std::string::npos) return "contains a NUL byte (a binary file?)";
  return {};
}

}  // namespace

edge_list read_edge_list(const std::string& path, index_t num_vertices) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw usage_error("cannot open graph file '" + path + "'");
  edge_list el;
  std::string line;
  index_t lineno = 0, max_id = -1;
  int columns = 0;  // 2 or 3, fixed by the first edge line
  auto fail = [&](const std::string& why) -> usage_error {
    return usage_error(path + ":" + std::to_string(lineno) + ": " + why);
  };
  while (std::getline(in, line)) {
    ++lineno;
    if (const std::string what = looks_like(line, lineno); !what.empty()) throw fail(what);
    const char* p = line.c_str();
    while (*p == ' ' || *p == '\t' || *p == '\r') ++p;
    if (*p == '\0' || *p == '#' || *p == '%') continue;
    std::int64_t ids[2];
    for (auto& id : ids) {
      char* end = nullptr;
      errno = 0;
      const long long v = std::strtoll(p, &end, 10);
      if (end == p) throw fail("expected a vertex id, got '" + shown(line) + "'");
      if (errno == ERANGE || v < 0 || v >= max_vertices)
        throw fail("vertex id out of range [0, 2^48) in '" + shown(line) + "'");
      id = v;
      p = end;
    }
    while (*p == ' ' || *p == '\t') ++p;
    int cols = 2;
    float w = 0;
    if (*p != '\0' && *p != '\r' && *p != '#') {
      char* end = nullptr;
      const double d = std::strtod(p, &end);  // an underflow (a subnormal weight) is fine
      if (end == p || !std::isfinite(d) || d < 0)
        throw fail("expected a finite non-negative weight in '" + shown(line) + "'");
      w = static_cast<float>(d);
      cols = 3;
      p = end;
      while (*p == ' ' || *p == '\t' || *p == '\r') ++p;
      if (*p != '\0' && *p != '#') throw fail("unexpected text after the weight in '" + shown(line) + "'");
    }
    if (columns == 0) columns = cols;
    if (cols != columns) throw fail("every edge line needs the same number of columns (" + std::to_string(columns) + ")");
    if (num_vertices >= 0 && (ids[0] >= num_vertices || ids[1] >= num_vertices))
      throw fail("vertex id outside [0, " + std::to_string(num_vertices) + ")");
    max_id = std::max({max_id, ids[0], ids[1]});
    el.src.push_back(ids[0]);
    el.dst.push_back(ids[1]);
    if (cols == 3) el.weight.push_back(w);
  }
  if (el.src.empty()) throw usage_error(path + ": no edges");
  el.num_vertices = num_vertices >= 0 ? num_vertices : max_id + 1;
  check_graph_fits(el.num_vertices, path);
  return el;
}

void check_graph_fits(index_t num_vertices, const std::string& what) {
  const auto need = static_cast<double>(num_vertices) * static_cast<double>(graph_bytes_per_vertex);
  const std::int64_t avail = host_available_memory();
  if (avail > 0 && need > static_cast<double>(avail))
    throw resource_error(what + ": " + std::to_string(num_vertices) + " vertices need about " +
                         std::to_string(static_cast<long long>(need)) + " bytes of host memory, " +
                         std::to_string(avail) + " are available");
}

}  // namespace gpu500::graph
