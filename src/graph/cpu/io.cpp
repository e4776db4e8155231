// Graph files in (see gpu500/graph/io.hpp and docs/graph-files.md): a file's bytes, mapped (a
// pipe or device read whole) or gunzipped; the format, from the content with the extension a hint; the SNAP edge-list reader;
// the host-memory check of a vertex count. Matrix Market is io_mtx.cpp, the binary CSR io_bin.cpp,
// the line parser io_text.cpp, the writers io_write.cpp.
#include "gpu500/graph/io.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <vector>

#include "gpu500/core/device.hpp"
#include "gpu500/core/error.hpp"
#include "io_detail.hpp"

namespace gpu500::graph {

namespace io_detail {

namespace {

/// Inflates every gzip member of `in` into `out`; usage_error when the stream is corrupt.
void gunzip(std::string_view in, host_vector<char>& out, const std::string& path) {
  z_stream z{};
  if (inflateInit2(&z, 15 + 32) != Z_OK) throw error("zlib: inflateInit2 failed");
  struct end_at_exit {
    z_stream* z;
    ~end_at_exit() { inflateEnd(z); }
  } end{&z};
  out.resize(std::max<std::size_t>(in.size() * 4, 1 << 16));
  std::size_t done = 0, used = 0;
  int rc = Z_OK;
  const std::int64_t avail = host_available_memory();
  while (true) {
    if (done == out.size()) {
      if (avail > 0 && static_cast<double>(out.size()) * 2 > static_cast<double>(avail))
        throw resource_error(path + ": decompressed, more than the " + std::to_string(avail) +
                             " bytes of host memory available");
      out.resize(out.size() * 2);
    }
    const std::size_t in_left = in.size() - used, out_left = out.size() - done;
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data() + used));
    z.avail_in = static_cast<uInt>(std::min<std::size_t>(in_left, 1u << 30));
    z.next_out = reinterpret_cast<Bytef*>(out.data() + done);
    z.avail_out = static_cast<uInt>(std::min<std::size_t>(out_left, 1u << 30));
    const uInt in_before = z.avail_in, out_before = z.avail_out;
    rc = inflate(&z, Z_NO_FLUSH);
    used += in_before - z.avail_in;
    done += out_before - z.avail_out;
    if (rc == Z_STREAM_END) {
      // Another member may follow (concatenated gzip files); trailing zero padding ends it.
      if (used == in.size() || in[used] != '\x1f') break;
      inflateReset(&z);
      continue;
    }
    if (rc == Z_BUF_ERROR && used == in.size()) break;  // input ended inside a member
    if (rc != Z_OK && rc != Z_BUF_ERROR) break;
  }
  const std::string why = z.msg ? z.msg : "unexpected end of the compressed data";
  if (rc != Z_STREAM_END) throw usage_error(path + ": corrupt or truncated gzip stream (" + why + ")");
  out.resize(done);
}

}  // namespace

file_bytes::file_bytes(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) throw usage_error("cannot open graph file '" + path + "' (" + std::strerror(errno) + ")");
  struct stat st{};
  if (::fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
    const std::string why = S_ISDIR(st.st_mode) ? "is a directory" : std::string("cannot be read (") + std::strerror(errno) + ")";
    ::close(fd);
    throw usage_error("graph file '" + path + "' " + why);
  }
  if (!S_ISREG(st.st_mode)) {  // a pipe or a device: read it whole
    for (std::size_t got = 0;;) {
      if (owned_.size() - got < (1 << 20)) owned_.resize(std::max<std::size_t>(2 * owned_.size(), 1 << 22));
      const ssize_t n = ::read(fd, owned_.data() + got, owned_.size() - got);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        ::close(fd);
        throw usage_error("cannot read graph file '" + path + "' (" + std::strerror(errno) + ")");
      }
      if (n == 0) {
        owned_.resize(got);
        break;
      }
      got += static_cast<std::size_t>(n);
    }
    data_ = owned_.data();
    size_ = owned_.size();
  } else {
    size_ = static_cast<std::size_t>(st.st_size);
  }
  if (S_ISREG(st.st_mode) && size_ > 0) {
    void* p = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      ::close(fd);
      throw usage_error("cannot map graph file '" + path + "' (" + std::strerror(errno) + ")");
    }
    ::madvise(p, size_, MADV_WILLNEED);
    data_ = static_cast<const char*>(p);
    mapped_ = true;
  }
  ::close(fd);
  if (size_ >= 2 && data_[0] == '\x1f' && data_[1] == '\x8b') {
    host_vector<char> plain;
    try {
      gunzip(view(), plain, path);
    } catch (...) {
      if (mapped_) ::munmap(const_cast<char*>(data_), size_);
      throw;
    }
    if (mapped_) ::munmap(const_cast<char*>(data_), size_);
    mapped_ = false;
    owned_ = std::move(plain);
    data_ = owned_.data();
    size_ = owned_.size();
    gzip_ = true;
  }
}

