// The CUDA Graph500 pipeline (see gpu500/graph500/cuda_pipeline.hpp): GPU generator, GPU kernel 1,
// Enterprise BFS, the GPU SSSP engine and the GPU validator.
#include <cuda_runtime.h>

#include <limits>
#include <optional>
#include <string>

#include "gpu500/bfs/cuda.hpp"
#include "gpu500/core/cuda/check.cuh"
#include "gpu500/core/cuda/download.hpp"
#include "gpu500/core/cuda/launch.cuh"
#include "gpu500/core/cuda/memory.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/core/timer.hpp"
#include "gpu500/graph/cuda.hpp"
#include "gpu500/graph500/cuda_pipeline.hpp"
#include "gpu500/graph500/validate.hpp"
#include "gpu500/sssp/cuda.hpp"

namespace gpu500::graph500 {

using gpu::device_buffer;

namespace {

struct convert_policy {
  static constexpr int block = 256;
};

/// The BFS output (original ids, all ones where unreached) as Graph500's int64 parents (-1).
template <class V>
__global__ void widen_parents_kernel(const V* parent, index_t n, std::int64_t* out) {
  const V none = static_cast<V>(~V{0});
  for (index_t v : gpu::grid_stride(n))
    out[v] = parent[v] == none ? -1 : static_cast<std::int64_t>(parent[v]);
}

std::string device_name(int dev) {
  cudaDeviceProp p{};
  GPU500_CUDA_CHECK(cudaGetDeviceProperties(&p, dev));
  return p.name;
}

template <class V>
class cuda_pipeline final : public pipeline {
 public:
  cuda_pipeline(const graph::kronecker_params& p, std::optional<graph::edge_list> edges,
                std::optional<graph::cuda::device_edge_arrays> device_edges, const cuda_options& o)
      : p_(p), edges_(std::move(edges)), device_edges_(device_edges), o_(o) {
    if (o_.directed) {  // no relabelling: the engines take ids past the non-isolated prefix as unreachable
      o_.no_sort = true;
      o_.bfs.directed = o_.sssp.directed = true;
    }
    GPU500_CUDA_CHECK(cudaSetDevice(o.device));
    n_ = edges_ ? edges_->num_vertices : device_edges_ ? device_edges_->num_vertices : p.num_vertices();
    m_ = edges_ ? edges_->size() : device_edges_ ? device_edges_->num_edges : p.num_edges();
    weighted_ = edges_ ? edges_->weighted() : device_edges_ ? device_edges_->weighted() : p.weights;
    // A graph in hand is checked at once, so that a search command's error is its only line; a
    // Kronecker graph is checked where the harness generates it.
    given_ = edges_ || device_edges_;
    if (given_) check_device_memory();
  }

  [[nodiscard]] std::string description() const override {
    return "cuda, " + device_name(o_.device) + ", " + std::to_string(vertex_bits()) + "-bit vertex ids, " +
           describe(o_);
  }
  [[nodiscard]] int vertex_bits() const override { return static_cast<int>(8 * sizeof(V)); }

  double generate() override {
    if (!given_) check_device_memory();
    stopwatch t;
    el_ = edges_          ? graph::cuda::upload_edge_list<V>(*edges_)
          : device_edges_ ? graph::cuda::copy_edge_list<V>(*device_edges_)
                          : graph::cuda::generate_kronecker_device<V>(p_);
    device_edges_.reset();  // the caller's arrays are not read again
    return t.seconds();
  }

  double construct() override {
    GPU500_EXPECTS(el_.num_vertices > 0, "construct() before generate()");
    stopwatch t;
    graph::cuda::build_options bo;
    bo.relabel = !o_.no_sort;
    bo.directed = o_.directed;
    g_ = graph::cuda::build_device_csr<V>(std::move(el_), bo);
    // Both searches end with their output in the original ids, inside their timed region
    // (Graph500 times a search until its parents are in memory).
    bfs_ = std::make_unique<bfs::cuda::engine<V>>(g_.view(), g_.relabelled(), o_.bfs);
    bfs_->report_original_ids(g_.ids());
    // The SSSP engine's weight-sorted rows are a kernel-1 data structure: built (and timed) here.
    // Once the engine holds its weight-sorted copy (columns and weights), the CSR's own weights
    // are read by nobody: freeing them is what lets SCALE 27 fit on an 80 GB GPU. SSSP validation
    // then reads the engine's rows (the same arcs per row, in weight order).
    if (weighted_) {
      sssp_ = std::make_unique<sssp::cuda::engine<V>>(g_.view(), o_.sssp, [this] { g_.release_weights(); });
      sssp_->report_original_ids(g_.ids());
    }
    GPU500_CUDA_CHECK(cudaDeviceSynchronize());
    const double s = t.seconds();
    has_edges_ = g_.has_edges_host();
    return s;
  }

