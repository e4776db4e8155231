// HPL on one GPU, the design of the HPL paper (ISCAS) (internal): the matrix [A | b] stays in
// GPU memory and is generated there; every panel is copied to pinned host memory, factored by the CPU (the same
// recursive PFACT/RFACT code as the CPU backend, OpenBLAS threads) and copied back; row swaps,
// DTRSM and DGEMM run on the GPU (own swap kernel, cuBLAS).
//
// Overlap (look-ahead depth 1):
//   stream upd : swap-wait, DTRSM + DGEMM of the next panel's columns, then of the rest
//   stream swp : the row-swap kernel and DTRSM of every column segment (highest priority;
//                --no-swap-stream puts them on `upd`, without overlap)
//   stream cpy : panel down (after the look-ahead update) and up (after the CPU factorisation)
// While the GPU updates the rest of the trailing matrix, the CPU factors the next panel.
// The rest is cut into segments of geometrically growing width (first = seg_first of the
// columns, then x seg_growth): the swap of segment i+1 runs on `swp` while `upd` runs the DGEMM
// of segment i, and the swaps of iteration k+1 start as soon as iteration k's DGEMM has passed
// the columns they touch (per-segment events chain the iterations).
//
// Tail (--tail-getrf M, off by default): once the trailing matrix has at most M rows, the CPU
// panels (copy down, factor, copy up: latency-bound when the update is small) stop; cuSOLVER
// getrf factors the trailing M' x M' block on the GPU with its own partial pivoting and getrs
// solves it for the trailing part of b; the back substitution then solves the leading block rows
// (U11 x1 = y1 - U12 x2).
#include <cublas_v2.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <vector>

#include "../cpu/panel.hpp"
#include "../solver.hpp"
#include "gpu500/core/cuda/check.cuh"
#include "gpu500/core/error.hpp"
#include "gpu500/core/timer.hpp"
#include "check.cuh"
#include "kernels.cuh"
#include "panel_offload.cuh"
#include "util.cuh"

