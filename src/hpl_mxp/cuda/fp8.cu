// FP8 E4M3 trailing updates of the CUDA LU through cuBLASLt (see fp8.cuh).
#include "fp8.cuh"

#include <cublas_v2.h>

#include <string>
#include <utility>

#include "gpu500/core/cuda/check.cuh"
#include "gpu500/core/error.hpp"
#include "kernels.cuh"

namespace gpu500::hpl_mxp::detail::cuda {

void require_fp8_device() {
  int dev = 0, major = 0, minor = 0;
  GPU500_CUDA_CHECK(cudaGetDevice(&dev));
  GPU500_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
  GPU500_CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev));
  require_fp8_capability("device " + std::to_string(dev), major, minor);
}

void copy_fp8(const float* src, std::int64_t lds, std::int64_t m, std::int64_t n, bool transpose, void* dst,
              float* scratch, cudaStream_t s) {
  if (m <= 0 || n <= 0) return;
  auto* bytes = static_cast<std::uint8_t*>(dst);
  float* scale = reinterpret_cast<float*>(bytes + fp8_data_bytes(m, n, transpose));
  fp8_scale(src, lds, m, n, scratch, scale, s);
  convert_fp8(src, lds, m, n, transpose, fp8_rows(m), bytes, transpose ? n : m, scale, s);
}

void zero_fp8_padding(float* a, std::int64_t lda, std::int64_t m, std::int64_t cols, cudaStream_t s) {
  const std::int64_t pad = fp8_rows(m) - m;
  if (pad <= 0 || cols <= 0) return;
  GPU500_CUDA_CHECK(cudaMemset2DAsync(a + m, sizeof(float) * lda, 0, sizeof(float) * pad, cols, s));
}

namespace {
void lt_check(cublasStatus_t st, const char* what) {
  if (st != CUBLAS_STATUS_SUCCESS)
    throw error(std::string("hpl-mxp: ") + what + ": " + gpu::dynload::cublasGetStatusString(st));
}

// The largest power of two (at most 256) that divides the address: the alignment cuBLASLt's
// heuristic may assume (its default is 256 bytes).
std::uint32_t alignment_of(const void* p) {
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  std::uint32_t al = 256;
  while (al > 1 && a % al != 0) al /= 2;
  return al;
}

// Owners of cuBLASLt's descriptors for one call.
struct lt_desc {
  cublasLtMatmulDesc_t op = nullptr;
  cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
  cublasLtMatmulPreference_t pref = nullptr;
  ~lt_desc() {
    if (pref) gpu::dynload::cublasLtMatmulPreferenceDestroy(pref);
    if (c) gpu::dynload::cublasLtMatrixLayoutDestroy(c);
    if (b) gpu::dynload::cublasLtMatrixLayoutDestroy(b);
    if (a) gpu::dynload::cublasLtMatrixLayoutDestroy(a);
    if (op) gpu::dynload::cublasLtMatmulDescDestroy(op);
  }
};
}  // namespace

fp8_gemm::fp8_gemm(cudaStream_t s) : s_(s), workspace_(static_cast<std::size_t>(fp8_workspace_bytes)) {
  lt_check(gpu::dynload::cublasLtCreate(&h_), "cublasLtCreate");
}

fp8_gemm::~fp8_gemm() {
  if (h_) gpu::dynload::cublasLtDestroy(h_);
}

