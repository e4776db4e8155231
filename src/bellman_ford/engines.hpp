// Private: the engine factories of each backend (cpu/, cuda/, opencl/), launch checks shared by
// the GPU engines, and the page-locking of host matrices the benchmark uses for CUDA uploads.
#pragma once

#include <memory>

#include "gpu500/bellman_ford/bellman_ford.hpp"

namespace gpu500::bellman_ford::detail {

std::unique_ptr<engine> make_cpu_engine(bool parallel, const engine_config& cfg);
std::unique_ptr<engine> make_cuda_engine(const engine_config& cfg);
std::unique_ptr<engine> make_opencl_engine(const engine_config& cfg);

/// Throws usage_error unless group is a power of two in [1, max_group].
void check_group(int group, int max_group, const char* who);

/// Page-locks a matrix's host memory (cudaHostRegister, portable) for the lifetime of this
/// object so that CUDA uploads run at DMA speed instead of through the driver's pageable
/// staging. Registering is an allocation-like step that costs time: do it outside timed
/// regions. Without CUDA, or when registration fails, it does nothing and active() is false.
/// The matrix must outlive this object and keep its storage.
class pinned_host {
 public:
  explicit pinned_host(const dense_matrix& m);
  ~pinned_host();
  pinned_host(const pinned_host&) = delete;
  pinned_host& operator=(const pinned_host&) = delete;
  [[nodiscard]] bool active() const { return p_ != nullptr; }

 private:
  void* p_ = nullptr;
};

}  // namespace gpu500::bellman_ford::detail