namespace gpu500::hpl::detail {
namespace {

struct stream_set {
  cudaStream_t upd{}, swp{}, cpy{}, pnl{};
  stream_set() {
    GPU500_CUDA_CHECK(cudaStreamCreateWithFlags(&upd, cudaStreamNonBlocking));
    int least = 0, greatest = 0;
    GPU500_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    // The swaps (and the DTRSM of a segment) are short and feed the next DGEMM: highest priority,
    // so their blocks are scheduled as soon as the running DGEMM frees an SM.
    GPU500_CUDA_CHECK(cudaStreamCreateWithPriority(&swp, cudaStreamNonBlocking, greatest));
    GPU500_CUDA_CHECK(cudaStreamCreateWithFlags(&cpy, cudaStreamNonBlocking));
    GPU500_CUDA_CHECK(cudaStreamCreateWithPriority(&pnl, cudaStreamNonBlocking, greatest));
  }
  ~stream_set() {
    cudaStreamDestroy(upd);
    cudaStreamDestroy(swp);
    cudaStreamDestroy(cpy);
    cudaStreamDestroy(pnl);
  }
};

class gpu_solver {
 public:
  gpu_solver(const params& prm, const run_options& opt, double* a, std::int64_t lda)
      : prm_(prm), opt_(opt), n_(prm.n), nb_(prm.nb), a_(a), lda_(lda), events_(256),
        hp_(static_cast<std::size_t>(std::max<std::int64_t>(1, n_)) * std::min<std::int64_t>(nb_, std::max<std::int64_t>(1, n_))),
        t_(static_cast<std::size_t>(nb_) * nb_), pairs_(2 * 2 * 2 * static_cast<std::size_t>(nb_)) {
    GPU500_CUBLAS_CHECK(gpu::dynload::cublasCreate(&h_));
    GPU500_CUBLAS_CHECK(gpu::dynload::cublasSetStream(h_, st_.upd));
    GPU500_CUBLAS_CHECK(gpu::dynload::cublasCreate(&hs_));
    GPU500_CUBLAS_CHECK(gpu::dynload::cublasSetStream(hs_, st_.swp));
    for (auto& e : pairs_ev_) GPU500_CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    tail_ = std::min<std::int64_t>(opt_.tail_getrf, n_);
    if (tail_ > 0) {
      GPU500_CUSOLVER_CHECK(gpu::dynload::cusolverDnCreate(&sh_));
      GPU500_CUSOLVER_CHECK(gpu::dynload::cusolverDnSetStream(sh_, st_.upd));
      int lwork = 0;
      GPU500_CUSOLVER_CHECK(gpu::dynload::cusolverDnDgetrf_bufferSize(
          sh_, static_cast<int>(tail_), static_cast<int>(tail_), a_, static_cast<int>(lda_), &lwork));
      twork_ = device_buffer<double>(static_cast<std::size_t>(std::max(1, lwork)));
      tpiv_ = device_buffer<int>(static_cast<std::size_t>(tail_) + 1);
    }
    gpanel_ = std::min<std::int64_t>(opt_.gpu_panel, n_);
    gp_first_ = opt_.gpu_panel_first && n_ > 0;
    gp_rows_ = gp_first_ ? n_ : gpanel_;  // the tallest GPU panel
    if (gp_rows_ > 0) {
      GPU500_CUSOLVER_CHECK(gpu::dynload::cusolverDnCreate(&psh_));
      GPU500_CUSOLVER_CHECK(gpu::dynload::cusolverDnSetStream(psh_, st_.pnl));
      int lwork = 0;
      GPU500_CUSOLVER_CHECK(gpu::dynload::cusolverDnDgetrf_bufferSize(
          psh_, static_cast<int>(gp_rows_), static_cast<int>(std::min<std::int64_t>(nb_, gp_rows_)), a_,
          static_cast<int>(lda_), &lwork));
      pwork_ = device_buffer<double>(static_cast<std::size_t>(std::max(1, lwork)));
      ppiv_ = device_buffer<int>(static_cast<std::size_t>(nb_) + 1);
    }
    GPU500_CUDA_CHECK(cudaEventCreateWithFlags(&la_ev_, cudaEventDisableTiming));
    if (opt_.panel_gemm_gpu > 0) offload_ = std::make_unique<cuda_panel_offload>(opt_.panel_gemm_gpu, nb_);
  }
  ~gpu_solver() {
    gpu::dynload::cublasDestroy(h_);
    gpu::dynload::cublasDestroy(hs_);
    if (sh_) gpu::dynload::cusolverDnDestroy(sh_);
    if (psh_) gpu::dynload::cusolverDnDestroy(psh_);
    cudaEventDestroy(la_ev_);
    for (auto e : pairs_ev_) cudaEventDestroy(e);
  }
  // The stream and cuBLAS handle of the swaps and the DTRSM of a segment.
  cudaStream_t sstream() const { return opt_.swap_stream ? st_.swp : st_.upd; }
  cublasHandle_t shandle() const { return opt_.swap_stream ? hs_ : h_; }

  long offload_calls() const { return offload_ ? offload_->calls() : 0; }

  // Untimed warm-up of the host side: the first panel factorisations pay for thread start-up
  // and first touches; factor a copy of panel 0 once and throw it away (A is not modified).
  void warm_up_panel() {
    if (n_ == 0) return;
    const int jb = width(0);
    panel_down(0, jb, st_.cpy);
    GPU500_CUDA_CHECK(cudaStreamSynchronize(st_.cpy));
    factor_host(0, jb);
    GPU500_CUDA_CHECK(cudaDeviceSynchronize());  // the offload's finish() wrote into A: done before A is regenerated
  }

