// Without the CUDA backend compiled in, --backend cuda is refused with one clear line.
#include "../backend.hpp"
#include "gpu500/core/error.hpp"

namespace gpu500::hpl_mxp::detail {

result solve_cuda(const options&) {
  throw usage_error("hpl-mxp: this gpu500 was built without the CUDA backend; use --backend cpu");
}

}  // namespace gpu500::hpl_mxp::detail
