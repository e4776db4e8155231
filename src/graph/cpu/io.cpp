// Text edge-list reader (see gpu500/graph/io.hpp).
#include "gpu500/graph/io.hpp"

#include <cerrno>
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>

#include "gpu500/core/error.hpp"

namespace gpu500::graph {

edge_list read_edge_list(const std::string& path, index_t num_vertices) {
  std::ifstream in(path);
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
    const char* p = line.c_str();
    while (*p == ' ' || *p == '\t' || *p == '\r') ++p;
    if (*p == '\0' || *p == '#' || *p == '%') continue;
    std::int64_t ids[2];
    for (auto& id : ids) {
      char* end = nullptr;
      errno = 0;
      const long long v = std::strtoll(p, &end, 10);
      if (end == p) throw fail("expected a vertex id, got '" + line + "'");
      if (errno == ERANGE || v < 0) throw fail("vertex id out of range in '" + line + "'");
      id = v;
      p = end;
    }
    while (*p == ' ' || *p == '\t') ++p;
    int cols = 2;
    float w = 0;
    if (*p != '\0' && *p != '\r' && *p != '#') {
      char* end = nullptr;
      errno = 0;
      const double d = std::strtod(p, &end);
      if (end == p || errno == ERANGE || !std::isfinite(d) || d < 0)
        throw fail("expected a finite non-negative weight in '" + line + "'");
      w = static_cast<float>(d);
      cols = 3;
      p = end;
      while (*p == ' ' || *p == '\t' || *p == '\r') ++p;
      if (*p != '\0' && *p != '#') throw fail("unexpected text after the weight in '" + line + "'");
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
  return el;
}

}  // namespace gpu500::graph