  // Untimed warm-up on the not yet generated matrix: the first cuBLAS calls of a shape load
  // their kernels (lazy module loading), which would otherwise land in the first iteration.
  void warm_up() {
    GPU500_CUDA_CHECK(cudaMemsetAsync(a_, 0, sizeof(double) * lda_ * (n_ + 1), st_.upd));
    if (tail_ > 0) {  // cuSOLVER's kernels at the tail's size (on zeros: singular, but untimed)
      finish_tail(n_ - tail_);
      GPU500_CUDA_CHECK(cudaStreamSynchronize(st_.upd));
    }
    if (gp_rows_ > 0) {  // and at the GPU panels' largest and smallest heights
      iter_time t;
      for (std::int64_t k : {n_ - gp_rows_, n_ - std::min<std::int64_t>(nb_, gp_rows_)}) {
        if (!on_gpu(k)) continue;
        panel_start(k, width(k), nullptr);
        panel_finish(k, width(k), t, 0);
      }
      GPU500_CUDA_CHECK(cudaDeviceSynchronize());
    }
    if (n_ <= nb_) return;
    const double one = 1.0, minus = -1.0;
    const int m = static_cast<int>(n_ - nb_), ld = static_cast<int>(lda_);
    for (int nc : {m, m / 8, nb_}) {
      GPU500_CUBLAS_CHECK(gpu::dynload::cublasDtrsm(shandle(), CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER,
                                                    CUBLAS_OP_N, CUBLAS_DIAG_UNIT, nb_, nc, &one, a_, ld,
                                                    a_ + nb_ * lda_, ld));
      GPU500_CUDA_CHECK(cudaStreamSynchronize(sstream()));
      GPU500_CUBLAS_CHECK(gpu::dynload::cublasDgemm(h_, CUBLAS_OP_N, CUBLAS_OP_N, m, nc, nb_, &minus,
                                                    a_ + nb_, ld, a_ + nb_ * lda_, ld, &one,
                                                    a_ + nb_ + nb_ * lda_, ld));
    }
    GPU500_CUDA_CHECK(cudaStreamSynchronize(st_.upd));
  }

  void solve(std::vector<double>& x, std::vector<iter_time>* iters) {
    x.assign(n_, 0.0);
    if (n_ == 0) return;
    const bool lookahead = prm_.depth >= 1;
    event_pool tev(2 * static_cast<int>((n_ + nb_ - 1) / nb_) + 2, true);
    std::vector<std::pair<cudaEvent_t, cudaEvent_t>> iter_ev;
    std::int64_t tail_at = -1;  // first row/column of the part cuSOLVER finished, -1: none
    // The tail from column k on: cuSOLVER on the trailing block (timed as one iteration).
    auto run_tail = [&](std::int64_t k) {
      iter_time t;
      t.k = k;
      const double w0 = wall_time();
      if (iters) iter_ev.emplace_back(tev.record(st_.upd), nullptr);
      finish_tail(k);
      if (iters) iter_ev.back().second = tev.record(st_.upd);
      t.total = wall_time() - w0;
      if (iters) iters->push_back(t);
      tail_at = k;
      if (opt_.progress) opt_.progress(n_);
    };
    std::vector<std::int64_t> ipiv;
    if (in_tail(0)) run_tail(0);
    else {  // Panel 0
      iter_time t0;
      panel_start(0, width(0), nullptr);
      ipiv = panel_finish(0, width(0), t0, wall_time());
    }
    std::vector<std::pair<std::int64_t, cudaEvent_t>> prev_segs, segs;  // (column end, DGEMM done)
    for (std::int64_t k = 0; k < n_ && tail_at < 0; k += nb_) {
      const int jb = width(k);
      const std::int64_t k1 = k + jb;
      const bool tail_next = k1 < n_ && in_tail(k1);  // no more CPU panels after this one
      iter_time t;
      t.k = k;
      const double w0 = wall_time();
      if (iters) iter_ev.emplace_back(tev.record(st_.upd), nullptr);
      upload_pairs(k, jb, ipiv, k / nb_ % 2);
      segs.clear();
      std::int64_t c = k1;
      std::vector<std::int64_t> next_ipiv;
      if (k1 < n_ && lookahead && !tail_next) {
        const int jb1 = width(k1);
        update_segment(k, jb, c, c + jb1, prev_segs, segs);
        c += jb1;
        GPU500_CUDA_CHECK(cudaEventRecord(la_ev_, st_.upd));
        // CPU panel: the copy down is queued before the rest; GPU panel: after it (the rest's
        // kernels are queued first, the panel's high-priority kernels slot in as SMs free up).
        const bool gp = on_gpu(k1);
        if (!gp) panel_start(k1, jb1, la_ev_);
        // The rest, in geometrically growing segments.
        update_rest(k, jb, c, prev_segs, segs);
        if (iters) iter_ev.back().second = tev.record(st_.upd);
        if (gp) panel_start(k1, jb1, la_ev_);
        next_ipiv = panel_finish(k1, jb1, t, wall_time());
      } else {
        update_rest(k, jb, c, prev_segs, segs);
        if (iters) iter_ev.back().second = tev.record(st_.upd);
        if (k1 < n_ && !tail_next) {  // no look-ahead: the next panel after the whole update
          const int jb1 = width(k1);
          const double tw = wall_time();
          panel_start(k1, jb1, events_.record(st_.upd));
          next_ipiv = panel_finish(k1, jb1, t, tw);
        }
      }
      t.total = wall_time() - w0;
      if (iters) iters->push_back(t);
      if (opt_.progress) opt_.progress(k1);
      ipiv = std::move(next_ipiv);
      std::swap(prev_segs, segs);
      if (tail_next) run_tail(k1);
    }
    // Back substitution U x = y on the GPU (y is column n), then x to the host. After a tail
    // from column kt, b(kt:n) already holds x2: b(0:kt) -= U12 x2, then U11 x1 = b(0:kt).
    double* b = a_ + n_ * lda_;
    const std::int64_t top = tail_at >= 0 ? tail_at : n_;
    if (tail_at > 0) {
      const double one = 1.0, minus = -1.0;
      GPU500_CUBLAS_CHECK(gpu::dynload::cublasDgemv(h_, CUBLAS_OP_N, static_cast<int>(top),
                                                    static_cast<int>(n_ - top), &minus, a_ + top * lda_,
                                                    static_cast<int>(lda_), b + top, 1, &one, b, 1));
    }
    if (top > 0)
      GPU500_CUBLAS_CHECK(gpu::dynload::cublasDtrsv(h_, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N,
                                                    CUBLAS_DIAG_NON_UNIT, static_cast<int>(top), a_,
                                                    static_cast<int>(lda_), b, 1));
    GPU500_CUDA_CHECK(cudaMemcpyAsync(x.data(), b, sizeof(double) * n_, cudaMemcpyDeviceToHost, st_.upd));
    GPU500_CUDA_CHECK(cudaStreamSynchronize(st_.upd));
    if (iters) read_update_spans(iter_ev, *iters);
  }