  /// Throws resource_error "<the graph> needs X of device memory, Y free" when the pipeline's
  /// peak (kernel 1 and the engines) does not fit the device.
  void check_device_memory() const {
    const std::string what = given_ ? "a graph of " + std::to_string(n_) + " vertices and " + std::to_string(m_) +
                                          " edges"
                                    : "SCALE " + std::to_string(p_.scale);
    gpu::check_device_memory(what.c_str(),
                             graph::cuda::pipeline_device_bytes(n_, m_, sizeof(V), weighted_, !o_.no_sort));
  }

  [[nodiscard]] bool has_edges(index_t v) const override {
    return v >= 0 && v < n_ && has_edges_[static_cast<std::size_t>(v)] != 0;
  }

  double bfs(index_t root) override {
    const index_t r = g_.to_new(root);
    bfs_->prepare();
    stopwatch t;
    bfs_->run(r);
    return t.seconds();
  }

  [[nodiscard]] index_t bfs_nedge() override { return bfs_->traversed_edges(); }

  validation validate_bfs(index_t root) override {
    const device_buffer<std::int64_t> parent = widened_parents();
    if (o_.directed)
      return validate_bfs_directed(host_rows(g_.view(), false), root, gpu::to_host(parent), bfs_->traversed_edges());
    return cuda::validate_bfs<V>(g_.view(), g_.new2old(), root, parent.data(), bfs_->traversed_edges());
  }
  /// The parents and the levels in original ids (into host memory through down_'s page-locked
  /// chunks; unreached parents widened to -1 on the way).
  search_tree bfs_tree() override {
    const auto n = static_cast<std::size_t>(n_);
    search_tree t;
    t.parent.resize(n);
    down_.widen(bfs_->parents_original(), n, t.parent.data());
    t.level.resize(n);
    down_.widen(bfs_->levels_original(), n, t.level.data());
    return t;
  }

  double sssp(index_t root) override {
    GPU500_EXPECTS(sssp_ != nullptr, "SSSP needs a weighted graph");
    const index_t r = g_.to_new(root);
    sssp_->prepare();  // clean_shortest: untimed, as in the reference
    GPU500_CUDA_CHECK(cudaDeviceSynchronize());
    stopwatch t;
    sssp_->run(r);
    return t.seconds();
  }
  [[nodiscard]] index_t sssp_nedge() override { return sssp_->traversed_edges(); }
  validation validate_sssp(index_t root) override {
    if (o_.directed) {
      const auto n = static_cast<std::size_t>(n_);
      return validate_sssp_directed(host_rows(sssp_->graph_view(), true), root, gpu::to_host(sssp_->parents_device(), n),
                                    gpu::to_host(sssp_->distances_device(), n), sssp_->traversed_edges());
    }
    return cuda::validate_sssp<V>(sssp_->graph_view(), g_.new2old(), root, sssp_->parents_device(), sssp_->distances_device(),
                                  sssp_->traversed_edges());
  }
  search_tree sssp_tree() override {
    const auto n = static_cast<std::size_t>(n_);
    search_tree t;
    t.parent.resize(n);
    t.distance.resize(n);
    down_.copy(sssp_->parents_device(), n, t.parent.data());
    down_.copy(sssp_->distances_device(), n, t.distance.data());
    return t;
  }

  /// A host copy of device rows (a directed graph's, not relabelled) for the host's directed
  /// validator, made on the first validation of each kind and kept (validation is untimed).
  graph::csr_view<V> host_rows(graph::csr_view<V> d, bool weights) {
    graph::csr<V>& h = weights ? host_sssp_ : host_bfs_;
    if (h.offsets.empty()) {
      h.num_vertices = n_;
      const auto offsets = gpu::to_host(d.offsets, static_cast<std::size_t>(n_) + 1);
      const auto arcs = static_cast<std::size_t>(offsets.back());
      const auto columns = gpu::to_host(d.columns, arcs);
      h.offsets.assign(offsets.begin(), offsets.end());
      h.columns.assign(columns.begin(), columns.end());
      if (weights) {
        const auto w = gpu::to_host(d.weights, arcs);
        h.weights.assign(w.begin(), w.end());
      }
    }
    return h.view();
  }

  /// The last BFS's parents in original ids as Graph500's int64 (-1: unreached), on the device.
  device_buffer<std::int64_t> widened_parents() {
    device_buffer<std::int64_t> parent(static_cast<std::size_t>(n_));
    widen_parents_kernel<V><<<gpu::grid_blocks(n_, convert_policy::block), convert_policy::block>>>(
        bfs_->parents_original(), n_, parent.data());
    GPU500_CUDA_CHECK_LAUNCH();
    return parent;
  }

