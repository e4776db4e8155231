// gpu500/bellman_ford/bellman_ford.hpp — dense Bellman-Ford single-source shortest paths
// (Liu et al.: a performance-portable parallel min-reduction and coalesced access for Bellman-Ford on
// GPUs, OpenCL; "the paper" below).
//
// Round k computes, for every vertex v (Jacobi: from the previous round's distances only)
//   delta(v) = min_j dist_{k-1}(j) + w(j, v),   rho(v) = the SMALLEST j reaching that minimum,
//   dist_k(v) = min(dist_{k-1}(v), delta(v)),   pred(v) = rho(v) only when dist strictly improved.
// Every backend computes exactly this, so distances AND predecessors agree bit for bit between
// backends (see dense_graph.hpp for why the float arithmetic is exact).
// Termination: by default the loop stops after the first round that changes nothing
// (convergence). With full_rounds the paper's N-1 rounds run unconditionally. Either way, if the
// N-th round still changes a distance, a negative cycle is reachable from the source and the
// result says so (status::negative_cycle; dist/pred are then meaningless).
//
// Variants (the paper's three kernels; `group` = M, the work-group size, a power of two):
//   naive  — one thread per vertex v, a serial loop over column v of the by_source matrix;
//   reduce — a group of M threads per vertex: private (min, argmin) over j = t, t+M, ... then a
//            tree reduction in shared/local memory (strided, uncoalesced reads of column v);
//   coarse — the same reduction on the by_target (transposed) matrix: a group reads one
//            contiguous row, so loads coalesce.
// Engines: serial and openmp (CPU, by_source layout, variant ignored), cuda, opencl. One host
// harness (run / solve below) drives all of them round by round.
//
// Schedules (how the rounds run; the paper's is `launch`, and every engine has it):
//   launch   — one kernel launch per round, every row read whole;
//   skip     — one launch per round, but a round reads only the 32-source segments (128 bytes
//              of a by_target row) holding a source whose distance fell in the previous round.
//              Exact, predecessors included: a source j that did not change offered
//              dist(j) + w(j, v) in the previous round already, and after that round
//              dist(v) <= that sum, so j can neither improve v nor tie a strict improvement.
//              Coarse on CUDA only;
//   resident — every round in ONE launch: each block keeps its rows of the by_target matrix in
//              registers (N <= 512) or shared memory for the whole solve, and the blocks meet
//              once per round: one thread-block cluster for small N, whose warps (or blocks)
//              send every block their new distances through distributed shared memory (the
//              data's arrival, counted on an mbarrier, is the meeting); a cooperative grid and
//              its barrier above. A round costs no launch and no host round trip.
//              A warp per vertex (M = 32) with the same min/argmin fold and tie rule. Coarse
//              on CUDA only, for N up to what the device's shared memory holds
//              (engine::supports says).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gpu500/bellman_ford/dense_graph.hpp"

