// gpu500 convert IN OUT: a graph file from one format to another (edge list, Matrix Market,
// binary CSR; gzip when OUT ends in .gz) through graph::convert_graph; with --labels an edge list of
// vertex names is written as one again (names kept), other targets refused; docs/graph-files.md.
#include <cstdio>
#include <string>

#include "command.hpp"
#include "gpu500/core/cli.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/core/atomic_file.hpp"
#include "gpu500/graph/io.hpp"

GPU500_COMMAND(convert, "Convert a graph file between formats (edge list, Matrix Market, binary CSR, gzip)") {
  using namespace gpu500;
  std::string in, out;
  graph::read_options ro;
  graph::write_options wo;
  std::int64_t num_vertices = -1;
  cli::parser p("gpu500 convert",
                "Read a graph file (edge list, Matrix Market or gpu500's binary CSR, plain or gzip) and write\n"
                "its edges, as read, in another format; OUT ending in .gz is gzip-compressed. With --labels\n"
                "OUT is an edge list of the same vertex names (Matrix Market and binary files hold none).");
  p.positional("IN", in, "the graph file read", true);
  p.positional("OUT", out, "the file written (replaced atomically)", true);
  p.option("--format", [&ro](const std::string& v) { ro.format = graph::parse_file_format(v, "--format"); },
           "auto|snap|mtx|bin: the graph file's format (default auto: from its content)", "S");
  p.option("--to", [&wo](const std::string& v) {
    wo.format = graph::parse_file_format(v, "--to");
    if (wo.format == graph::file_format::detect) throw usage_error("--to: name a format: snap, mtx or bin");
  }, "snap|mtx|bin: the format written (default: from OUT's name: .mtx, .bin, else snap)", "S");
  p.option("--vertices", num_vertices, "vertex count of an edge list (default: largest id + 1)");
  // The same flags as gpu500 bfs|sssp; with --labels OUT keeps the names (an edge list only).
  p.flag("--labels", ro.labels, "an edge list's vertex names are labels (strings, sparse ids), numbered in order of appearance");
  p.flag("--header", ro.header, "an edge list's first line (not a comment) names the columns: skipped");
  p.parse(args);
  if (p.help_requested()) {
    std::fputs(p.help().c_str(), stdout);
    return 0;
  }
  if (p.given("--vertices") && (num_vertices < 1 || num_vertices > graph::max_vertices))
    throw usage_error("--vertices must be in 1..2^48");
  atomic_file::check_writable(out, "OUT");
  atomic_file::check_distinct({{"IN", in}}, {{"OUT", out}});
  ro.num_vertices = num_vertices;
  const graph::graph_file g = graph::convert_graph(in, out, ro, wo);
  const graph::write_options w = graph::resolve_write_options(out, wo);
  std::printf("%s (%s%s, %s, %lld vertices, %lld edges%s) -> %s (%s%s)\n", in.c_str(), graph::format_name(g.format),
              g.gzip ? ", gzip" : "", g.directed ? "general" : "symmetric", static_cast<long long>(g.edges.num_vertices),
              static_cast<long long>(g.edges.size()), g.edges.weighted() ? ", weighted" : "", out.c_str(),
              graph::format_name(w.format), w.gzip ? ", gzip" : "");
  return 0;
}
