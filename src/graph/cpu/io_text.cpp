// The parallel parser of "u v [w]" edge lines shared by the SNAP and Matrix Market readers (see
// io_detail.hpp), and the parser of edge lines whose vertices are labels (one thread: a hash map
// numbers the labels in order of first appearance). The region is cut into chunks at line ends; each OpenMP thread parses chunks
// into its own arrays (hand-written id parsing, std::from_chars for weights), which are then
// copied into place in file order. A chunk stops at its first bad line; the error reported is the
// first in file order (a chunk whose first edge line disagrees with the file's column count is
// caught when the chunks are joined), with its line number counted over the whole text only
// then, so the parse itself never counts lines.
#include <omp.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "gpu500/core/device.hpp"
#include "gpu500/core/error.hpp"
#include "io_detail.hpp"

namespace gpu500::graph::io_detail {

namespace {

constexpr std::size_t npos = std::string_view::npos;

struct chunk_result {
  host_vector<std::int64_t> src, dst;
  host_vector<float> weight;
  int columns = 0;
  std::size_t first_edge = npos;  ///< byte position of the first edge line
  std::size_t error_at = npos;    ///< byte position of the first bad line
  std::string error;
  std::int64_t max_id = -1;
};

// A comma separates fields as a blank does (CSV edge lists). One table look-up a byte.
constexpr std::array<bool, 256> blank_bytes = [] {
  std::array<bool, 256> t{};
  for (const unsigned char c : {' ', '\t', '\r', ',', '\v', '\f'}) t[c] = true;
  return t;
}();
inline bool blank(char c) { return blank_bytes[static_cast<unsigned char>(c)]; }
inline bool digit(char c) { return c >= '0' && c <= '9'; }
inline bool comment(char c) { return c == '#' || c == '%'; }

/// Parses text[b, e) (b, e at line starts) into out, stopping at the first bad line.
void parse_chunk(std::string_view text, std::size_t b, std::size_t e, const line_rules& r, chunk_result& out) {
  const char* const base = text.data();
  const char* p = base + b;
  const char* const end = base + e;
  out.src.reserve((e - b) / 12);
  out.dst.reserve((e - b) / 12);
  const bool keep_w = r.keep_weights;
  const char* line = p;
  auto fail = [&](std::string why) {
    const char* eol = static_cast<const char*>(std::memchr(line, '\n', static_cast<std::size_t>(end - line)));
    if (std::memchr(line, '\0', static_cast<std::size_t>((eol ? eol : end) - line)) != nullptr)
      why = "contains a NUL byte (a binary file?)";
    out.error_at = static_cast<std::size_t>(line - base);
    out.error = std::move(why);
  };
  auto quoted = [&] { return "'" + shown_line(text, static_cast<std::size_t>(line - base)) + "'"; };
  while (p < end) {
    line = p;
    while (p < end && blank(*p)) ++p;
    if (p == end) break;
    if (*p == '\n') {
      ++p;
      continue;
    }
    if (comment(*p)) {
      const void* nl = std::memchr(p, '\n', static_cast<std::size_t>(end - p));
      p = nl ? static_cast<const char*>(nl) + 1 : end;
      continue;
    }
    std::int64_t ids[2];
    for (int k = 0; k < 2; ++k) {
      if (k == 1)
        while (p < end && blank(*p)) ++p;
      bool negative = false;
      if (p < end && (*p == '-' || *p == '+')) negative = *p++ == '-';
      if (p == end || !digit(*p)) {
        std::string why = r.mtx ? "expected a row and a column index, got " : "expected a vertex id, got ";
        why += quoted();
        if (!r.mtx) why += " (vertex names that are not integers: --labels)";
        return fail(std::move(why));
      }
      std::uint64_t v = 0;
      bool huge = false;
      for (; p < end && digit(*p); ++p) {
        huge = huge || v >= (std::uint64_t{1} << 59);
        v = v * 10 + static_cast<std::uint64_t>(*p - '0');
      }
      if (p < end && !blank(*p) && *p != '\n' && !comment(*p))
        return fail(std::string(r.mtx ? "expected a row and a column index" : "expected a vertex id") + ", got " + quoted());
      // Without `huge`, v < 2^59 before the last digit, so v < 2^63 and the cast keeps it (a huge
      // v has wrapped and may be any value, 2^63 included).
      const std::int64_t id = huge ? -1 : static_cast<std::int64_t>(v) - r.base;
      if (negative || huge || id < 0 || id >= r.bound) {
        if (r.mtx)
          return fail("entry outside the size line's 1.." + std::to_string(r.bound) + " in " + quoted());
        if (negative || huge || id >= max_vertices) return fail("vertex id out of range [0, 2^48) in " + quoted());
        return fail("vertex id outside [0, " + std::to_string(r.bound) + ") in " + quoted());
      }
      ids[k] = id;
    }
    while (p < end && blank(*p)) ++p;
    int cols = 2;
    float w = 0;
    if (p < end && *p != '\n' && !comment(*p)) {
      double d = 0;
      const char* q = *p == '+' ? p + 1 : p;
      auto [next, ec] = std::from_chars(q, end, d);
      if (ec == std::errc::result_out_of_range && next != q) {  // an underflow is a zero weight
        const std::string token(q, next);
        d = std::strtod(token.c_str(), nullptr);
      }
      if (next == q || (keep_w && (!std::isfinite(d) || d < 0 || d > std::numeric_limits<float>::max())))
        return fail(std::string(r.mtx ? "expected a finite non-negative value" : "expected a finite non-negative weight") +
                    " in " + quoted());
      w = static_cast<float>(d);
      cols = 3;
      p = next;
      while (p < end && blank(*p)) ++p;
      if (p < end && *p != '\n' && !comment(*p)) return fail("unexpected text after the weight in " + quoted());
    }
    if (out.columns == 0) {
      out.columns = cols;
      out.first_edge = static_cast<std::size_t>(line - base);
    }
    if (r.columns != 0 && cols != r.columns)
      return fail(std::string(r.mtx ? "an entry needs " : "every edge line needs ") + std::to_string(r.columns) +
                  " numbers, got " + quoted());
    if (cols != out.columns)
      return fail("every edge line needs the same number of columns (" + std::to_string(out.columns) + ")");
    out.src.push_back(ids[0]);
    out.dst.push_back(ids[1]);
    if (cols == 3 && keep_w) out.weight.push_back(w);
    out.max_id = std::max({out.max_id, ids[0], ids[1]});
    const void* nl = std::memchr(p, '\n', static_cast<std::size_t>(end - p));
    p = nl ? static_cast<const char*>(nl) + 1 : end;
  }
}

}  // namespace

std::size_t after_header(std::string_view text, std::size_t from) {
  for (std::size_t p = from; p < text.size();) {
    std::size_t nl = text.find('\n', p);
    nl = nl == npos ? text.size() : nl + 1;
    std::size_t q = p;
    while (q < nl && blank(text[q])) ++q;
    if (q < nl && text[q] != '\n' && !comment(text[q])) return nl;
    p = nl;
  }
  return text.size();
}

namespace {

/// The weight of a dict field "{'weight': 2.5, ...}" (NetworkX's edge data), or -1 when it has no
/// key 'weight' (or "weight"); -2 when that key's value is not a number.
double dict_weight(std::string_view d) {
  for (std::size_t at = 0; (at = d.find("weight", at)) != npos; at += 6) {
    if (at == 0 || (d[at - 1] != '\'' && d[at - 1] != '"') || at + 6 >= d.size() || d[at + 6] != d[at - 1]) continue;
    std::size_t p = at + 7;
    while (p < d.size() && d[p] == ' ') ++p;
    if (p >= d.size() || d[p] != ':') continue;
    ++p;
    while (p < d.size() && d[p] == ' ') ++p;
    double w = 0;
    const auto [next, ec] = std::from_chars(d.data() + p, d.data() + d.size(), w);
    return ec == std::errc{} && next != d.data() + p ? w : -2;
  }
  return -1;
}

}  // namespace

parsed_lines parse_labelled_lines(std::string_view text, std::size_t from, const std::string& path, bool keep_weights,
                                  std::vector<std::string>& labels) {
  parsed_lines res;
  edge_list& el = res.el;
  std::unordered_map<std::string_view, std::int64_t> id;
  auto fail = [&](std::size_t line, const std::string& why) {
    std::string m = path + ":" + std::to_string(line_of(text, line)) + ": " + why + " in '" + shown_line(text, line) + "'";
    if (el.src.empty()) m += " (a first line naming the columns: --header)";
    return usage_error(m);
  };
  int columns = 0;
  for (std::size_t p = from; p < text.size();) {
    const std::size_t line = p;
    std::size_t eol = text.find('\n', p);
    if (eol == npos) eol = text.size();
    const std::size_t next_line = eol + 1;
    while (eol > p && (text[eol - 1] == '\r' || blank(text[eol - 1]))) --eol;
    while (p < eol && blank(text[p])) ++p;
    if (p == eol || comment(text[p])) {
      p = next_line;
      continue;
    }
    // Two names, then an optional weight field.
    std::int64_t ends[2];
    for (int k = 0; k < 2; ++k) {
      while (p < eol && blank(text[p])) ++p;
      if (p == eol) throw fail(line, "expected two vertex names");
      std::size_t b = p, e;
      if (text[p] == '"' || text[p] == '\'') {
        const std::size_t close = text.find(text[p], p + 1);
        if (close == npos || close >= eol) throw fail(line, "an unclosed quote");
        b = p + 1;
        e = close;
        p = close + 1;
      } else {
        while (p < eol && !blank(text[p])) ++p;
        e = p;
      }
      const std::string_view name = text.substr(b, e - b);
      const auto [it, fresh] = id.try_emplace(name, static_cast<std::int64_t>(id.size()));
      if (fresh) labels.emplace_back(name);
      ends[k] = it->second;
    }
    while (p < eol && blank(text[p])) ++p;
    int cols = 2;
    double w = 1;
    if (p < eol) {
      cols = 3;
      const std::string_view field = text.substr(p, eol - p);
      if (field.front() == '{') {
        if (field.back() != '}') throw fail(line, "unexpected text after the edge data");
        w = dict_weight(field);
        if (w == -2) throw fail(line, "the edge data's 'weight' is not a number");
        if (w == -1) w = 1;  // no weight: NetworkX's default weight
      } else {
        const char* q = field.data() + (field.front() == '+');
        const auto [next, ec] = std::from_chars(q, field.data() + field.size(), w);
        if (next == q || (ec != std::errc{} && ec != std::errc::result_out_of_range)) throw fail(line, "expected a weight");
        if (next != field.data() + field.size()) throw fail(line, "unexpected text after the weight");
      }
      if (keep_weights && (!std::isfinite(w) || w < 0 || w > std::numeric_limits<float>::max()))
        throw fail(line, "expected a finite non-negative weight");
    }
    if (columns == 0) columns = cols;
    if (cols != columns)
      throw fail(line, "every edge line needs the same number of fields (" + std::to_string(columns) + ")");
    el.src.push_back(ends[0]);
    el.dst.push_back(ends[1]);
    if (cols == 3 && keep_weights) el.weight.push_back(static_cast<float>(w));
    if (static_cast<index_t>(labels.size()) > max_vertices) throw fail(line, "more than 2^48 vertices");
    p = next_line;
  }
  res.columns = columns;
  el.num_vertices = static_cast<index_t>(labels.size());
  return res;
}

index_t line_of(std::string_view text, std::size_t pos) {
  return 1 + static_cast<index_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(pos), '\n'));
}

