// Matrix Market coordinate files as graphs (see gpu500/graph/io.hpp). The header
// "%%MatrixMarket matrix coordinate <field> <symmetry>" is read serially (field pattern, integer or
// real; symmetry general or symmetric; array, complex, hermitian and skew-symmetric refused), then
// '%' comment lines and the size line "rows columns entries" (a square matrix: rows = vertices),
// then the entries "i j [value]" in parallel (io_text.cpp), 1-based and bounded by the size line.
// Entry (i, j) is the edge i-1 -> j-1; the count of entries must match the size line. Format:
// Boisvert, Pozo, Remington, "The Matrix Market Exchange Formats: Initial Design", NIST IR 5935.
#include <algorithm>
#include <cctype>
#include <sstream>
#include <vector>

#include "gpu500/core/error.hpp"
#include "io_detail.hpp"

namespace gpu500::graph::io_detail {

namespace {

/// A header word as a message may show it: lower case, other than printable ASCII as '?', at
/// most 40 bytes.
std::string lower(std::string s) {
  if (s.size() > 40) s = s.substr(0, 40) + "...";
  for (char& c : s) {
    const auto u = static_cast<unsigned char>(c);
    c = u < 0x20 || u >= 0x7f ? '?' : static_cast<char>(std::tolower(u));
  }
  return s;
}

std::string_view line_at(std::string_view s, std::size_t pos) {
  const std::size_t eol = s.find('\n', pos);
  return s.substr(pos, (eol == std::string_view::npos ? s.size() : eol) - pos);
}

}  // namespace

graph_file read_mtx(std::string_view s, const std::string& path, const read_options& o) {
  auto fail = [&](index_t line, const std::string& why) {
    return usage_error(path + ":" + std::to_string(line) + ": " + why);
  };
  std::vector<std::string> word;
  {
    std::istringstream h{std::string(line_at(s, 0).substr(0, 4096))};
    for (std::string w; h >> w;) word.push_back(lower(w));
  }
  if (word.empty() || word[0] != "%%matrixmarket")
    throw fail(1, "expected a %%MatrixMarket header, got '" + shown_line(s, 0) + "'");
  if (word.size() != 5)
    throw fail(1, "the header needs 4 words after %%MatrixMarket (matrix coordinate <field> <symmetry>)");
  if (word[1] != "matrix") throw fail(1, "a Matrix Market '" + word[1] + "' is not a matrix");
  if (word[2] == "array") throw fail(1, "an array (dense) Matrix Market file is not a graph; only coordinate files are read");
  if (word[2] != "coordinate") throw fail(1, "unknown Matrix Market format '" + word[2] + "' (expected coordinate)");
  const std::string& field = word[3];
  const std::string& sym = word[4];
  if (field == "complex") throw fail(1, "complex Matrix Market files are not read (weights are real)");
  if (field != "pattern" && field != "integer" && field != "real" && field != "double")
    throw fail(1, "unknown Matrix Market field '" + field + "' (expected pattern, integer or real)");
  if (sym == "hermitian" || sym == "skew-symmetric")
    throw fail(1, sym + " Matrix Market files are not read (general or symmetric only)");
  if (sym != "general" && sym != "symmetric")
    throw fail(1, "unknown Matrix Market symmetry '" + sym + "' (expected general or symmetric)");

  // Comments and blank lines, then the size line.
  std::size_t pos = 0;
  index_t line = 1;
  auto next_line = [&] {
    const std::size_t eol = s.find('\n', pos);
    pos = eol == std::string_view::npos ? s.size() : eol + 1;
    ++line;
  };
  next_line();
  while (pos < s.size()) {
    const std::string_view l = line_at(s, pos);
    const std::size_t first = l.find_first_not_of(" \t\r");
    if (first != std::string_view::npos && l[first] != '%') break;
    next_line();
  }
  if (pos >= s.size()) throw fail(line, "no size line 'rows columns entries'");
  long long rows = -1, cols = -1, nnz = -1;
  {
    std::istringstream z{std::string(line_at(s, pos).substr(0, 4096))};
    std::string extra;
    if (!(z >> rows >> cols >> nnz) || (z >> extra) || rows < 0 || cols < 0 || nnz < 0)
      throw fail(line, "expected the size line 'rows columns entries', got '" + shown_line(s, pos) + "'");
  }
  if (rows != cols)
    throw fail(line, "a " + std::to_string(rows) + " x " + std::to_string(cols) +
                         " matrix is not square: not the adjacency matrix of a graph");
  if (rows > max_vertices) throw fail(line, std::to_string(rows) + " rows: more than 2^48 vertices");
  next_line();

  line_rules r;
  r.base = 1;
  r.bound = rows;
  r.columns = field == "pattern" ? 2 : 3;
  r.keep_weights = o.weights && field != "pattern";
  r.mtx = true;
  r.chunks = o.chunks;
  graph_file g;
  g.edges = parse_edge_lines(s, pos, path, r).el;
  if (g.edges.size() != nnz)
    throw usage_error(path + ": the size line promises " + std::to_string(nnz) + " entries, the file holds " +
                      std::to_string(g.edges.size()));
  g.edges.num_vertices = rows;
  g.directed = sym == "general";
  return g;
}

}  // namespace gpu500::graph::io_detail
