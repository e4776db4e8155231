// The CUDA backend of the Graph500 pipeline over MPI ranks (see gpu500/graph500/mpi_pipeline.hpp):
// the choice of each rank's GPU, the exchange mode, the memory check, and the pipeline that runs
// the device generator and kernel 1 over the ranks (gpu500/graph/cuda.hpp), the BFS (the one CUDA
// engine, gpu500/bfs/cuda.hpp) and the SSSP (the one CUDA engine, gpu500/sssp/cuda.hpp), each on
// its copy of the rows relabelled within the blocks in degree order (degree_order.hpp), and
// validates each search (untimed) with the GPU validator over the ranks
// (graph500/cuda_pipeline.hpp) where its whole-graph arrays fit in the GPU's free memory, else
// with the host validator over host copies of the rows.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <variant>

#include "degree_order.hpp"
#include "gpu500/bfs/cuda.hpp"
#include "gpu500/dist/device_exchange.hpp"
#include "gpu500/core/cuda/check.cuh"
#include "gpu500/core/cuda/download.hpp"
#include "gpu500/core/device.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/core/timer.hpp"
#include "gpu500/dist/placement.hpp"
#include "gpu500/graph/csr.hpp"
#include "gpu500/graph/cuda.hpp"
#include "gpu500/graph500/cuda_pipeline.hpp"
#include "gpu500/graph500/validate.hpp"
#include "gpu500/graph500/mpi_pipeline.hpp"
#include "gpu500/sssp/cuda.hpp"

namespace gpu500::graph500 {

namespace {

/// Device bytes one rank needs at its peak with `ranks` ranks: kernel 1 (the slice, the sort
/// keys and ids with their double buffers, the arcs sent and received, the rows being built), the
/// degree order beside the rows, or afterwards the rows, the searches' columns (with sssp_copy
/// the SSSP's relabelled arcs and weights too) and both engines' state and exchange buffers.
std::size_t device_bytes(const graph::kronecker_params& p, int ranks, int bits, bool sssp_copy) {
  const auto R = static_cast<std::size_t>(ranks);
  const std::size_t m = static_cast<std::size_t>(p.num_edges()) / R + 1;
  const std::size_t n = static_cast<std::size_t>(p.num_vertices()) / R + 64;
  // Kernel 1 (graph::cuda::build_device_rows): the slice (20 bytes an edge) and the staged
  // arrivals (16 bytes an arc, two arcs an edge) while the rounds run, about 100 bytes per edge of
  // a round; then the rows (12 bytes an arc) beside the staging area, then beside their sort's
  // batches.
  const std::size_t round = std::min<std::size_t>(m, static_cast<std::size_t>(graph::cuda::default_round_edges));
  const std::size_t kernel1 = 64 * m + 100 * round + 16 * n;
  const std::size_t rows = 2 * m * 12 + 8 * n;
  const auto rows_n = static_cast<index_t>(n), arcs = static_cast<index_t>(2 * m);
  const std::size_t column_bytes = bits == 64 ? 8 : 4;
  // The BFS's state, and its rows: columns, offsets and the two maps of every vertex.
  const index_t n_all = p.num_vertices();
  const std::size_t bfs = (bits == 64 ? bfs::cuda::engine<std::int64_t>::device_bytes(rows_n, arcs, n_all, ranks)
                                      : bfs::cuda::engine<std::uint32_t>::device_bytes(rows_n, arcs, n_all, ranks)) +
                          column_bytes * (2 * m + 2 * static_cast<std::size_t>(p.num_vertices())) + 8 * n;
  const std::size_t sssp_rows = p.weights && sssp_copy ? (column_bytes + 4) * 2 * m : 0;
  const std::size_t searches =
      bfs + sssp_rows + sssp::cuda::engine<std::int64_t>::device_bytes(rows_n, arcs, p.num_vertices());
  const std::size_t order = mpi::cuda::relabel_bytes(rows_n, arcs, p.num_vertices(), column_bytes);
  return std::max({kernel1, rows + order, rows + searches}) + (std::size_t{256} << 20);
}

/// The width of the searches' columns: 32 bits unless 64 are asked for or the ids need them (kernel
/// 1's rows on the device hold 64-bit ids whatever the width).
int search_bits(const graph::kronecker_params& p, const mpi_options& o) {
  return o.vertex_bits == 64 || !mpi::cuda::narrow_columns_fit(p.num_vertices()) ? 64 : 32;
}

class mpi_cuda_pipeline final : public mpi_pipeline {
  // (first: the members below use these helpers' deduced types)
  /// The engines and the rows they walk, relabelled within the blocks (C: 32- or 64-bit ids): the
  /// BFS's rows, and the SSSP's arcs in the same order and ids (a weighted graph only).
  template <class C>
  struct search_state {
    mpi::cuda::relabelled_rows<C> rows;
    std::optional<bfs::cuda::engine<C>> bfs;
    mpi::cuda::weighted_arcs<C> arcs;
    std::optional<sssp::cuda::engine<C>> sssp;
    /// Vertex v's id in the rows.
    [[nodiscard]] index_t new_id(index_t v) const {
      C x;
      gpu::copy_bytes(&x, rows.old2new.data() + v, sizeof x);
      return static_cast<index_t>(x);
    }
  };
  [[nodiscard]] bool has_bfs() const { return s_.index() != 0; }
  /// f(state) for the state of either width.
  template <class F>
  decltype(auto) with_state(F&& f) const {
    GPU500_EXPECTS(has_bfs(), "construct() before a search");
    if (s_.index() == 1) return f(std::get<1>(s_));
    return f(std::get<2>(s_));
  }
  [[nodiscard]] bool has_sssp() const {
    return in_place_sssp_.has_value() || (has_bfs() && with_state([](auto& s) { return s.sssp.has_value(); }));
  }
  /// f(engine) for the BFS engine of either width.
  template <class F>
  decltype(auto) with_bfs(F&& f) const {
    return with_state([&](auto& s) -> decltype(auto) { return f(*s.bfs); });
  }
  /// f(engine) for the SSSP engine: on the relabelled rows (of either width) or on kernel 1's.
  template <class F>
  decltype(auto) with_sssp(F&& f) const {
    GPU500_EXPECTS(has_sssp(), "SSSP needs a weighted graph");
    if (in_place_sssp_) return f(*in_place_sssp_);
    return with_state([&](auto& s) -> decltype(auto) { return f(*s.sssp); });
  }
  /// The last BFS's levels for the trace: the engine's records over ranks; on one rank its levels
  /// (no exchange, no bytes).
  template <class E>
  static std::vector<dist::level_record> bfs_records(const E& e) {
    if (!e.rank_levels().empty()) return e.rank_levels();
    std::vector<dist::level_record> r;
    for (const bfs::cuda::level_info& l : e.levels())
      r.push_back({l.level, l.direction == 'B' ? "bottom-up" : l.direction == 'L' ? "device-loop" : "top-down",
                   l.frontier, 0, l.seconds, 0, {}});
    return r;
  }

