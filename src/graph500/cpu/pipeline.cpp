// The host Graph500 pipeline, one process or the ranks of a communicator (cpu_pipeline.hpp,
// mpi_pipeline.hpp): the Kronecker generator on this rank's slice of the edge list (or a given
// edge list, on one process), kernel 1 (graph::build_csr over the ranks; one process is the
// one-rank case, where nothing is exchanged), the host BFS and SSSP engines (one engine each at
// every rank count) and the host validator, on rows of 32- or 64-bit vertex ids. Kernel 1 is timed
// as the reference times it: the rows plus the allocation of the search engines' buffers. Every
// method runs under the communicator's guard: an exception on one rank ends the run instead of
// leaving the others in a collective; times are the slowest rank's, measured from a barrier.
#include <omp.h>

#include <algorithm>
#include <limits>
#include <optional>
#include <utility>

#include "gpu500/config.hpp"
#include "gpu500/core/device.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/core/timer.hpp"
#include "gpu500/dist/trace.hpp"
#include "gpu500/graph/arc_sort.hpp"
#include "gpu500/graph/csr.hpp"
#include "gpu500/graph500/cpu_pipeline.hpp"
#include "gpu500/graph500/harness.hpp"
#include "gpu500/graph500/mpi_pipeline.hpp"
#include "gpu500/graph500/validate.hpp"

namespace gpu500::graph500 {

namespace {

template <class V>
class cpu_pipeline final : public mpi_pipeline {
 public:
  /// The Kronecker graph over the ranks of c; over_ranks: made as the pipeline over MPI ranks
  /// (which its description says, also for one rank).
  cpu_pipeline(const dist::communicator& c, const graph::kronecker_params& p, const cpu_pipeline_options& o,
               bool over_ranks)
      : c_(c), params_(p), opts_(o), part_(p.num_vertices(), c.size()), over_ranks_(over_ranks) {}
  /// One process over a given edge list: generate() hands it over instead of generating.
  cpu_pipeline(graph::edge_list el, const cpu_pipeline_options& o)
      : opts_(o), part_(el.num_vertices, 1), given_(std::move(el)) {
    params_.weights = given_->weighted();
    opts_.bfs.directed = opts_.sssp.directed = o.directed;
  }

  std::string description() const override {
    const std::string threads = std::to_string(omp_get_max_threads()) + " OpenMP threads";
    const std::string bits = std::to_string(vertex_bits()) + "-bit vertex ids";
    if (!over_ranks_) return "cpu, " + threads + ", " + bits;
    return "mpi cpu, " + std::to_string(c_.size()) + " ranks (1-D block partition), " + threads + " per rank, " + bits;
  }
  int vertex_bits() const override { return static_cast<int>(8 * sizeof(V)); }

  double generate() override {
    return timed([&] {
      if (given_) {
        edges_ = std::move(*given_);
        given_.reset();
        return;
      }
      const index_t m = params_.num_edges(), r = c_.rank(), R = c_.size();
      const index_t first = m * r / R, last = m * (r + 1) / R;
      edges_ = graph::generate_kronecker(params_, first, last - first);
    });
  }

  double construct() override {
    return timed([&] {
      GPU500_EXPECTS(edges_.num_vertices > 0, "generate() before construct()");
      graph::arc_sort_scratch scratch;  // the rows' sort buckets, used again by the SSSP engine's sort
      g_ = opts_.directed ? graph::build_csr_directed<V>(edges_, &scratch)
                          : graph::build_csr<V>(c_, part_, edges_, &scratch);
      edges_ = {};  // kernel 1 owns the graph from here; the edge list is no longer needed
      const auto view = g_.view();
      bfs_.emplace(c_, part_, view, opts_.bfs);
      if (params_.weights) sssp_.emplace(c_, part_, view, opts_.sssp, &scratch);
    });
  }

  bool has_edges(index_t v) const override {
    return c_.guard([&] {
      GPU500_EXPECTS(v >= 0 && v < part_.num_vertices(), "a vertex");
      const int owner = part_.owner(v);
      int has = 0;
      if (owner == c_.rank()) has = g_.degree(v - g_.first_vertex) > 0;
      return c_.bcast(has, owner) != 0;
    });
  }

