// gpu500/graph/io.hpp — reading and writing graph files (docs/graph-files.md).
//
// Formats, detected from the content (gzip and binary magic bytes, the %%MatrixMarket header),
// the file name's extension a hint (a .mtx without the header or a .bin without the magic is an
// error rather than a guess), or named by the caller:
//   snap  text edge list: one "u v" or "u v w" edge a line (every line alike), 0-based integer ids
//         in [0, 2^48), '#'/'%' comment lines, blanks, tabs or commas between fields, CRLF ends,
//         optionally a header line (read_options::header); with read_options::labels, vertex
//         names are any tokens (strings, sparse integers), numbered densely in order of first
//         appearance, and the weight may also be NetworkX's write_edgelist dict ("a b {'weight': 2.5}");
//   mtx   Matrix Market coordinate, pattern/integer/real, general/symmetric: 1-based, the size
//         line bounds the ids; array, complex, hermitian and skew-symmetric are refused;
//   bin   gpu500's binary CSR (magic, version, flags, n, m, offsets, targets, weights), read
//         through mmap and validated.
// Any of them may be gzip-compressed. Text is parsed in parallel (OpenMP, chunks cut at line
// ends); errors name the file and the line. Every edge is kept as read: self-loops and
// duplicates included (Graph500's kernel 1 drops self-loops and keeps duplicates); the searches
// treat every edge as undirected unless asked to follow arcs (--directed). Weights are finite
// non-negative floats.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "gpu500/graph/edge_list.hpp"
#include "gpu500/graph/kronecker.hpp"

namespace gpu500::graph {

/// The largest vertex count a graph file may give or imply (2^48): a larger id is bad input.
inline constexpr index_t max_vertices = index_t{1} << 48;

/// Host bytes a graph needs per vertex, at least: CSR offsets and the searches' and validators'
/// per-vertex arrays (parents, levels or distances, marks, frontiers).
inline constexpr index_t graph_bytes_per_vertex = 64;

enum class file_format { detect, snap, mtx, bin };

/// "auto"|"snap"|"mtx"|"bin" -> format; anything else is a usage_error naming `what`.
file_format parse_file_format(const std::string& name, const std::string& what);
/// "snap", "mtx", "bin" ("auto" for detect).
const char* format_name(file_format f);

struct read_options {
  file_format format = file_format::detect;
  /// Vertex count of a snap file (< 0: largest id + 1); mtx and bin files state their own.
  index_t num_vertices = -1;
  /// false: a weight column is checked for syntax but not kept (BFS needs none).
  bool weights = true;
  /// Text chunks parsed in parallel (0: from the file size and the OpenMP threads). For tests.
  int chunks = 0;
  /// Edge lists: the first line that is not blank or a comment names the columns and is skipped.
  bool header = false;
  /// Edge lists: vertex names are labels (any token; quoted with ' or " when it holds a blank or
  /// comma), numbered 0, 1, ... in order of first appearance (graph_file::labels names them).
  /// The weight field may be a number or a dict "{'weight': w, ...}" (an edge whose dict has no
  /// "weight" weighs 1, as in NetworkX). Parsed by one thread.
  bool labels = false;
};

/// A graph read from a file: its edges and how the file stated them.
struct graph_file {
  edge_list edges;
  file_format format = file_format::snap;  ///< the format read
  bool gzip = false;                       ///< the file was gzip-compressed
  /// true: each edge is an arc as the file listed it (snap, mtx general, bin directed);
  /// false: the file stated undirected edges (mtx symmetric, bin undirected).
  bool directed = true;
  /// With read_options::labels: vertex i is labels[i]. Empty otherwise.
  std::vector<std::string> labels;
};

/// Reads a graph file. usage_error (naming the file and the line) for anything malformed;
/// resource_error when a text file's edges cannot fit in host memory. The vertex count is
/// checked by what builds per-vertex arrays (a search's pipeline, a binary CSR written).
graph_file read_graph(const std::string& path, const read_options& o = {});

/// The edges of a graph file of any format (read_graph(path).edges); num_vertices < 0: derived.
edge_list read_edge_list(const std::string& path, index_t num_vertices = -1);

struct write_options {
  file_format format = file_format::detect;  ///< detect: from the name (.mtx, .bin, else snap)
  /// gzip-compressed: when the name ends in .gz (the format then from the name before it).
  bool gzip = false;
  /// As graph_file::directed: whether the edges are arcs (mtx general, bin directed) or
  /// undirected edges (mtx symmetric, bin with both directions of each edge).
  bool directed = true;
};

/// The format and compression write_graph would choose for `path` with `o` (detect resolved).
write_options resolve_write_options(const std::string& path, write_options o);

/// Writes el to path atomically (a temporary file beside it, renamed over it when complete).
/// labels not empty (one per vertex): an edge list (snap) names its vertices, each edge a line
/// "name name [w]" (label_text), in edge order, so that reading it back with read_options::labels
/// numbers the names as they were; Matrix Market and binary CSR files cannot hold names
/// (usage_error, before anything is written).
void write_graph(const std::string& path, const edge_list& el, const write_options& o,
                 std::span<const std::string> labels = {});

/// A vertex name as the writers print it: as is, or between double quotes when it holds a blank,
/// a tab, a comma or a quote (as the labelled reader takes it).
std::string label_text(const std::string& label);

/// `gpu500 convert`: reads `in` and writes its edges to `out` with write_graph, in the order read
/// and with the directedness the input stated (wo.directed is taken from it), with its vertex names
/// when read with ro.labels (an edge list only); returns what was read.
graph_file convert_graph(const std::string& in, const std::string& out, const read_options& ro, const write_options& wo);

/// `gpu500 generate`: the Graph500 Kronecker edge list of p (generation order, weighted unless
/// p.weights is false) written to path with write_graph.
void write_kronecker(const std::string& path, const kronecker_params& p, const write_options& o);

/// A search result as `gpu500 bfs|sssp --output` writes it: a '#' header line naming the
/// columns, then one line "vertex parent level" (BFS) or "vertex parent distance" (SSSP) per
/// vertex, -1 for both where unreached. Atomic as write_graph. distance empty: BFS, whose levels
/// are `level` where the search gave them (the CUDA engine does) and are otherwise rebuilt from
/// the parents. labels not empty: vertices and parents are written as their labels (an unreached
/// vertex's parent as -1).
void write_search_result(const std::string& path, index_t root, std::span<const std::int64_t> parent,
                         std::span<const float> distance, std::span<const std::string> labels = {},
                         std::span<const std::int64_t> level = {});

/// Throws resource_error (naming `what`, the vertices and the bytes) when a graph of num_vertices
/// vertices cannot fit in the host's available memory.
void check_graph_fits(index_t num_vertices, const std::string& what);

/// Throws usage_error (naming `what`) for a graph no search can run on: no edge joins two distinct
/// vertices (none, or self-loops only); for SSSP (`weighted`), a weight that is negative, NaN or
/// infinite (the first such edge named), or weights whose sum along a simple path could pass the
/// largest float (the n - 1 largest weights summed in double precision), as every distance is a
/// float sum of the weights.
void check_searchable(const edge_list& el, const std::string& what, bool weighted);

}  // namespace gpu500::graph
