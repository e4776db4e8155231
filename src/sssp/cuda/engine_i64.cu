// src/sssp/cuda/engine_i64.cu — the GPU SSSP engine for std::int64_t column ids (engine.cuh, engine_members.cuh).
#include "engine_members.cuh"

namespace gpu500::sssp::cuda {
template class engine<std::int64_t>;
template class device_csr<std::int64_t>;
}  // namespace gpu500::sssp::cuda