  double bfs(index_t root) override {
    c_.guard([&] { bfs_->prepare(); });  // clean_pred: untimed, as in the reference
    return timed([&] { bfs_->run(root); });
  }
  index_t bfs_nedge() override {
    return c_.guard([&] { return bfs_->traversed_edges(); });
  }
  validation validate_bfs(index_t root) override {
    return c_.guard([&] {
      if (opts_.directed) return validate_bfs_directed(g_.view(), root, bfs_->parents(), bfs_->traversed_edges());
      return graph500::validate_bfs(c_, part_, g_.view(), root, bfs_->parents(), bfs_->traversed_edges(),
                                    opts_.validator_asks_owners);
    });
  }

  double sssp(index_t root) override {
    c_.guard([&] {
      GPU500_EXPECTS(sssp_.has_value(), "SSSP needs a weighted graph");
      sssp_->prepare();  // clean_shortest: untimed, as in the reference
    });
    return timed([&] { sssp_->run(root); });
  }
  index_t sssp_nedge() override {
    return c_.guard([&] { return sssp_->traversed_edges(); });
  }
  validation validate_sssp(index_t root) override {
    return c_.guard([&] {
      if (opts_.directed)
        return validate_sssp_directed(g_.view(), root, sssp_->parents(), sssp_->distances(), sssp_->traversed_edges());
      return graph500::validate_sssp(c_, part_, g_.view(), root, sssp_->parents(), sssp_->distances(),
                                     sssp_->traversed_edges(), opts_.validator_asks_owners);
    });
  }

  // One process hands its results over without a copy; over ranks a rank holds only its slice.
  search_tree bfs_tree() override {
    if (c_.size() > 1) return pipeline::bfs_tree();
    return {bfs_->take_parents(), {}, {}};
  }
  search_tree sssp_tree() override {
    if (c_.size() > 1) return pipeline::sssp_tree();
    auto [parent, distance] = sssp_->take_result();
    return {std::move(parent), std::move(distance), {}};
  }

  dist::vertex_range owned() const override { return part_.range(c_.rank()); }
  index_t local_arcs() const override { return g_.offsets.empty() ? 0 : g_.offsets.back(); }
  std::span<std::int64_t> local_parents(bool sssp) override {
    if (sssp) return sssp_ ? sssp_->parents() : std::span<std::int64_t>{};
    return bfs_ ? bfs_->parents() : std::span<std::int64_t>{};
  }
  std::span<float> local_distances() override { return sssp_ ? sssp_->distances() : std::span<float>{}; }
  float sssp_delta() const override { return sssp_ ? sssp_->delta() : 0.f; }
  json::value trace() const override {  // the engines' levels and phases (collective: every rank's seconds)
    return dist::search_trace(c_, bfs_ ? &bfs_->levels() : nullptr, sssp_ ? &sssp_->levels() : nullptr, sssp_delta());
  }

 private:
  /// Runs f on every rank from a barrier; the slowest rank's seconds, the same on every rank.
  template <class F>
  double timed(F&& f) {
    return c_.guard([&] {
      c_.barrier();
      stopwatch sw;
      f();
      return c_.allreduce(sw.seconds(), dist::reduce_op::max);
    });
  }

