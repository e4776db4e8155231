// HPL-MxP's rules in one place (gpu500/hpl_mxp/mxp.hpp): the precision names, the operation
// count, the backward error, the option checks, the memory plan and sizing, and solve(), which
// runs a backend and judges its result.
#include "gpu500/hpl_mxp/mxp.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "backend.hpp"
#include "gpu500/core/device.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/hpl/defaults.hpp"
#include "gpu500/hpl/grid.hpp"

namespace gpu500::hpl_mxp {

const char* precision_name(precision p) {
  switch (p) {
    case precision::bf16: return "bf16";
    case precision::fp16: return "fp16";
    case precision::fp8: return "fp8";
    case precision::fp32: break;
  }
  return "fp32";
}

precision parse_precision(const std::string& s, const std::string& flag) {
  for (precision p : {precision::bf16, precision::fp16, precision::fp32, precision::fp8})
    if (s == precision_name(p)) return p;
  throw usage_error("hpl-mxp: " + flag + " must be bf16, fp16, fp32 or fp8, got '" + s + "'");
}

bool valid_for_submission(precision p) { return p != precision::fp8; }

void detail::require_fp8_capability(const std::string& device, int major, int minor) {
  if (major * 10 + minor < 89)
    throw usage_error("hpl-mxp: --precision fp8 needs a GPU of compute capability 8.9 or newer (FP8 tensor cores); " +
                      device + " is " + std::to_string(major) + "." + std::to_string(minor));
}

double flop_count(std::int64_t n) {
  const double d = static_cast<double>(n);
  return 2.0 / 3.0 * d * d * d + 1.5 * d * d;
}

double backward_error(double norm_r, double norm_a, double norm_x, double norm_b, std::int64_t n) {
  if (n == 0) return 0.0;
  return norm_r / (norm_a * norm_x + norm_b) / (static_cast<double>(n) * std::ldexp(1.0, -53));
}

namespace {
constexpr std::int64_t gib = std::int64_t{1} << 30;
// The CUDA backend's FP8 GEMMs: cuBLASLt's workspace and the amax reduction's scratch.
double fp8_extra() {
  return static_cast<double>(detail::fp8_workspace_bytes) + 4.0 * detail::fp8_amax_blocks;
}
}  // namespace

std::int64_t bytes_needed(backend be, precision p, std::int64_t n, int nb, int nprow, int npcol) {
  // In double, saturated: N up to 2^31 overflows 4 N^2 in 64 bits.
  const double dn = static_cast<double>(std::max<std::int64_t>(n, 0));
  const double vectors = 8.0 * dn * (2 * gmres_restart + 8);  // V, Z, x, b, diag, work...
  const bool grid = static_cast<long>(nprow) * npcol > 1;
  const std::int64_t nbl = std::max(1, nb);
  // This process's rows and columns (the 1 x 1 grid: n and n).
  const double mp = static_cast<double>(hpl::numroc(std::max<std::int64_t>(n, 0), nbl, 0, std::max(1, nprow)));
  const double nq = static_cast<double>(hpl::numroc(std::max<std::int64_t>(n, 0), nbl, 0, std::max(1, npcol)));
  const double nbw = std::min(static_cast<double>(nbl), std::max(dn, 1.0));
  double total = 0;
  if (be != backend::cuda) {
    total = 4.0 * std::max(1.0, mp) * nq + vectors + 4.0 * dn;
  } else if (!grid) {
    const double lda = static_cast<double>(detail::cuda_leading_dimension(n));
    // Two sets of L and U copies: 2 bytes an entry, or 1 (fp8: the transposed L21 copy's rows
    // padded to 16, at most lda, a scale slot after each copy, and the GEMMs' workspace).
    const double panels = p == precision::fp32 ? 0.0
                          : p == precision::fp8
                              ? 2.0 * 2.0 * (lda * nbw + detail::fp8_scale_slot) + fp8_extra()
                              : 2.0 * 2.0 * (2.0 * lda * nbw);
    constexpr double max_chunks = 64;                                                 // partial products
    total = 4.0 * lda * dn + panels + vectors + 8.0 * max_chunks * dn + 4.0 * dn;
  } else {
    // The grid's device memory: the local matrix, two sets of the L21 / U12 parts in the GEMM's
    // precision (none for an FP32 part that no other process needs: the GEMM reads it in the
    // matrix), the diagonal block, and the refinement's vectors (v and the diagonal whole, the
    // row walks' partial products, the local-column vector); GMRES's basis is host memory.
    const double lld = static_cast<double>(detail::cuda_leading_dimension(static_cast<std::int64_t>(mp)));
    // fp8: 1 byte an entry, L21's rows padded to 16, a scale slot after each copy, the workspace;
    // else L21 with leading dimension up to lld, U12 with nq columns.
    const double esize = p == precision::fp32 ? 4.0 : 2.0;
    const double lpart = p == precision::fp32 && npcol == 1 ? 0.0 : esize * nbw * lld;
    const double upart = p == precision::fp32 && nprow == 1 ? 0.0 : esize * nbw * nq;
    const double panels =
        p == precision::fp8
            ? 2.0 * (nbw * (static_cast<double>(detail::fp8_rows(static_cast<std::int64_t>(mp))) + nq) +
                     2.0 * detail::fp8_scale_slot) +
                  fp8_extra()
            : 2.0 * (lpart + upart);
    // The row walks' chunks: a block of columns each, or (one process column) at most 64.
    const double chunks = npcol == 1 ? std::min(64.0, std::max(nq, 1.0)) : std::ceil(nq / static_cast<double>(nbl));
    total = 4.0 * lld * std::max(1.0, nq) + panels + 4.0 * nbw * nbw + 16.0 * dn + 8.0 * chunks * mp + 8.0 * mp +
            4.0 * nq;
  }
  return total >= 9.2e18 ? std::numeric_limits<std::int64_t>::max() : static_cast<std::int64_t>(total);
}

std::int64_t choose_n(backend be, precision p, std::int64_t memory_bytes, int nb, int nprow, int npcol) {
  if (memory_bytes <= 0 || nb < 1) return 0;
  const std::int64_t margin = be == backend::cuda ? std::max<std::int64_t>(memory_bytes * 6 / 100, 2 * gib)
                                                  : memory_bytes / 2;
  const std::int64_t usable = memory_bytes - margin;
  if (usable <= 0) return 0;
  const double procs = static_cast<double>(nprow) * npcol;
  std::int64_t n = static_cast<std::int64_t>(std::sqrt(static_cast<double>(usable) * procs / 4.0)) / nb * nb + nb;
  while (n > 0 && bytes_needed(be, p, n, nb, nprow, npcol) > usable) n -= nb;
  return std::max<std::int64_t>(0, n);
}

int default_nb(backend be, int device) {
  if (be != backend::cuda) return 256;
  const auto devs = cuda_devices();
  if (devs.empty()) return 1024;
  const auto& d = devs[static_cast<std::size_t>(std::max(0, device)) % devs.size()];
  const auto c = hpl::classify_device(be, d.name, d.global_memory);
  return c == hpl::device_class::h100_80gb || c == hpl::device_class::h200_141gb ? 2048 : 1024;
}

void check_options(const options& o) {
  if (o.n < 0) throw usage_error("hpl-mxp: -N must be >= 0, got " + std::to_string(o.n));
  if (o.n > 2147483647) throw usage_error("hpl-mxp: -N must be below 2^31, got " + std::to_string(o.n));
  // The reference's matrix sets each diagonal entry to the sum of the magnitudes of its row's
  // other entries: with its seeds, singular for N = 1 (a zero), 2 and 3.
  if (o.n >= 1 && o.n <= 3)
    throw usage_error("hpl-mxp: -N " + std::to_string(o.n) +
                      ": the reference's matrix is singular below N = 4 (each diagonal entry is the sum of the "
                      "magnitudes of its row's other entries); use -N 4 or more");
  if (o.nb < 1) throw usage_error("hpl-mxp: -NB must be >= 1, got " + std::to_string(o.nb));
  if (o.max_iters < 1) throw usage_error("hpl-mxp: --max-iters must be >= 1, got " + std::to_string(o.max_iters));
  if (o.be == backend::opencl) throw usage_error("hpl-mxp: no opencl backend; use cpu or cuda");
  if (o.p < 1 || o.q < 1) throw usage_error("hpl-mxp: -P and -Q must be >= 1");
  if (o.be == backend::cpu && o.prec != precision::fp32)
    throw usage_error(std::string("hpl-mxp: --precision ") + precision_name(o.prec) +
                      " needs the cuda backend; the cpu backend factors in fp32");
  if (o.be == backend::cuda && o.prec == precision::fp8) {
    // cuBLASLt's FP8 GEMM: k (NB) a multiple of 16, FP8 tensor cores (compute capability 8.9+).
    if (o.nb % fp8_nb_multiple != 0)
      throw usage_error("hpl-mxp: --precision fp8 needs -NB a multiple of " + std::to_string(fp8_nb_multiple) +
                        " (cuBLASLt's FP8 GEMM), got " + std::to_string(o.nb));
    const auto devs = cuda_devices();
    if (!devs.empty()) {
      const auto& d = devs[static_cast<std::size_t>(std::max(0, o.device)) % devs.size()];
      detail::require_fp8_capability(d.name, d.sm_major, d.sm_minor);
    }
  }
  if (o.be == backend::cpu) {
    // A grid's process holds 1 / (P Q) of the single-precision matrix: a lower bound of its peak.
    // (bytes_needed, which sizes the default N, adds the refinement's vectors: GMRES allocates
    // them as its iterations go, few of them for the benchmark's well-conditioned matrix.)
    const std::int64_t nbl = std::max(1, o.nb);
    const double mp = static_cast<double>(hpl::numroc(o.n, nbl, 0, std::max(1, o.p)));
    const double nq = static_cast<double>(hpl::numroc(o.n, nbl, 0, std::max(1, o.q)));
    check_host_memory(4.0 * mp * nq, "hpl-mxp: N = " + std::to_string(o.n));
  }
}

namespace detail {
void stage(const options& o, const char* what) {
  if (!o.progress) return;
  std::fprintf(stderr, "hpl-mxp: %s\n", what);
  std::fflush(stderr);
}
}  // namespace detail

result solve(const options& o) {
  check_options(o);
  result r = o.be == backend::cuda ? detail::solve_cuda(o) : detail::solve_cpu(o);
  r.t_total = r.t_lu + r.t_refine;
  const double n = static_cast<double>(o.n);
  r.gflops = r.t_total > 0 ? flop_count(o.n) / r.t_total * 1e-9 : 0.0;
  r.lu_gflops = r.t_lu > 0 ? 2.0 / 3.0 * n * n * n / r.t_lu * 1e-9 : 0.0;
  r.backward_error = backward_error(r.norm_r, r.norm_a, r.norm_x, r.norm_b, o.n);
  r.passed = r.backward_error < threshold;  // NaN fails
  return r;
}

}  // namespace gpu500::hpl_mxp
