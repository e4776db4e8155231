// CUDA engine of dense Bellman-Ford: owns the device matrix and the distance buffers, launches
// one kernel per round through the policies of policies.cuh (schedules launch and skip:
// round_kernels.cuh), or one kernel for all rounds (schedule resident: a thread-block cluster or a
// cooperative grid, resident_kernel.cuh / resident_warp_kernel.cuh; see resident_plan). All work
// goes to the legacy default stream; changed() and download() synchronise.
#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "../engines.hpp"
#include "gpu500/core/cuda/check.cuh"
#include "gpu500/core/cuda/launch.cuh"
#include "gpu500/core/cuda/memory.hpp"
#include "gpu500/core/error.hpp"
#include "policies.cuh"
#include "resident_kernel.cuh"
#include "resident_warp_kernel.cuh"
#include "round_kernels.cuh"

namespace gpu500::bellman_ford {
namespace detail {
namespace {

/// How a resident solve is launched: `blocks` blocks of `rows` rows each, as one cluster
/// (cluster > 0) or as a cooperative grid (cluster == 0); blocks == 0: it does not fit.
struct resident_plan {
  using kernel_fn = void (*)(cuda::resident_args);
  int blocks = 0, rows = 0, cluster = 0, threads = 512;
  int regs = 0;       // Q: rows in registers (quads per lane and row), 0: in shared memory
  bool warp = false;  // resident_warp_kernel (warp-to-block exchange), else resident_kernel
  int per_warp = 0;   // the warp exchange's rows per warp
  std::size_t smem = 0;
  kernel_fn kernel = nullptr;
};

class cuda_engine final : public engine {
 public:
  explicit cuda_engine(const engine_config& cfg) : device_(cfg.cuda_device), resident_cluster_(cfg.resident_cluster),
                                                    resident_rows_(cfg.resident_rows),
                                                    resident_exchange_(cfg.resident_exchange),
                                                    resident_per_warp_(cfg.resident_rows_per_warp),
                                                    resident_threads_(cfg.resident_threads),
                                                    resident_regs_(cfg.resident_registers) {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
      (void)cudaGetLastError();
      throw usage_error("bellman-ford: no CUDA device is visible");
    }
    if (device_ < 0 || device_ >= count)
      throw usage_error("bellman-ford: CUDA device " + std::to_string(device_) + " does not exist");
    GPU500_CUDA_CHECK(cudaSetDevice(device_));
    cudaDeviceProp prop{};
    GPU500_CUDA_CHECK(cudaGetDeviceProperties(&prop, device_));
    name_ = prop.name;
    sms_ = prop.multiProcessorCount;
    smem_optin_ = prop.sharedMemPerBlockOptin;
    cluster_launch_ = prop.clusterLaunch != 0;
    cooperative_ = prop.cooperativeLaunch != 0;
    if (resident_cluster_ != -1 && resident_cluster_ != 0 && resident_cluster_ != 4 && resident_cluster_ != 8 &&
        resident_cluster_ != 16)
      throw usage_error("bellman-ford cuda: resident cluster size must be 4, 8 or 16 (0: a cooperative grid; -1: automatic); got " +
                        std::to_string(resident_cluster_));
    if (resident_rows_ < 0) throw usage_error("bellman-ford cuda: resident rows per block must be >= 0");
    if (resident_per_warp_ != 0 && resident_per_warp_ != 1 && resident_per_warp_ != 2 && resident_per_warp_ != 4)
      throw usage_error("bellman-ford cuda: resident rows per warp must be 1, 2 or 4 (0: automatic); got " +
                        std::to_string(resident_per_warp_));
    if (resident_threads_ != 512 && resident_threads_ != 1024)
      throw usage_error("bellman-ford cuda: resident threads per block must be 512 or 1024; got " +
                        std::to_string(resident_threads_));
    flag_ = gpu::device_buffer<int>(1);
    gflags_ = gpu::device_buffer<int>(3);
    outcome_ = gpu::device_buffer<int>(2);
    if (cfg.resident_trace) trace_ = gpu::device_buffer<long long>(cuda::ph_count + 1);
    host_flag_ = gpu::pinned_buffer<int>(2);
    for (auto* k : resident_kernels)
      GPU500_CUDA_CHECK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem_optin_)));
    if (cluster_launch_) {
      nonportable_ = true;
      for (auto* k : resident_kernels)
        if (k != cuda::resident_kernel<cuda::exchange::grid>)
          nonportable_ =
              nonportable_ && cudaFuncSetAttribute(k, cudaFuncAttributeNonPortableClusterSizeAllowed, 1) == cudaSuccess;
    }
    (void)cudaGetLastError();
  }
  engine_kind kind() const override { return engine_kind::cuda; }
  std::string description() const override { return "cuda: " + name_; }
  int max_group() const override { return cuda::reduce_policy::max_group; }
  layout uploaded_layout() const override { return lay_; }

  bool supports(schedule s, variant v, index_t n) const override {
    if (s == schedule::launch) return true;
    if (v != variant::coarse) return false;
    if (s == schedule::skip) return true;
    return plan(n, padded_ld(n)).blocks > 0;
  }

  void upload(const dense_matrix& m) override {
    GPU500_EXPECTS(m.n >= 1 && m.n < (index_t{1} << 31), "bellman-ford cuda: n out of range");
    GPU500_CUDA_CHECK(cudaSetDevice(device_));
    if (m.ld != ld_) {
      // Free everything before allocating for the new size (no old and new matrix at once).
      w_.reset();
      for (auto& d : dist_) d.reset();
      pred_.reset();
      lines_.reset();
      xchg_.reset();
      cur_ = next_ = nullptr;
      ld_ = 0;
      const auto ld = static_cast<std::size_t>(m.ld);
      w_ = gpu::device_buffer<float>(m.w.size());
      for (auto& d : dist_) d = gpu::device_buffer<float>(ld);
      cur_ = dist_[0].data();
      next_ = dist_[1].data();
      pred_ = gpu::device_buffer<int>(ld);
      lines_ = gpu::device_buffer<unsigned char>(3 * (ld >> cuda::skip_lines::shift));
      xchg_ = gpu::device_buffer<float>(2 * ld);
      ld_ = m.ld;
    }
    n_ = m.n;
    lay_ = m.lay;
    resident_ = plan(n_, ld_);  // here, not in the timed solve: it asks the driver about occupancy
    GPU500_CUDA_CHECK(cudaMemcpy(w_.data(), m.w.data(), m.bytes(), cudaMemcpyHostToDevice));
  }

  void init(index_t source) override {
    GPU500_EXPECTS(!w_.empty(), "bellman-ford cuda: upload first");
    GPU500_EXPECTS(source >= 0 && source < n_, "bellman-ford cuda: source out of range");
    const int ld = static_cast<int>(ld_), block = 256;
    gpu::launch(cuda::init_kernel, gpu::grid_blocks(2 * ld_, block), block, 0, nullptr, cur_, next_, pred_.data(),
                flag_.data(), gflags_.data(), lines_.data(), xchg_.data(), ld, static_cast<int>(source));
    round_ = 0;
  }

  resident_outcome solve_resident(variant v, index_t source, index_t limit, bool early_exit) override {
    GPU500_EXPECTS(!w_.empty(), "bellman-ford cuda: upload first");
    GPU500_EXPECTS(v == variant::coarse && lay_ == layout::by_target,
                   "bellman-ford cuda: the resident schedule runs the coarse variant on the by_target layout");
    GPU500_EXPECTS(source >= 0 && source < n_ && limit >= 0 && limit <= (index_t{1} << 30),
                   "bellman-ford cuda: resident source or round limit out of range");
    const resident_plan& p = resident_;
    if (p.blocks == 0)
      throw usage_error("bellman-ford cuda: N = " + std::to_string(n_) +
                        " does not fit the resident schedule (its rows must fit in shared memory)");
    cuda::resident_args a{w_.data(), static_cast<std::size_t>(ld_), static_cast<int>(n_), p.rows,
                          static_cast<int>(source), static_cast<int>(limit), early_exit ? 1 : 0, cur_,
                          pred_.data(), xchg_.data(), gflags_.data(), outcome_.data(), trace_.data()};
    if (p.cluster > 0) {
      cudaLaunchConfig_t cfg{};
      cudaLaunchAttribute attr[1];
      cluster_config(cfg, attr, p);
      GPU500_CUDA_CHECK(cudaLaunchKernelEx(&cfg, p.kernel, a));
    } else {
      void* args[] = {&a};
      GPU500_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(cuda::resident_kernel<cuda::exchange::grid>),
                                                    dim3(p.blocks), dim3(p.threads), args, p.smem));
    }
    GPU500_CUDA_CHECK(cudaMemcpy(host_flag_.data(), outcome_.data(), 2 * sizeof(int), cudaMemcpyDeviceToHost));
    if (!trace_.empty()) {
      long long c[cuda::ph_count + 1] = {};
      GPU500_CUDA_CHECK(cudaMemcpy(c, trace_.data(), sizeof c, cudaMemcpyDeviceToHost));
      const double r = static_cast<double>(std::max<long long>(1, c[cuda::ph_count]));
      const char* names[cuda::ph_count] = {"compute", "block flag", "send", "wait", "flags"};
      trace_text_ = "cycles per round (block 0, thread 0) over " + std::to_string(c[cuda::ph_count]) + " passes of the round loop:";
      for (int i = 0; i < cuda::ph_count; ++i)
        trace_text_ += std::string(i ? ", " : " ") + names[i] + " " + std::to_string(std::lround(c[i] / r));
    }
    return {host_flag_[0], host_flag_[1] != 0};
  }

  std::string schedule_detail(schedule s, variant v, index_t n) const override {
    if (s != schedule::resident || v != variant::coarse) return "";
    const resident_plan p = plan(n, padded_ld(n));
    if (p.blocks == 0) return "does not fit";
    if (!trace_text_.empty()) return describe(p) + "; " + trace_text_;
    return describe(p);
  }

  std::string describe(const resident_plan& p) const {
    return std::to_string(p.blocks) + " blocks of " + std::to_string(p.threads) + " threads x " +
           std::to_string(p.rows) + " rows" +
           (p.cluster == 0                               ? ", cooperative grid"
            : p.warp ? ", one cluster, warps send to blocks, " + std::to_string(p.per_warp) + " row" +
                           (p.per_warp > 1 ? "s" : "") + " per warp"
            : resident_exchange_ == exchange_mode::pull ? ", one cluster, barrier and loads"
                                                          : ", one cluster, blocks send to blocks") +
           (p.regs ? ", rows in registers" : "");
  }

  void round(variant v, int group, bool reset_flag, bool skip) override {
    GPU500_EXPECTS(!w_.empty(), "bellman-ford cuda: upload first");
    GPU500_EXPECTS(lay_ == layout_for(engine_kind::cuda, v), "bellman-ford cuda: wrong layout for the variant");
    GPU500_EXPECTS(!skip || v == variant::coarse, "bellman-ford cuda: the skip schedule runs the coarse variant only");
    if (reset_flag) GPU500_CUDA_CHECK(cudaMemsetAsync(flag_.data(), 0, sizeof(int)));
    const int n = static_cast<int>(n_);
    const auto ld = static_cast<std::size_t>(ld_);
    if (v == variant::naive) {
      constexpr int block = cuda::naive_policy::block_threads;
      gpu::launch(cuda::naive_kernel, gpu::grid_blocks(n, block), block, 0, nullptr, w_.data(), ld, n, cur_, next_,
                  pred_.data(), flag_.data());
    } else {
      check_group(group, cuda::reduce_policy::max_group, "bellman-ford cuda");
      const std::size_t shm = cuda::reduce_policy::shared_bytes(group);
      // One block of M threads per vertex.
      const auto blocks = static_cast<unsigned>(n), threads = static_cast<unsigned>(group);
      if (v == variant::reduce) {
        gpu::launch(cuda::reduce_kernel, blocks, threads, shm, nullptr, w_.data(), ld, n, cur_, next_, pred_.data(),
                    flag_.data());
      } else {
        const int count = static_cast<int>(ld_ >> cuda::skip_lines::shift);
        unsigned char* at[3] = {lines_.data(), lines_.data() + count, lines_.data() + 2 * count};
        const cuda::skip_lines lines{at[round_ % 3], at[(round_ + 1) % 3], at[(round_ + 2) % 3], count};
        gpu::launch(skip ? cuda::coarse_kernel<true> : cuda::coarse_kernel<false>, blocks, threads, shm, nullptr,
                    w_.data(), ld, n, cur_, next_, pred_.data(), flag_.data(), lines);
      }
    }
    ++round_;
    std::swap(cur_, next_);
  }

  bool changed() override {
    GPU500_CUDA_CHECK(cudaMemcpy(host_flag_.data(), flag_.data(), sizeof(int), cudaMemcpyDeviceToHost));
    return host_flag_[0] != 0;
  }

  void download(std::vector<float>& dist, std::vector<std::int32_t>& pred) override {
    dist.resize(static_cast<std::size_t>(n_));
    pred.resize(static_cast<std::size_t>(n_));
    GPU500_CUDA_CHECK(cudaMemcpy(dist.data(), cur_, dist.size() * sizeof(float), cudaMemcpyDeviceToHost));
    GPU500_CUDA_CHECK(cudaMemcpy(pred.data(), pred_.data(), pred.size() * sizeof(int), cudaMemcpyDeviceToHost));
  }

  void finish() override { GPU500_CUDA_CHECK(cudaDeviceSynchronize()); }

 private:
  using exchange_mode = engine_config::exchange;
  using resident_fn = resident_plan::kernel_fn;
  static constexpr resident_fn async_kernels[] = {
      cuda::resident_kernel<cuda::exchange::cluster_async>,    cuda::resident_kernel<cuda::exchange::cluster_async, 1>,
      cuda::resident_kernel<cuda::exchange::cluster_async, 2>, cuda::resident_kernel<cuda::exchange::cluster_async, 3>,
      cuda::resident_kernel<cuda::exchange::cluster_async, 4>};
  // [rows per warp 1, 2, 4][Q - 1]; four rows of more than 256 floats would spill registers
  static constexpr resident_fn warp_kernels[3][4] = {
      {cuda::resident_warp_kernel<1, 1>, cuda::resident_warp_kernel<2, 1>, cuda::resident_warp_kernel<3, 1>,
       cuda::resident_warp_kernel<4, 1>},
      {cuda::resident_warp_kernel<1, 2>, cuda::resident_warp_kernel<2, 2>, cuda::resident_warp_kernel<3, 2>,
       cuda::resident_warp_kernel<4, 2>},
      {cuda::resident_warp_kernel<1, 4>, cuda::resident_warp_kernel<2, 4>, nullptr, nullptr}};
  static constexpr resident_fn resident_kernels[] = {
      async_kernels[0],   async_kernels[1],   async_kernels[2],   async_kernels[3],   async_kernels[4],
      warp_kernels[0][0], warp_kernels[0][1], warp_kernels[0][2], warp_kernels[0][3], warp_kernels[1][0],
      warp_kernels[1][1], warp_kernels[1][2], warp_kernels[1][3], warp_kernels[2][0], warp_kernels[2][1],
      cuda::resident_kernel<cuda::exchange::cluster_pull>,
      cuda::resident_kernel<cuda::exchange::grid>};

  /// Rows per warp of the warp exchange for blocks of `rows` rows of pitch ld: the knob, or
  /// automatic (two, else four where two do not fit in 512 threads: fewer messages than one per
  /// warp, more warps than four); 0 when the warp exchange cannot run (rows not in registers, or
  /// more rows than the largest block holds).
  int warp_rows_per_warp(int rows, index_t ld) const {
    if (resident_exchange_ != exchange_mode::warp || !resident_regs_ || ld > 512) return 0;
    // Four rows of more than 256 floats would spill registers.
    const int most = ld <= 256 ? cuda::resident_warp_policy::max_rows_per_warp : 2;
    constexpr int max_warps = cuda::resident_warp_policy::warps;
    for (const int h : {1, 2, 4})
      if (h <= most && (resident_per_warp_ > 0 ? h == resident_per_warp_ : h > 1) && rows <= h * max_warps) return h;
    return 0;
  }

  void cluster_config(cudaLaunchConfig_t& cfg, cudaLaunchAttribute* attr, const resident_plan& p) const {
    cfg.gridDim = dim3(p.blocks);
    cfg.blockDim = dim3(p.threads);
    cfg.dynamicSmemBytes = p.smem;
    cfg.stream = nullptr;
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = p.cluster;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
  }

  /// Chooses the resident launch. Automatic: one cluster (plan_cluster) while its rows fit in
  /// registers or each warp has one row, else a cooperative grid of at most one block per SM,
  /// else the cluster when only it fits; none when neither fits. (H100, per round: the cluster
  /// 0.56 us at N = 256 against 1.91 us for the grid; with rows in shared memory and two rows per
  /// warp the grid is as fast from N = 512 on; see docs/bellman-ford.md.)
  resident_plan plan(index_t n, index_t ld) const {
    const resident_plan c = plan_cluster(n, ld), g = plan_grid(n, ld);
    if (resident_cluster_ > 0) return c;
    if (resident_cluster_ == 0) return g;
    if (c.blocks > 0 && (c.regs > 0 || c.rows <= c.threads / 32 || g.blocks == 0)) return c;
    return g;
  }

  bool fits(resident_plan& p, index_t ld) const {
    p.smem = cuda::resident_policy::shared_bytes(static_cast<std::size_t>(p.rows), static_cast<std::size_t>(ld));
    return p.smem <= smem_optin_;
  }

  /// The cluster launch: first one whose warps send (clusters 8 then 16 when automatic), then
  /// one whose blocks send or pull (16 then 8). (H100, N = 256, per round: 8 blocks with two rows
  /// per warp 0.56 us, 16 blocks with four or two rows per warp 0.61 / 0.63 us, one row per warp
  /// 0.89 us, blocks sending 0.87 us; see docs/bellman-ford.md.)
  resident_plan plan_cluster(index_t n, index_t ld) const {
    if (!cluster_launch_) return {};
    for (const bool warps_send : {true, false}) {
      if (warps_send && resident_exchange_ != exchange_mode::warp) continue;
      static constexpr std::array<int, 3> warp_order{8, 16, 4}, block_order{16, 8, 4};
      for (const int c : warps_send ? warp_order : block_order) {
        if ((c == 16 && !nonportable_) || (resident_cluster_ > 0 && c != resident_cluster_)) continue;
        if (c == 4 && resident_cluster_ != 4) continue;  // automatic: 8 or 16
        resident_plan p{c, static_cast<int>((gpu::ceil_div(n, c) + 3) / 4 * 4), c, resident_threads_};  // rows: 16-byte parts
        p.regs = static_cast<int>((ld + 127) / 128);
        if (warps_send) {
          // Rows in registers, h per warp, a warp per h rows.
          const int h = warp_rows_per_warp(p.rows, ld);
          if (h == 0) continue;
          p.warp = true;
          p.per_warp = h;
          p.threads = 32 * static_cast<int>(gpu::ceil_div(p.rows, h));
          p.smem = cuda::resident_warp_policy::shared_bytes(static_cast<std::size_t>(p.rows), static_cast<std::size_t>(ld));
          p.kernel = warp_kernels[h == 1 ? 0 : h == 2 ? 1 : 2][p.regs - 1];
        } else {
          // Blocks send (rows in registers: 512 threads, two rows per warp, a row of at most
          // 4 x 128 floats; else in shared memory), or the cluster barrier and loads.
          if (!fits(p, ld)) continue;
          if ((c - 1) * ((p.rows + 3) / 4 + 1) > p.threads) continue;  // a message per thread and round
          const bool regs = resident_exchange_ != exchange_mode::pull && resident_regs_ && p.threads == 512 &&
                            p.rows <= 2 * (p.threads / 32) && ld <= 512;
          if (!regs) p.regs = 0;
          p.kernel = resident_exchange_ == exchange_mode::pull ? cuda::resident_kernel<cuda::exchange::cluster_pull>
                                                               : async_kernels[p.regs];
        }
        cudaLaunchConfig_t cfg{};
        cudaLaunchAttribute attr[1];
        cluster_config(cfg, attr, p);
        int clusters = 0;
        if (cudaOccupancyMaxActiveClusters(&clusters, p.kernel, &cfg) != cudaSuccess) {
          (void)cudaGetLastError();
          continue;
        }
        if (clusters >= 1) return p;
      }
    }
    return {};
  }

  resident_plan plan_grid(index_t n, index_t ld) const {
    if (!cooperative_) return {};
    resident_plan p;
    p.threads = resident_threads_;
    p.rows = std::max(static_cast<int>(gpu::ceil_div(n, sms_)), resident_rows_);
    p.blocks = static_cast<int>(gpu::ceil_div(n, p.rows));
    if (!fits(p, ld)) return {};
    int per_sm = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, cuda::resident_kernel<cuda::exchange::grid>,
                                                      p.threads, p.smem) != cudaSuccess ||
        per_sm < 1) {
      (void)cudaGetLastError();
      return {};
    }
    return p;
  }

  int device_;
  int resident_cluster_;
  int resident_rows_;
  exchange_mode resident_exchange_;
  int resident_per_warp_;
  int resident_threads_;
  bool resident_regs_;
  int sms_ = 0;
  std::size_t smem_optin_ = 0;
  bool cluster_launch_ = false, cooperative_ = false, nonportable_ = false;
  std::string name_;
  index_t n_ = 0, ld_ = 0;
  layout lay_ = layout::by_source;
  gpu::device_buffer<float> w_;
  gpu::device_buffer<float> dist_[2];  // the two distance vectors; cur_ and next_ alternate over them
  float* cur_ = nullptr;
  float* next_ = nullptr;
  gpu::device_buffer<int> pred_;
  gpu::device_buffer<unsigned char> lines_;  // the skip schedule's 3 x ld / 32 line marks
  gpu::device_buffer<float> xchg_;           // the cooperative resident grid's 2 x ld exchange vectors
  index_t round_ = 0;                        // rounds since init (rotates the skip lines)
  gpu::device_buffer<int> flag_;
  gpu::device_buffer<int> gflags_;            // the cooperative resident grid's change flags
  gpu::device_buffer<int> outcome_;           // a resident solve's rounds and last change
  resident_plan resident_;                    // the resident launch for the uploaded matrix
  gpu::device_buffer<long long> trace_;       // resident phase cycles (engine_config::resident_trace)
  std::string trace_text_;                    // the last resident solve's phases, in words
  gpu::pinned_buffer<int> host_flag_;
};

}  // namespace

