// OpenCL engine of dense Bellman-Ford: the kernels of bellman_ford.cl (embedded source, built at
// engine construction) behind the same engine interface as CUDA. Device choice: the platform /
// device indices of engine_config, else the first GPU of any platform, else the first device.
// Runs on PoCL (CI) and on NVIDIA's OpenCL (libnvidia-opencl.so.1, through an ICD file).
#include <CL/cl.h>

#include <algorithm>
#include <string>
#include <vector>

#include "../engines.hpp"
#include "gpu500/core/error.hpp"

namespace gpu500::bellman_ford::detail {

extern const char* const opencl_kernel_source;

namespace {

[[noreturn]] void throw_cl(cl_int e, const char* what, int line) {
  throw error(std::string("engine_opencl.cpp:") + std::to_string(line) + ": " + what + ": OpenCL error " +
              std::to_string(e));
}
#define GPU500_CL_CHECK(call)                                     \
  do {                                                            \
    const cl_int gpu500_cl_err_ = (call);                         \
    if (gpu500_cl_err_ != CL_SUCCESS) throw_cl(gpu500_cl_err_, #call, __LINE__); \
  } while (0)

std::string device_string(cl_device_id d, cl_device_info what) {
  std::size_t len = 0;
  clGetDeviceInfo(d, what, 0, nullptr, &len);
  std::string s(len, '\0');
  clGetDeviceInfo(d, what, len, s.data(), nullptr);
  while (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

std::vector<cl_device_id> platform_devices(cl_platform_id p) {
  cl_uint count = 0;
  if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &count) != CL_SUCCESS || count == 0) return {};
  std::vector<cl_device_id> d(count);
  clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, count, d.data(), nullptr);
  return d;
}

bool is_gpu(cl_device_id d) {
  cl_device_type t = 0;
  clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof(t), &t, nullptr);
  return (t & CL_DEVICE_TYPE_GPU) != 0;
}

class opencl_engine final : public engine {
 public:
  explicit opencl_engine(const engine_config& cfg) {
    cl_uint np = 0;
    if (clGetPlatformIDs(0, nullptr, &np) != CL_SUCCESS || np == 0)
      throw usage_error("bellman-ford: no OpenCL platform found (is an ICD file installed in /etc/OpenCL/vendors?)");
    std::vector<cl_platform_id> plats(np);
    GPU500_CL_CHECK(clGetPlatformIDs(np, plats.data(), nullptr));
    if (cfg.cl_platform >= static_cast<int>(np))
      throw usage_error("bellman-ford: OpenCL platform " + std::to_string(cfg.cl_platform) + " does not exist (" +
                        std::to_string(np) + " found)");
    device_ = nullptr;
    for (cl_uint p = 0; p < np && !device_; ++p) {  // first GPU of the chosen (or any) platform
      if (cfg.cl_platform >= 0 && static_cast<int>(p) != cfg.cl_platform) continue;
      const auto devs = platform_devices(plats[p]);
      if (cfg.cl_device >= 0) {
        if (cfg.cl_platform < 0 && p > 0) break;
        if (cfg.cl_device >= static_cast<int>(devs.size()))
          throw usage_error("bellman-ford: OpenCL device " + std::to_string(cfg.cl_device) + " does not exist on platform " +
                            std::to_string(p));
        device_ = devs[static_cast<std::size_t>(cfg.cl_device)];
        break;
      }
      for (auto d : devs)
        if (is_gpu(d)) {
          device_ = d;
          break;
        }
    }
    for (cl_uint p = 0; p < np && !device_; ++p) {  // no GPU: the first device
      if (cfg.cl_platform >= 0 && static_cast<int>(p) != cfg.cl_platform) continue;
      const auto devs = platform_devices(plats[p]);
      if (!devs.empty()) device_ = devs[0];
    }
    if (!device_) throw usage_error("bellman-ford: no OpenCL device found");
    name_ = device_string(device_, CL_DEVICE_NAME) + " (" + device_string(device_, CL_DEVICE_VENDOR) + ", " +
            device_string(device_, CL_DEVICE_VERSION) + ")";

    cl_int e = CL_SUCCESS;
    ctx_ = clCreateContext(nullptr, 1, &device_, nullptr, nullptr, &e);
    GPU500_CL_CHECK(e);
    queue_ = clCreateCommandQueue(ctx_, device_, 0, &e);
    GPU500_CL_CHECK(e);
    const char* src = opencl_kernel_source;
    program_ = clCreateProgramWithSource(ctx_, 1, &src, nullptr, &e);
    GPU500_CL_CHECK(e);
    if (clBuildProgram(program_, 1, &device_, "", nullptr, nullptr) != CL_SUCCESS) {
      std::size_t len = 0;
      clGetProgramBuildInfo(program_, device_, CL_PROGRAM_BUILD_LOG, 0, nullptr, &len);
      std::string log(len, '\0');
      clGetProgramBuildInfo(program_, device_, CL_PROGRAM_BUILD_LOG, len, log.data(), nullptr);
      throw error("bellman-ford opencl: kernel build failed on " + name_ + ":\n" + log);
    }
    k_naive_ = clCreateKernel(program_, "bf_naive", &e);
    GPU500_CL_CHECK(e);
    k_reduce_ = clCreateKernel(program_, "bf_reduce", &e);
    GPU500_CL_CHECK(e);
    k_coarse_ = clCreateKernel(program_, "bf_reduce_coarse", &e);
    GPU500_CL_CHECK(e);
    std::size_t wg = 0;
    GPU500_CL_CHECK(clGetDeviceInfo(device_, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof(wg), &wg, nullptr));
    for (cl_kernel k : {k_reduce_, k_coarse_}) {
      std::size_t kw = 0;
      GPU500_CL_CHECK(clGetKernelWorkGroupInfo(k, device_, CL_KERNEL_WORK_GROUP_SIZE, sizeof(kw), &kw, nullptr));
      wg = std::min(wg, kw);
    }
    max_group_ = 1;
    while (static_cast<std::size_t>(max_group_) * 2 <= std::min<std::size_t>(wg, 1 << 20)) max_group_ *= 2;
    flag_ = clCreateBuffer(ctx_, CL_MEM_READ_WRITE, sizeof(cl_int), nullptr, &e);
    GPU500_CL_CHECK(e);
  }

