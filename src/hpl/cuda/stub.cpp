// Without the CUDA backend compiled in, --backend cuda and the device-side helpers are refused
// with one clear line.
#include "../solver.hpp"

#include "gpu500/core/error.hpp"
#include "gpu500/hpl/device.hpp"

namespace gpu500::hpl {
namespace {
[[noreturn]] void no_cuda() {
  throw usage_error("this gpu500 was built without the CUDA backend; use --backend cpu");
}
}  // namespace

namespace detail {
void cuda_run(const params&, const grid&, const run_options&, test_result&) { no_cuda(); }
cuda_device_facts cuda_device(int) { return {}; }
}  // namespace detail

void generate_on_device(double*, std::int64_t, std::int64_t) { no_cuda(); }
void check_on_device(const params&, const double*, std::int64_t, const std::vector<double>&, test_result&) {
  no_cuda();
}

}  // namespace gpu500::hpl