 private:
  int width(std::int64_t k) const { return static_cast<int>(std::min<std::int64_t>(nb_, n_ - k)); }
  bool in_tail(std::int64_t k) const { return tail_ > 0 && n_ - k <= tail_; }

  // cuSOLVER getrf on the trailing block A(k:n, k:n) (its own partial pivoting) and getrs on
  // b(k:n): afterwards b(k:n) = x(k:n). Stream upd, after everything queued before.
  void finish_tail(std::int64_t k) {
    const int m = static_cast<int>(n_ - k), ld = static_cast<int>(lda_);
    if (m <= 0) return;
    double* a22 = a_ + k + k * lda_;
    int* piv = tpiv_.data();
    int* info = piv + tail_;
    GPU500_CUSOLVER_CHECK(gpu::dynload::cusolverDnDgetrf(sh_, m, m, a22, ld, twork_.data(), piv, info));
    GPU500_CUSOLVER_CHECK(
        gpu::dynload::cusolverDnDgetrs(sh_, CUBLAS_OP_N, m, 1, a22, ld, piv, a_ + k + n_ * lda_, ld, info));
  }

  void panel_down(std::int64_t k, int jb, cudaStream_t s) {
    const std::int64_t m = n_ - k;
    GPU500_CUDA_CHECK(cudaMemcpy2DAsync(hp_.data(), sizeof(double) * m, a_ + k + k * lda_, sizeof(double) * lda_,
                                        sizeof(double) * m, jb, cudaMemcpyDeviceToHost, s));
  }
  void panel_up(std::int64_t k, int jb, cudaStream_t s) {
    const std::int64_t m = n_ - k;
    GPU500_CUDA_CHECK(cudaMemcpy2DAsync(a_ + k + k * lda_, sizeof(double) * lda_, hp_.data(), sizeof(double) * m,
                                        sizeof(double) * m, jb, cudaMemcpyHostToDevice, s));
  }
  // --gpu-panel M: panels of at most M rows; --gpu-panel-first: panel 0 too (nothing hides it).
  bool on_gpu(std::int64_t k) const { return (gpanel_ > 0 && n_ - k <= gpanel_) || (gp_first_ && k == 0); }
  // Start factoring panel k (columns k..k+jb, rows k..n) once `after` (if any) has happened:
  // CPU panel: the copy down on stream cpy; GPU panel (--gpu-panel): cuSOLVER getrf in place on
  // the high-priority stream pnl, then its pivots to pinned host memory.
  void panel_start(std::int64_t k, int jb, cudaEvent_t after) {
    const cudaStream_t s = on_gpu(k) ? st_.pnl : st_.cpy;
    if (after) GPU500_CUDA_CHECK(cudaStreamWaitEvent(s, after));
    if (!on_gpu(k)) {
      panel_down(k, jb, s);
      return;
    }
    GPU500_CUSOLVER_CHECK(gpu::dynload::cusolverDnDgetrf(psh_, static_cast<int>(n_ - k), jb,
                                                         a_ + k + k * lda_, static_cast<int>(lda_),
                                                         pwork_.data(), ppiv_.data(), ppiv_.data() + nb_));
    GPU500_CUDA_CHECK(cudaMemcpyAsync(hpiv_.data(), ppiv_.data(), sizeof(int) * jb, cudaMemcpyDeviceToHost, s));
  }
  // Finish panel k: its pivots (global rows, HPL's convention) once the factored panel is in A
  // (on its way there), with the update streams waiting for it. t.wait: host time from tw until
  // the panel was on the host (CPU panel); t.panel: the factorisation (CPU) or the time until the
  // pivots arrived (GPU).
  std::vector<std::int64_t> panel_finish(std::int64_t k, int jb, iter_time& t, double tw) {
    std::vector<std::int64_t> ipiv;
    if (on_gpu(k)) {
      GPU500_CUDA_CHECK(cudaStreamSynchronize(st_.pnl));
      ipiv.resize(jb);
      for (int j = 0; j < jb; ++j) ipiv[j] = k + hpiv_.data()[j] - 1;  // LAPACK's 1-based rows of the panel
      panel_ready(st_.pnl);
      t.panel = wall_time() - tw;
      return ipiv;
    }
    GPU500_CUDA_CHECK(cudaStreamSynchronize(st_.cpy));
    const double tp = wall_time();
    t.wait = tp - tw;
    const double g0 = offload_ ? offload_->seconds() : 0;
    ipiv = factor_host(k, jb);
    if (offload_) t.panel_gpu = offload_->seconds() - g0;
    if (offload_ && !opt_.panel_up_all) {  // --panel-gemm-gpu: its finish() (queued by factor_host) brings A's panel up to date
      panel_ready(offload_->stream());
    } else {
      panel_up(k, jb, st_.cpy);
      panel_ready(st_.cpy);
    }
    t.panel = wall_time() - tp;
    return ipiv;
  }
  // The factored panel is in A or on its way (stream s): the DTRSM (stream sstream) and DGEMM
  // (upd) wait for it.
  void panel_ready(cudaStream_t s) {
    const cudaEvent_t e = events_.record(s);
    GPU500_CUDA_CHECK(cudaStreamWaitEvent(st_.upd, e));
    if (opt_.swap_stream) GPU500_CUDA_CHECK(cudaStreamWaitEvent(st_.swp, e));
  }
  // Factor the panel held in hp_ (m x jb, ld m) with the CPU panel code.
  std::vector<std::int64_t> factor_host(std::int64_t k, int jb) {
    const std::int64_t m = n_ - k;
    // The panel's columns in A are the offload's device copy (they equal hp_ now); at() first
    // waits for the last panel's finish(), which read t_.
    if (offload_) offload_->at(a_ + k + k * lda_, lda_);
    for (int c = 0; c < jb; ++c) std::memcpy(t_.data() + c * jb, hp_.data() + c * m, sizeof(double) * jb);
    panel_view pv;
    pv.jb = jb;
    pv.k = k;
    pv.t = t_.data();
    pv.o = hp_.data() + jb;
    pv.ldo = m;
    pv.mo = m - jb;
    pv.o_first = k + jb;
    pv.nb = nb_;
    pv.col = &self_;
    panel_opts po{prm_.pfact, prm_.rfact, prm_.nbmin, prm_.ndiv, /*threads=*/0};
    if (offload_) po.offload = offload_.get();
    auto ipiv = factor_panel(pv, po);
    if (offload_ && !opt_.panel_up_all) {  // sends only what the device copy lacks (no panel_up): ordered after it by panel_ready
      offload_->finish(ipiv.data());
      return ipiv;
    }
    for (int c = 0; c < jb; ++c) std::memcpy(hp_.data() + c * m, t_.data() + c * jb, sizeof(double) * jb);
    return ipiv;
  }
  // The (dest, src) row moves of panel k, uploaded into device slot `slot` (two slots: the
  // swaps of iteration k+1 may be queued while those of k are still pending).
  void upload_pairs(std::int64_t k, int jb, const std::vector<std::int64_t>& ipiv, int slot) {
    const auto plan = plan_swaps(k, jb, ipiv.data());
    std::vector<std::int64_t> h;
    std::vector<std::int64_t> src;
    for (int t = 0; t < jb; ++t)
      if (plan.u_src[t] != k + t) h.push_back(k + t), src.push_back(plan.u_src[t]);
    for (const auto& [d, s] : plan.moved) h.push_back(d), src.push_back(s);
    npairs_[slot] = static_cast<int>(h.size());
    h.insert(h.end(), src.begin(), src.end());
    const std::int64_t off = slot * 2 * (2 * static_cast<std::int64_t>(nb_));
    // The pinned staging slot was last copied two iterations ago: make sure that copy is done.
    GPU500_CUDA_CHECK(cudaEventSynchronize(pairs_ev_[slot]));
    std::copy(h.begin(), h.end(), pairs_host_.data() + off);
    if (!h.empty())
      GPU500_CUDA_CHECK(cudaMemcpyAsync(pairs_.data() + off, pairs_host_.data() + off, sizeof(std::int64_t) * h.size(),
                                        cudaMemcpyHostToDevice, sstream()));
    GPU500_CUDA_CHECK(cudaEventRecord(pairs_ev_[slot], sstream()));
    slot_ = slot;
  }
  // Swap, DTRSM and DGEMM of columns [c0, c1) with panel k.
  void update_segment(std::int64_t k, int jb, std::int64_t c0, std::int64_t c1,
                      const std::vector<std::pair<std::int64_t, cudaEvent_t>>& prev,
                      std::vector<std::pair<std::int64_t, cudaEvent_t>>& segs) {
    if (c1 <= c0) return;
    // The swap may start once the previous iteration's DGEMM has passed column c1.
    for (const auto& [end, ev] : prev)
      if (end >= c1 || &ev == &prev.back().second) {
        GPU500_CUDA_CHECK(cudaStreamWaitEvent(sstream(), ev));
        break;
      }
    const std::int64_t* d = pairs_.data() + slot_ * 2 * (2 * static_cast<std::int64_t>(nb_));
    kernels::swap_rows(a_, lda_, c0, c1, d, d + npairs_[slot_], npairs_[slot_], sstream());
    const double one = 1.0, minus = -1.0;
    const int nc = static_cast<int>(c1 - c0), ld = static_cast<int>(lda_);
    GPU500_CUBLAS_CHECK(gpu::dynload::cublasDtrsm(shandle(), CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER,
                                                  CUBLAS_OP_N, CUBLAS_DIAG_UNIT, jb, nc, &one,
                                                  a_ + k + k * lda_, ld, a_ + k + c0 * lda_, ld));
    if (opt_.swap_stream) GPU500_CUDA_CHECK(cudaStreamWaitEvent(st_.upd, events_.record(st_.swp)));
    const std::int64_t m2 = n_ - k - jb;
    if (m2 > 0)
      GPU500_CUBLAS_CHECK(gpu::dynload::cublasDgemm(
          h_, CUBLAS_OP_N, CUBLAS_OP_N, static_cast<int>(m2), nc, jb, &minus, a_ + (k + jb) + k * lda_, ld,
          a_ + k + c0 * lda_, ld, &one, a_ + (k + jb) + c0 * lda_, ld));
    segs.emplace_back(c1, events_.record(st_.upd));
  }
  void update_rest(std::int64_t k, int jb, std::int64_t c0, const std::vector<std::pair<std::int64_t, cudaEvent_t>>& prev,
                   std::vector<std::pair<std::int64_t, cudaEvent_t>>& segs) {
    const std::int64_t end = n_ + 1, total = end - c0;
    if (total <= 0) return;
    double w = std::max<double>(nb_, opt_.seg_first * static_cast<double>(total));
    for (std::int64_t c = c0; c < end;) {
      std::int64_t e = std::min<std::int64_t>(end, c + static_cast<std::int64_t>(w));
      if (end - e < nb_) e = end;  // no sliver at the end
      update_segment(k, jb, c, e, prev, segs);
      c = e;
      w *= opt_.seg_growth;
    }
  }

