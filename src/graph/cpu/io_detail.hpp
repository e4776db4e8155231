// The graph-file readers' and writers' shared machinery (private to src/graph/cpu/io*.cpp): a
// file's bytes (mapped, or decompressed from gzip), the parallel parser of "u v [w]" lines used by
// the SNAP and Matrix Market readers, the parser of labelled edge lines, and an atomically written output file (plain or gzip).
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "gpu500/core/atomic_file.hpp"
#include "gpu500/graph/io.hpp"

namespace gpu500::graph::io_detail {

/// A whole file in memory: mapped read-only (a plain file), read whole (a pipe or device), or
/// decompressed (gzip).
class file_bytes {
 public:
  /// Opens path; gzip-compressed content (magic 1f 8b) is decompressed. usage_error when the file
  /// cannot be read or the gzip stream is corrupt.
  explicit file_bytes(const std::string& path);
  ~file_bytes();
  file_bytes(const file_bytes&) = delete;
  file_bytes& operator=(const file_bytes&) = delete;

  [[nodiscard]] std::string_view view() const { return {data_, size_}; }
  [[nodiscard]] bool gzip() const { return gzip_; }

 private:
  const char* data_ = nullptr;
  std::size_t size_ = 0;
  bool mapped_ = false, gzip_ = false;
  host_vector<char> owned_;  ///< the decompressed bytes
};

/// The rules of a region of edge lines ("u v" or "u v w", one a line).
struct line_rules {
  index_t base = 0;              ///< subtracted from every id (1 for Matrix Market)
  index_t bound = max_vertices;  ///< ids (after base) must lie in [0, bound)
  int columns = 0;               ///< 2 or 3; 0: the first edge line decides
  bool keep_weights = true;      ///< false: a third column is parsed but not kept
  bool mtx = false;              ///< Matrix Market: entries, 1-based, bounded by the size line
  int chunks = 0;                ///< 0: automatic
};

/// The edges of text[from, end) (one chunk a thread, cut at line ends) in file order; el's
/// num_vertices is the largest id + 1 (0 without edges). usage_error naming path and the line
/// (counted over the whole text) for the first bad line in file order.
struct parsed_lines {
  edge_list el;
  int columns = 0;  ///< of the edge lines (0 without any)
};
parsed_lines parse_edge_lines(std::string_view text, std::size_t from, const std::string& path,
                              const line_rules& r);

/// The position just after the header line of an edge list: the first line of text[from, end)
/// that is neither blank nor a comment (text.size() when there is none).
std::size_t after_header(std::string_view text, std::size_t from);

/// Edge lines whose vertex names are labels (read_options::labels): fields split by blanks, tabs
/// or commas, a field quoted with ' or " keeps them; the third field a number or a dict holding
/// 'weight' (NetworkX's write_edgelist), every line with or without one alike. Labels are
/// numbered in order of first appearance into `labels`. One thread; usage_error naming path and
/// the line as parse_edge_lines does.
parsed_lines parse_labelled_lines(std::string_view text, std::size_t from, const std::string& path, bool keep_weights,
                                  std::vector<std::string>& labels);

/// The 1-based number of the line holding byte `pos` of text.
index_t line_of(std::string_view text, std::size_t pos);
/// The line starting at `pos` as a message may show it: control and non-ASCII bytes as '?',
/// at most 60 bytes.
std::string shown_line(std::string_view text, std::size_t pos);

/// Matrix Market: the header and size line, then the entries in parallel (io_mtx.cpp).
graph_file read_mtx(std::string_view text, const std::string& path, const read_options& o);
/// gpu500's binary CSR (io_bin.cpp).
graph_file read_bin(std::string_view bytes, const std::string& path, const read_options& o);
/// The 8 magic bytes that open a binary CSR file.
inline constexpr std::string_view bin_magic{"GPU500G\x01", 8};

/// An output file under the rule of core/atomic_file.hpp: written beside its final name and
/// renamed over it by commit() (removed when destroyed uncommitted), or through a device or FIFO. gzip: compressed through zlib. Writes are buffered.
class out_file {
 public:
  out_file(const std::string& path, bool gzip);
  ~out_file();
  out_file(const out_file&) = delete;
  out_file& operator=(const out_file&) = delete;
  void write(const void* p, std::size_t n);
  void write(std::string_view s) { write(s.data(), s.size()); }
  void commit();

 private:
  void flush();
  void put(const char* p, std::size_t n);  ///< unbuffered
  std::string path_;
  atomic_file::target t_;
  std::FILE* f_ = nullptr;
  void* gz_ = nullptr;  ///< gzFile
  std::string buf_;
  bool done_ = false;
};

/// The binary CSR writer (io_bin.cpp).
void write_bin(out_file& out, const edge_list& el, bool directed);

}  // namespace gpu500::graph::io_detail
