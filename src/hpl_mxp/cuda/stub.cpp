// Without the CUDA backend compiled in, --backend cuda is refused with one clear line.
#include "../backend.hpp"
#include "gpu500/core/error.hpp"

namespace gpu500::hpl_mxp::detail {

namespace {
[[noreturn]] void no_cuda() {
  throw usage_error("hpl-mxp: this gpu500 was built without the CUDA backend; use --backend cpu");
}
}  // namespace

result solve_cuda(const options&) { no_cuda(); }
std::vector<float> cuda_generated(std::int64_t) { no_cuda(); }
std::vector<float> cuda_factored(std::int64_t, int, precision) { no_cuda(); }

}  // namespace gpu500::hpl_mxp::detail