std::string shown_line(std::string_view text, std::size_t pos) {
  std::size_t eol = text.find('\n', pos);
  if (eol == npos) eol = text.size();
  while (eol > pos && text[eol - 1] == '\r') --eol;
  std::string s(text.substr(pos, std::min<std::size_t>(eol - pos, 60)));
  for (char& c : s)
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) c = '?';
  return eol - pos > 60 ? s + "..." : s;
}

parsed_lines parse_edge_lines(std::string_view text, std::size_t from, const std::string& path, const line_rules& r) {
  const std::size_t bytes = text.size() - from;
  // The chunks reserve room for an edge every 12 bytes (two ids of 8 bytes each), checked here: a
  // lower bound of the peak, at which the edges are copied into one list (16 bytes an edge, 20
  // weighted) as the chunks' lists are freed, the text mapped beside them (about 60 bytes an
  // edge in all).
  check_host_memory(static_cast<double>(bytes) / 12 * 16, path + ": the edges of " + human_bytes(static_cast<double>(bytes)) + " of text");
  int chunks = static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(std::max(r.chunks, 0)), bytes + 1));
  if (chunks <= 0)
    chunks = static_cast<int>(std::clamp<std::size_t>(bytes >> 22, 1, static_cast<std::size_t>(4 * omp_get_max_threads())));
  // Chunk c is text[cut[c], cut[c+1]): each cut just after a line end (or at the end).
  std::vector<std::size_t> cut(static_cast<std::size_t>(chunks) + 1, text.size());
  cut[0] = from;
  for (int c = 1; c < chunks; ++c) {
    std::size_t at = std::max(cut[c - 1], from + bytes * static_cast<std::size_t>(c) / static_cast<std::size_t>(chunks));
    if (at > from && at < text.size() && text[at - 1] != '\n') {
      const std::size_t nl = text.find('\n', at);
      at = nl == npos ? text.size() : nl + 1;
    }
    cut[c] = at;
  }
  std::vector<chunk_result> part(static_cast<std::size_t>(chunks));
