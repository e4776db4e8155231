// The GEMM rate HPL-MxP's trailing update can reach on this GPU:
//   bench_hpl_mxp_gemm bf16|fp16|fp32|fp8 M K [reps]
// times cublasGemmEx C(M x M, FP32) += A(M x K) B(K x M) with inputs of the given type, FP32
// accumulation (CUBLAS_COMPUTE_32F), the shape and types of the library's update; fp8 times
// the library's own cuBLASLt call (src/hpl_mxp/cuda/fp8.cuh): E4M3 inputs, A stored transposed ("TN"), scales
// by 16-byte aligned device pointers, FP32 C and D in place (M and K multiples of 16; compute
// capability 8.9+).
// Random inputs in [-0.5, 0.5) (constant data would draw less power and run faster than the
// benchmark's). Prints one JSON object: the best of reps timed calls after one warm-up.
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "cuda/fp8.cuh"

#include "gpu500/core/cuda/check.cuh"
#include "gpu500/core/cuda/memory.hpp"

namespace {

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "bench_hpl_mxp_gemm: %s\n", what.c_str());
  std::exit(2);
}

std::size_t element_bytes(const std::string& type) { return type == "fp32" ? 4 : type == "fp8" ? 1 : 2; }

// n values in [-0.5, 0.5) as the element type (1, 2 or 4 bytes each), from a 64-bit LCG.
std::vector<unsigned char> random_values(std::size_t n, const std::string& type) {
  const std::size_t es = element_bytes(type);
  std::vector<unsigned char> out(n * es);
  std::uint64_t x = 12345;
  for (std::size_t i = 0; i < n; ++i) {
    x = x * 6364136223846793005ULL + 1ULL;
    const float v = static_cast<float>(static_cast<double>(x >> 11) * 0x1.0p-53 - 0.5);
    if (type == "bf16") {
      const __nv_bfloat16 b = __float2bfloat16(v);
      std::memcpy(&out[i * es], &b, es);
    } else if (type == "fp16") {
      const __half h = __float2half(v);
      std::memcpy(&out[i * es], &h, es);
    } else if (type == "fp8") {
      out[i] = __nv_cvt_float_to_fp8(v, __NV_SATFINITE, __NV_E4M3);
    } else {
      std::memcpy(&out[i * es], &v, es);
    }
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) fail("usage: bench_hpl_mxp_gemm bf16|fp16|fp32|fp8 M K [reps]");
  const std::string type = argv[1];
  const long m = std::atol(argv[2]), k = std::atol(argv[3]);
  const int reps = argc > 4 ? std::max(1, std::atoi(argv[4])) : 3;
  if (type != "bf16" && type != "fp16" && type != "fp32" && type != "fp8") fail("type must be bf16, fp16, fp32 or fp8");
  if (m < 1 || k < 1 || m > 2147483647 || k > 2147483647) fail("M and K must be in [1, 2^31)");
  if (type == "fp8" && (m % 16 != 0 || k % 16 != 0)) fail("fp8 needs M and K multiples of 16");
  if (type == "fp8") {
    try {
      gpu500::hpl_mxp::detail::cuda::require_fp8_device();
    } catch (const std::exception& e) {
      fail(e.what());
    }
  }
  const cudaDataType_t dt = type == "bf16" ? CUDA_R_16BF : type == "fp16" ? CUDA_R_16F : CUDA_R_32F;
  const std::size_t es = element_bytes(type);
  gpu500::gpu::check_device_memory("bench_hpl_mxp_gemm", (2 * m * k) * es + 4 * static_cast<std::size_t>(m) * m);
  gpu500::gpu::device_buffer<unsigned char> a(m * k * es), b(k * m * es);
  gpu500::gpu::device_buffer<float> c(static_cast<std::size_t>(m) * m);
  const auto host = random_values(static_cast<std::size_t>(m * k), type);
  gpu500::gpu::copy_bytes(a.data(), host.data(), host.size());
  gpu500::gpu::copy_bytes(b.data(), host.data(), host.size());
  c.zero();
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) fail("cublasCreate");
  // fp8: the library's own cuBLASLt call (C -= sa sb A^T B), unit scales in device memory, each
  // 16-byte aligned as the solver's are (cuBLASLt refuses the call otherwise).
  std::unique_ptr<gpu500::hpl_mxp::detail::cuda::fp8_gemm> f8;
  constexpr int scale_stride = 4;  // floats: 16 bytes
  gpu500::gpu::device_buffer<float> scales(2 * scale_stride);
  if (type == "fp8") {
    const float one[2 * scale_stride] = {1.0f, 0, 0, 0, 1.0f, 0, 0, 0};
    gpu500::gpu::copy_bytes(scales.data(), one, sizeof(one));
    f8 = std::make_unique<gpu500::hpl_mxp::detail::cuda::fp8_gemm>(nullptr);
  }
  const float alpha = -1.0f, beta = 1.0f;
  double best = 1e30;
  for (int r = 0; r <= reps; ++r) {
    GPU500_CUDA_CHECK(cudaDeviceSynchronize());
    const double t0 = now();
    try {
      if (f8) f8->run(m, m, k, a.data(), k, scales.data(), b.data(), k, scales.data() + scale_stride, c.data(), m);
    } catch (const std::exception& e) {
      fail(e.what());
    }
    const cublasStatus_t st =
        f8 ? CUBLAS_STATUS_SUCCESS
           : cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, int(m), int(m), int(k), &alpha, a.data(), dt, int(m), b.data(),
                          dt, int(k), &beta, c.data(), CUDA_R_32F, int(m), CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    if (st != CUBLAS_STATUS_SUCCESS) fail(std::string("cublasGemmEx: ") + cublasGetStatusString(st));
    GPU500_CUDA_CHECK(cudaDeviceSynchronize());
    if (r > 0) best = std::min(best, now() - t0);  // the first call warms up
  }
  f8.reset();
  cublasDestroy(h);
  const double flops = 2.0 * m * m * k;
  std::printf("{\"type\":\"%s\",\"m\":%ld,\"k\":%ld,\"time_s\":%.6f,\"tflops\":%.3f}\n", type.c_str(), m, k, best,
              flops / best * 1e-12);
  return 0;
}