  ~opencl_engine() override {
    release_buffers();
    if (flag_) clReleaseMemObject(flag_);
    for (cl_kernel k : {k_naive_, k_reduce_, k_coarse_})
      if (k) clReleaseKernel(k);
    if (program_) clReleaseProgram(program_);
    if (queue_) clReleaseCommandQueue(queue_);
    if (ctx_) clReleaseContext(ctx_);
  }

  engine_kind kind() const override { return engine_kind::opencl; }
  std::string description() const override { return "opencl: " + name_; }
  int max_group() const override { return max_group_; }
  layout uploaded_layout() const override { return lay_; }

  void upload(const dense_matrix& m) override {
    GPU500_EXPECTS(m.n >= 1 && m.n < (index_t{1} << 31), "bellman-ford opencl: n out of range");
    if (m.ld != ld_) {
      release_buffers();
      cl_ulong max_alloc = 0;
      GPU500_CL_CHECK(clGetDeviceInfo(device_, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof(max_alloc), &max_alloc, nullptr));
      if (m.bytes() > max_alloc)
        throw resource_error("bellman-ford opencl: the matrix needs " + std::to_string(m.bytes() >> 20) +
                             " MiB, the device allows " + std::to_string(max_alloc >> 20) + " MiB per buffer");
      w_ = make_buffer(m.bytes());
      cur_ = make_buffer(static_cast<std::size_t>(m.ld) * sizeof(float));
      next_ = make_buffer(static_cast<std::size_t>(m.ld) * sizeof(float));
      pred_ = make_buffer(static_cast<std::size_t>(m.ld) * sizeof(cl_int));
      ld_ = m.ld;
    }
    n_ = m.n;
    lay_ = m.lay;
    GPU500_CL_CHECK(clEnqueueWriteBuffer(queue_, w_, CL_TRUE, 0, m.bytes(), m.w.data(), 0, nullptr, nullptr));
  }

  void init(index_t source) override {
    GPU500_EXPECTS(w_, "bellman-ford opencl: upload first");
    std::vector<float> d(static_cast<std::size_t>(ld_), inf);
    d[static_cast<std::size_t>(source)] = 0.0f;
    const std::vector<cl_int> p(static_cast<std::size_t>(ld_), -1);
    const cl_int zero = 0;
    const std::size_t bytes = d.size() * sizeof(float);
    GPU500_CL_CHECK(clEnqueueWriteBuffer(queue_, cur_, CL_TRUE, 0, bytes, d.data(), 0, nullptr, nullptr));
    GPU500_CL_CHECK(clEnqueueWriteBuffer(queue_, next_, CL_TRUE, 0, bytes, d.data(), 0, nullptr, nullptr));
    GPU500_CL_CHECK(clEnqueueWriteBuffer(queue_, pred_, CL_TRUE, 0, p.size() * sizeof(cl_int), p.data(), 0, nullptr, nullptr));
    GPU500_CL_CHECK(clEnqueueWriteBuffer(queue_, flag_, CL_TRUE, 0, sizeof(zero), &zero, 0, nullptr, nullptr));
  }

