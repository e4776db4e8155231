// src/sssp/cuda/engine_i64.cu — the GPU SSSP engine for std::int64_t column ids (engine_impl.cuh).
#include "engine_impl.cuh"

namespace gpu500::sssp::cuda {
template class engine<std::int64_t>;
template class device_csr<std::int64_t>;
}  // namespace gpu500::sssp::cuda
