// The CUDA events behind gpu::step_timer (see gpu500/core/cuda/step_timer.hpp).
#include "gpu500/core/cuda/step_timer.hpp"

#include <cuda_runtime.h>

#include "gpu500/core/cuda/check.cuh"
#include "gpu500/core/error.hpp"

namespace gpu500::gpu {

step_timer::~step_timer() {
  for (cudaEvent_t e : events_) cudaEventDestroy(e);
}

cudaEvent_t step_timer::event(std::size_t i) {
  while (events_.size() <= i) {
    cudaEvent_t e = nullptr;
    GPU500_CUDA_CHECK(cudaEventCreate(&e));
    events_.push_back(e);
  }
  return events_[i];
}

void step_timer::mark(const char* name) {
  if (!on_) return;
  GPU500_EXPECTS(!ended_, "step_timer: a mark after end() and before take()");
  GPU500_CUDA_CHECK(cudaEventRecord(event(names_.size()), stream_));
  names_.push_back(name);
}

void step_timer::end() {
  if (!on_) return;
  GPU500_EXPECTS(!names_.empty() && !ended_, "step_timer: end() needs a mark before it");
  GPU500_CUDA_CHECK(cudaEventRecord(event(names_.size()), stream_));
  ended_ = true;
}

std::vector<std::pair<std::string, double>> step_timer::take() {
  if (!on_) return {};
  GPU500_EXPECTS(ended_, "step_timer: take() needs end()");
  GPU500_CUDA_CHECK(cudaEventSynchronize(events_[names_.size()]));
  std::vector<std::pair<std::string, double>> steps;
  for (std::size_t i = 0; i < names_.size(); ++i) {
    float ms = 0;
    GPU500_CUDA_CHECK(cudaEventElapsedTime(&ms, events_[i], events_[i + 1]));
    std::size_t k = 0;
    while (k < steps.size() && steps[k].first != names_[i]) ++k;
    if (k == steps.size()) steps.emplace_back(names_[i], 0.0);
    steps[k].second += 1e-3 * static_cast<double>(ms);
  }
  names_.clear();
  ended_ = false;
  return steps;
}

}  // namespace gpu500::gpu