void fp8_gemm::run(std::int64_t m, std::int64_t n, std::int64_t k, const void* a, std::int64_t lda, const float* sa,
                   const void* b, std::int64_t ldb, const float* sb, float* c, std::int64_t ldc) {
  if (m <= 0 || n <= 0 || k <= 0) return;
  // cuBLASLt's FP8 requirements (TN, 16-byte multiples); a broken one is a bug here, not input.
  GPU500_EXPECTS(m % 16 == 0 && k % 16 == 0 && lda % 16 == 0 && ldb % 16 == 0 && ldc % 4 == 0 && lda >= k &&
                     ldb >= k && ldc >= m,
                 "FP8 GEMM shape: m, k, lda, ldb multiples of 16, ldc of 4");
  // The scales too: cuBLASLt refuses the call (not the heuristic) for a scale only 4-byte aligned.
  GPU500_EXPECTS(alignment_of(a) >= 16 && alignment_of(b) >= 16 && alignment_of(c) >= 16 && alignment_of(sa) >= 16 &&
                     alignment_of(sb) >= 16,
                 "FP8 GEMM pointers 16-byte aligned");
  lt_desc d;
  lt_check(gpu::dynload::cublasLtMatmulDescCreate(&d.op, CUBLAS_COMPUTE_32F, CUDA_R_32F),
           "cublasLtMatmulDescCreate");
  const cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
  lt_check(gpu::dynload::cublasLtMatmulDescSetAttribute(d.op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta)),
           "TRANSA");
  lt_check(gpu::dynload::cublasLtMatmulDescSetAttribute(d.op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb)),
           "TRANSB");
  lt_check(gpu::dynload::cublasLtMatmulDescSetAttribute(d.op, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &sa,
                                                        sizeof(sa)),
           "A_SCALE_POINTER");
  lt_check(gpu::dynload::cublasLtMatmulDescSetAttribute(d.op, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, &sb,
                                                        sizeof(sb)),
           "B_SCALE_POINTER");
  const auto u = [](std::int64_t v) { return static_cast<std::uint64_t>(v); };
  lt_check(gpu::dynload::cublasLtMatrixLayoutCreate(&d.a, CUDA_R_8F_E4M3, u(k), u(m), lda),
           "cublasLtMatrixLayoutCreate (A)");
  lt_check(gpu::dynload::cublasLtMatrixLayoutCreate(&d.b, CUDA_R_8F_E4M3, u(k), u(n), ldb),
           "cublasLtMatrixLayoutCreate (B)");
  lt_check(gpu::dynload::cublasLtMatrixLayoutCreate(&d.c, CUDA_R_32F, u(m), u(n), ldc),
           "cublasLtMatrixLayoutCreate (C)");
  lt_check(gpu::dynload::cublasLtMatmulPreferenceCreate(&d.pref), "cublasLtMatmulPreferenceCreate");
  const std::size_t ws = workspace_.size();
  lt_check(gpu::dynload::cublasLtMatmulPreferenceSetAttribute(
               d.pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof(ws)),
           "MAX_WORKSPACE_BYTES");
  const std::uint32_t al_c = alignment_of(c);
  const std::pair<cublasLtMatmulPreferenceAttributes_t, std::uint32_t> alignments[] = {
      {CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, alignment_of(a)},
      {CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES, alignment_of(b)},
      {CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, al_c},
      {CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES, al_c}};
  for (const auto& [attribute, bytes] : alignments)
    lt_check(gpu::dynload::cublasLtMatmulPreferenceSetAttribute(d.pref, attribute, &bytes, sizeof(bytes)),
             "MIN_ALIGNMENT_BYTES");
  cublasLtMatmulHeuristicResult_t best{};
  int found = 0;
  const cublasStatus_t hs =
      gpu::dynload::cublasLtMatmulAlgoGetHeuristic(h_, d.op, d.a, d.b, d.c, d.c, d.pref, 1, &best, &found);
  if (hs != CUBLAS_STATUS_SUCCESS || found == 0)
    throw error("hpl-mxp: cuBLASLt has no FP8 GEMM for m = " + std::to_string(m) +
                ", n = " + std::to_string(n) + ", k = " + std::to_string(k) + " (" +
                gpu::dynload::cublasGetStatusString(hs) + ")");
  const float alpha = -1.0f, beta = 1.0f;
  lt_check(gpu::dynload::cublasLtMatmul(h_, d.op, &alpha, a, d.a, b, d.b, &beta, c, d.c, c, d.c, &best.algo,
                                        workspace_.data(), ws, s_),
           "cublasLtMatmul (FP8 trailing update)");
}

}  // namespace gpu500::hpl_mxp::detail::cuda