std::unique_ptr<engine> make_cuda_engine(const engine_config& cfg) { return std::make_unique<cuda_engine>(cfg); }

}  // namespace detail

detail::pinned_host::pinned_host(const dense_matrix& m) {
  void* p = const_cast<float*>(m.w.data());
  if (m.w.empty()) return;
  if (cudaHostRegister(p, m.bytes(), cudaHostRegisterPortable) == cudaSuccess) p_ = p;
  else (void)cudaGetLastError();  // fall back to pageable uploads
}

detail::pinned_host::~pinned_host() {
  if (p_) (void)cudaHostUnregister(p_);
}

void cuda_check_device_memory(double bytes, const std::string& what, int device) {
  GPU500_CUDA_CHECK(cudaSetDevice(device));
  gpu::check_device_memory(what.c_str(), bytes > 1.8e19 ? SIZE_MAX : static_cast<std::size_t>(bytes));
}

copy_bandwidth cuda_copy_bandwidth(std::size_t bytes, int reps, int device) {
  GPU500_CUDA_CHECK(cudaSetDevice(device));
  const gpu::device_buffer<char> src(bytes), dst(bytes);
  void* a = src.data();
  void* b = dst.data();
  GPU500_CUDA_CHECK(cudaMemset(a, 1, bytes));
  GPU500_CUDA_CHECK(cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice));  // warm-up
  cudaEvent_t e0, e1;
  GPU500_CUDA_CHECK(cudaEventCreate(&e0));
  GPU500_CUDA_CHECK(cudaEventCreate(&e1));
  float best_ms = 1e30f;
  for (int i = 0; i < reps; ++i) {
    GPU500_CUDA_CHECK(cudaEventRecord(e0));
    GPU500_CUDA_CHECK(cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice));
    GPU500_CUDA_CHECK(cudaEventRecord(e1));
    GPU500_CUDA_CHECK(cudaEventSynchronize(e1));
    float ms = 0;
    GPU500_CUDA_CHECK(cudaEventElapsedTime(&ms, e0, e1));
    best_ms = std::min(best_ms, ms);
  }
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  copy_bandwidth r;
  r.copy_gbs = static_cast<double>(bytes) / (best_ms * 1e-3) / 1e9;
  r.traffic_gbs = 2 * r.copy_gbs;
  return r;
}

}  // namespace gpu500::bellman_ford
