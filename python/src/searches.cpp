// python/src/searches.cpp — BFS and SSSP from Python through the Graph500 pipelines, the same
// path as `gpu500 bfs|sssp --graph FILE` (graph500::pipeline: kernel 1, the backend's engine, the
// project's validator). An engine is built once per graph, kind and backend: it copies the
// caller's edge arrays into the library's edge list (kernel 1 consumes it), builds the CSR and
// the engine's buffers, then runs any number of searches, each timed as the CLI times it and
// validated unless the caller says not to. Every edge is searched in both directions, or, for a
// directed graph, from src to dst only (the pipelines' `directed` option). Edge arrays in device
// memory (DLPack CUDA arrays) go to the CUDA pipeline without a host copy. The GIL is released
// while the library works; a lock serialises the searches of one engine.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core.hpp"
#include "gpu500/config.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/graph/edge_list.hpp"
#include "gpu500/graph/io.hpp"
#include "gpu500/graph500/cpu_pipeline.hpp"
#include "gpu500/graph500/pipeline.hpp"
#if GPU500_HAVE_CUDA
#include <cuda_runtime.h>

#include "gpu500/core/cuda/memory.hpp"
#include "gpu500/graph/cuda.hpp"
#include "gpu500/graph500/cuda_pipeline.hpp"
#endif

namespace gpu500::python {
namespace {

class search_engine {
 public:
  /// The engine of one kernel (sssp: kernel 3, else BFS) on `backend` ("auto", "cpu", "cuda") over
  /// the edges (src[i], dst[i]) of a graph of n vertices; weights: one per edge, or none (SSSP then
  /// gives every edge weight 1; BFS never reads weights).
  search_engine(input_array<std::int64_t> src, input_array<std::int64_t> dst,
                std::optional<input_array<float>> weights, std::int64_t n, const std::string& backend, bool sssp,
                bool directed)
      : sssp_(sssp), backend_(resolve_backend(backend)) {
    const std::size_t m = check_shapes(src.shape(0), dst.shape(0), weights ? weights->shape(0) : 0, n);
    const std::int64_t* s = src.data();
    const std::int64_t* d = dst.data();
    const float* w = sssp && weights ? weights->data() : nullptr;
    nb::gil_scoped_release unlocked;
    build(host_edges(n, m, s, d, w, [](void* to, const void* from, std::size_t bytes) { std::memcpy(to, from, bytes); }),
          directed);
  }

  /// The same over arrays in device memory (DLPack: PyTorch, CuPy, ...). On "cuda" the pipeline
  /// copies them on their device (no host copy); "cpu" needs them on the host and copies them there.
  search_engine(device_array<std::int64_t> src, device_array<std::int64_t> dst,
                std::optional<device_array<float>> weights, std::int64_t n, const std::string& backend, bool sssp,
                bool directed)
      : sssp_(sssp), backend_(resolve_backend(backend)) {
    const std::size_t m = check_shapes(src.shape(0), dst.shape(0), weights ? weights->shape(0) : 0, n);
    if (dst.device_id() != src.device_id() || (weights && weights->device_id() != src.device_id()))
      throw usage_error("src, dst and weights must be on the same GPU");
    const std::int64_t* s = src.data();
    const std::int64_t* d = dst.data();
    const float* w = sssp && weights ? weights->data() : nullptr;
    const int device = src.device_id();
    nb::gil_scoped_release unlocked;
#if GPU500_HAVE_CUDA
    if (backend_ == "cuda") {
      graph::check_graph_fits(n, "the graph");
      graph::cuda::device_edge_arrays a;
      a.num_vertices = n;
      a.num_edges = static_cast<index_t>(m);
      a.src = s;
      a.dst = d;
      a.weight = w;
      a.unit_weights = sssp && w == nullptr;
      graph500::cuda_options co;
      co.directed = directed;
      co.device = device;
      start(graph500::make_cuda_pipeline(a, co), n);
      return;
    }
    build(host_edges(n, m, s, d, w, gpu::copy_bytes), directed);  // copied once, straight into the list
#else
    (void)s, (void)d, (void)w, (void)device, (void)directed;
    throw usage_error("device arrays need gpu500 built with CUDA (this build has the CPU backend only)");
#endif
  }

  /// One search from root: (parent, distance or None, seconds, nedge, level or None: a BFS's levels
  /// where the engine keeps them, the CUDA one). A failed validation raises,
  /// naming the root and the vertices of the validator's message by name(id) when a callable is
  /// given (a Graph with labels), else by id.
  nb::tuple run(std::int64_t root, bool validate, const nb::object& name) {
    if (root < 0 || root >= n_)
      throw usage_error("root " + std::to_string(root) + " is not a vertex (the graph has " + std::to_string(n_) + ")");
    graph500::search_tree tree;
    graph500::validation v{true, {}, 0};
    double seconds = 0;
    index_t nedge = 0;
    {
      nb::gil_scoped_release unlocked;
      const std::lock_guard<std::mutex> hold(lock_);
      seconds = sssp_ ? pipe_->sssp(root) : pipe_->bfs(root);
      nedge = sssp_ ? pipe_->sssp_nedge() : pipe_->bfs_nedge();
      if (validate) v = sssp_ ? pipe_->validate_sssp(root) : pipe_->validate_bfs(root);
      if (v.ok) tree = sssp_ ? pipe_->sssp_tree() : pipe_->bfs_tree();
    }
    if (!v.ok) {  // the names are Python's: written with the GIL held
      const auto vertex = [&](std::int64_t x) {
        return name.is_none() ? std::to_string(x) : nb::cast<std::string>(name(x));
      };
      throw error(std::string(sssp_ ? "SSSP" : "BFS") + " from root " + vertex(root) +
                  " failed validation: " + v.message_naming(vertex));
    }
    nb::object distance = nb::none(), level = nb::none();
    if (sssp_) distance = nb::cast(to_numpy<float>(std::move(tree.distance)));
    if (!tree.level.empty()) level = nb::cast(to_numpy<std::int64_t>(std::move(tree.level)));
    return nb::make_tuple(to_numpy<std::int64_t>(std::move(tree.parent)), distance, seconds, nedge, level);
  }

