// gpu500 generate SCALE [EDGEFACTOR] OUT: the Graph500 Kronecker graph (the reference's generator,
// edges in generation order, weighted) written as a graph file through graph::write_kronecker;
// gpu500 generate --shape SPEC OUT: a high-diameter shape (graph/shapes.hpp: a 2-D or 3-D grid, a
// random geometric graph) written through graph::write_graph.
#include <cstdio>
#include <string>
#include <vector>

#include "command.hpp"
#include "gpu500/core/cli.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/core/atomic_file.hpp"
#include "gpu500/graph/io.hpp"
#include "gpu500/graph/shapes.hpp"

GPU500_COMMAND(generate, "Write the Graph500 Kronecker graph, or a grid or geometric graph, as a graph file") {
  using namespace gpu500;
  std::string a, b, c, shape;
  graph::kronecker_params gp;
  graph::write_options wo;
  std::vector<std::int64_t> seeds = {2, 3};
  cli::parser p("gpu500 generate",
                "Write the Graph500 Kronecker graph (the reference's generator and weights, edges in generation\n"
                "order) as an edge list, Matrix Market or binary CSR file; OUT ending in .gz is gzip-compressed.\n"
                "With --shape, a graph of many levels instead: a 2-D or 3-D grid or a random geometric graph.\n"
                "  gpu500 generate SCALE [EDGEFACTOR] OUT\n"
                "  gpu500 generate --shape grid:1024x1024 OUT");
  p.positional("SCALE", a, "log2 of the vertex count", true);
  p.positional("EDGEFACTOR", b, "edges per vertex (default 16; left out: SCALE OUT)");
  p.positional("OUT", c, "the file written (replaced atomically; required)");
  p.option("--seed", seeds, "the two generator seeds S1,S2 (default 2,3 as the reference); with --shape one seed S");
  p.option("--shape", [&shape](const std::string& v) { shape = v; },
           "grid:AxB[xC] (the lattice, row-major ids) or geometric:N[:DEGREE] (N points in the unit square, "
           "joined closer than r for a mean DEGREE, default 6), weighted in [0, 1); instead of SCALE",
           "SPEC");
  p.option("--initiator", [&gp](const std::string& v) { gp.set_initiator(v); },
           "Kronecker initiator A,B,C (default 0.57,0.19,0.19; R-MAT: 0.45,0.15,0.15)", "A,B,C");
  p.option("--to", [&wo](const std::string& v) {
    wo.format = graph::parse_file_format(v, "--to");
    if (wo.format == graph::file_format::detect) throw usage_error("--to: name a format: snap, mtx or bin");
  }, "snap|mtx|bin: the format written (default: from OUT's name: .mtx, .bin, else snap)", "S");
  p.parse(args);
  if (p.help_requested()) {
    std::fputs(p.help().c_str(), stdout);
    return 0;
  }
  if (!shape.empty()) {  // --shape SPEC OUT
    if (!b.empty()) throw usage_error("gpu500 generate --shape SPEC OUT: no SCALE or EDGEFACTOR with --shape");
    if (p.given("--initiator")) throw usage_error("--initiator applies to the Kronecker graph, not to --shape");
    if (a.empty()) throw usage_error("gpu500 generate: OUT is required (gpu500 generate --shape SPEC OUT)");
    graph::shape_params sp = graph::shape_params::parse(shape);
    if (p.given("--seed")) {
      if (seeds.size() != 1 || seeds[0] < 0) throw usage_error("--seed with --shape takes one seed S >= 0");
      sp.seed = static_cast<std::uint64_t>(seeds[0]);
    }
    atomic_file::check_writable(a, "OUT");
    const graph::edge_list el = graph::generate_shape(sp);
    graph::write_graph(a, el, wo);
    const graph::write_options w = graph::resolve_write_options(a, wo);
    std::printf("%s: %lld vertices, %lld edges -> %s (%s%s)\n", sp.name().c_str(), static_cast<long long>(el.num_vertices),
                static_cast<long long>(el.size()), a.c_str(), graph::format_name(w.format), w.gzip ? ", gzip" : "");
    return 0;
  }
  // SCALE OUT, or SCALE EDGEFACTOR OUT.
  const std::string out = c.empty() ? b : c;
  if (out.empty()) throw usage_error("gpu500 generate: OUT is required (gpu500 generate SCALE [EDGEFACTOR] OUT)");
  const std::int64_t scale = cli::parse_int(a, "SCALE");
  const std::int64_t edgefactor = c.empty() ? 16 : cli::parse_int(b, "EDGEFACTOR");
  if (scale < 1 || scale > 42) throw usage_error("SCALE must be in 1..42, got " + a);
  if (edgefactor < 1 || edgefactor > 1 << 20) throw usage_error("EDGEFACTOR must be in 1..1048576");
  if (seeds.size() != 2) throw usage_error("--seed takes two seeds S1,S2");
  gp.scale = static_cast<int>(scale);
  gp.edgefactor = static_cast<int>(edgefactor);
  gp.seed1 = static_cast<std::uint64_t>(seeds[0]);
  gp.seed2 = static_cast<std::uint64_t>(seeds[1]);
  atomic_file::check_writable(out, "OUT");
  graph::write_kronecker(out, gp, wo);
  const graph::write_options w = graph::resolve_write_options(out, wo);
  std::printf("SCALE %d, edgefactor %d: %lld vertices, %lld edges -> %s (%s%s)\n", gp.scale, gp.edgefactor,
              static_cast<long long>(gp.num_vertices()), static_cast<long long>(gp.num_edges()), out.c_str(),
              graph::format_name(w.format), w.gzip ? ", gzip" : "");
  return 0;
}
