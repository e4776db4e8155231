// The host Graph500 pipeline (see cpu_pipeline.hpp). Kernel 1 is timed as the reference times it:
// CSR construction plus the allocation of the search engines' buffers.
#include "gpu500/graph500/cpu_pipeline.hpp"

#include <omp.h>

#include <algorithm>
#include <optional>
#include <utility>

#include "gpu500/core/device.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/core/timer.hpp"
#include "gpu500/dist/trace.hpp"
#include "gpu500/graph/arc_sort.hpp"
#include "gpu500/graph/csr.hpp"
#include "gpu500/graph500/harness.hpp"
#include "gpu500/graph500/validate.hpp"

namespace gpu500::graph500 {

namespace {

template <class V>
class cpu_pipeline final : public pipeline {
 public:
  cpu_pipeline(const graph::kronecker_params& p, const cpu_pipeline_options& o) : params_(p), opts_(o) {}
  /// Over a given edge list: generate() hands it over instead of generating.
  cpu_pipeline(graph::edge_list el, const cpu_pipeline_options& o) : opts_(o), given_(std::move(el)) {
    params_.weights = given_->weighted();
    opts_.bfs.directed = opts_.sssp.directed = o.directed;
  }

  std::string description() const override {
    return "cpu, " + std::to_string(omp_get_max_threads()) + " OpenMP threads, " + std::to_string(vertex_bits()) +
           "-bit vertex ids";
  }
  int vertex_bits() const override { return 8 * sizeof(V); }

  double generate() override {
    stopwatch sw;
    if (given_) {
      edges_ = std::move(*given_);
      given_.reset();
    } else {
      edges_ = graph::generate_kronecker(params_);
    }
    return sw.seconds();
  }

  double construct() override {
    GPU500_EXPECTS(edges_.num_vertices > 0, "generate() before construct()");
    stopwatch sw;
    graph::arc_sort_scratch scratch;  // the CSR's sort buckets, used again by the SSSP engine's sort
    g_ = opts_.directed ? graph::build_csr_directed<V>(edges_, &scratch) : graph::build_csr<V>(edges_, &scratch);
    edges_ = {};  // kernel 1 owns the graph from here; the edge list is no longer needed
    bfs_.emplace(g_.view(), opts_.bfs);
    if (params_.weights) sssp_.emplace(g_.view(), opts_.sssp, &scratch);
    scratch.release();
    return sw.seconds();
  }

  bool has_edges(index_t v) const override { return g_.degree(v) > 0; }

  double bfs(index_t root) override {
    bfs_->prepare();  // clean_pred: untimed, as in the reference
    stopwatch sw;
    bfs_->run(root);
    return sw.seconds();
  }
  index_t bfs_nedge() override { return bfs_->traversed_edges(); }
  validation validate_bfs(index_t root) override {
    if (opts_.directed) return validate_bfs_directed(g_.view(), root, bfs_->parents(), bfs_->traversed_edges());
    return graph500::validate_bfs(g_.view(), root, bfs_->parents(), bfs_->traversed_edges());
  }

  search_tree bfs_tree() override { return {bfs_->take_parents(), {}}; }  // no copy

  double sssp(index_t root) override {
    GPU500_EXPECTS(sssp_.has_value(), "SSSP needs a weighted graph");
    sssp_->prepare();  // clean_shortest: untimed, as in the reference
    stopwatch sw;
    sssp_->run(root);
    return sw.seconds();
  }
  index_t sssp_nedge() override { return sssp_->traversed_edges(); }
  validation validate_sssp(index_t root) override {
    if (opts_.directed)
      return validate_sssp_directed(g_.view(), root, sssp_->parents(), sssp_->distances(), sssp_->traversed_edges());
    return graph500::validate_sssp(g_.view(), root, sssp_->parents(), sssp_->distances(), sssp_->traversed_edges());
  }
  json::value trace() const override {  // the engines' levels and phases, one rank's record
    const dist::communicator one;
    json::value j;
    j["bfs"] = bfs_ ? dist::to_json(one, bfs_->levels()) : json::value::make_array();
    j["sssp"] = sssp_ ? dist::to_json(one, sssp_->levels()) : json::value::make_array();
    if (sssp_) j["sssp_delta"] = static_cast<double>(sssp_->delta());
    return j;
  }
  search_tree sssp_tree() override {  // no copy
    auto [parent, distance] = sssp_->take_result();
    return {std::move(parent), std::move(distance)};
  }

