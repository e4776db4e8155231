// CUDA engine of dense Bellman-Ford: owns the device matrix and the distance buffers, launches
// one kernel per round through the policies of kernels.cuh. All work goes to the legacy
// default stream; changed() and download() synchronise.
#include <algorithm>
#include <string>
#include <vector>

#include "../engines.hpp"
#include "gpu500/core/cuda_check.cuh"
#include "gpu500/core/error.hpp"
#include "kernels.cuh"

namespace gpu500::bellman_ford {
namespace detail {
namespace {

template <class T>
void device_alloc(T** p, std::size_t count, const char* what) {
  const std::size_t bytes = count * sizeof(T);
  const cudaError_t e = cudaMalloc(reinterpret_cast<void**>(p), bytes);
  if (e == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError();
    std::size_t free_b = 0, total_b = 0;
    cudaMemGetInfo(&free_b, &total_b);
    throw resource_error(std::string("bellman-ford cuda: cannot allocate ") + what + " (" +
                         std::to_string(bytes >> 20) + " MiB; " + std::to_string(free_b >> 20) + " MiB free)");
  }
  GPU500_CUDA_CHECK(e);
}

class cuda_engine final : public engine {
 public:
  explicit cuda_engine(const engine_config& cfg) : device_(cfg.cuda_device) {
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
    GPU500_CUDA_CHECK(cudaMalloc(&flag_, sizeof(int)));
    GPU500_CUDA_CHECK(cudaMallocHost(&host_flag_, sizeof(int)));
  }
  ~cuda_engine() override {
    cudaFree(w_);
    cudaFree(cur_);
    cudaFree(next_);
    cudaFree(pred_);
    cudaFree(flag_);
    cudaFreeHost(host_flag_);
  }

  engine_kind kind() const override { return engine_kind::cuda; }
  std::string description() const override { return "cuda: " + name_; }
  int max_group() const override { return cuda::reduce_policy::max_group; }
  layout uploaded_layout() const override { return lay_; }

  void upload(const dense_matrix& m) override {
    GPU500_EXPECTS(m.n >= 1 && m.n < (index_t{1} << 31), "bellman-ford cuda: n out of range");
    GPU500_CUDA_CHECK(cudaSetDevice(device_));
    if (m.ld != ld_) {
      cudaFree(w_);
      cudaFree(cur_);
      cudaFree(next_);
      cudaFree(pred_);
      w_ = cur_ = next_ = nullptr;
      pred_ = nullptr;
      ld_ = 0;
      device_alloc(&w_, m.w.size(), "the weight matrix");
      device_alloc(&cur_, static_cast<std::size_t>(m.ld), "distances");
      device_alloc(&next_, static_cast<std::size_t>(m.ld), "distances");
      device_alloc(&pred_, static_cast<std::size_t>(m.ld), "predecessors");
      ld_ = m.ld;
    }
    n_ = m.n;
    lay_ = m.lay;
    GPU500_CUDA_CHECK(cudaMemcpy(w_, m.w.data(), m.bytes(), cudaMemcpyHostToDevice));
  }

  void init(index_t source) override {
    GPU500_EXPECTS(w_, "bellman-ford cuda: upload first");
    std::vector<float> d(static_cast<std::size_t>(ld_), inf);
    d[static_cast<std::size_t>(source)] = 0.0f;
    GPU500_CUDA_CHECK(cudaMemcpy(cur_, d.data(), d.size() * sizeof(float), cudaMemcpyHostToDevice));
    GPU500_CUDA_CHECK(cudaMemcpy(next_, d.data(), d.size() * sizeof(float), cudaMemcpyHostToDevice));
    GPU500_CUDA_CHECK(cudaMemset(pred_, 0xff, static_cast<std::size_t>(ld_) * sizeof(int)));  // -1
    GPU500_CUDA_CHECK(cudaMemset(flag_, 0, sizeof(int)));
  }