  /// The last BFS's levels (the engine's record; 'L' is a run of levels inside the device loop).
  [[nodiscard]] json::value trace() const override {
    json::value levels = json::value::make_array();
    for (const auto& l : bfs_->levels()) {
      json::value e;
      e["level"] = l.level;
      e["direction"] = l.direction == 'B' ? "bottom-up" : l.direction == 'L' ? "device-loop" : "top-down";
      e["frontier"] = l.frontier;
      e["compute_seconds"] = l.seconds;
      levels.push_back(e);
    }
    json::value j;
    j["bfs"] = levels;
    return j;
  }
  /// The engine (benchmarks read its level trace).
  [[nodiscard]] const bfs::cuda::engine<V>& engine() const { return *bfs_; }

 private:
  graph::kronecker_params p_;
  std::optional<graph::edge_list> edges_;
  std::optional<graph::cuda::device_edge_arrays> device_edges_;
  bool given_ = false;  ///< a graph in hand (host or device edges), not a Kronecker graph to generate
  cuda_options o_;
  index_t n_ = 0, m_ = 0;
  bool weighted_ = false;
  graph::cuda::device_edge_list<V> el_;
  graph::cuda::device_csr<V> g_;
  std::unique_ptr<bfs::cuda::engine<V>> bfs_;
  std::unique_ptr<sssp::cuda::engine<V>> sssp_;
  std::vector<std::uint8_t> has_edges_;
  gpu::host_download down_;  ///< search trees into host memory
  graph::csr<V> host_bfs_, host_sssp_;  ///< directed graphs: the rows the host validator reads
};

std::unique_ptr<pipeline> make(const graph::kronecker_params& p, std::optional<graph::edge_list> edges,
                               std::optional<graph::cuda::device_edge_arrays> device_edges, const cuda_options& o) {
  const index_t n = edges ? edges->num_vertices : device_edges ? device_edges->num_vertices : p.num_vertices();
  const bool fits32 = static_cast<std::uint64_t>(n) < std::numeric_limits<std::uint32_t>::max();
  if (o.vertex_bits != 0 && o.vertex_bits != 32 && o.vertex_bits != 64)
    throw usage_error("--vertex-bits must be 32 or 64, got " + std::to_string(o.vertex_bits));
  if (o.vertex_bits == 32 && !fits32)
    throw usage_error(std::to_string(n) + " vertices do not fit 32-bit vertex ids; use --vertex-bits 64");
  if (o.vertex_bits == 64 || !fits32)
    return std::make_unique<cuda_pipeline<std::int64_t>>(p, std::move(edges), device_edges, o);
  return std::make_unique<cuda_pipeline<std::uint32_t>>(p, std::move(edges), device_edges, o);
}

}  // namespace

std::string describe(const cuda_options& o) {
  return "enterprise " + bfs::cuda::describe(o.bfs) + (o.no_sort ? "" : "+sort");
}

std::string cuda_level_trace(const pipeline& p) {
  const std::vector<bfs::cuda::level_info>* levels = nullptr;
  if (const auto* a = dynamic_cast<const cuda_pipeline<std::uint32_t>*>(&p)) levels = &a->engine().levels();
  if (const auto* b = dynamic_cast<const cuda_pipeline<std::int64_t>*>(&p)) levels = &b->engine().levels();
  std::string s;
  if (levels)
    for (const auto& l : *levels)
      s += (s.empty() ? "" : " ") + std::string(1, l.direction) + std::to_string(l.level) + ":" +
           std::to_string(l.frontier) + "@" + std::to_string(static_cast<int>(l.seconds * 1e6)) + "us";
  return s;
}

std::unique_ptr<pipeline> make_cuda_pipeline(const graph::kronecker_params& p, const cuda_options& o) {
  p.check();
  if (o.directed) throw usage_error("the Graph500 Kronecker graph is undirected: a directed search needs a graph file");
  return make(p, std::nullopt, std::nullopt, o);
}

std::unique_ptr<pipeline> make_cuda_pipeline(graph::edge_list edges, const cuda_options& o) {
  graph::kronecker_params p;
  p.weights = edges.weighted();
  return make(p, std::move(edges), std::nullopt, o);
}

std::unique_ptr<pipeline> make_cuda_pipeline(const graph::cuda::device_edge_arrays& edges, const cuda_options& o) {
  graph::kronecker_params p;
  p.weights = edges.weighted();
  if (edges.num_vertices < 1) throw usage_error("graph: the vertex count must be positive");
  return make(p, std::nullopt, edges, o);
}

}  // namespace gpu500::graph500