namespace gpu500::bellman_ford {

enum class variant { naive, reduce, coarse };
enum class engine_kind { serial, openmp, cuda, opencl };
enum class status { ok, negative_cycle };
enum class schedule { launch, skip, resident };

const char* variant_name(variant v);
const char* engine_name(engine_kind k);
const char* status_name(status s);
const char* schedule_name(schedule s);
/// "launch|skip|resident" -> schedule; throws usage_error otherwise.
schedule parse_schedule(const std::string& s);
/// "naive|reduce|coarse" -> variant; throws usage_error otherwise.
variant parse_variant(const std::string& s);
/// The matrix layout a variant reads (CPU engines always read by_source).
layout layout_for(engine_kind k, variant v);

/// Engine construction options (OpenCL platform/device choice; -1 = automatic: the first GPU
/// device of any platform, else the first device).
struct engine_config {
  /// CPU engines: the instruction set of the fold. automatic: the widest this CPU has
  /// (AVX-512F, else AVX2, else the build's baseline); asking for one the CPU lacks is an error.
  enum class cpu_isa { automatic, avx512, avx2, baseline };
  cpu_isa isa = cpu_isa::automatic;
  /// OpenMP engine: the smallest round (N^2 relaxations) it spreads over OpenMP's threads; a
  /// smaller one runs on one thread, where it is faster than starting and joining a team (0:
  /// always spread). The default comes from a sweep on a 16-core Xeon (docs/bellman-ford.md).
  std::int64_t cpu_parallel_work = 131072;
  int cl_platform = -1;
  int cl_device = -1;
  int cuda_device = 0;
  /// Resident schedule on CUDA: -1 automatic (one cluster of 8 or 16 blocks when the rows fit,
  /// else a cooperative grid), 16, 8 or 4 (that cluster only), 0 (the cooperative grid only).
  int resident_cluster = -1;
  /// Resident schedule on CUDA, cooperative grid: rows per block (0: automatic, the fewest that
  /// spread the vertices over at most one block per SM).
  int resident_rows = 0;
  /// Resident schedule on CUDA, one cluster: how the blocks exchange a round's distances.
  ///   warp  — every warp sends its rows' new distances to every block as soon as it has them
  ///           (asynchronous remote stores counted on the receivers' mbarriers); no block barrier
  ///           and no change flags (each warp compares consecutive vectors). Needs the rows in
  ///           registers (below); where they are not, `async` runs instead;
  ///   async — each block gathers its part behind a block barrier, then sends it and a change flag
  ///           to every other block the same way;
  ///   pull  — the blocks meet at the cluster barrier and load the others' parts.
  enum class exchange { warp, async, pull };
  exchange resident_exchange = exchange::warp;
  /// Resident schedule on CUDA, warp exchange: rows per warp, 1, 2 or 4 (0: automatic, two, or
  /// four where two do not fit in a block of 512 threads); a block has a warp per that many rows.
  int resident_rows_per_warp = 0;
  /// Resident schedule on CUDA: time each phase of a round (clock cycles of block 0, thread 0);
  /// schedule_detail then reports the last solve's split.
  bool resident_trace = false;
  /// Resident schedule on CUDA: threads per block, 512 or 1024 (a warp per vertex).
  int resident_threads = 512;
  /// Resident schedule on CUDA, one cluster with asynchronous stores (warp or async), 512 threads:
  /// keep the rows in registers when they fit (N <= 512 and at most four rows per warp for warp,
  /// two for async) instead of shared memory.
  bool resident_registers = true;
};

/// One backend's memory and kernels. The harness calls upload once per matrix, then per solve:
/// init, round (many), changed (when it needs to know), download. GPU engines are asynchronous
/// until changed / download / finish.
class engine {
 public:
  virtual ~engine() = default;
  [[nodiscard]] virtual engine_kind kind() const = 0;
  /// Backend and device, e.g. "cuda: NVIDIA H100 80GB HBM3".
  [[nodiscard]] virtual std::string description() const = 0;
  /// Largest work-group size M this engine accepts.
  [[nodiscard]] virtual int max_group() const = 0;
  /// Copies the matrix to the engine (host -> device); keeps the matrix's layout.
  virtual void upload(const dense_matrix& m) = 0;
  /// dist = +inf except dist(source) = 0, pred = -1 (uploaded for GPU engines).
  virtual void init(index_t source) = 0;
  /// Whether this engine runs variant v on n vertices with schedule s (launch: always).
  [[nodiscard]] virtual bool supports(schedule s, variant v, index_t n) const {
    (void)v;
    (void)n;
    return s == schedule::launch;
  }
  /// How this engine would run schedule s for variant v on n vertices, in words ("" when there
  /// is nothing to say), e.g. the resident schedule's blocks and barrier.
  [[nodiscard]] virtual std::string schedule_detail(schedule s, variant v, index_t n) const {
    (void)s;
    (void)v;
    (void)n;
    return "";
  }
  /// One relaxation round. reset_flag clears the "something changed" flag first; skip reads
  /// only the segments of sources that changed in the previous round (schedule::skip).
  virtual void round(variant v, int group, bool reset_flag, bool skip) = 0;
  /// schedule::resident (after init): runs up to `limit` rounds from `source` in one launch, stopping after
  /// the first round that changes nothing when early_exit; leaves dist/pred for download.
  /// Returns the rounds run and whether the last one changed a distance.
  struct resident_outcome {
    index_t rounds = 0;
    bool last_changed = false;
  };
  virtual resident_outcome solve_resident(variant v, index_t source, index_t limit, bool early_exit);
  /// Whether any distance improved since the flag was last reset (waits for the device).
  virtual bool changed() = 0;
  /// Copies dist and pred back (device -> host).
  virtual void download(std::vector<float>& dist, std::vector<std::int32_t>& pred) = 0;
  /// Waits for all queued work.
  virtual void finish() = 0;
  /// The layout currently uploaded.
  [[nodiscard]] virtual layout uploaded_layout() const = 0;
};

/// Makes an engine; throws usage_error when the backend is not compiled in or has no device.
std::unique_ptr<engine> make_engine(engine_kind k, const engine_config& cfg = {});

struct run_options {
  variant var = variant::coarse;
  int group = 256;          ///< M: threads per vertex for reduce / coarse (power of two)
  bool full_rounds = false; ///< run the paper's N-1 rounds instead of stopping at convergence
  index_t source = 0;
  schedule sched = schedule::launch;  ///< see the header comment; the engine must support it
};

struct result {
  status st = status::ok;
  std::vector<float> dist;          ///< +inf: unreachable
  std::vector<std::int32_t> pred;   ///< -1: source or unreachable
  index_t rounds = 0;               ///< relaxation rounds executed (including the last, unchanged one)
  double t_upload = 0;    ///< matrix host -> device (0 for CPU engines)
  double t_init = 0;      ///< dist/pred initialisation (a host -> device copy on GPUs)
  double t_rounds = 0;    ///< all rounds, including the per-round change-flag reads
  double t_download = 0;  ///< dist/pred device -> host
  /// The paper's figure: kernels + both transfers.
  [[nodiscard]] double seconds_with_transfers() const { return t_upload + t_init + t_rounds + t_download; }
};

/// Uploads m (its layout must be layout_for(e.kind(), o.var)) and solves.
result run(engine& e, const dense_matrix& m, const run_options& o);
/// Solves on the matrix already uploaded (t_upload = 0).
result solve(engine& e, index_t n, const run_options& o);
/// Seconds for k back-to-back rounds without flag reads (the steady-state cost of one round is
/// the result / k). Call after solve: it overwrites nothing that matters (rounds after
/// convergence change nothing), but does change dist/pred after a negative cycle.
double time_rounds(engine& e, variant v, int group, int k);
/// The same for schedule::resident: seconds for one launch running k rounds unconditionally.
double time_resident_rounds(engine& e, variant v, index_t source, int k);

// ---- oracles and checks (share no code with the engines) ---------------------------------

/// O(N^2) Dijkstra with the same float additions; requires every weight >= 0.
std::vector<float> dijkstra(const dense_matrix& m, index_t source);

/// Certificate check of a shortest-path result: dist(source) = 0, pred(source) = -1; dist finite
/// exactly for vertices reachable from the source; no edge j -> v with dist(j) + w < dist(v);
/// for every other reachable v, pred(v) is an edge with dist(v) == dist(pred) + w; following
/// pred from any reachable vertex reaches the source. Returns "" when valid, else the first
/// violation in words. O(N^2), OpenMP.
std::string check_shortest_paths(const dense_matrix& m, index_t source, const std::vector<float>& dist,
                                 const std::vector<std::int32_t>& pred);

/// Device-to-device copy bandwidth of the CUDA device (cudaMemcpy of `bytes`, best of `reps`):
/// {bytes / s, 2 * bytes / s (read + write traffic)}. Throws when CUDA is not available.
struct copy_bandwidth {
  double copy_gbs = 0;     ///< bytes copied per second / 1e9
  double traffic_gbs = 0;  ///< bytes read + written per second / 1e9
};
copy_bandwidth cuda_copy_bandwidth(std::size_t bytes, int reps = 5, int device = 0);
/// Throws resource_error "<what> needs 17.2 GB of device memory, ..." when `bytes` exceed the
/// free memory of the CUDA device; a usage_error without CUDA.
void cuda_check_device_memory(double bytes, const std::string& what, int device = 0);

/// Read bandwidth of the host's memory, the CPU engines' limit: OpenMP's threads each read their
/// share of a buffer of `bytes` (first touched by the same thread) with the widest vectors the
/// CPU has; the best of `reps` passes, bytes / s / 1e9.
double host_read_bandwidth(std::size_t bytes, int reps = 5);

}  // namespace gpu500::bellman_ford