#pragma omp parallel for schedule(dynamic, 1)
  for (int c = 0; c < chunks; ++c) {
    chunk_result local;  // on the thread's stack: no cache line shared with a neighbour's chunk
    parse_chunk(text, cut[c], cut[c + 1], r, local);
    part[c] = std::move(local);
  }

  parsed_lines res;
  int columns = r.columns;
  auto fail = [&](std::size_t pos, const std::string& why) {
    return usage_error(path + ":" + std::to_string(line_of(text, pos)) + ": " + why);
  };
  std::vector<std::size_t> first(part.size() + 1, 0);  // each chunk's first edge in the result
  for (std::size_t c = 0; c < part.size(); ++c) {
    const chunk_result& k = part[c];
    if (k.columns != 0 && columns != 0 && k.columns != columns && k.first_edge < k.error_at)
      throw fail(k.first_edge, "every edge line needs the same number of columns (" + std::to_string(columns) + ")");
    if (k.error_at != npos) throw fail(k.error_at, k.error);
    if (columns == 0) columns = k.columns;
    first[c + 1] = first[c] + k.src.size();
  }
  res.columns = columns;
  edge_list& el = res.el;
  const std::size_t m = first.back();
  el.src.resize(m);
  el.dst.resize(m);
  const bool weighted = columns == 3 && r.keep_weights;
  if (weighted) el.weight.resize(m);
  std::int64_t max_id = -1;
#pragma omp parallel for schedule(dynamic, 1) reduction(max : max_id)
  for (std::size_t c = 0; c < part.size(); ++c) {
    chunk_result& k = part[c];
    std::copy(k.src.begin(), k.src.end(), el.src.begin() + static_cast<std::ptrdiff_t>(first[c]));
    std::copy(k.dst.begin(), k.dst.end(), el.dst.begin() + static_cast<std::ptrdiff_t>(first[c]));
    if (weighted) std::copy(k.weight.begin(), k.weight.end(), el.weight.begin() + static_cast<std::ptrdiff_t>(first[c]));
    max_id = std::max(max_id, k.max_id);
    k = chunk_result{};  // free as we go
  }
  el.num_vertices = max_id + 1;
  return res;
}

}  // namespace gpu500::graph::io_detail
