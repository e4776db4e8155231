// python/src/graphs.cpp — graphs into Python: a graph file read by the library's reader (every
// format the CLI reads: edge lists of numbered or labelled vertices, Matrix Market, gpu500's
// binary CSR, each optionally gzip) and the Graph500 Kronecker generator. The edge list comes back as NumPy arrays that own the
// library's vectors (int64 ends, float32 weights): nothing is copied on the way. And the check of
// a caller's host edge arrays when a Graph is made (vertex_count: every end in [0, n)).
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nanobind/stl/vector.h>

#include "core.hpp"
#include "gpu500/core/device.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/graph/csr.hpp"
#include "gpu500/graph/edge_list.hpp"
#include "gpu500/graph/io.hpp"
#include "gpu500/graph/kronecker.hpp"

namespace gpu500::python {
namespace {

// {"src", "dst", "weight" (None when unweighted), "num_vertices"} over the vectors of `el`.
nb::dict edges_to_dict(graph::edge_list&& el) {
  nb::dict d;
  d["num_vertices"] = el.num_vertices;
  const bool weighted = el.weighted();
  d["src"] = to_numpy<std::int64_t>(std::move(el.src));
  d["dst"] = to_numpy<std::int64_t>(std::move(el.dst));
  if (weighted)
    d["weight"] = nb::cast(to_numpy<float>(std::move(el.weight)));
  else
    d["weight"] = nb::none();
  return d;
}

nb::dict read_graph_file(const std::string& path, const std::string& format, std::int64_t num_vertices,
                         bool weights, bool labels, bool header) {
  graph::read_options o;
  o.format = graph::parse_file_format(format, "format");
  if (num_vertices >= 0 && (num_vertices < 1 || num_vertices > graph::max_vertices))
    throw usage_error("num_vertices must be in 1..2^48");
  o.num_vertices = num_vertices;
  o.weights = weights;
  o.labels = labels;
  o.header = header;
  graph::graph_file f;
  {
    nb::gil_scoped_release unlocked;
    f = graph::read_graph(path, o);
  }
  nb::dict d = edges_to_dict(std::move(f.edges));
  d["format"] = graph::format_name(f.format);
  d["gzip"] = f.gzip;
  d["directed"] = f.directed;
  if (labels) d["labels"] = nb::cast(std::move(f.labels));
  return d;
}

nb::dict generate(int scale, int edgefactor, std::uint64_t seed1, std::uint64_t seed2, bool weights) {
  graph::kronecker_params p;
  p.scale = scale;
  p.edgefactor = edgefactor;
  p.seed1 = seed1;
  p.seed2 = seed2;
  p.weights = weights;
  p.check();
  graph::check_graph_fits(p.num_vertices(), "SCALE " + std::to_string(scale));
  // The edge list: two int64 ids and (with weights) a float per edge.
  check_host_memory(static_cast<double>(p.num_edges()) * (weights ? 20 : 16), "SCALE " + std::to_string(scale) + ": the edge list");
  graph::edge_list el;
  {
    nb::gil_scoped_release unlocked;
    el = graph::generate_kronecker(p);
  }
  el.num_vertices = p.num_vertices();
  if (!weights) el.weight = {};
  return edges_to_dict(std::move(el));
}

}  // namespace

void bind_graphs(nb::module_& m) {
  m.def(
      "search_backend",
      [](const std::string& name, input_array<std::int64_t> src, input_array<std::int64_t> dst, std::int64_t n) {
        gpu500::backend b = parse_backend(name);
        if (name == "auto") {
          nb::gil_scoped_release unlocked;
          b = graph::auto_search_backend(b, src.data(), dst.data(), static_cast<std::int64_t>(src.shape(0)), n);
        }
        return std::string(backend_name(b));
      },
      nb::arg("name"), nb::arg("src"), nb::arg("dst"), nb::arg("num_vertices"),
      "The backend a search on the graph (src, dst) runs on for `name`, as `gpu500 bfs --graph` picks it: "
      "'auto' with a GPU is 'cpu' for a graph of paths and cycles (no vertex with more than two edge ends)");
  m.def(
      "vertex_count",
      [](input_array<std::int64_t> src, input_array<std::int64_t> dst, std::int64_t num_vertices) {
        const auto m = static_cast<index_t>(src.shape(0));
        if (static_cast<index_t>(dst.shape(0)) != m) throw usage_error("src and dst must have the same length");
        if (num_vertices < 0 && m == 0) throw usage_error("a graph without edges needs num_vertices");
        nb::gil_scoped_release unlocked;
        if (num_vertices >= 0) {
          graph::check_edge_ends(src.data(), dst.data(), m, num_vertices);
          return num_vertices;
        }
        return graph::vertex_count_of_edges(src.data(), dst.data(), m);
      },
      nb::arg("src"), nb::arg("dst"), nb::arg("num_vertices") = -1,
      "The vertex count of host edge arrays: num_vertices after checking that every end lies in [0, "
      "num_vertices), or (num_vertices < 0) the largest id + 1 after checking that none is negative");
  m.def("read_graph", &read_graph_file, nb::arg("path"), nb::arg("format") = "auto", nb::arg("num_vertices") = -1,
        nb::arg("weights") = true, nb::arg("labels") = false, nb::arg("header") = false,
        "Read a graph file (snap edge list, Matrix Market, gpu500 binary CSR; gzip too): a dict of the edge "
        "arrays and how the file stated them");
  m.def("generate_kronecker", &generate, nb::arg("scale"), nb::arg("edgefactor") = 16, nb::arg("seed1") = 2,
        nb::arg("seed2") = 3, nb::arg("weights") = true,
        "The Graph500 Kronecker edge list (bit-identical to the reference generator)");
}

}  // namespace gpu500::python
