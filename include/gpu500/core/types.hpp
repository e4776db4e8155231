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
// GPU500_FORCEINLINE forces inlining on the host compiler too: GCC's heuristics kept per-vertex
// helpers out of line in OpenMP loops (the CPU SSSP: ~8% slower). GPU500_FORCEINLINE_LAMBDA is
// the same for a lambda's call operator (written after the parameter list).
#if defined(__CUDACC__)
#define GPU500_HD __host__ __device__
#define GPU500_FORCEINLINE __forceinline__
#else
#define GPU500_HD
#if defined(__GNUC__)
#define GPU500_FORCEINLINE inline __attribute__((always_inline))
#else
#define GPU500_FORCEINLINE inline
#endif
#endif
#if defined(__GNUC__)
#define GPU500_FORCEINLINE_LAMBDA __attribute__((always_inline))
#else
#define GPU500_FORCEINLINE_LAMBDA
#endif
