// Baselines for the HPL CUDA backend, measured in the same run as HPL (bench/hpl/gpu.sh), on
// HPL's own matrix and judged by HPL's own residual check (gpu500/hpl/device.hpp):
//   bench_hpl_baselines dgemm M N K [reps]  cuBLAS DGEMM in HPL's update shape: C(MxN) -= A(MxK) B(KxN),
//                                      all inside one column-major array (ld = M), like the
//                                      trailing update; prints the best rate of reps calls.
//   bench_hpl_baselines getrf N              cuSOLVER dgetrf + dgetrs on HPL's matrix [A | b] of order N;
//                                      time, Gflops by HPL's formula and HPL's scaled residual.
//   bench_hpl_baselines hpl N NB [key=value...]  the library's HPL on the GPU (no gpu500 program needed):
//                                      WR11C2R4 (netlib's defaults) unless pfact=/rfact=/nbmin=/ndiv=/
//                                      depth= say otherwise; tail=M (--tail-getrf), gpanel=M
//                                      (--gpu-panel), pgg=W (--panel-gemm-gpu), gpfirst=1
//                                      (--gpu-panel-first), noswapstream=1 (--no-swap-stream),
//                                      and the library's schedule constants for ablations:
//                                      seg=F (first update segment), pupall=1 (whole CPU panel
//                                      copied up with pgg); nb=NB (overrides), timing=FILE
//                                      (per-iteration JSON, the layout gpu500 hpl --timing
//                                      writes, read by bench/hpl/balance.py).
// Output: one JSON object per line on stdout.
#include <cublas_v2.h>
#include <cusolverDn.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "gpu500/core/cuda/check.cuh"
#include "gpu500/core/cuda/memory.hpp"
#include "gpu500/hpl/device.hpp"
#include "gpu500/hpl/grid.hpp"
#include "gpu500/hpl/pdgesv.hpp"

namespace {
double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
void fail(const char* what) {
  std::fprintf(stderr, "bench_hpl_baselines: %s\n", what);
  std::exit(1);
}

int dgemm(long m, long n, long k, int reps) {
  const long ld = m, cols = n + k;
  gpu500::gpu::device_buffer<double> buf(static_cast<std::size_t>(ld) * cols);
  double* a = buf.data();
  gpu500::hpl::generate_on_device(a, ld, std::min(m, cols - 1));
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) fail("cublasCreate");
  const double one = 1, minus = -1;
  double best = 1e30;
  for (int r = 0; r < reps + 1; ++r) {
    GPU500_CUDA_CHECK(cudaDeviceSynchronize());
    const double t0 = now();
    if (cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, int(m), int(n), int(k), &minus, a, int(ld), a + k * ld, int(ld), &one,
                    a + k * ld, int(ld)) != CUBLAS_STATUS_SUCCESS)
      fail("cublasDgemm");
    GPU500_CUDA_CHECK(cudaDeviceSynchronize());
    if (r > 0) best = std::min(best, now() - t0);  // the first call warms up
  }
  std::printf("{\"bench\":\"dgemm\",\"m\":%ld,\"n\":%ld,\"k\":%ld,\"seconds\":%.6f,\"gflops\":%.1f}\n", m, n, k, best,
              2.0 * m * n * k / best / 1e9);
  cublasDestroy(h);
  return 0;
}