file_bytes::~file_bytes() {
  if (mapped_) ::munmap(const_cast<char*>(data_), size_);
}

}  // namespace io_detail

namespace {

bool ends_with(const std::string& s, std::string_view tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

/// The file name without a trailing ".gz".
std::string inner_name(const std::string& path) { return ends_with(path, ".gz") ? path.substr(0, path.size() - 3) : path; }

bool mtx_header(std::string_view s) {
  constexpr std::string_view h = "%%matrixmarket";
  if (s.size() < h.size()) return false;
  for (std::size_t i = 0; i < h.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(s[i])) != h[i]) return false;
  return true;
}

/// The format of a file from its (decompressed) content, the name a hint.
file_format detect(std::string_view s, const std::string& path) {
  if (s.substr(0, io_detail::bin_magic.size()) == io_detail::bin_magic) return file_format::bin;
  if (mtx_header(s)) return file_format::mtx;
  const std::string name = inner_name(path);
  if (ends_with(name, ".mtx"))
    throw usage_error(path + ":1: a .mtx file must start with a %%MatrixMarket header (to read it as an edge list, name the format snap)");
  if (ends_with(name, ".bin"))
    throw usage_error(path + ": not a gpu500 binary graph (no GPU500G magic bytes)");
  return file_format::snap;
}

graph_file read_snap(std::string_view s, const std::string& path, const read_options& o) {
  const std::size_t from = o.header ? io_detail::after_header(s, 0) : 0;
  graph_file g;
  if (o.labels) {
    if (o.num_vertices >= 0) throw usage_error(path + ": a vertex count was given, but labelled vertices are counted");
    g.edges = io_detail::parse_labelled_lines(s, from, path, o.weights, g.labels).el;
    return g;
  }
  io_detail::line_rules r;
  if (o.num_vertices >= 0) r.bound = o.num_vertices;
  r.keep_weights = o.weights;
  r.chunks = o.chunks;
  g.edges = io_detail::parse_edge_lines(s, from, path, r).el;
  if (o.num_vertices >= 0) g.edges.num_vertices = o.num_vertices;
  return g;
}

}  // namespace

file_format parse_file_format(const std::string& name, const std::string& what) {
  if (name == "auto") return file_format::detect;
  if (name == "snap") return file_format::snap;
  if (name == "mtx") return file_format::mtx;
  if (name == "bin") return file_format::bin;
  throw usage_error(what + ": '" + name + "' is not one of auto, snap, mtx, bin");
}

const char* format_name(file_format f) {
  switch (f) {
    case file_format::snap: return "snap";
    case file_format::mtx: return "mtx";
    case file_format::bin: return "bin";
    default: return "auto";
  }
}

