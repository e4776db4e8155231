// Graph files out (see gpu500/graph/io.hpp): the atomic output file (a temporary name beside the
// target, renamed over it once complete; gzip through zlib), the SNAP and Matrix Market text
// writers (numbers by std::to_chars: weights in the shortest form that reads back to the same
// float), the binary CSR through io_bin.cpp, the Kronecker graph of `gpu500 generate`, and the
// search-result file of `--output`.
#include <zlib.h>

#include <charconv>
#include <cerrno>
#include <cstring>
#include <vector>

#include "gpu500/core/atomic_file.hpp"
#include "gpu500/core/device.hpp"
#include "gpu500/core/error.hpp"
#include "io_detail.hpp"

namespace gpu500::graph {

namespace io_detail {

out_file::out_file(const std::string& path, bool gzip) : path_(path), t_(atomic_file::resolve(path, "OUT")) {
  atomic_file::watch(t_.tmp);
  if (gzip) {
    gz_ = gzopen(t_.open_path().c_str(), "wb6");
  } else {
    f_ = std::fopen(t_.open_path().c_str(), "wb");
  }
  if (!gz_ && !f_) {
    const std::string why = std::strerror(errno);
    atomic_file::discard(t_);
    throw usage_error("cannot write '" + path + "' (" + why + ")");
  }
  buf_.reserve(1 << 20);
}

out_file::~out_file() {
  if (done_) return;
  if (gz_) gzclose(static_cast<gzFile>(gz_));
  if (f_) std::fclose(f_);
  atomic_file::discard(t_);
}

void out_file::put(const char* p, std::size_t n) {
  for (std::size_t off = 0; off < n;) {
    const std::size_t k = std::min<std::size_t>(n - off, 1u << 30);
    const bool ok = gz_ ? gzwrite(static_cast<gzFile>(gz_), p + off, static_cast<unsigned>(k)) == static_cast<int>(k)
                        : std::fwrite(p + off, 1, k, f_) == k;
    if (!ok) throw error("error while writing '" + path_ + "' (" + std::strerror(errno) + ")");
    off += k;
  }
}

void out_file::flush() {
  put(buf_.data(), buf_.size());
  buf_.clear();
}

void out_file::write(const void* p, std::size_t n) {
  if (buf_.size() + n > (1u << 20)) flush();
  if (n >= (1u << 20)) {  // large blocks go straight through
    put(static_cast<const char*>(p), n);
    return;
  }
  buf_.append(static_cast<const char*>(p), n);
}

void out_file::commit() {
  flush();
  bool ok = true;
  if (gz_) ok = gzclose(static_cast<gzFile>(gz_)) == Z_OK;
  if (f_) ok = std::fclose(f_) == 0;
  gz_ = nullptr;
  f_ = nullptr;
  done_ = true;
  if (!ok) {
    const std::string why = std::strerror(errno);
    atomic_file::discard(t_);
    throw error("cannot write '" + path_ + "' (" + why + ")");
  }
  atomic_file::commit(t_);
}

}  // namespace io_detail

namespace {

bool ends_with(const std::string& s, std::string_view tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

/// Appends numbers and separators to a line buffer.
struct line_buf {
  char s[128];
  char* p = s;
  void num(std::int64_t v) { p = std::to_chars(p, s + sizeof s, v).ptr; }
  void num(float v) { p = std::to_chars(p, s + sizeof s, v).ptr; }
  void ch(char c) { *p++ = c; }
  void flush_to(io_detail::out_file& out) {
    out.write(s, static_cast<std::size_t>(p - s));
    p = s;
  }
};

void write_text(io_detail::out_file& out, const edge_list& el, bool mtx, bool directed,
                std::span<const std::string> labels) {
  const index_t m = el.size(), base = mtx ? 1 : 0;
  std::string head;
  if (mtx) {
    head = std::string("%%MatrixMarket matrix coordinate ") + (el.weighted() ? "real " : "pattern ") +
           (directed ? "general" : "symmetric") + "\n% written by gpu500 convert\n" + std::to_string(el.num_vertices) + " " +
           std::to_string(el.num_vertices) + " " + std::to_string(m) + "\n";
  } else {
    head = "# gpu500 edge list: " + std::to_string(el.num_vertices) + " vertices, " + std::to_string(m) + " edges" +
           (directed ? "" : " (undirected)") + (labels.empty() ? "" : ", vertex names (read with --labels)") +
           (el.weighted() ? ", u v weight" : ", u v") + "\n";
  }
  out.write(head);
  line_buf b;
  for (index_t i = 0; i < m; ++i) {
    std::int64_t u = el.src[i], v = el.dst[i];
    if (mtx && !directed && u < v) std::swap(u, v);  // symmetric files store the lower triangle
    if (labels.empty()) {
      b.num(u + base);
      b.ch(' ');
      b.num(v + base);
    } else {  // names in place of the ids, in edge order: read back, they number alike
      b.flush_to(out);
      out.write(label_text(labels[static_cast<std::size_t>(u)]) + ' ' + label_text(labels[static_cast<std::size_t>(v)]));
    }
    if (el.weighted()) {
      b.ch(' ');
      b.num(el.weight[i]);
    }
    b.ch('\n');
    b.flush_to(out);
  }
}

}  // namespace

write_options resolve_write_options(const std::string& path, write_options o) {
  std::string name = path;
  if (ends_with(name, ".gz")) {
    o.gzip = true;
    name.resize(name.size() - 3);
  }
  if (o.format == file_format::detect)
    o.format = ends_with(name, ".mtx") ? file_format::mtx : ends_with(name, ".bin") ? file_format::bin : file_format::snap;
  return o;
}

std::string label_text(const std::string& label) {
  return label.find_first_of(" \t,'\"") == std::string::npos ? label : '"' + label + '"';
}

namespace {

// Vertex names go into edge lists only.
void check_labels_fit(const std::string& path, const write_options& o) {
  if (o.format != file_format::snap)
    throw usage_error(path + ": " + (o.format == file_format::mtx ? "a Matrix Market" : "a binary CSR") +
                      " file cannot hold vertex names; write an edge list (--to snap, e.g. a .txt or .csv name) to "
                      "keep them, or read without --labels");
}

}  // namespace

void write_graph(const std::string& path, const edge_list& el, const write_options& opts,
                 std::span<const std::string> labels) {
  const write_options o = resolve_write_options(path, opts);
  const index_t n = el.num_vertices;
  if (!labels.empty()) check_labels_fit(path, o);
  GPU500_EXPECTS(labels.empty() || static_cast<index_t>(labels.size()) == n, "one label per vertex");
  for (index_t i = 0; i < el.size(); ++i)
    GPU500_EXPECTS(el.src[i] >= 0 && el.src[i] < n && el.dst[i] >= 0 && el.dst[i] < n, "edge ends outside [0, n)");
  io_detail::out_file out(path, o.gzip);
  if (o.format == file_format::bin) {
    io_detail::write_bin(out, el, o.directed);
  } else {
    write_text(out, el, o.format == file_format::mtx, o.directed, labels);
  }
  out.commit();
}

graph_file convert_graph(const std::string& in, const std::string& out, const read_options& ro, const write_options& wo) {
  if (ro.labels) check_labels_fit(out, resolve_write_options(out, wo));  // before the input is read
  graph_file g = read_graph(in, ro);
  write_options o = wo;
  o.directed = g.directed;
  write_graph(out, g.edges, o, g.labels);
  return g;
}

void write_kronecker(const std::string& path, const kronecker_params& p, const write_options& o) {
  p.check();
  check_graph_fits(p.num_vertices(), "SCALE " + std::to_string(p.scale));
  // The edge list: two int64 ids and a float weight per edge.
  check_host_memory(static_cast<double>(p.num_edges()) * 20, "SCALE " + std::to_string(p.scale) + ": the edge list");
  write_graph(path, generate_kronecker(p), o);
}

void write_search_result(const std::string& path, index_t root, std::span<const std::int64_t> parent,
                         std::span<const float> distance, std::span<const std::string> labels,
                         std::span<const std::int64_t> given_level) {
  const auto n = static_cast<index_t>(parent.size());
  const bool sssp = !distance.empty();
  GPU500_EXPECTS(root >= 0 && root < n && (!sssp || distance.size() == parent.size()), "a search result of n vertices");
  GPU500_EXPECTS(labels.empty() || labels.size() == parent.size(), "a label per vertex");
  GPU500_EXPECTS(given_level.empty() || (!sssp && given_level.size() == parent.size()), "a BFS level per vertex");
  // BFS levels not given: from the parents, walking up to a vertex of known level, then down again.
  std::vector<std::int64_t> level;
  if (!sssp && given_level.empty()) {
    level.assign(static_cast<std::size_t>(n), -2);  // -2: not known yet
    level[root] = 0;
    std::vector<std::int64_t> path_up;
    for (index_t v = 0; v < n; ++v) {
      path_up.clear();
      std::int64_t u = v;
      while (level[u] == -2) {
        if (parent[u] < 0) {
          level[u] = -1;
          break;
        }
        path_up.push_back(u);
        u = parent[u];
        if (u >= n || static_cast<index_t>(path_up.size()) > n)
          throw error("the parents of the search from " + std::to_string(root) + " are not a tree");
      }
      std::int64_t l = level[u];
      for (auto k = path_up.size(); k-- > 0;) level[path_up[k]] = l = l < 0 ? -1 : l + 1;
    }
  }
  io_detail::out_file out(path, false);
  // A label holding a blank, a comma or a quote is written between double quotes, as the reader takes it.
  auto shown = [&](index_t v) { return label_text(labels[static_cast<std::size_t>(v)]); };
  out.write("# gpu500 " + std::string(sssp ? "sssp" : "bfs") + " from root " +
            (labels.empty() ? std::to_string(root) : shown(root)) + ": vertex parent " + (sssp ? "distance" : "level") +
            " (-1: not reached)\n");
  line_buf b;
  auto vertex = [&](std::int64_t v) {
    if (labels.empty() || v < 0) return b.num(v);
    b.flush_to(out);
    out.write(shown(v));
  };
  for (index_t v = 0; v < n; ++v) {
    vertex(v);
    b.ch(' ');
    vertex(parent[v]);
    b.ch(' ');
    if (parent[v] < 0) {
      b.num(std::int64_t{-1});
    } else if (sssp) {
      b.num(distance[v]);
    } else {
      b.num(given_level.empty() ? level[v] : given_level[v]);
    }
    b.ch('\n');
    b.flush_to(out);
  }
  out.commit();
}

}  // namespace gpu500::graph
