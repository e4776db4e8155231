// The two backends of HPL-MxP (internal): each generates the reference matrix, factors it in low
// precision, refines with gmres.hpp and fills a result (times, iterations, norms, backward error).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gpu500/hpl_mxp/mxp.hpp"

namespace gpu500::hpl_mxp::detail {

/// The CUDA backend's leading dimension for m rows: m rounded up to a multiple of 32, at least
/// 32 (the memory plan, bytes_needed, sizes the matrix with it too).
inline std::int64_t cuda_leading_dimension(std::int64_t m) {
  return m < 32 ? 32 : (m + 31) / 32 * 32;
}

/// The CUDA backend's FP8 panel copies (cuBLASLt wants 16-byte multiples): the transposed L21
/// copy has its rows (and each GEMM's C its rows) padded to fp8_rows, zeros in the padding; every
/// copy is followed by a slot of fp8_scale_slot bytes holding its scale (one float), so that a
/// broadcast carries both; the FP8 GEMMs share one workspace; the amax reduction one scratch of
/// fp8_amax_blocks floats.
inline std::int64_t fp8_rows(std::int64_t m) { return (m + 15) / 16 * 16; }
inline constexpr std::int64_t fp8_scale_slot = 16;
inline constexpr std::int64_t fp8_workspace_bytes = std::int64_t{32} << 20;
inline constexpr int fp8_amax_blocks = 1024;

/// Throws usage_error unless a GPU of compute capability major.minor has FP8 tensor cores (8.9 or
/// newer); `device` names it in the message. The one rule behind the option check and the LU's.
void require_fp8_capability(const std::string& device, int major, int minor);

/// The CPU backend on any P x Q grid of MPI processes (collective over the world's ranks); the
/// 1 x 1 grid is the calling process alone, no MPI.
result solve_cpu(const options& o);
/// The CUDA backend on any P x Q grid of MPI processes, one GPU each (o.device; collective over
/// the world's ranks); the 1 x 1 grid is the calling process alone, no MPI. Throws usage_error
/// when the program was built without the CUDA backend.
result solve_cuda(const options& o);

/// Test hooks of the CUDA backend (usage_error without it): the FP32 matrix of order n as the
/// device generates it, and as the device LU leaves it (blocks of nb, trailing updates in p),
/// copied to the host with leading dimension n.
std::vector<float> cuda_generated(std::int64_t n);
std::vector<float> cuda_factored(std::int64_t n, int nb, precision p);

/// Stage lines on stderr ("hpl-mxp: <what>") when o.progress.
void stage(const options& o, const char* what);

}  // namespace gpu500::hpl_mxp::detail