int getrf(long n) {
  const long lda = (n + 31) / 32 * 32;
  gpu500::gpu::device_buffer<double> buf(static_cast<std::size_t>(lda) * (n + 1));
  double* a = buf.data();
  gpu500::hpl::generate_on_device(a, lda, n);
  cusolverDnHandle_t h;
  if (cusolverDnCreate(&h) != CUSOLVER_STATUS_SUCCESS) fail("cusolverDnCreate");
  int lwork = 0;
  if (cusolverDnDgetrf_bufferSize(h, int(n), int(n), a, int(lda), &lwork) != CUSOLVER_STATUS_SUCCESS) fail("bufferSize");
  gpu500::gpu::device_buffer<double> work(static_cast<std::size_t>(std::max(1, lwork)));
  gpu500::gpu::device_buffer<int> ipiv(static_cast<std::size_t>(n)), info(1);
  GPU500_CUDA_CHECK(cudaDeviceSynchronize());
  const double t0 = now();
  if (cusolverDnDgetrf(h, int(n), int(n), a, int(lda), work.data(), ipiv.data(), info.data()) != CUSOLVER_STATUS_SUCCESS)
    fail("getrf");
  if (cusolverDnDgetrs(h, CUBLAS_OP_N, int(n), 1, a, int(lda), ipiv.data(), a + n * lda, int(lda), info.data()) !=
      CUSOLVER_STATUS_SUCCESS)
    fail("getrs");
  GPU500_CUDA_CHECK(cudaDeviceSynchronize());
  const double t = now() - t0;
  const std::vector<double> x = gpu500::gpu::to_host(a + n * lda, static_cast<std::size_t>(n));
  cusolverDnDestroy(h);
  // HPL's scaled residual on the regenerated system (the same check as gpu500 hpl's).
  gpu500::hpl::generate_on_device(a, lda, n);
  gpu500::hpl::params prm;
  prm.n = n;
  gpu500::hpl::test_result r;
  gpu500::hpl::check_on_device(prm, a, lda, x, r);
  const double fl = (2.0 / 3.0 * n + 1.5) * double(n) * double(n);
  std::printf("{\"bench\":\"cusolver_getrf_getrs\",\"n\":%ld,\"seconds\":%.4f,\"gflops\":%.1f,\"resid\":%.6e}\n", n, t,
              fl / t / 1e9, r.resid);
  return 0;
}
// The library's HPL on the GPU without the gpu500 program (bench scripts that build only the
// library).
int hpl(long n, int nb, int argc, char** argv) {
  gpu500::hpl::params p;
  p.n = n;
  p.nb = nb;
  gpu500::hpl::run_options o;
  o.be = gpu500::backend::cuda;
  std::string timing, label = "default";
  for (int i = 0; i < argc; ++i) {
    const std::string kv = argv[i];
    const auto eq = kv.find('=');
    if (eq == std::string::npos) fail("hpl options are key=value");
    const std::string k = kv.substr(0, eq), v = kv.substr(eq + 1);
    if (k == "pfact") p.pfact = gpu500::hpl::fact_from_code(std::atoi(v.c_str()));
    else if (k == "rfact") p.rfact = gpu500::hpl::fact_from_code(std::atoi(v.c_str()));
    else if (k == "nbmin") p.nbmin = std::atoi(v.c_str());
    else if (k == "ndiv") p.ndiv = std::atoi(v.c_str());
    else if (k == "depth") p.depth = std::atoi(v.c_str());
    else if (k == "tail") o.tail_getrf = std::atol(v.c_str());
    else if (k == "gpanel") o.gpu_panel = std::atol(v.c_str());
    else if (k == "pgg") o.panel_gemm_gpu = std::atoi(v.c_str());
    else if (k == "gpfirst") o.gpu_panel_first = v != "0";
    else if (k == "pupall") o.panel_up_all = v != "0";
    else if (k == "seg") o.seg_first = std::atof(v.c_str());
    else if (k == "noswapstream") o.swap_stream = v == "0";
    else if (k == "timing") timing = v;
    else if (k == "label") label = v;
    else if (k == "nb") p.nb = std::atoi(v.c_str());
    else fail("unknown hpl option");
  }
  o.timing = !timing.empty();
  const auto g = gpu500::hpl::grid::create(1, 1, false);
  const auto r = gpu500::hpl::run_test(p, g, o);
  std::printf("{\"bench\":\"hpl\",\"label\":\"%s\",\"n\":%ld,\"nb\":%d,\"tail\":%ld,\"seconds\":%.4f,"
              "\"gflops\":%.1f,\"resid\":%.6e,\"passed\":%s}\n",
              label.c_str(), n, p.nb, static_cast<long>(o.tail_getrf), r.time, r.gflops, r.resid,
              r.passed ? "true" : "false");
  if (!timing.empty()) {
    std::FILE* f = std::fopen(timing.c_str(), "w");
    if (!f) fail("cannot write the timing file");
    std::fprintf(f, "{\"benchmark\":\"hpl-timing\",\"backend\":\"cuda\",\"tests\":[{\"n\":%ld,\"nb\":%d,\"time_s\":%.6f,"
                 "\"gflops\":%.3f,\"iterations\":[", n, p.nb, r.time, r.gflops);
    for (std::size_t i = 0; i < r.iters.size(); ++i) {
      const auto& t = r.iters[i];
      std::fprintf(f, "%s{\"k\":%ld,\"panel_s\":%.6f,\"update_s\":%.6f,\"total_s\":%.6f,\"host_wait_s\":%.6f,"
                   "\"gpu_gap_s\":%.6f,\"panel_gpu_s\":%.6f}", i ? "," : "", static_cast<long>(t.k), t.panel, t.update, t.total,
                   t.wait, t.gap, t.panel_gpu);
    }
    std::fprintf(f, "]}]}\n");
    std::fclose(f);
  }
  return r.passed ? 0 : 1;
}
}  // namespace

int main(int argc, char** argv) {
  try {
    const std::string what = argc > 1 ? argv[1] : "";
    if (what == "dgemm" && argc >= 5)
      return dgemm(std::atol(argv[2]), std::atol(argv[3]), std::atol(argv[4]), argc > 5 ? std::atoi(argv[5]) : 3);
    if (what == "getrf" && argc >= 3) return getrf(std::atol(argv[2]));
    if (what == "hpl" && argc >= 4) return hpl(std::atol(argv[2]), std::atoi(argv[3]), argc - 4, argv + 4);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_hpl_baselines: %s\n", e.what());
    return 1;
  }
  std::fprintf(stderr, "usage: bench_hpl_baselines dgemm M N K [reps] | getrf N | hpl N NB [key=value...]\n");
  return 2;
}