  [[nodiscard]] std::string description() const { return pipe_->description(); }
  [[nodiscard]] const std::string& backend() const { return backend_; }
  [[nodiscard]] double construct_seconds() const { return construct_seconds_; }

 private:
  /// The edge count; usage_error when the lengths disagree or n is out of range.
  std::size_t check_shapes(std::size_t m, std::size_t dst_m, std::size_t weights_m, std::int64_t n) const {
    if (dst_m != m) throw usage_error("src and dst must have the same length");
    if (sssp_ && weights_m != 0 && weights_m != m) throw usage_error("weights must have one entry per edge");
    if (n < 1 || n > graph::max_vertices) throw usage_error("num_vertices must be in 1..2^48");
    return m;
  }

  /// The library's edge list (in host memory) of the caller's arrays, each moved in by one
  /// copy(to, from, bytes) (memcpy, or a copy from the device); unit weights for SSSP without
  /// weights; checked.
  template <class Copy>
  graph::edge_list host_edges(std::int64_t n, std::size_t m, const std::int64_t* s, const std::int64_t* d,
                              const float* w, Copy&& copy) const {
    graph::check_graph_fits(n, "the graph");
    graph::edge_list el;
    el.num_vertices = n;
    el.src.resize(m);
    el.dst.resize(m);
    copy(el.src.data(), s, m * sizeof(std::int64_t));
    copy(el.dst.data(), d, m * sizeof(std::int64_t));
    if (w) {
      el.weight.resize(m);
      copy(el.weight.data(), w, m * sizeof(float));
    } else if (sssp_) {
      el.weight.assign(m, 1.0f);
    }
    graph::check_searchable(el, "the graph", sssp_);
    return el;
  }

  /// The backend's pipeline over a host edge list.
  void build(graph::edge_list el, bool directed) {
    const std::int64_t n = el.num_vertices;
#if GPU500_HAVE_CUDA
    graph500::cuda_options co;
    co.directed = directed;
    if (backend_ == "cuda") {
      start(graph500::make_cuda_pipeline(std::move(el), co), n);
      return;
    }
#endif
    graph500::cpu_pipeline_options po;
    po.directed = directed;
    start(graph500::make_cpu_pipeline(std::move(el), po), n);
  }

  /// Kernel 1 of a new pipeline: generate() hands the edge list over, construct() builds the CSR.
  void start(std::unique_ptr<graph500::pipeline> p, std::int64_t n) {
    pipe_ = std::move(p);
    n_ = n;
    pipe_->generate();
    construct_seconds_ = pipe_->construct();
  }

  bool sssp_;
  std::string backend_;
  std::int64_t n_ = 0;
  double construct_seconds_ = 0;
  std::unique_ptr<graph500::pipeline> pipe_;
  std::mutex lock_;
};

}  // namespace

void bind_searches(nb::module_& m) {
  m.def(
      "device_vertex_count",
      [](device_array<std::int64_t> src, device_array<std::int64_t> dst) -> std::int64_t {
#if GPU500_HAVE_CUDA
        if (src.device_id() != dst.device_id()) throw usage_error("src and dst must be on the same GPU");
        graph::cuda::device_edge_arrays a;
        a.num_edges = static_cast<index_t>(src.shape(0));
        a.src = src.data();
        a.dst = dst.data();
        if (dst.shape(0) != src.shape(0)) throw usage_error("src and dst must have the same length");
        const int device = src.device_id();
        nb::gil_scoped_release unlocked;
        if (cudaSetDevice(device) != cudaSuccess) throw usage_error("no CUDA device " + std::to_string(device));
        return graph::cuda::device_vertex_count(a);
#else
        (void)src, (void)dst;
        throw usage_error("device arrays need gpu500 built with CUDA (this build has the CPU backend only)");
#endif
      },
      nb::arg("src"), nb::arg("dst"), "The vertex count of device edge arrays: their largest id + 1");
  nb::class_<search_engine>(m, "SearchEngine",
                            "A BFS or SSSP engine of one backend over an edge list (kernel 1 done once)")
      .def(nb::init<input_array<std::int64_t>, input_array<std::int64_t>, std::optional<input_array<float>>,
                    std::int64_t, const std::string&, bool, bool>(),
           nb::arg("src"), nb::arg("dst"), nb::arg("weights").none(), nb::arg("num_vertices"),
           nb::arg("backend") = "auto", nb::arg("sssp") = false, nb::arg("directed") = false)
      .def(nb::init<device_array<std::int64_t>, device_array<std::int64_t>, std::optional<device_array<float>>,
                    std::int64_t, const std::string&, bool, bool>(),
           nb::arg("src"), nb::arg("dst"), nb::arg("weights").none(), nb::arg("num_vertices"),
           nb::arg("backend") = "auto", nb::arg("sssp") = false, nb::arg("directed") = false)
      .def("run", &search_engine::run, nb::arg("root"), nb::arg("validate") = true, nb::arg("name") = nb::none(),
           "One search: (parent, distance or None, seconds, nedge, level or None); a failed validation raises, naming "
           "vertices by name(id) when name is given")
      .def_prop_ro("description", &search_engine::description)
      .def_prop_ro("backend", &search_engine::backend)
      .def_prop_ro("construct_seconds", &search_engine::construct_seconds);
}

}  // namespace gpu500::python