 public:
  /// sssp_copy: the SSSP searches its own relabelled copy of the rows (else kernel 1's, in place).
  mpi_cuda_pipeline(const dist::communicator& c, const graph::kronecker_params& p, const mpi_options& o, int device,
                    int sharing, dist::exchange_mode mode, bool sssp_copy)
      : c_(c), params_(p), opts_(o), part_(p.num_vertices(), c.size()), x_(c_, mode), device_(device),
        sharing_(sharing), bits_(search_bits(p, o)), sssp_copy_(sssp_copy) {}

  std::string description() const override {
    using dist::exchange_mode;
    std::string mode = c_.size() == 1                         ? "one rank: device copies"
                       : x_.mode() == exchange_mode::nccl   ? "NCCL between the GPUs"
                       : x_.mode() == exchange_mode::staged ? "exchanges staged through pinned host buffers"
                                                            : "CUDA-aware MPI on device buffers";
    return "mpi cuda, " + std::to_string(c_.size()) + " ranks (1-D block partition), one GPU per rank (GPU " +
           std::to_string(device_) + " of its node" + (sharing_ > 1 ? ", shared by " + std::to_string(sharing_) + " ranks" : "") +
           "), " + mode + ", " + std::to_string(bits_) + "-bit vertex ids" +
           (params_.weights && !sssp_copy_ ? ", SSSP on kernel 1's rows (no memory for its relabelled copy)" : "");
  }
  int vertex_bits() const override { return bits_; }

  double generate() override {
    return timed([&] {
      const index_t m = params_.num_edges(), r = c_.rank(), R = c_.size();
      const index_t first = m * r / R, last = m * (r + 1) / R;
      slice_ = graph::cuda::generate_kronecker_device<std::int64_t>(params_, first, last - first);
      generated_ = true;
    });
  }

