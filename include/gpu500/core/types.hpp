// gpu500/core/types.hpp — fundamental types and the host/device function qualifier.
#pragma once

#include <cstdint>

namespace gpu500 {

/// Counts and offsets: always 64-bit (edge counts pass 2^31 at SCALE 27).
using index_t = std::int64_t;

/// Which implementation runs a computation.
enum class backend { cpu, cuda, opencl };

}  // namespace gpu500

// Functions usable on host and device (plain host functions when not compiled by nvcc).
#if defined(__CUDACC__)
#define GPU500_HD __host__ __device__
#define GPU500_FORCEINLINE __forceinline__
#else
#define GPU500_HD
#define GPU500_FORCEINLINE inline
#endif
