// Private: the engine factories of each backend (cpu/, cuda/, opencl/) and launch checks
// shared by the GPU engines.
#pragma once

#include <memory>

#include "gpu500/bellman_ford/bellman_ford.hpp"

namespace gpu500::bellman_ford::detail {

std::unique_ptr<engine> make_cpu_engine(bool parallel, const engine_config& cfg);
std::unique_ptr<engine> make_cuda_engine(const engine_config& cfg);
std::unique_ptr<engine> make_opencl_engine(const engine_config& cfg);

/// Throws usage_error unless group is a power of two in [1, max_group].
void check_group(int group, int max_group, const char* who);

}  // namespace gpu500::bellman_ford::detail