  double construct() override {
    return timed([&] {
      GPU500_EXPECTS(generated_, "generate() before construct()");
      g_ = graph::cuda::build_device_rows(x_, part_, std::move(slice_), opts_.kernel1_round_edges);
      generated_ = false;
      host_.reset();
      const auto view = g_.view();
      // The searches walk their own copies of the rows, relabelled in degree order within each
      // rank's block (every vertex keeps its owner): the BFS's each in descending degree of its
      // far ends, the SSSP's each in kernel 1's order by weight. Their output comes back in the
      // original ids inside the timed search, as on one process.
      const auto make_searches = [&]<class C>(search_state<C>& st) {
        st.rows = mpi::cuda::degree_relabelled_rows<C>(x_, part_, view);
        const graph::id_map<C> ids{st.rows.new2old.data(), st.rows.old2new.data() + view.first_vertex,
                                   st.rows.non_isolated};
        const graph::csr_view<C> rows{view.num_vertices, view.first_vertex, view.local_vertices,
                                      st.rows.offsets.data(), st.rows.columns.data(), nullptr};
        st.bfs.emplace(x_, part_, rows, true, opts_.cuda_bfs);
        st.bfs->report_original_ids(ids);
        if (!params_.weights || !sssp_copy_) return;
        st.arcs = mpi::cuda::relabelled_weighted_arcs<C>(st.rows, view);
        const graph::csr_view<C> weighted{view.num_vertices, view.first_vertex, view.local_vertices,
                                          st.rows.offsets.data(), st.arcs.columns.data(), st.arcs.weights.data()};
        st.sssp.emplace(x_, part_, weighted, true, opts_.cuda_sssp);  // rows by weight: searched in place
        st.sssp->report_original_ids(ids);
        delta_ = st.sssp->initial_delta();
      };
      in_place_sssp_.reset();
      if (bits_ == 64)
        make_searches(s_.emplace<search_state<std::int64_t>>());
      else
        make_searches(s_.emplace<search_state<std::uint32_t>>());
      if (params_.weights && !sssp_copy_) {  // kernel 1 sorted every row by weight: searched in place
        in_place_sssp_.emplace(x_, part_, view, true, opts_.cuda_sssp);
        delta_ = in_place_sssp_->initial_delta();
      }
    });
  }

  bool has_edges(index_t v) const override {
    return c_.guard([&] {
      GPU500_EXPECTS(v >= 0 && v < part_.num_vertices(), "a vertex");
      const int owner = part_.owner(v);
      int has = 0;
      if (owner == c_.rank()) {
        index_t off[2];
        gpu::copy_bytes(off, g_.offsets.data() + (v - g_.owned.first), sizeof off);
        has = off[1] > off[0];
      }
      return c_.bcast(has, owner) != 0;
    });
  }

  double bfs(index_t root) override {
    c_.guard([&] { with_bfs([](auto& e) { e.prepare(); }); });  // clean_pred: untimed
    const index_t relabelled = new_id(root);
    const double s = timed([&] { with_bfs([relabelled](auto& e) { e.run(relabelled); }); });
    c_.guard([&] {  // untimed: the parents as 64-bit vertex ids, -1 where unreached
      bfs_parent_.resize(rows());
      with_bfs([&](auto& e) { down_.widen(e.parents_original(), rows(), bfs_parent_.data()); });
    });
    return s;
  }
  index_t bfs_nedge() override {
    return c_.guard([&] { return with_bfs([](auto& e) { return e.traversed_edges(); }); });
  }
  validation validate_bfs(index_t root) override {
    return c_.guard([&] {
      const index_t nedge = with_bfs([](auto& e) { return e.traversed_edges(); });
      if (!gpu_validator())
        return graph500::validate_bfs(c_, part_, host_graph().view(), root, bfs_parent_, nedge,
                                      opts_.validator_asks_owners);
      // The slice the run reports (its host copy) is what is checked.
      const gpu::device_buffer<std::int64_t> parent = gpu::to_device(bfs_parent_);
      return cuda::validate_bfs<std::int64_t>(g_.view(), nullptr, root, parent.data(), nedge, &x_);
    });
  }

