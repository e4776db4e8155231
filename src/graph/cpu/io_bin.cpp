// gpu500's binary CSR graph file (layout in docs/graph-files.md), little-endian:
//   bytes  0..7   magic "GPU500G\x01"
//          8..11  uint32 version (1)
//         12..15  uint32 flags: 1 weighted, 2 directed, 4 targets are int32 (n < 2^31)
//         16..23  int64 n (vertices)      24..31  int64 m (arcs stored)
//         32..    int64 offsets[n+1], then targets int64[m] (int32[m] with flag 4), then
//                 float weights[m] (with flag 1)
// Directed: every arc u -> targets[k] is one edge of the file. Undirected: each edge {u, v} is
// stored both ways (a self-loop once), so the rows are the whole neighbourhoods. The reader
// works on the mapped bytes: it checks the size against the header, the offsets (0 first, never
// decreasing, m last), every target in [0, n), weights finite and non-negative, and (undirected)
// as many arcs up as down; then expands the rows into an edge list in parallel.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "gpu500/core/device.hpp"
#include "gpu500/core/error.hpp"
#include "io_detail.hpp"

namespace gpu500::graph::io_detail {

namespace {

struct header {
  char magic[8];
  std::uint32_t version, flags;
  std::int64_t n, m;
};
static_assert(sizeof(header) == 32);
constexpr std::uint32_t weighted_flag = 1, directed_flag = 2, narrow_flag = 4;

/// The arcs kept as edges: all (directed), or those with u <= v (undirected, both ways stored).
template <class T>
edge_list expand(index_t n, const std::int64_t* off, const T* tgt, const float* w, bool directed) {
  const index_t blocks = std::max<index_t>(1, std::min<index_t>(n, 4 * omp_get_max_threads()));
  std::vector<index_t> first(static_cast<std::size_t>(blocks) + 1, 0);
  auto row_of = [&](index_t b) { return n * b / blocks; };
#pragma omp parallel for schedule(dynamic, 1)
  for (index_t b = 0; b < blocks; ++b) {
    index_t c = 0;
    for (index_t u = row_of(b); u < row_of(b + 1); ++u)
      for (index_t k = off[u]; k < off[u + 1]; ++k) c += directed || u <= static_cast<index_t>(tgt[k]);
    first[b + 1] = c;
  }
  for (index_t b = 0; b < blocks; ++b) first[b + 1] += first[b];
  edge_list el;
  el.num_vertices = n;
  el.src.resize(first.back());
  el.dst.resize(first.back());
  if (w) el.weight.resize(first.back());
#pragma omp parallel for schedule(dynamic, 1)
  for (index_t b = 0; b < blocks; ++b) {
    index_t at = first[b];
    for (index_t u = row_of(b); u < row_of(b + 1); ++u)
      for (index_t k = off[u]; k < off[u + 1]; ++k) {
        const auto v = static_cast<index_t>(tgt[k]);
        if (!directed && u > v) continue;
        el.src[at] = u;
        el.dst[at] = v;
        if (w) el.weight[at] = w[k];
        ++at;
      }
  }
  return el;
}

/// The first arc whose target is outside [0, n) (m: none), and the arcs up minus the arcs down.
template <class T>
std::pair<index_t, index_t> check_targets(index_t n, index_t m, const std::int64_t* off, const T* tgt) {
  index_t bad = m, balance = 0;
#pragma omp parallel for schedule(static) reduction(min : bad) reduction(+ : balance)
  for (index_t u = 0; u < n; ++u)
    for (index_t k = off[u]; k < off[u + 1]; ++k) {
      const auto v = static_cast<index_t>(tgt[k]);
      if (v < 0 || v >= n) bad = std::min(bad, k);
      balance += (u < v) - (u > v);
    }
  return {bad, balance};
}

}  // namespace

graph_file read_bin(std::string_view bytes, const std::string& path, const read_options& o) {
  auto fail = [&](const std::string& why) { return usage_error(path + ": " + why); };
  header h{};
  if (bytes.size() < sizeof h) throw fail("too short for a gpu500 binary graph header (32 bytes)");
  std::memcpy(&h, bytes.data(), sizeof h);
  if (std::string_view(h.magic, 8) != bin_magic) throw fail("not a gpu500 binary graph (no GPU500G magic bytes)");
  if (h.version != 1) throw fail("binary graph version " + std::to_string(h.version) + " (this program reads version 1)");
  if ((h.flags & ~(weighted_flag | directed_flag | narrow_flag)) != 0)
    throw fail("unknown flags " + std::to_string(h.flags) + " in the binary graph header");
  if (h.n < 0 || h.n > max_vertices)
    throw fail("binary graph header with n = " + std::to_string(h.n) + " vertices (n must be in 0..2^48)");
  if (h.m < 0 || h.m > (index_t{1} << 56))
    throw fail("binary graph header with m = " + std::to_string(h.m) + " edges (m must be in 0..2^56)");
  const bool narrow = (h.flags & narrow_flag) != 0, weighted = (h.flags & weighted_flag) != 0;
  if (narrow && h.n >= (index_t{1} << 31)) throw fail("int32 targets for n >= 2^31 vertices");
  const std::size_t off_at = sizeof h, tgt_at = off_at + 8 * static_cast<std::size_t>(h.n + 1);
  const std::size_t w_at = tgt_at + static_cast<std::size_t>(h.m) * (narrow ? 4 : 8);
  const std::size_t want = w_at + (weighted ? 4 * static_cast<std::size_t>(h.m) : 0);
  if (bytes.size() != want)
    throw fail("size " + std::to_string(bytes.size()) + " bytes does not match its header (n = " + std::to_string(h.n) +
               ", m = " + std::to_string(h.m) + ": " + std::to_string(want) + " bytes)");
  const auto* off = reinterpret_cast<const std::int64_t*>(bytes.data() + off_at);
  const index_t n = h.n, m = h.m;
  if (off[0] != 0 || off[n] != m)
    throw fail("offsets must start at 0 and end at m = " + std::to_string(m));
  index_t bad = n;
#pragma omp parallel for schedule(static) reduction(min : bad)
  for (index_t u = 0; u < n; ++u)
    if (off[u + 1] < off[u]) bad = std::min(bad, u);
  if (bad < n) throw fail("offsets decrease at vertex " + std::to_string(bad + 1));
  const float* w = weighted ? reinterpret_cast<const float*>(bytes.data() + w_at) : nullptr;
  if (w && o.weights) {
    index_t bw = m;
#pragma omp parallel for schedule(static) reduction(min : bw)
    for (index_t k = 0; k < m; ++k)
      if (!std::isfinite(w[k]) || w[k] < 0) bw = std::min(bw, k);
    if (bw < m) throw fail("weight of arc " + std::to_string(bw) + " is not a finite non-negative number");
  }
  const bool directed = (h.flags & directed_flag) != 0;
  auto load = [&](const auto* tgt) {
    const auto [first_bad, balance] = check_targets(n, m, off, tgt);
    if (first_bad < m) throw fail("target of arc " + std::to_string(first_bad) + " outside [0, " + std::to_string(n) + ")");
    if (!directed && balance != 0)
      throw fail("undirected, yet its arcs are not stored both ways (" + std::to_string(balance) + " more up than down)");
    return expand(n, off, tgt, o.weights ? w : nullptr, directed);
  };
  graph_file g;
  g.edges = narrow ? load(reinterpret_cast<const std::int32_t*>(bytes.data() + tgt_at))
                   : load(reinterpret_cast<const std::int64_t*>(bytes.data() + tgt_at));
  g.directed = directed;
  return g;
}

void write_bin(out_file& out, const edge_list& el, bool directed) {
  const index_t n = el.num_vertices, m_in = el.size();
  // The offsets and their cursors (16 bytes a vertex) and at least one arc per edge (8 bytes, 12
  // weighted), checked first: a file's largest id alone can ask for terabytes of offsets.
  check_host_memory(16.0 * static_cast<double>(n) + static_cast<double>(m_in) * (el.weighted() ? 12 : 8),
                    "the binary CSR of " + std::to_string(n) + " vertices and " + std::to_string(m_in) + " edges");
  // Counting sort of the arcs by tail, stable: a row keeps the edge list's order.
  std::vector<std::int64_t> off(static_cast<std::size_t>(n) + 1, 0);
  for (index_t i = 0; i < m_in; ++i) {
    ++off[static_cast<std::size_t>(el.src[i]) + 1];
    if (!directed && el.src[i] != el.dst[i]) ++off[static_cast<std::size_t>(el.dst[i]) + 1];
  }
  for (index_t u = 0; u < n; ++u) off[u + 1] += off[u];
  const index_t m = off[n];
  const bool narrow = n < (index_t{1} << 31), weighted = el.weighted();
  std::vector<std::int64_t> tgt(static_cast<std::size_t>(m));
  std::vector<float> w(weighted ? static_cast<std::size_t>(m) : 0);
  std::vector<std::int64_t> at(off.begin(), off.end() - 1);
  auto put = [&](std::int64_t u, std::int64_t v, index_t i) {
    const auto k = static_cast<std::size_t>(at[static_cast<std::size_t>(u)]++);
    tgt[k] = v;
    if (weighted) w[k] = el.weight[i];
  };
  for (index_t i = 0; i < m_in; ++i) {
    put(el.src[i], el.dst[i], i);
    if (!directed && el.src[i] != el.dst[i]) put(el.dst[i], el.src[i], i);
  }
  header h{};
  std::memcpy(h.magic, bin_magic.data(), 8);
  h.version = 1;
  h.flags = (weighted ? weighted_flag : 0) | (directed ? directed_flag : 0) | (narrow ? narrow_flag : 0);
  h.n = n;
  h.m = m;
  out.write(&h, sizeof h);
  out.write(off.data(), off.size() * sizeof(std::int64_t));
  if (narrow) {
    const std::vector<std::int32_t> t32(tgt.begin(), tgt.end());
    out.write(t32.data(), t32.size() * sizeof(std::int32_t));
  } else {
    out.write(tgt.data(), tgt.size() * sizeof(std::int64_t));
  }
  if (weighted) out.write(w.data(), w.size() * sizeof(float));
}

}  // namespace gpu500::graph::io_detail
