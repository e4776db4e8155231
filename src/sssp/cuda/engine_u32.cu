// src/sssp/cuda/engine_u32.cu — the GPU SSSP engine for std::uint32_t column ids (engine.cuh, engine_members.cuh).
#include "engine_members.cuh"

namespace gpu500::sssp::cuda {
template class engine<std::uint32_t>;
template class device_csr<std::uint32_t>;
}  // namespace gpu500::sssp::cuda