 private:
  graph::kronecker_params params_;
  cpu_pipeline_options opts_;
  std::optional<graph::edge_list> given_;
  graph::edge_list edges_;
  graph::csr<V> g_;
  std::optional<bfs::cpu_engine<V>> bfs_;
  std::optional<sssp::cpu_engine<V>> sssp_;
};

}  // namespace

std::size_t cpu_pipeline_bytes(index_t n, index_t m, bool weights, int vertex_bits) {
  const auto un = static_cast<std::size_t>(n), arcs = 2 * static_cast<std::size_t>(m);
  const std::size_t id = static_cast<std::size_t>(vertex_bits / 8);
  // Kernel 1 holds the edge list and the CSR with its sort buckets (csr_bytes); the edge list is
  // freed before the engines are made, while the buckets live on for the SSSP engine's sort. The
  // arrays the engines hold between searches (bfs.hpp, sssp.hpp): BFS 24 bytes per vertex and its
  // copy of the rows (4 bytes an arc where the ids fit 32 bits, else 8); SSSP 64 + 3 id widths per
  // vertex and its 8-byte copy of every arc. What the engines hold only while they are built is
  // left out, and their copies are counted at 7/8 of the arcs: not all of it is held at once, and
  // the full count passed the peak measured by 1-3 % at SCALE 17-19. The sum is a lower bound of
  // the peak (tests/smoke/memory_estimates.sh).
  const std::size_t csr = graph::csr_bytes(n, m, id, weights);
  const std::size_t edges = static_cast<std::size_t>(m) * (2 * sizeof(std::int64_t) + (weights ? sizeof(float) : 0));
  const std::size_t engine_arcs = arcs / 8 * 7;
  const std::size_t bfs = un * 24 + engine_arcs * (n <= (index_t{1} << 32) ? 4 : 8);
  const std::size_t sssp = weights ? un * (64 + 3 * id) + engine_arcs * 8 : 0;
  return csr + std::max(edges, bfs + sssp);
}

std::size_t cpu_pipeline_bytes(const graph::kronecker_params& p, int vertex_bits) {
  return cpu_pipeline_bytes(p.num_vertices(), p.num_edges(), p.weights, vertex_bits);
}

std::unique_ptr<pipeline> make_cpu_pipeline(graph::edge_list el, const cpu_pipeline_options& o) {
  if (o.vertex_bits != 32 && o.vertex_bits != 64)
    throw usage_error("--vertex-bits must be 32 or 64, got " + std::to_string(o.vertex_bits));
  // The edge list is held already: what the pipeline adds to it.
  const double held = static_cast<double>(el.size()) * (2 * sizeof(std::int64_t) + (el.weighted() ? sizeof(float) : 0));
  check_host_memory(static_cast<double>(cpu_pipeline_bytes(el.num_vertices, el.size(), el.weighted(), o.vertex_bits)) - held,
                    "the graph of " + std::to_string(el.num_vertices) + " vertices and " + std::to_string(el.size()) +
                        " edges (its CSR and search engines)");
  if (o.vertex_bits == 32) return std::make_unique<cpu_pipeline<std::uint32_t>>(std::move(el), o);
  return std::make_unique<cpu_pipeline<std::int64_t>>(std::move(el), o);
}

std::unique_ptr<pipeline> make_cpu_pipeline(const graph::kronecker_params& p, const cpu_pipeline_options& o) {
  p.check();
  if (o.directed) throw usage_error("the Graph500 Kronecker graph is undirected: a directed search needs a graph file");
  if (o.vertex_bits != 32 && o.vertex_bits != 64)
    throw usage_error("--vertex-bits must be 32 or 64, got " + std::to_string(o.vertex_bits));
  if (o.vertex_bits == 32 && p.scale > 32) throw usage_error("SCALE " + std::to_string(p.scale) + " needs 64-bit vertex ids");
  check_host_memory(static_cast<double>(cpu_pipeline_bytes(p, o.vertex_bits)), "SCALE " + std::to_string(p.scale));
  if (o.vertex_bits == 32) return std::make_unique<cpu_pipeline<std::uint32_t>>(p, o);
  return std::make_unique<cpu_pipeline<std::int64_t>>(p, o);
}

}  // namespace gpu500::graph500