graph_file read_graph(const std::string& path, const read_options& o) {
  if (o.num_vertices > max_vertices) throw usage_error(path + ": a vertex count above 2^48");
  const io_detail::file_bytes bytes(path);
  const std::string_view s = bytes.view();
  const file_format f = o.format == file_format::detect ? detect(s, path) : o.format;
  if (f != file_format::snap && o.num_vertices >= 0)
    throw usage_error(path + ": a vertex count was given, but a " + format_name(f) + " file states its own");
  if (f != file_format::snap && (o.labels || o.header))
    throw usage_error(path + ": labels and a header line apply to edge lists, not to a " + std::string(format_name(f)) + " file");
  graph_file g = f == file_format::mtx   ? io_detail::read_mtx(s, path, o)
                 : f == file_format::bin ? io_detail::read_bin(s, path, o)
                                         : read_snap(s, path, o);
  g.format = f;
  g.gzip = bytes.gzip();
  if (g.edges.size() == 0) throw usage_error(path + ": no edges");
  return g;
}

edge_list read_edge_list(const std::string& path, index_t num_vertices) {
  read_options o;
  o.num_vertices = num_vertices;
  return read_graph(path, o).edges;
}

void check_graph_fits(index_t num_vertices, const std::string& what) {
  check_host_memory(static_cast<double>(num_vertices) * static_cast<double>(graph_bytes_per_vertex),
                    what + ": the graph of " + std::to_string(num_vertices) + " vertices");
}

void check_searchable(const edge_list& el, const std::string& what, bool weighted) {
  const index_t m = el.size();
  index_t proper = 0;
  const std::int64_t* src = el.src.data();
  const std::int64_t* dst = el.dst.data();
#pragma omp parallel for schedule(static) reduction(+ : proper)
  for (index_t i = 0; i < m; ++i) proper += src[i] != dst[i];
  if (proper == 0)
    throw usage_error(what + ": no edge joins two distinct vertices (" +
                      (m == 0 ? std::string("no edges") : std::to_string(m) + " self-loops") + "): nothing to search");
  if (!weighted || !el.weighted()) return;
  // A simple path has at most n - 1 edges: its length is at most the n - 1 largest weights summed.
  // In the same pass, the first weight no search can take (negative, NaN or infinite).
  double total = 0;
  index_t bad = m;
  const float* w = el.weight.data();
#pragma omp parallel for schedule(static) reduction(+ : total) reduction(min : bad)
  for (index_t i = 0; i < m; ++i) {
    if (!(w[i] >= 0.f && std::isfinite(w[i]))) bad = std::min(bad, i);
    total += src[i] != dst[i] ? static_cast<double>(w[i]) : 0.0;
  }
  if (bad < m) {
    char weight[32];
    std::snprintf(weight, sizeof weight, "%g", static_cast<double>(w[bad]));
    throw usage_error(what + ": edge " + std::to_string(bad) + " (" + std::to_string(src[bad]) + ", " +
                      std::to_string(dst[bad]) + ") has weight " + weight + "; SSSP takes finite weights >= 0");
  }
  const auto k = static_cast<std::size_t>(std::min<index_t>(m, std::max<index_t>(el.num_vertices - 1, 0)));
  const double limit = static_cast<double>(std::numeric_limits<float>::max()) * (1.0 - 1e-6);  // rounding's room
  if (total > limit && k < static_cast<std::size_t>(proper)) {  // the k largest weights alone
    std::vector<float> largest;  // the weights of the edges between distinct vertices
    largest.reserve(static_cast<std::size_t>(proper));
    for (index_t i = 0; i < m; ++i)
      if (src[i] != dst[i]) largest.push_back(w[i]);
    std::nth_element(largest.begin(), largest.begin() + static_cast<std::ptrdiff_t>(k), largest.end(), std::greater<>());
    total = 0;
    for (std::size_t i = 0; i < k; ++i) total += largest[i];
  }
  if (total > limit) {
    char sum[32];
    std::snprintf(sum, sizeof sum, "%.3g", total);
    throw usage_error(what + ": the weights can add up to " + sum +
                      " along a path, past the largest float distance (3.4e38); scale them down");
  }
}

}  // namespace gpu500::graph
