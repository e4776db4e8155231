// Without the CUDA backend compiled in, --backend cuda is refused with one clear line.
#include "../solver.hpp"

#include "gpu500/core/error.hpp"

namespace gpu500::hpl::detail {
void cuda_run(const params&, const run_options&, test_result&) {
  throw usage_error("this gpu500 was built without the CUDA backend; use --backend cpu");
}
void cuda_run_dist(const params&, const grid&, const run_options&, test_result&) {
  throw usage_error("this gpu500 was built without the CUDA backend; use --backend cpu");
}
void cuda_select_device(const grid&) {}
}  // namespace gpu500::hpl::detail