  void round(variant v, int group, bool reset_flag) override {
    GPU500_EXPECTS(w_, "bellman-ford cuda: upload first");
    GPU500_EXPECTS(lay_ == layout_for(engine_kind::cuda, v), "bellman-ford cuda: wrong layout for the variant");
    if (reset_flag) GPU500_CUDA_CHECK(cudaMemsetAsync(flag_, 0, sizeof(int)));
    const int n = static_cast<int>(n_);
    const auto ld = static_cast<std::size_t>(ld_);
    if (v == variant::naive) {
      constexpr int block = cuda::naive_policy::block_threads;
      cuda::naive_kernel<<<(n + block - 1) / block, block>>>(w_, ld, n, cur_, next_, pred_, flag_);
      GPU500_CUDA_CHECK_LAUNCH();
    } else {
      check_group(group, cuda::reduce_policy::max_group, "bellman-ford cuda");
      const std::size_t shm = cuda::reduce_policy::shared_bytes(group);
      if (v == variant::reduce)
        cuda::reduce_kernel<<<n, group, shm>>>(w_, ld, n, cur_, next_, pred_, flag_);
      else
        cuda::coarse_kernel<<<n, group, shm>>>(w_, ld, n, cur_, next_, pred_, flag_);
      GPU500_CUDA_CHECK_LAUNCH();
    }
    std::swap(cur_, next_);
  }

  bool changed() override {
    GPU500_CUDA_CHECK(cudaMemcpy(host_flag_, flag_, sizeof(int), cudaMemcpyDeviceToHost));
    return *host_flag_ != 0;
  }

  void download(std::vector<float>& dist, std::vector<std::int32_t>& pred) override {
    dist.resize(static_cast<std::size_t>(n_));
    pred.resize(static_cast<std::size_t>(n_));
    GPU500_CUDA_CHECK(cudaMemcpy(dist.data(), cur_, dist.size() * sizeof(float), cudaMemcpyDeviceToHost));
    GPU500_CUDA_CHECK(cudaMemcpy(pred.data(), pred_, pred.size() * sizeof(int), cudaMemcpyDeviceToHost));
  }

  void finish() override { GPU500_CUDA_CHECK(cudaDeviceSynchronize()); }

 private:
  int device_;
  std::string name_;
  index_t n_ = 0, ld_ = 0;
  layout lay_ = layout::by_source;
  float* w_ = nullptr;
  float* cur_ = nullptr;
  float* next_ = nullptr;
  int* pred_ = nullptr;
  int* flag_ = nullptr;
  int* host_flag_ = nullptr;
};

}  // namespace

std::unique_ptr<engine> make_cuda_engine(const engine_config& cfg) { return std::make_unique<cuda_engine>(cfg); }

}  // namespace detail

pinned_host::pinned_host(const dense_matrix& m) {
  void* p = const_cast<float*>(m.w.data());
  if (m.w.empty()) return;
  if (cudaHostRegister(p, m.bytes(), cudaHostRegisterPortable) == cudaSuccess) p_ = p;
  else (void)cudaGetLastError();  // fall back to pageable uploads
}

pinned_host::~pinned_host() {
  if (p_) (void)cudaHostUnregister(p_);
}

copy_bandwidth cuda_copy_bandwidth(std::size_t bytes, int reps, int device) {
  GPU500_CUDA_CHECK(cudaSetDevice(device));
  void *a = nullptr, *b = nullptr;
  detail::device_alloc(reinterpret_cast<char**>(&a), bytes, "the copy-bandwidth source");
  detail::device_alloc(reinterpret_cast<char**>(&b), bytes, "the copy-bandwidth target");
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
  cudaFree(a);
  cudaFree(b);
  copy_bandwidth r;
  r.copy_gbs = static_cast<double>(bytes) / (best_ms * 1e-3) / 1e9;
  r.traffic_gbs = 2 * r.copy_gbs;
  return r;
}

}  // namespace gpu500::bellman_ford