  double sssp(index_t root) override {
    c_.guard([&] { with_sssp([](auto& e) { e.prepare(); }); });  // clean_shortest: untimed
    const index_t id = in_place_sssp_ ? root : new_id(root);  // the root in the SSSP's rows
    const double s = timed([&] { with_sssp([id](auto& e) { e.run(id); }); });
    c_.guard([&] {  // untimed: the output (original ids) into host memory
      sssp_parent_.resize(rows());
      sssp_dist_.resize(rows());
      with_sssp([&](auto& e) {
        down_.copy(e.parents_device(), rows(), sssp_parent_.data());
        down_.copy(e.distances_device(), rows(), sssp_dist_.data());
      });
    });
    return s;
  }
  index_t sssp_nedge() override {
    return c_.guard([&] { return with_sssp([](auto& e) { return e.traversed_edges(); }); });
  }
  validation validate_sssp(index_t root) override {
    return c_.guard([&] {
      const index_t nedge = with_sssp([](auto& e) { return e.traversed_edges(); });
      if (!gpu_validator())
        return graph500::validate_sssp(c_, part_, host_graph().view(), root, sssp_parent_, sssp_dist_, nedge,
                                       opts_.validator_asks_owners);
      const gpu::device_buffer<std::int64_t> parent = gpu::to_device(sssp_parent_);
      const gpu::device_buffer<float> dist = gpu::to_device(sssp_dist_);
      return cuda::validate_sssp<std::int64_t>(g_.view(), nullptr, root, parent.data(), dist.data(), nedge, &x_);
    });
  }

  dist::vertex_range owned() const override { return part_.range(c_.rank()); }
  index_t local_arcs() const override { return g_.arcs; }
  std::span<std::int64_t> local_parents(bool sssp) override { return sssp ? sssp_parent_ : bfs_parent_; }
  std::span<float> local_distances() override { return sssp_dist_; }
  float sssp_delta() const override { return delta_; }
  json::value trace() const override {
    std::vector<dist::level_record> bfs_levels;
    if (has_bfs()) bfs_levels = with_bfs([](auto& e) { return bfs_records(e); });
    using records = std::vector<dist::level_record>;
    const records* sssp_levels = nullptr;
    if (has_sssp()) sssp_levels = &with_sssp([](auto& e) -> const records& { return e.rank_levels(); });
    json::value t = dist::search_trace(c_, has_bfs() ? &bfs_levels : nullptr, sssp_levels, delta_);
    if (gpu_validator_ && t.is_object()) t["validator"] = *gpu_validator_ ? "gpu" : "host";  // once one ran
    return t;
  }

 private:
  [[nodiscard]] std::size_t rows() const { return static_cast<std::size_t>(g_.owned.count); }
  /// Vertex v's id in the searches' rows (untimed; collective, as every rank holds the map).
  index_t new_id(index_t v) const {
    return c_.guard([&] { return with_state([v](auto& st) { return st.new_id(v); }); });
  }

  /// Runs f on every rank from a barrier; the slowest rank's seconds, the same on every rank.
  template <class F>
  double timed(F&& f) {
    return c_.guard([&] {
      gpu::synchronize();
      c_.barrier();
      stopwatch sw;
      f();
      gpu::synchronize();
      return c_.allreduce(sw.seconds(), dist::reduce_op::max);
    });
  }

  /// Whether the GPU validator runs: not asked off, and its arrays (with the two result slices
  /// uploaded) fit in every rank's share of its GPU's free memory; decided at the first
  /// validation (collective), the same on every rank.
  bool gpu_validator() {
    if (!gpu_validator_) {
      const std::size_t need = cuda::validator_device_bytes(part_.num_vertices(), g_.owned.count) +
                               12 * static_cast<std::size_t>(g_.owned.count) + (std::size_t{64} << 20);
      const std::size_t avail = gpu::device_memory().first / static_cast<std::size_t>(sharing_);
      gpu_validator_ = c_.all(!opts_.host_validator && need <= avail);
    }
    return *gpu_validator_;
  }

  /// The rows on the host, for the host validator (downloaded once per graph, untimed).
  const graph::csr<std::int64_t>& host_graph() {
    if (!host_) host_ = g_.download();
    return *host_;
  }