  const params& prm_;
  const run_options& opt_;
  std::int64_t n_;
  int nb_;
  double* a_;
  std::int64_t lda_;
  stream_set st_;
  event_pool events_;
  pinned_buffer<double> hp_;
  pinned_buffer<double> t_;  // the panel's top jb x jb block (pinned: the offload copies it)
  device_buffer<std::int64_t> pairs_;
  pinned_buffer<std::int64_t> pairs_host_{8 * static_cast<std::size_t>(nb_)};
  cudaEvent_t pairs_ev_[2] = {};
  int npairs_[2] = {0, 0};
  int slot_ = 0;
  cublasHandle_t h_{}, hs_{};
  comm self_;
  std::int64_t tail_ = 0;  // --tail-getrf, at most n
  cusolverDnHandle_t sh_{};
  device_buffer<double> twork_;
  device_buffer<int> tpiv_;  // pivots, then getrf's info
  std::int64_t gpanel_ = 0;  // --gpu-panel, at most n
  bool gp_first_ = false;    // --gpu-panel-first
  std::int64_t gp_rows_ = 0;  // rows of the tallest GPU panel (0: none)
  cusolverDnHandle_t psh_{};
  device_buffer<double> pwork_;
  device_buffer<int> ppiv_;  // pivots of a GPU panel, then getrf's info
  pinned_buffer<int> hpiv_{static_cast<std::size_t>(nb_)};
  cudaEvent_t la_ev_{};  // the look-ahead columns are updated
  std::unique_ptr<cuda_panel_offload> offload_;  // --panel-gemm-gpu
};

}  // namespace

void cuda_run(const params& prm, const run_options& opt, test_result& r) {
  const std::int64_t n = prm.n;
  if (prm.nb > 2048) throw usage_error("the CUDA backend of HPL needs NB <= 2048");
  if (n > INT32_MAX / 2) throw usage_error("the CUDA backend of HPL needs N < 2^30");
  const std::int64_t lda = leading_dimension(n, 32, 32);
  device_buffer<double> a(static_cast<std::size_t>(lda) * (n + 1));
  std::vector<double> x;
  {
    gpu_solver s(prm, opt, a.data(), lda);
    s.warm_up();
    kernels::generate(a.data(), lda, n, nullptr);
    GPU500_CUDA_CHECK(cudaDeviceSynchronize());
    s.warm_up_panel();
    if (opt.panel_gemm_gpu > 0) {  // the warm-up panel's offload wrote into panel 0's columns
      kernels::generate(a.data(), lda, n, nullptr);
      GPU500_CUDA_CHECK(cudaDeviceSynchronize());
    }
    const long calls0 = s.offload_calls();
    const double t0 = wall_time();
    s.solve(x, opt.timing ? &r.iters : nullptr);
    GPU500_CUDA_CHECK(cudaDeviceSynchronize());
    r.time = wall_time() - t0;
    r.panel_gemms_gpu = s.offload_calls() - calls0;
  }
  // The check: regenerate [A | b] on the GPU and compute the residual there (own kernels).
  kernels::generate(a.data(), lda, n, nullptr);
  cuda_check(prm, a.data(), lda, x, r);
  r.x = std::move(x);
}

}  // namespace gpu500::hpl::detail
