// The device half of the GPU DGEMM inside the recursive CPU panel (--panel-gemm-gpu; the
// HPL paper (ISCAS)'s CPU+GPU panel), internal to the CUDA 1 x 1 solver. The bookkeeping (which
// rows and columns the device copy lacks) is the host class panel_offload (src/hpl/cpu/panel.hpp);
// this class moves rows, copies blocks and runs cuBLAS DGEMM on the device copy: the panel's own
// columns in A (copied down from there, written back whole by panel_up afterwards). Everything
// runs on one high-priority stream, so the DGEMM's blocks are scheduled ahead of the trailing
// update's as SMs free up.
#pragma once

#include <cublas_v2.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "../cpu/panel.hpp"
#include "kernels.cuh"
#include "util.cuh"

namespace gpu500::hpl::detail {

class cuda_panel_offload final : public panel_offload {
 public:
  cuda_panel_offload(int min_width, int nb)
      : panel_offload(min_width), cap_(8 * static_cast<std::size_t>(nb)), pairs_(cap_), host_(cap_) {
    int least = 0, greatest = 0;
    GPU500_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    GPU500_CUDA_CHECK(cudaStreamCreateWithPriority(&s_, cudaStreamNonBlocking, greatest));
    GPU500_CUBLAS_CHECK(gpu::dynload::cublasCreate(&h_));
    GPU500_CUBLAS_CHECK(gpu::dynload::cublasSetStream(h_, s_));
  }
  ~cuda_panel_offload() override {
    gpu::dynload::cublasDestroy(h_);
    cudaStreamDestroy(s_);
  }
  /// The device copy of the next panel: A(k, k) and A's leading dimension. Waits for the last
  /// panel's finish() (its copies read the pinned T block and panel that are about to be reused).
  void at(double* panel, std::int64_t lda) {
    dev_wait();
    d_ = panel, lda_ = lda;
  }
  cudaStream_t stream() const { return s_; }

 protected:
  void dev_moves(int c0, int c1, const std::vector<std::int64_t>& dest, const std::vector<std::int64_t>& src) override {
    const std::size_t n = dest.size();
    if (used_ + 2 * n > cap_) dev_wait();  // the pinned staging area is reused only after its copies
    std::copy(dest.begin(), dest.end(), host_.data() + used_);
    std::copy(src.begin(), src.end(), host_.data() + used_ + n);
    GPU500_CUDA_CHECK(cudaMemcpyAsync(pairs_.data() + used_, host_.data() + used_, sizeof(std::int64_t) * 2 * n,
                                      cudaMemcpyHostToDevice, s_));
    kernels::swap_rows(d_, lda_, c0, c1, pairs_.data() + used_, pairs_.data() + used_ + n, static_cast<int>(n), s_);
    used_ += 2 * n;
  }
  void dev_put(std::int64_t r0, std::int64_t nr, int c0, int nc, const double* h, std::int64_t ldh) override {
    GPU500_CUDA_CHECK(cudaMemcpy2DAsync(d_ + r0 + c0 * lda_, sizeof(double) * lda_, h, sizeof(double) * ldh,
                                        sizeof(double) * nr, nc, cudaMemcpyHostToDevice, s_));
  }
  void dev_get(std::int64_t r0, std::int64_t nr, int c0, int nc, double* h, std::int64_t ldh) override {
    GPU500_CUDA_CHECK(cudaMemcpy2DAsync(h, sizeof(double) * ldh, d_ + r0 + c0 * lda_, sizeof(double) * lda_,
                                        sizeof(double) * nr, nc, cudaMemcpyDeviceToHost, s_));
  }
  void dev_gemm(std::int64_t r0, std::int64_t m, int c0, int c1, int k0, int k1) override {
    const double one = 1.0, minus = -1.0;
    const int ld = static_cast<int>(lda_);
    GPU500_CUBLAS_CHECK(gpu::dynload::cublasDgemm(h_, CUBLAS_OP_N, CUBLAS_OP_N, static_cast<int>(m), c1 - c0,
                                                  k1 - k0, &minus, d_ + r0 + k0 * lda_, ld,
                                                  d_ + k0 + c0 * lda_, ld, &one, d_ + r0 + c0 * lda_, ld));
  }
  void dev_wait() override {
    GPU500_CUDA_CHECK(cudaStreamSynchronize(s_));
    used_ = 0;
  }

 private:
  std::size_t cap_, used_ = 0;
  device_buffer<std::int64_t> pairs_;
  pinned_buffer<std::int64_t> host_;
  cudaStream_t s_{};
  cublasHandle_t h_{};
  double* d_ = nullptr;
  std::int64_t lda_ = 1;
};

}  // namespace gpu500::hpl::detail