  dist::communicator c_;
  graph::kronecker_params params_;
  mpi_options opts_;
  dist::block_partition part_;
  dist::device_exchange x_;
  int device_, sharing_;
  int bits_;  // the width of the searches' columns (--vertex-bits)
  bool sssp_copy_;
  bool generated_ = false;
  graph::cuda::device_edge_list<std::int64_t> slice_;
  graph::cuda::device_rows g_;
  std::optional<graph::csr<std::int64_t>> host_;
  std::optional<bool> gpu_validator_;
  float delta_ = 0.f;
  // Mutable: the engines' searches change their state, not the pipeline's meaning.
  mutable std::variant<std::monostate, search_state<std::uint32_t>, search_state<std::int64_t>> s_;
  mutable std::optional<sssp::cuda::engine<std::int64_t>> in_place_sssp_;  ///< without the copy
  std::vector<std::int64_t> bfs_parent_, sssp_parent_;
  std::vector<float> sssp_dist_;
  gpu::host_download down_;  ///< each search's output into the vectors above
};

/// Throws `E` with `message` on every rank when any rank's `ok` is false (collective).
template <class E>
void agree_or_throw(const dist::communicator& c, bool ok, const std::string& message) {
  if (c.all(ok)) return;
  const int from = c.allreduce(ok ? std::numeric_limits<int>::max() : c.rank(), dist::reduce_op::min);
  throw E(c.bcast(ok ? std::string{} : message, from));
}

}  // namespace

std::unique_ptr<mpi_pipeline> make_mpi_cuda_pipeline(const dist::communicator& comm, const graph::kronecker_params& p,
                                                     const mpi_options& o) {
  p.check();  // the same parameters on every rank: every rank throws alike
  if (o.cuda_bfs.alpha <= 0 || o.cuda_bfs.beta <= 0) throw usage_error("--bfs-alpha and --bfs-beta must be > 0");
  if (o.vertex_bits != 0 && o.vertex_bits != 32 && o.vertex_bits != 64)
    throw usage_error("--vertex-bits must be 32 or 64, got " + std::to_string(o.vertex_bits));
  if (o.vertex_bits == 32 && !mpi::cuda::narrow_columns_fit(p.num_vertices()))
    throw usage_error(std::to_string(p.num_vertices()) + " vertices do not fit 32-bit vertex ids; use --vertex-bits 64");
  // One GPU per rank, by the node-local rank.
  const int gpus = dist::gpu_count();
  const int local = comm.node_rank(), on_node = comm.node_size();
  agree_or_throw<usage_error>(comm, gpus > 0, "rank " + std::to_string(comm.rank()) + " sees no CUDA device");
  agree_or_throw<usage_error>(
      comm, o.share_gpus || on_node <= gpus,
      std::to_string(on_node) + " ranks run on a node with " + std::to_string(gpus) +
          " GPUs: run at most one rank per GPU (or let ranks share GPUs)");
  const int device = dist::gpu_of_node_rank(local, gpus);
  dist::use_gpu(device);
  const int sharing = dist::ranks_on_gpu_of(local, on_node, gpus);  // ranks of this node on this GPU
  // Each rank's share against its part of its GPU's free memory; the ranks agree first. The SSSP's
  // relabelled copy of the rows (16 bytes an edge at 32-bit ids) is made where it fits beside the
  // GPU validator's arrays on every rank (unless asked off); else the SSSP searches kernel 1's
  // rows in place (at SCALE 28 on 4 H200, so that the validator stays on the GPU).
  const int bits = search_bits(p, o);
  const std::size_t avail = gpu::device_memory().first / static_cast<std::size_t>(sharing);
  const index_t rows = p.num_vertices() / comm.size() + 1;
  const std::size_t validator = o.host_validator ? 0
                                                 : cuda::validator_device_bytes(p.num_vertices(), rows) +
                                                       12 * static_cast<std::size_t>(rows) + (std::size_t{64} << 20);
  const bool sssp_copy = comm.all(!o.sssp_in_place && device_bytes(p, comm.size(), bits, true) + validator <= avail);
  const std::size_t need = device_bytes(p, comm.size(), bits, sssp_copy);
  agree_or_throw<resource_error>(comm, need <= avail,
                                 "SCALE " + std::to_string(p.scale) + " on " + std::to_string(comm.size()) +
                                     " ranks needs about " + std::to_string(need) +
                                     " bytes of device memory per rank, " + std::to_string(avail) +
                                     " are available to rank " + std::to_string(comm.rank()));
  // NCCL when every rank has a GPU of its own (NCCL takes one rank per GPU), unless switched off;
  // else device buffers to a CUDA-aware MPI; page-locked host staging when asked or as the rest.
  using dist::exchange_mode;
  const bool own_gpus = comm.all(sharing == 1);
  const exchange_mode mode = o.host_staging                                   ? exchange_mode::staged
                             : own_gpus && !o.no_nccl && dist::nccl_available() ? exchange_mode::nccl
                             : dist::mpi_accepts_device_memory()                ? exchange_mode::device
                                                                                : exchange_mode::staged;
  return std::make_unique<mpi_cuda_pipeline>(comm, p, o, device, sharing, mode, sssp_copy);
}

}  // namespace gpu500::graph500
