// The Graph500 pipeline over MPI ranks, host backend (see gpu500/graph500/mpi_pipeline.hpp):
// generation of a slice of the edge list, kernel 1 by exchange (graph::build_csr over the ranks),
// the host BFS and SSSP engines (one engine each at every rank count) and the distributed
// validator, on rows of 32- or 64-bit vertex ids (--vertex-bits, as on one process). Every method
// runs under the communicator's guard: an exception on one rank ends the run instead of leaving
// the others in a collective.
#include "gpu500/graph500/mpi_pipeline.hpp"

#include <omp.h>

#include <algorithm>
#include <limits>
#include <optional>

#include "gpu500/bfs/bfs.hpp"
#include "gpu500/config.hpp"
#include "gpu500/core/device.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/core/timer.hpp"
#include "gpu500/graph500/validate.hpp"
#include "gpu500/sssp/sssp.hpp"
#include "local_graph.hpp"

namespace gpu500::graph500 {

namespace {

// The OpenMP team of the parallel regions run while it lives (n = 0: unchanged), the old one
// restored after: the SSSP engine's regions take the default team (--sssp-threads).
class omp_team {
 public:
  explicit omp_team(int n) : saved_(omp_get_max_threads()) {
    if (n > 0) omp_set_num_threads(n);
  }
  ~omp_team() { omp_set_num_threads(saved_); }
  omp_team(const omp_team&) = delete;
  omp_team& operator=(const omp_team&) = delete;

 private:
  int saved_;
};

template <class V>
class mpi_cpu_pipeline final : public mpi_pipeline {
 public:
  mpi_cpu_pipeline(const dist::communicator& c, const graph::kronecker_params& p, const mpi_options& o)
      : c_(c), params_(p), opts_(o), part_(p.num_vertices(), c.size()) {}

  std::string description() const override {
    return "mpi cpu, " + std::to_string(c_.size()) + " ranks (1-D block partition), " +
           std::to_string(omp_get_max_threads()) + " OpenMP threads per rank, " + std::to_string(vertex_bits()) +
           "-bit vertex ids";
  }
  int vertex_bits() const override { return static_cast<int>(8 * sizeof(V)); }

  double generate() override {
    return timed([&] {
      const index_t m = params_.num_edges(), r = c_.rank(), R = c_.size();
      const index_t first = m * r / R, last = m * (r + 1) / R;
      edges_ = graph::generate_kronecker(params_, first, last - first);
    });
  }

  double construct() override {
    return timed([&] {
      GPU500_EXPECTS(edges_.num_vertices > 0, "generate() before construct()");
      g_ = graph::build_csr<V>(c_, part_, edges_);
      edges_ = {};
      const auto view = g_.view();
      bfs_.emplace(c_, part_, view,
                   bfs::cpu_options{opts_.bfs_threads, opts_.top_down_only, opts_.alpha, opts_.beta, opts_.bfs_wide_columns});
      if (params_.weights) {
        const omp_team team(opts_.sssp_threads);
        sssp_.emplace(c_, part_, view,
                      sssp::cpu_options{opts_.sssp_threads, opts_.delta, opts_.no_light_heavy, opts_.sssp_no_relabel,
                                        opts_.sssp_pull_share});
      }
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
    c_.guard([&] { bfs_->prepare(); });  // clean_pred: untimed
    return timed([&] { bfs_->run(root); });
  }
  index_t bfs_nedge() override {
    return c_.guard([&] { return bfs_->traversed_edges(); });
  }
  validation validate_bfs(index_t root) override {
    return c_.guard([&] {
      return graph500::validate_bfs(c_, part_, g_.view(), root, bfs_->parents(), bfs_->traversed_edges(),
                               opts_.validator_asks_owners);
    });
  }

  double sssp(index_t root) override {
    const omp_team team(opts_.sssp_threads);
    c_.guard([&] {
      GPU500_EXPECTS(sssp_.has_value(), "SSSP needs a weighted graph");
      sssp_->prepare();  // clean_shortest: untimed
    });
    return timed([&] { sssp_->run(root); });
  }
  index_t sssp_nedge() override {
    return c_.guard([&] { return sssp_->traversed_edges(); });
  }
  validation validate_sssp(index_t root) override {
    return c_.guard([&] {
      return graph500::validate_sssp(c_, part_, g_.view(), root, sssp_->parents(), sssp_->distances(),
                                sssp_->traversed_edges(), opts_.validator_asks_owners);
    });
  }

  dist::vertex_range owned() const override { return part_.range(c_.rank()); }
  index_t local_arcs() const override { return g_.offsets.empty() ? 0 : g_.offsets.back(); }
  std::span<std::int64_t> local_parents(bool sssp) override {
    if (sssp) return sssp_ ? sssp_->parents() : std::span<std::int64_t>{};
    return bfs_ ? bfs_->parents() : std::span<std::int64_t>{};
  }
  std::span<float> local_distances() override { return sssp_ ? sssp_->distances() : std::span<float>{}; }
  float sssp_delta() const override { return sssp_ ? sssp_->delta() : 0.f; }
  json::value trace() const override {
    return mpi::search_trace(c_, bfs_ ? &bfs_->levels() : nullptr, sssp_ ? &sssp_->levels() : nullptr, sssp_delta());
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

  dist::communicator c_;
  graph::kronecker_params params_;
  mpi_options opts_;
  dist::block_partition part_;
  graph::edge_list edges_;
  graph::csr<V> g_;
  std::optional<bfs::cpu_engine<V>> bfs_;
  std::optional<sssp::cpu_engine<V>> sssp_;
};

}  // namespace

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

std::unique_ptr<mpi_pipeline> make_mpi_cpu_pipeline(const dist::communicator& comm, const graph::kronecker_params& p,
                                                    const mpi_options& o) {
  p.check();  // the same parameters on every rank: every rank throws alike
  if (o.alpha <= 0 || o.beta <= 0) throw usage_error("--bfs-alpha and --bfs-beta must be > 0");
  // The rows' ids: 64 bits unless asked, as on one process (cpu_pipeline.cpp).
  const int bits = o.vertex_bits == 0 ? 64 : o.vertex_bits;
  if (bits != 32 && bits != 64) throw usage_error("--vertex-bits must be 32 or 64, got " + std::to_string(bits));
  if (bits == 32 && p.scale > 32) throw usage_error("SCALE " + std::to_string(p.scale) + " needs 64-bit vertex ids");
  // Each rank's share against its part of its host's available memory; the ranks agree before
  // anyone throws, so that all of them do.
  const auto need = static_cast<std::int64_t>(mpi_pipeline_bytes(p, comm.size(), comm.node_size(), bits));
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
  if (bits == 32) return std::make_unique<mpi_cpu_pipeline<std::uint32_t>>(comm, p, o);
  return std::make_unique<mpi_cpu_pipeline<std::int64_t>>(comm, p, o);
}

std::unique_ptr<mpi_pipeline> make_mpi_cpu_pipeline(const graph::kronecker_params& p, const mpi_options& o) {
  return make_mpi_cpu_pipeline(dist::communicator::world(), p, o);
}

#if !GPU500_HAVE_CUDA
std::unique_ptr<mpi_pipeline> make_mpi_cuda_pipeline(const dist::communicator&, const graph::kronecker_params&,
                                                     const mpi_options&) {
  throw usage_error("this build has no CUDA backend");
}
#endif

}  // namespace gpu500::graph500