  dist::communicator c_;  // before the engines, which keep a reference to it
  graph::kronecker_params params_;
  cpu_pipeline_options opts_;
  dist::block_partition part_;
  bool over_ranks_ = false;
  std::optional<graph::edge_list> given_;
  graph::edge_list edges_;
  graph::csr<V> g_;
  std::optional<bfs::cpu_engine<V>> bfs_;
  std::optional<sssp::cpu_engine<V>> sssp_;
};

void check_vertex_bits(int bits, const graph::kronecker_params* p) {
  if (bits != 32 && bits != 64) throw usage_error("--vertex-bits must be 32 or 64, got " + std::to_string(bits));
  if (p != nullptr && bits == 32 && p->scale > 32)
    throw usage_error("SCALE " + std::to_string(p->scale) + " needs 64-bit vertex ids");
}

/// The checks of a Kronecker run's parameters and options, alike on every rank.
void check_kronecker(const graph::kronecker_params& p, const cpu_pipeline_options& o) {
  p.check();
  if (o.directed) throw usage_error("the Graph500 Kronecker graph is undirected: a directed search needs a graph file");
  check_vertex_bits(o.vertex_bits, &p);
}

template <class... A>
std::unique_ptr<mpi_pipeline> make_of_width(int bits, A&&... a) {
  if (bits == 32) return std::make_unique<cpu_pipeline<std::uint32_t>>(std::forward<A>(a)...);
  return std::make_unique<cpu_pipeline<std::int64_t>>(std::forward<A>(a)...);
}

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

std::size_t mpi_pipeline_bytes(const graph::kronecker_params& p, int ranks, int ranks_per_host, int vertex_bits) {
  const auto R = static_cast<std::size_t>(ranks);
  const auto m = static_cast<std::size_t>(p.num_edges()) / R + 1, n = static_cast<std::size_t>(p.num_vertices()) / R + 64;
  const std::size_t w = p.weights ? sizeof(float) : 0, id = static_cast<std::size_t>(vertex_bits / 8);
  // Kernel 1 at its peak: the edge slice (2 ids + weight), the arcs sent and received (24 bytes
  // each, two per edge), the rows being built (id + weight per arc, offsets).
  const std::size_t kernel1 = m * (16 + w) + 2 * m * 24 * 2 + 2 * m * (8 + w) + n * 8;
  // Afterwards: the rows, the BFS (parents, two queues, the whole frontier bitmap, its copy of
  // the columns in degree order and, while it builds that, every vertex's degree class), the SSSP
  // (sssp/sssp.hpp: 64 + 3 x 8 bytes a row, its 8-byte copy of every arc, its share of the host's
  // offered distance and bucket byte of every vertex of the graph, the pulls' bitmap of the rows
  // and the graph) and the validator's requests and replies (about 40 bytes per arc).
  const std::size_t rows = 2 * m * (id + w) + n * 8;
  const auto nv = static_cast<std::size_t>(p.num_vertices());
  const std::size_t searches =
      n * 32 + nv / 8 + 2 * m * 8 + nv +
      (p.weights ? n * 88 + nv * (sizeof(float) + 1) / static_cast<std::size_t>(std::max(1, ranks_per_host)) +
                       2 * m * 8 + (nv + n) / 8
                 : 0);
  const std::size_t validator = 2 * m * 40;
  return std::max(kernel1, rows + searches + validator);
}

std::unique_ptr<pipeline> make_cpu_pipeline(graph::edge_list el, const cpu_pipeline_options& o) {
  check_vertex_bits(o.vertex_bits, nullptr);
  // The edge list is held already: what the pipeline adds to it.
  const double held = static_cast<double>(el.size()) * (2 * sizeof(std::int64_t) + (el.weighted() ? sizeof(float) : 0));
  check_host_memory(static_cast<double>(cpu_pipeline_bytes(el.num_vertices, el.size(), el.weighted(), o.vertex_bits)) - held,
                    "the graph of " + std::to_string(el.num_vertices) + " vertices and " + std::to_string(el.size()) +
                        " edges (its CSR and search engines)");
  return make_of_width(o.vertex_bits, std::move(el), o);
}

std::unique_ptr<pipeline> make_cpu_pipeline(const graph::kronecker_params& p, const cpu_pipeline_options& o) {
  check_kronecker(p, o);
  check_host_memory(static_cast<double>(cpu_pipeline_bytes(p, o.vertex_bits)), "SCALE " + std::to_string(p.scale));
  return make_of_width(o.vertex_bits, dist::communicator{}, p, o, false);
}

std::unique_ptr<mpi_pipeline> make_cpu_pipeline(const dist::communicator& comm, const graph::kronecker_params& p,
                                                const cpu_pipeline_options& o) {
  check_kronecker(p, o);  // the same parameters on every rank: every rank throws alike
  if (o.bfs.alpha <= 0 || o.bfs.beta <= 0) throw usage_error("--bfs-alpha and --bfs-beta must be > 0");
  // Each rank's share against its part of its host's available memory; the ranks agree before
  // anyone throws, so that all of them do.
  const auto need = static_cast<std::int64_t>(mpi_pipeline_bytes(p, comm.size(), comm.node_size(), o.vertex_bits));
  note_memory_estimate(static_cast<double>(need), "a rank's graph and searches");
  const std::int64_t avail = host_available_memory() / std::max(1, comm.node_size());
  const bool fits = avail <= 0 || need <= avail;
  if (!comm.all(fits)) {
    const std::int64_t worst = comm.allreduce(fits ? std::numeric_limits<std::int64_t>::max() : avail,
                                              dist::reduce_op::min);
    throw resource_error("SCALE " + std::to_string(p.scale) + " on " + std::to_string(comm.size()) +
                         " ranks needs " + human_bytes(static_cast<double>(need)) + " per rank, " +
                         human_bytes(static_cast<double>(worst)) + " available to a rank");
  }
  return make_of_width(o.vertex_bits, comm, p, o, true);
}

}  // namespace gpu500::graph500