  void round(variant v, int group, bool reset_flag, bool skip) override {
    GPU500_EXPECTS(w_, "bellman-ford opencl: upload first");
    GPU500_EXPECTS(lay_ == layout_for(engine_kind::opencl, v), "bellman-ford opencl: wrong layout for the variant");
    GPU500_EXPECTS(!skip, "bellman-ford opencl: no skip schedule (CUDA coarse only)");
    if (reset_flag) {
      static const cl_int zero = 0;
      GPU500_CL_CHECK(clEnqueueWriteBuffer(queue_, flag_, CL_FALSE, 0, sizeof(zero), &zero, 0, nullptr, nullptr));
    }
    const cl_ulong ld = static_cast<cl_ulong>(ld_);
    const cl_int n = static_cast<cl_int>(n_);
    cl_kernel k = v == variant::naive ? k_naive_ : v == variant::reduce ? k_reduce_ : k_coarse_;
    GPU500_CL_CHECK(clSetKernelArg(k, 0, sizeof(cl_mem), &w_));
    GPU500_CL_CHECK(clSetKernelArg(k, 1, sizeof(ld), &ld));
    GPU500_CL_CHECK(clSetKernelArg(k, 2, sizeof(n), &n));
    GPU500_CL_CHECK(clSetKernelArg(k, 3, sizeof(cl_mem), &cur_));
    GPU500_CL_CHECK(clSetKernelArg(k, 4, sizeof(cl_mem), &next_));
    GPU500_CL_CHECK(clSetKernelArg(k, 5, sizeof(cl_mem), &pred_));
    GPU500_CL_CHECK(clSetKernelArg(k, 6, sizeof(cl_mem), &flag_));
    std::size_t local = 0, global = 0;
    if (v == variant::naive) {
      local = static_cast<std::size_t>(std::min(128, max_group_));
      global = (static_cast<std::size_t>(n) + local - 1) / local * local;
    } else {
      check_group(group, max_group_, "bellman-ford opencl");
      local = static_cast<std::size_t>(group);
      global = local * static_cast<std::size_t>(n);
      GPU500_CL_CHECK(clSetKernelArg(k, 7, local * sizeof(cl_float), nullptr));
      GPU500_CL_CHECK(clSetKernelArg(k, 8, local * sizeof(cl_int), nullptr));
    }
    GPU500_CL_CHECK(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, &local, 0, nullptr, nullptr));
    std::swap(cur_, next_);
  }

  bool changed() override {
    cl_int f = 0;
    GPU500_CL_CHECK(clEnqueueReadBuffer(queue_, flag_, CL_TRUE, 0, sizeof(f), &f, 0, nullptr, nullptr));
    return f != 0;
  }

  void download(std::vector<float>& dist, std::vector<std::int32_t>& pred) override {
    dist.resize(static_cast<std::size_t>(n_));
    pred.resize(static_cast<std::size_t>(n_));
    GPU500_CL_CHECK(clEnqueueReadBuffer(queue_, cur_, CL_TRUE, 0, dist.size() * sizeof(float), dist.data(), 0, nullptr, nullptr));
    GPU500_CL_CHECK(clEnqueueReadBuffer(queue_, pred_, CL_TRUE, 0, pred.size() * sizeof(cl_int), pred.data(), 0, nullptr, nullptr));
  }

  void finish() override { GPU500_CL_CHECK(clFinish(queue_)); }

 private:
  cl_mem make_buffer(std::size_t bytes) {
    cl_int e = CL_SUCCESS;
    cl_mem b = clCreateBuffer(ctx_, CL_MEM_READ_WRITE, bytes, nullptr, &e);
    if (e == CL_MEM_OBJECT_ALLOCATION_FAILURE || e == CL_OUT_OF_RESOURCES || e == CL_OUT_OF_HOST_MEMORY)
      throw resource_error("bellman-ford opencl: cannot allocate " + std::to_string(bytes >> 20) + " MiB");
    GPU500_CL_CHECK(e);
    return b;
  }
  void release_buffers() {
    for (cl_mem* b : {&w_, &cur_, &next_, &pred_})
      if (*b) {
        clReleaseMemObject(*b);
        *b = nullptr;
      }
    ld_ = 0;
  }

  cl_device_id device_ = nullptr;
  std::string name_;
  cl_context ctx_ = nullptr;
  cl_command_queue queue_ = nullptr;
  cl_program program_ = nullptr;
  cl_kernel k_naive_ = nullptr, k_reduce_ = nullptr, k_coarse_ = nullptr;
  cl_mem w_ = nullptr, cur_ = nullptr, next_ = nullptr, pred_ = nullptr, flag_ = nullptr;
  int max_group_ = 1;
  index_t n_ = 0, ld_ = 0;
  layout lay_ = layout::by_source;
};

}  // namespace

std::unique_ptr<engine> make_opencl_engine(const engine_config& cfg) { return std::make_unique<opencl_engine>(cfg); }

}  // namespace gpu500::bellman_ford::detail
