// The device helpers of the CUDA backend over MPI ranks (internal; .cu files only): those of
// every engine over ranks on GPUs (gpu500/dist/device_pairs.cuh), in this namespace.
#pragma once

#include "gpu500/dist/device_pairs.cuh"

namespace gpu500::graph500::mpi::cuda {
using namespace gpu500::dist::cuda;
}  // namespace gpu500::graph500::mpi::cuda
