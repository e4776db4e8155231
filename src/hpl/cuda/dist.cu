// HPL on a P x Q grid of GPUs, one MPI process per GPU (internal): the design of the HPL paper
// (ISCAS), distributed.
//
// Every process keeps its block-cyclic local part of [A | b] (mp x nq) resident on its GPU,
// generated there with the jump-ahead generator. Iteration k (panel of jb columns at global
// column k, owned by process column pcol, top block on process row prow), as the CPU backend
// (src/hpl/cpu/pdgesv.cpp) but with the trailing matrix on the GPU:
//   1. panel factorisation, into a pack [ipiv | L1 | L2]:
//      - CPU panel: the processes of pcol copy their panel rows to pinned host memory and factor
//        them with the CPU panel code (pivot search across the process column: MAXLOC
//        all-reduce); process row prow writes the factored top block back into the matrix;
//      - GPU panel (--gpu-panel / --gpu-panel-first as on 1 x 1): P = 1: the whole panel is
//        local, so cuSOLVER getrf factors it in place on a high-priority stream; P > 1 (over
//        NCCL only): the column's panel rows are gathered on prow's GPU, factored there and
//        broadcast back down the column (panel_start_gathered). The pack is assembled on the
//        device; only the jb pivots come to the host;
//   2. the pack goes along the process row to every GPU, by one of three transports chosen
//      once per run (all processes agree):
//      - NCCL (default where every process has its own GPU and the build has NCCL): the device
//        pack is broadcast GPU to GPU with ncclBroadcast on a high-priority stream; receivers
//        fetch only the pivots to the host (the swap plan);
//      - CUDA-aware MPI (--no-nccl, MPIX_Query_cuda_support): the device pack by MPI, with the
//        HPL.dat BCAST topology;
//      - host (any MPI; ranks sharing a GPU; --no-cuda-aware-mpi): the pinned host pack with the
//        BCAST topology, uploaded by every receiver;
//   3. row swaps of the trailing columns. P = 1: every row is local, the swap kernel of the
//      1 x 1 path moves them on the GPU. P > 1: the rows a process contributes to U (and, on
//      prow, the rows the pivots displace) are gathered by a kernel and all-gathered in the
//      process column, then a kernel scatters them into a device U buffer and into the rows they
//      replace. Every process derives the layout of everyone's records from the pivots, so with
//      NCCL the gather, the all-gather (ring or tree, NCCL's choice; the HPL.dat SWAP variant
//      does not apply) and the scatter are enqueued on the update stream with no host
//      synchronisation. Without NCCL the records travel through pinned host buffers with the
//      CPU backend's algorithms (binary exchange / spread-roll / mix, comm::allgather);
//   4. U = L1^-1 U (cuBLAS DTRSM), A2 -= L2 U (cuBLAS DGEMM); prow stores U.
// Look-ahead (DEPTH >= 1): the owner of panel k+1 first updates those columns, starts
// factoring panel k+1 (copy down for the CPU, getrf on the panel stream for the GPU) and
// enqueues the update of the rest; the panel is shared while the GPU updates. Processes that do
// not own panel k+1 receive it during their update.
// Back substitution is distributed as the CPU backend's (block rows from the bottom, partial
// sums along the process row), with the products on the GPU (DGEMV, DTRSV).
#include <cublas_v2.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "../cpu/panel.hpp"
#include "../mpi/comm.hpp"
#include "../solver.hpp"
#include "gpu500/core/cuda/check.cuh"
#include "gpu500/core/error.hpp"
#include "gpu500/core/timer.hpp"
#include "gpu500/dist/nccl.hpp"
#include "gpu500/dist/placement.hpp"
#include "check.cuh"
#include "kernels.cuh"
#include "util.cuh"

namespace gpu500::hpl::detail {

namespace {

kernels::local_shape shape_of(const params& prm, const grid& g) {
  kernels::local_shape sh;
  sh.n = prm.n;
  sh.nb = prm.nb;
  sh.p = g.p;
  sh.q = g.q;
  sh.myrow = g.myrow;
  sh.mycol = g.mycol;
  sh.mp = numroc(prm.n, prm.nb, g.myrow, g.p);
  sh.nq = numroc(prm.n + 1, prm.nb, g.mycol, g.q);
  sh.lda = leading_dimension(sh.mp, 32, 32);
  return sh;
}

// How the panel pack and the row-swap records travel between the GPUs (see the file comment).
enum class transport { host, cuda_mpi, nccl };

// The NCCL communicators of the grid's process row and column (nullptr where that dimension is
// 1), made on the first run over NCCL and kept with the grid's MPI communicators.
struct nccl_links {
  const dist::nccl_comm* row = nullptr;    // panel broadcast (stream cpy)
  const dist::nccl_comm* col = nullptr;    // row swaps (stream upd)
  const dist::nccl_comm* panel = nullptr;  // GPU panels over the column (stream pnl)
};
nccl_links nccl_links_of(const grid& g) {
  const dist::process_grid& ranks = g.comms->ranks;
  nccl_links links;
  if (g.q > 1) links.row = &ranks.row_nccl(0);
  if (g.p > 1) links.col = &ranks.col_nccl(0);
  if (g.p > 1) links.panel = &ranks.col_nccl(1);
  return links;
}

class dist_solver {
 public:
  dist_solver(const params& prm, const grid& g, const run_options& opt, const kernels::local_shape& sh, double* a,
              transport tr, nccl_links links)
      : prm_(prm), g_(g), opt_(opt), tr_(tr), links_(links), sh_(sh), n_(prm.n), nb_(prm.nb), a_(a), lda_(sh.lda),
        row_(g.comms->row), col_(g.comms->col), all_(g.comms->all),
        pack_cap_(nb_ + static_cast<std::size_t>(nb_) * nb_ + sh.mp * nb_), hpack0_(pack_cap_), hpack1_(pack_cap_),
        dpack0_(pack_cap_), dpack1_(pack_cap_),
        xch_(g.p > 1 ? std::max<std::size_t>(g.p, 2 * static_cast<std::size_t>(nb_) * (sh.nq + 1)) : 0),
        hmine_(g.p > 1 && tr != transport::nccl ? 2 * static_cast<std::size_t>(nb_) * (sh.nq + 1) : 0),
        hall_(g.p > 1 && tr != transport::nccl ? 2 * static_cast<std::size_t>(nb_) * (sh.nq + 1) : 0),
        ubuf_(g.p > 1 ? static_cast<std::size_t>(nb_) * std::max<std::int64_t>(1, sh.nq) : 0),
        idx_(6 * static_cast<std::size_t>(nb_)), hidx_(6 * static_cast<std::size_t>(nb_)),
        xidx_(2 * 6 * static_cast<std::size_t>(nb_)), hxidx_(2 * 6 * static_cast<std::size_t>(nb_)),
        xcount_(g.p), events_(64) {
    int least = 0, greatest = 0;
    GPU500_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    GPU500_CUDA_CHECK(cudaStreamCreateWithFlags(&upd_, cudaStreamNonBlocking));
    // Panel copies and broadcasts feed the next iteration: highest priority, so their kernels
    // (NCCL's) get SMs as soon as the running DGEMM frees one.
    GPU500_CUDA_CHECK(cudaStreamCreateWithPriority(&cpy_, cudaStreamNonBlocking, greatest));
    GPU500_CUDA_CHECK(cudaStreamCreateWithPriority(&pnl_, cudaStreamNonBlocking, greatest));
    GPU500_CUBLAS_CHECK(gpu::dynload::cublasCreate(&h_));
    GPU500_CUBLAS_CHECK(gpu::dynload::cublasSetStream(h_, upd_));
    for (auto* e : {&up_ev_[0], &up_ev_[1], &used_ev_[0], &used_ev_[1], &bc_ev_[0], &bc_ev_[1], &idx_ev_,
                    &xidx_ev_[0], &xidx_ev_[1]})
      GPU500_CUDA_CHECK(cudaEventCreateWithFlags(e, cudaEventDisableTiming));
    // GPU panels: P = 1 in place; P > 1 over NCCL, gathered (see panel_start_gathered).
    if ((g.p == 1 || tr == transport::nccl) && (opt.gpu_panel > 0 || opt.gpu_panel_first) && n_ > 0) {
      gp_rows_ = opt.gpu_panel_first ? n_ : std::min<std::int64_t>(opt.gpu_panel, n_);
      GPU500_CUSOLVER_CHECK(gpu::dynload::cusolverDnCreate(&psh_));
      GPU500_CUSOLVER_CHECK(gpu::dynload::cusolverDnSetStream(psh_, pnl_));
      int lwork = 0;
      if (g.p > 1) {
        gath_ = device_buffer<double>(static_cast<std::size_t>(gp_rows_) * nb_);
        whole_ = device_buffer<double>(static_cast<std::size_t>(gp_rows_) * nb_);
      }
      GPU500_CUSOLVER_CHECK(gpu::dynload::cusolverDnDgetrf_bufferSize(
          psh_, static_cast<int>(gp_rows_), static_cast<int>(std::min<std::int64_t>(nb_, gp_rows_)), a_,
          static_cast<int>(g.p > 1 ? gp_rows_ : lda_), &lwork));
      pwork_ = device_buffer<double>(static_cast<std::size_t>(std::max(1, lwork)));
      ppiv_ = device_buffer<int>(static_cast<std::size_t>(nb_) + 1);
      hpiv_ = pinned_buffer<int>(static_cast<std::size_t>(nb_) + 1);
    }
  }
  ~dist_solver() {
    gpu::dynload::cublasDestroy(h_);
    if (psh_) gpu::dynload::cusolverDnDestroy(psh_);
    for (auto e : {up_ev_[0], up_ev_[1], used_ev_[0], used_ev_[1], bc_ev_[0], bc_ev_[1], idx_ev_, xidx_ev_[0],
                   xidx_ev_[1]})
      cudaEventDestroy(e);
    cudaStreamDestroy(upd_);
    cudaStreamDestroy(cpy_);
    cudaStreamDestroy(pnl_);
  }
  dist_solver(const dist_solver&) = delete;
  dist_solver& operator=(const dist_solver&) = delete;

  // Untimed: the first cuBLAS calls of a shape load their kernels (lazy module loading); run the
  // update shapes once on the zeroed, not yet generated matrix. The NCCL links carry one small
  // message each (their first operation sets up connections).
  void warm_up() {
    if (links_.row) links_.row->bcast_bytes(dpack0_.data(), sizeof(double), 0, cpy_);
    if (links_.col) {
      std::vector<std::size_t> bytes(g_.p, sizeof(double));
      links_.col->allgatherv_bytes(xch_.data() + g_.myrow, xch_.data(), bytes.data(), cpy_);
      links_.panel->bcast_bytes(xch_.data(), sizeof(double), 0, cpy_);
    }
    GPU500_CUDA_CHECK(cudaStreamSynchronize(cpy_));
    const std::int64_t m = sh_.mp - nb_, nc = sh_.nq - nb_;
    if (m <= 0 || nc <= 0) return;
    GPU500_CUDA_CHECK(cudaMemsetAsync(a_, 0, sizeof(double) * lda_ * sh_.nq, upd_));
    const double one = 1.0, minus = -1.0;
    const int ld = static_cast<int>(lda_);
    for (std::int64_t w : {nc, nc / 8, std::min<std::int64_t>(nc, nb_)}) {
      if (w <= 0) continue;
      GPU500_CUBLAS_CHECK(gpu::dynload::cublasDtrsm(h_, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
                                                    CUBLAS_DIAG_UNIT, nb_, static_cast<int>(w), &one, a_, ld,
                                                    a_ + nb_ * lda_, ld));
      GPU500_CUBLAS_CHECK(gpu::dynload::cublasDgemm(h_, CUBLAS_OP_N, CUBLAS_OP_N, static_cast<int>(m),
                                                    static_cast<int>(w), nb_, &minus, a_ + nb_, ld,
                                                    a_ + nb_ * lda_, ld, &one, a_ + nb_ + nb_ * lda_, ld));
    }
    GPU500_CUDA_CHECK(cudaStreamSynchronize(upd_));
  }

  int solve(std::vector<double>& x, std::vector<iter_time>* iters, const std::function<void(std::int64_t)>& progress) {
    x.assign(n_, 0.0);
    if (n_ == 0) return 0;
    const bool lookahead = prm_.depth >= 1;
    // Timing: the span of each iteration on the update stream (from the swaps' index copy to the
    // last DGEMM; it starts once the panel is there) and the stream's idle gap before the next.
    std::optional<event_pool> tev;
    if (iters) tev.emplace(2 * static_cast<int>((n_ + nb_ - 1) / nb_) + 2, true);
    std::vector<std::pair<cudaEvent_t, cudaEvent_t>> iter_ev;
    int cur = 0;
    if (g_.mycol == owner_of(0, nb_, g_.q)) {
      iter_time untimed;
      const double tw = wall_time();
      panel_start(0, cur);
      panel_finish(0, cur, tw, untimed);
    }
    share(0, cur, false);
    for (std::int64_t k = 0; k < n_; k += nb_) {
      const int jb = width(k), nxt = 1 - cur;
      const std::int64_t k1 = k + jb;
      const std::int64_t c_next = local_start(k1, nb_, g_.mycol, g_.q);
      iter_time t;
      t.k = k;
      const double w0 = wall_time();
      if (tev) iter_ev.emplace_back(tev->record(upd_), nullptr);
      prepare_swaps(k, jb, cur);
      if (k1 < n_ && lookahead && g_.mycol == owner_of(k1, nb_, g_.q)) {
        const std::int64_t c_rest = c_next + width(k1);
        update(k, jb, cur, c_next, c_rest);
        panel_start(k1, nxt);
        update(k, jb, cur, c_rest, sh_.nq);
        used(cur);
        if (tev) iter_ev.back().second = tev->record(upd_);
        panel_finish(k1, nxt, wall_time(), t);
        share_timed(k1, nxt, /*root_async=*/true, t);
      } else {
        update(k, jb, cur, c_next, sh_.nq);
        used(cur);
        if (tev) iter_ev.back().second = tev->record(upd_);
        if (k1 < n_) {
          if (g_.mycol == owner_of(k1, nb_, g_.q)) {  // no look-ahead: after the whole update
            const double tw = wall_time();
            panel_start(k1, nxt);
            panel_finish(k1, nxt, tw, t);
          }
          share_timed(k1, nxt, false, t);
        }
      }
      const double ts = wall_time();
      row_.wait_sends();
      t.bcast += wall_time() - ts;
      t.total = wall_time() - w0;
      if (iters) iters->push_back(t);
      if (progress) progress(k1);
      cur = nxt;
    }
    if (iters) {
      GPU500_CUDA_CHECK(cudaStreamSynchronize(upd_));
      read_update_spans(iter_ev, *iters);
    }
    back_substitution(x);
    return zero_;
  }

 private:
  int width(std::int64_t k) const { return static_cast<int>(std::min<std::int64_t>(nb_, n_ - k)); }
  double* hpack(int s) { return s ? hpack1_.data() : hpack0_.data(); }
  double* dpack(int s) { return s ? dpack1_.data() : dpack0_.data(); }
  double* col(std::int64_t j) { return a_ + j * lda_; }
  // Local index of the first panel row below the top block (as the CPU backend's o_first).
  std::int64_t o_first(std::int64_t k, int jb) const {
    const std::int64_t ii = local_start(k, nb_, g_.myrow, g_.p);
    return g_.myrow == owner_of(k, nb_, g_.p) ? ii + jb : ii;
  }
  std::int64_t pack_size(std::int64_t k, int jb) const {
    return jb + static_cast<std::int64_t>(jb) * jb + (sh_.mp - o_first(k, jb)) * jb;
  }
  // Panel k factored by cuSOLVER on the GPU (P = 1: rows k..n are all local; P > 1: gathered).
  bool on_gpu(std::int64_t k) const {
    return psh_ && ((opt_.gpu_panel > 0 && n_ - k <= opt_.gpu_panel) || (opt_.gpu_panel_first && k == 0));
  }

  // Start factoring panel k into pack s (processes of its column), after the updates queued so
  // far: the CPU panel's copy down, or the GPU panel's getrf and pack assembly.
  void panel_start(std::int64_t k, int s) {
    if (!on_gpu(k)) {
      panel_down(k, s);
      return;
    }
    if (g_.p > 1) {
      panel_start_gathered(k, s);
      return;
    }
    const int jb = width(k);
    const std::int64_t ii = local_start(k, nb_, g_.myrow, g_.p), jj = local_start(k, nb_, g_.mycol, g_.q);
    const std::int64_t of = ii + jb, mo = sh_.mp - of;
    GPU500_CUDA_CHECK(cudaEventSynchronize(up_ev_[s]));  // the pinned pack's last copy is done
    GPU500_CUDA_CHECK(cudaStreamWaitEvent(pnl_, events_.record(upd_)));
    GPU500_CUDA_CHECK(cudaStreamWaitEvent(pnl_, used_ev_[s]));  // the device pack is free
    GPU500_CUDA_CHECK(cudaStreamWaitEvent(pnl_, bc_ev_[s]));
    GPU500_CUSOLVER_CHECK(gpu::dynload::cusolverDnDgetrf(psh_, static_cast<int>(sh_.mp - ii), jb,
                                                         col(jj) + ii, static_cast<int>(lda_), pwork_.data(),
                                                         ppiv_.data(), ppiv_.data() + nb_));
    GPU500_CUDA_CHECK(cudaMemcpyAsync(hpiv_.data(), ppiv_.data(), sizeof(int) * jb, cudaMemcpyDeviceToHost, pnl_));
    GPU500_CUDA_CHECK(cudaMemcpyAsync(hpiv_.data() + nb_, ppiv_.data() + nb_, sizeof(int), cudaMemcpyDeviceToHost, pnl_));
    double* d = dpack(s);
    GPU500_CUDA_CHECK(cudaMemcpy2DAsync(d + jb, sizeof(double) * jb, col(jj) + ii, sizeof(double) * lda_,
                                        sizeof(double) * jb, jb, cudaMemcpyDeviceToDevice, pnl_));
    if (mo > 0)
      GPU500_CUDA_CHECK(cudaMemcpy2DAsync(d + jb + static_cast<std::int64_t>(jb) * jb, sizeof(double) * mo, col(jj) + of,
                                          sizeof(double) * lda_, sizeof(double) * mo, jb, cudaMemcpyDeviceToDevice, pnl_));
    if (tr_ == transport::host)  // the host broadcast sends the pinned pack
      GPU500_CUDA_CHECK(cudaMemcpyAsync(hpack(s) + jb, d + jb, sizeof(double) * (pack_size(k, jb) - jb),
                                        cudaMemcpyDeviceToHost, pnl_));
    GPU500_CUDA_CHECK(cudaEventRecord(up_ev_[s], pnl_));
  }
  // P > 1, GPU panel: the column's panel rows gathered on process row prow (NCCL), which lays
  // them out as one (n - k) x jb matrix, top block first, then its own rows below it and the
  // other process rows' in turn; cuSOLVER getrf factors it there and the factored matrix and
  // its pivots are broadcast back down the column. Partial pivoting does not depend on the
  // order of the rows below the top block, so the pivots, read through that layout's row map
  // (global_row), are HPL's sequential interchanges of global rows. Every process copies its
  // own rows into pack s (prow: the top block into the matrix, as the CPU panel does). All on
  // stream pnl, with its own NCCL communicator.
  void panel_start_gathered(std::int64_t k, int s) {
    const int jb = width(k);
    const int prow = owner_of(k, nb_, g_.p);
    const std::int64_t jj = local_start(k, nb_, g_.mycol, g_.q);
    const std::int64_t m = n_ - k;
    GPU500_CUDA_CHECK(cudaEventSynchronize(up_ev_[s]));
    GPU500_CUDA_CHECK(cudaStreamWaitEvent(pnl_, events_.record(upd_)));
    GPU500_CUDA_CHECK(cudaStreamWaitEvent(pnl_, used_ev_[s]));
    GPU500_CUDA_CHECK(cudaStreamWaitEvent(pnl_, bc_ev_[s]));
    // Every process row's block (its rows from the panel's first: m_r x jb, contiguous), in rank order.
    std::vector<std::size_t> bytes(g_.p);
    std::vector<std::int64_t> at(g_.p + 1, 0);
    for (int r = 0; r < g_.p; ++r) {
      const std::int64_t rows = numroc(n_, nb_, r, g_.p) - local_start(k, nb_, r, g_.p);
      bytes[r] = sizeof(double) * static_cast<std::size_t>(rows) * jb;
      at[r + 1] = at[r] + rows * jb;
    }
    const std::int64_t ii = local_start(k, nb_, g_.myrow, g_.p), mine = sh_.mp - ii;
    double* own = gath_.data() + at[g_.myrow];
    if (mine > 0)
      GPU500_CUDA_CHECK(cudaMemcpy2DAsync(own, sizeof(double) * mine, col(jj) + ii, sizeof(double) * lda_,
                                          sizeof(double) * mine, jb, cudaMemcpyDeviceToDevice, pnl_));
    links_.panel->gatherv_bytes(own, gath_.data(), bytes.data(), prow, pnl_);
    if (g_.myrow == prow) {
      std::int64_t pos = 0;
      for (int i = 0; i < g_.p; ++i) {
        const int r = (prow + i) % g_.p;
        const std::int64_t rows = static_cast<std::int64_t>(bytes[r] / sizeof(double)) / jb;
        if (rows > 0)
          GPU500_CUDA_CHECK(cudaMemcpy2DAsync(whole_.data() + pos, sizeof(double) * m, gath_.data() + at[r],
                                              sizeof(double) * rows, sizeof(double) * rows, jb,
                                              cudaMemcpyDeviceToDevice, pnl_));
        pos += rows;
      }
      GPU500_CUSOLVER_CHECK(gpu::dynload::cusolverDnDgetrf(psh_, static_cast<int>(m), jb, whole_.data(),
                                                           static_cast<int>(m), pwork_.data(), ppiv_.data(),
                                                           ppiv_.data() + nb_));
    }
    links_.panel->bcast_bytes(whole_.data(), sizeof(double) * m * jb, prow, pnl_);
    links_.panel->bcast_bytes(ppiv_.data(), sizeof(int) * (nb_ + 1), prow, pnl_);
    GPU500_CUDA_CHECK(cudaMemcpyAsync(hpiv_.data(), ppiv_.data(), sizeof(int) * (nb_ + 1), cudaMemcpyDeviceToHost, pnl_));
    // This process's rows of the factored panel: where its block sits in the layout.
    std::int64_t pos = 0;
    for (int i = 0; i < g_.p; ++i) {
      const int r = (prow + i) % g_.p;
      if (r == g_.myrow) break;
      pos += static_cast<std::int64_t>(bytes[r] / sizeof(double)) / jb;
    }
    double* d = dpack(s);
    GPU500_CUDA_CHECK(cudaMemcpy2DAsync(d + jb, sizeof(double) * jb, whole_.data(), sizeof(double) * m, sizeof(double) * jb,
                                        jb, cudaMemcpyDeviceToDevice, pnl_));
    const std::int64_t of = o_first(k, jb), mo = sh_.mp - of;
    const std::int64_t from = g_.myrow == prow ? pos + jb : pos;
    if (mo > 0)
      GPU500_CUDA_CHECK(cudaMemcpy2DAsync(d + jb + static_cast<std::int64_t>(jb) * jb, sizeof(double) * mo,
                                          whole_.data() + from, sizeof(double) * m, sizeof(double) * mo, jb,
                                          cudaMemcpyDeviceToDevice, pnl_));
    if (g_.myrow == prow)  // U11 / L11 into the matrix (the back substitution reads U)
      GPU500_CUDA_CHECK(cudaMemcpy2DAsync(col(jj) + ii, sizeof(double) * lda_, whole_.data(), sizeof(double) * m,
                                          sizeof(double) * jb, jb, cudaMemcpyDeviceToDevice, pnl_));
    GPU500_CUDA_CHECK(cudaEventRecord(up_ev_[s], pnl_));
  }
  // The global row at position `pos` of panel k's gathered layout (panel_start_gathered).
  std::int64_t global_row(std::int64_t k, std::int64_t pos) const {
    const int prow = owner_of(k, nb_, g_.p);
    for (int i = 0; i < g_.p; ++i) {
      const int r = (prow + i) % g_.p;
      const std::int64_t first = local_start(k, nb_, r, g_.p), rows = numroc(n_, nb_, r, g_.p) - first;
      if (pos < rows) return global_of(first + pos, nb_, r, g_.p);
      pos -= rows;
    }
    throw error("HPL: a GPU panel's pivot outside the panel");
  }

  // Finish panel k: its pivots (global rows) at the head of host pack s. t.wait: host time from
  // `since` until a CPU panel was on the host; t.panel: the CPU factorisation, or the time until
  // a GPU panel's pivots arrived.
  void panel_finish(std::int64_t k, int s, double since, iter_time& t) {
    if (!on_gpu(k)) {
      GPU500_CUDA_CHECK(cudaStreamSynchronize(cpy_));
      const double tp = wall_time();
      t.wait = tp - since;
      factor(k, s);
      t.panel = wall_time() - tp;
      return;
    }
    GPU500_CUDA_CHECK(cudaStreamSynchronize(pnl_));
    const int jb = width(k);
    for (int j = 0; j < jb; ++j)  // LAPACK's 1-based rows of the panel
      hpack(s)[j] = static_cast<double>(g_.p == 1 ? k + hpiv_.data()[j] - 1 : global_row(k, hpiv_.data()[j] - 1));
    if (hpiv_.data()[nb_] > 0) ++zero_;
    t.panel = wall_time() - since;
  }

  void share_timed(std::int64_t k, int buf, bool root_async, iter_time& t) {
    const double tb = wall_time();
    share(k, buf, root_async);
    t.bcast = wall_time() - tb;
  }

  // Panel k's local rows down into pack s, where the CPU factorisation works in place: the top
  // block (process row prow) into the L1 slot, the rows below into the L2 slot (ld mo). After the
  // update queued so far.
  void panel_down(std::int64_t k, int s) {
    const int jb = width(k);
    const std::int64_t ii = local_start(k, nb_, g_.myrow, g_.p), jj = local_start(k, nb_, g_.mycol, g_.q);
    const std::int64_t of = o_first(k, jb), mo = sh_.mp - of;
    GPU500_CUDA_CHECK(cudaEventSynchronize(up_ev_[s]));  // the pack's last upload is done
    double* t = hpack(s) + jb;
    double* l2 = t + static_cast<std::int64_t>(jb) * jb;
    GPU500_CUDA_CHECK(cudaStreamWaitEvent(cpy_, events_.record(upd_)));
    if (g_.myrow == owner_of(k, nb_, g_.p))
      GPU500_CUDA_CHECK(cudaMemcpy2DAsync(t, sizeof(double) * jb, col(jj) + ii, sizeof(double) * lda_,
                                          sizeof(double) * jb, jb, cudaMemcpyDeviceToHost, cpy_));
    if (mo > 0)
      GPU500_CUDA_CHECK(cudaMemcpy2DAsync(l2, sizeof(double) * mo, col(jj) + of, sizeof(double) * lda_,
                                          sizeof(double) * mo, jb, cudaMemcpyDeviceToHost, cpy_));
  }

  // Factor panel k on the CPU (processes of its process column), in place in pack s (after
  // panel_down).
  void factor(std::int64_t k, int s) {
    const int jb = width(k);
    const std::int64_t ii = local_start(k, nb_, g_.myrow, g_.p), jj = local_start(k, nb_, g_.mycol, g_.q);
    const int prow = owner_of(k, nb_, g_.p);
    const std::int64_t of = o_first(k, jb), mo = sh_.mp - of;
    double* buf = hpack(s);
    double* t = buf + jb;
    col_.bcast(t, static_cast<long>(jb) * jb, prow);
    panel_view pv;
    pv.jb = jb;
    pv.k = k;
    pv.t = t;
    pv.o = t + static_cast<std::int64_t>(jb) * jb;
    pv.ldo = std::max<std::int64_t>(1, mo);
    pv.mo = mo;
    pv.o_first = of;
    pv.nb = nb_;
    pv.myrow = g_.myrow;
    pv.nprow = g_.p;
    pv.col = &col_;
    const panel_opts po{prm_.pfact, prm_.rfact, prm_.nbmin, prm_.ndiv, /*threads=*/0};
    int zero = 0;
    const auto ipiv = factor_panel(pv, po, &zero);
    zero_ += zero;
    for (int j = 0; j < jb; ++j) buf[j] = static_cast<double>(ipiv[j]);
    if (g_.myrow == prow)  // U11 / L11 back into the matrix (U is read by the back substitution)
      GPU500_CUDA_CHECK(cudaMemcpy2DAsync(col(jj) + ii, sizeof(double) * lda_, t, sizeof(double) * jb,
                                          sizeof(double) * jb, jb, cudaMemcpyHostToDevice, cpy_));
  }

  // Pack s to every process of the row and onto every GPU (the update stream waits for it); on
  // return every process has the pivots at the head of its host pack s.
  void share(std::int64_t k, int s, bool root_async) {
    const int jb = width(k);
    const int pcol = owner_of(k, nb_, g_.q);
    const bool owner = g_.mycol == pcol;
    const long len = static_cast<long>(pack_size(k, jb));
    if (owner) publish(k, s);
    switch (tr_) {
      case transport::host:
        if (!owner) GPU500_CUDA_CHECK(cudaEventSynchronize(up_ev_[s]));  // the pinned pack is free
        row_.bcast_panel(hpack(s), len, pcol, prm_.bc, root_async && owner);
        if (!owner) upload(k, s);
        return;
      case transport::cuda_mpi:
        // The device pack is written by publish() (owner) or is free once the updates that read
        // it are done (others).
        GPU500_CUDA_CHECK(cudaEventSynchronize(owner ? up_ev_[s] : used_ev_[s]));
        row_.bcast_panel(dpack(s), len, pcol, prm_.bc, root_async && owner);
        if (!owner) fetch_pivots(jb, s);
        return;
      case transport::nccl:
        if (!owner) GPU500_CUDA_CHECK(cudaStreamWaitEvent(cpy_, used_ev_[s]));  // the device pack is free
        if (links_.row) links_.row->bcast_bytes(dpack(s), sizeof(double) * len, pcol, cpy_);
        GPU500_CUDA_CHECK(cudaEventRecord(bc_ev_[s], cpy_));  // a GPU panel rewrites pack s after this
        if (!owner) fetch_pivots(jb, s);
        return;
    }
  }
  // The owner's pack s onto its device: the whole pinned pack (CPU panel), or only the pivots
  // (GPU panel: the rest was assembled there). The update stream waits for it.
  void publish(std::int64_t k, int s) {
    if (!on_gpu(k)) {
      upload(k, s);
      return;
    }
    GPU500_CUDA_CHECK(cudaStreamWaitEvent(cpy_, up_ev_[s]));
    GPU500_CUDA_CHECK(cudaMemcpyAsync(dpack(s), hpack(s), sizeof(double) * width(k), cudaMemcpyHostToDevice, cpy_));
    GPU500_CUDA_CHECK(cudaEventRecord(up_ev_[s], cpy_));
    GPU500_CUDA_CHECK(cudaStreamWaitEvent(upd_, up_ev_[s]));
  }
  // A receiver of a device pack: the pivots to the host (after the broadcast on cpy_, or the
  // MPI one), the update stream waiting for the pack.
  void fetch_pivots(int jb, int s) {
    GPU500_CUDA_CHECK(cudaEventSynchronize(up_ev_[s]));  // the pinned pack is free
    GPU500_CUDA_CHECK(cudaMemcpyAsync(hpack(s), dpack(s), sizeof(double) * jb, cudaMemcpyDeviceToHost, cpy_));
    GPU500_CUDA_CHECK(cudaEventRecord(up_ev_[s], cpy_));
    GPU500_CUDA_CHECK(cudaStreamWaitEvent(upd_, up_ev_[s]));
    GPU500_CUDA_CHECK(cudaStreamSynchronize(cpy_));
  }

  // Pack s up to the device once the updates that read the previous panel there are done; the
  // update stream waits for it.
  void upload(std::int64_t k, int s) {
    GPU500_CUDA_CHECK(cudaStreamWaitEvent(cpy_, used_ev_[s]));
    GPU500_CUDA_CHECK(cudaMemcpyAsync(dpack(s), hpack(s), sizeof(double) * pack_size(k, width(k)),
                                      cudaMemcpyHostToDevice, cpy_));
    GPU500_CUDA_CHECK(cudaEventRecord(up_ev_[s], cpy_));
    GPU500_CUDA_CHECK(cudaStreamWaitEvent(upd_, up_ev_[s]));
  }
  void used(int s) { GPU500_CUDA_CHECK(cudaEventRecord(used_ev_[s], upd_)); }

  // The swaps of panel k (ipiv at the head of pack s). P = 1: the (dest, src) row moves go to
  // the device for the swap kernel; P > 1: the plan is kept for the exchanges, and over NCCL
  // the record layout and index lists of this iteration go to the device once.
  void prepare_swaps(std::int64_t k, int jb, int s) {
    std::vector<std::int64_t> ipiv(jb);
    for (int j = 0; j < jb; ++j) ipiv[j] = static_cast<std::int64_t>(hpack(s)[j]);
    plan_ = plan_swaps(k, jb, ipiv.data());
    if (g_.p > 1) {
      if (tr_ == transport::nccl) plan_records(k, jb);
      return;
    }
    std::vector<std::int64_t> dst, src;
    for (int t = 0; t < jb; ++t)
      if (plan_.u_src[t] != k + t) dst.push_back(k + t), src.push_back(plan_.u_src[t]);
    for (const auto& [d, sr] : plan_.moved) dst.push_back(d), src.push_back(sr);
    npairs_ = static_cast<int>(dst.size());
    dst.insert(dst.end(), src.begin(), src.end());
    put_indices(dst);
  }
  // Index list to the device (idx_), through the pinned staging buffer, on the update stream.
  void put_indices(const std::vector<std::int64_t>& h) {
    GPU500_EXPECTS(h.size() <= 6 * static_cast<std::size_t>(nb_), "HPL: too many swap indices");
    GPU500_CUDA_CHECK(cudaEventSynchronize(idx_ev_));  // the staging buffer's last copy is done
    std::copy(h.begin(), h.end(), hidx_.data());
    if (!h.empty())
      GPU500_CUDA_CHECK(cudaMemcpyAsync(idx_.data(), hidx_.data(), sizeof(std::int64_t) * h.size(), cudaMemcpyHostToDevice, upd_));
    GPU500_CUDA_CHECK(cudaEventRecord(idx_ev_, upd_));
  }

  // P > 1 over NCCL: every process row's records in the all-gather, in process-row order; each
  // contributes the U rows it holds (ascending u), and prow then the rows the pivots displace.
  // Every process computes the same layout from the plan; it keeps the local rows it gathers
  // and the records it takes (into U, or into the rows of the matrix they replace).
  void plan_records(std::int64_t k, int jb) {
    const int prow = owner_of(k, nb_, g_.p);
    std::vector<std::int64_t> rows, put, tgt;
    std::int64_t total = 0;
    for (int r = 0; r < g_.p; ++r) {
      std::int64_t cnt = 0;
      if (r == g_.myrow) xmine_ = total;
      for (int u = 0; u < jb; ++u)
        if (owner_of(plan_.u_src[u], nb_, g_.p) == r) {
          if (r == g_.myrow) rows.push_back(local_of(plan_.u_src[u], nb_, g_.p));
          put.push_back(total + cnt), tgt.push_back(-u - 1);
          ++cnt;
        }
      if (r == prow)
        for (const auto& [dest, src] : plan_.moved) {
          if (r == g_.myrow) rows.push_back(local_of(src, nb_, g_.p));
          if (owner_of(dest, nb_, g_.p) == g_.myrow) put.push_back(total + cnt), tgt.push_back(local_of(dest, nb_, g_.p));
          ++cnt;
        }
      xcount_[r] = cnt;
      total += cnt;
    }
    GPU500_EXPECTS(total <= 2 * static_cast<std::int64_t>(nb_), "HPL row swap: malformed exchange");
    nrows_ = static_cast<int>(rows.size());
    nput_ = static_cast<int>(put.size());
    // [rows | put | tgt] into this iteration's half of the staging and device index buffers
    // (the other half may still be read by the previous iteration's kernels).
    xpar_ = 1 - xpar_;
    const std::size_t half = 6 * static_cast<std::size_t>(nb_);
    GPU500_CUDA_CHECK(cudaEventSynchronize(xidx_ev_[xpar_]));
    std::int64_t* h = hxidx_.data() + xpar_ * half;
    std::copy(rows.begin(), rows.end(), h);
    std::copy(put.begin(), put.end(), h + nrows_);
    std::copy(tgt.begin(), tgt.end(), h + nrows_ + nput_);
    const std::size_t cnt = rows.size() + 2 * put.size();
    if (cnt > 0)
      GPU500_CUDA_CHECK(cudaMemcpyAsync(xidx_.data() + xpar_ * half, h, sizeof(std::int64_t) * cnt,
                                        cudaMemcpyHostToDevice, upd_));
    GPU500_CUDA_CHECK(cudaEventRecord(xidx_ev_[xpar_], upd_));
  }

  // Swap and update local columns [c0, c1) with panel k (pack s on the device).
  void update(std::int64_t k, int jb, int s, std::int64_t c0, std::int64_t c1) {
    const std::int64_t nc = c1 - c0;
    if (nc <= 0) return;
    const int prow = owner_of(k, nb_, g_.p);
    const std::int64_t ii = local_start(k, nb_, g_.myrow, g_.p), of = o_first(k, jb), mo = sh_.mp - of;
    const double* l1 = dpack(s) + jb;
    const double* l2 = l1 + static_cast<std::int64_t>(jb) * jb;
    const double one = 1.0, minus = -1.0;
    const int ld = static_cast<int>(lda_), inc = static_cast<int>(nc);
    double* u = col(c0) + ii;  // P = 1: U in place (ii = k)
    int ldu = ld;
    if (g_.p == 1) {
      kernels::swap_rows(a_, lda_, c0, c1, idx_.data(), idx_.data() + npairs_, npairs_, upd_);
    } else {
      if (tr_ == transport::nccl) exchange_nccl(jb, c0, nc);
      else exchange(k, jb, c0, nc);
      u = ubuf_.data();
      ldu = jb;
    }
    GPU500_CUBLAS_CHECK(gpu::dynload::cublasDtrsm(h_, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
                                                  CUBLAS_DIAG_UNIT, jb, inc, &one, l1, jb, u, ldu));
    if (mo > 0)
      GPU500_CUBLAS_CHECK(gpu::dynload::cublasDgemm(h_, CUBLAS_OP_N, CUBLAS_OP_N, static_cast<int>(mo), inc,
                                                    jb, &minus, l2, static_cast<int>(mo), u, ldu, &one,
                                                    col(c0) + of, ld));
    if (g_.p > 1 && g_.myrow == prow)
      GPU500_CUDA_CHECK(cudaMemcpy2DAsync(col(c0) + ii, sizeof(double) * lda_, ubuf_.data(), sizeof(double) * jb,
                                          sizeof(double) * jb, nc, cudaMemcpyDeviceToDevice, upd_));
  }

  // P > 1 over NCCL: gather this process's records of local columns [c0, c0 + nc) into its slot
  // of the exchange buffer, all-gather the column's records, scatter the ones this process takes
  // (layout: plan_records). All on the update stream.
  void exchange_nccl(int jb, std::int64_t c0, std::int64_t nc) {
    const std::int64_t rec = nc + 1;  // gather_rows' layout (the code slot is unused here)
    const std::size_t half = 6 * static_cast<std::size_t>(nb_);
    const std::int64_t* idx = xidx_.data() + xpar_ * half;
    double* mine = xch_.data() + xmine_ * rec;
    if (nrows_ > 0) kernels::gather_rows(a_, lda_, c0, nc, idx, nrows_, mine, upd_);
    std::vector<std::size_t> bytes(g_.p);
    for (int r = 0; r < g_.p; ++r) bytes[r] = sizeof(double) * static_cast<std::size_t>(xcount_[r] * rec);
    links_.col->allgatherv_bytes(mine, xch_.data(), bytes.data(), upd_);
    kernels::scatter_rows(xch_.data(), nc, idx + nrows_, idx + nrows_ + nput_, nput_, a_, lda_, c0, ubuf_.data(), jb,
                          upd_);
  }

  // P > 1 without NCCL: the rows of U (into ubuf_, jb x nc) and the displaced rows (into the
  // matrix) of local columns [c0, c0 + nc), exchanged in the process column through pinned host
  // buffers (reused: no allocation or first touch per exchange). Records are
  // [code, row (nc)]: code < jb is U row `code`, code >= jb the row going to position code - jb.
  void exchange(std::int64_t k, int jb, std::int64_t c0, std::int64_t nc) {
    const int prow = owner_of(k, nb_, g_.p);
    std::vector<std::int64_t> rows;
    std::vector<double> codes;
    for (int u = 0; u < jb; ++u)
      if (owner_of(plan_.u_src[u], nb_, g_.p) == g_.myrow)
        rows.push_back(local_of(plan_.u_src[u], nb_, g_.p)), codes.push_back(u);
    if (g_.myrow == prow)
      for (const auto& [dest, src] : plan_.moved)
        rows.push_back(local_of(src, nb_, g_.p)), codes.push_back(static_cast<double>(jb + dest));
    const std::int64_t rec = nc + 1;
    const long nmine = static_cast<long>(codes.size() * rec);
    if (!rows.empty()) {
      put_indices(rows);
      kernels::gather_rows(a_, lda_, c0, nc, idx_.data(), static_cast<int>(rows.size()), xch_.data(), upd_);
      GPU500_CUDA_CHECK(cudaMemcpyAsync(hmine_.data(), xch_.data(), sizeof(double) * nmine, cudaMemcpyDeviceToHost, upd_));
    }
    GPU500_CUDA_CHECK(cudaStreamSynchronize(upd_));  // also: the last upload from hall_ is done
    for (std::size_t r = 0; r < codes.size(); ++r) hmine_.data()[r * rec] = codes[r];
    const bool bin = prm_.swp == swap::bin_exch || (prm_.swp == swap::mix && nc <= prm_.swap_threshold);
    const auto counts = col_.gather_counts(nmine);
    std::int64_t total = 0;
    for (auto x : counts) total += x;
    GPU500_EXPECTS(total % rec == 0 && total / rec <= 2 * static_cast<std::int64_t>(nb_),
                   "HPL row swap: malformed exchange");
    col_.allgather(hmine_.data(), counts, hall_.data(), bin);
    std::vector<std::int64_t> put;  // [record indices | targets]
    std::vector<std::int64_t> tgt;
    for (std::int64_t r = 0; r * rec < total; ++r) {
      const auto code = static_cast<std::int64_t>(hall_.data()[r * rec]);
      if (code < jb) {
        put.push_back(r), tgt.push_back(-code - 1);
      } else if (owner_of(code - jb, nb_, g_.p) == g_.myrow) {
        put.push_back(r), tgt.push_back(local_of(code - jb, nb_, g_.p));
      }
    }
    const int nput = static_cast<int>(put.size());
    put.insert(put.end(), tgt.begin(), tgt.end());
    GPU500_CUDA_CHECK(cudaMemcpyAsync(xch_.data(), hall_.data(), sizeof(double) * total, cudaMemcpyHostToDevice, upd_));
    put_indices(put);
    kernels::scatter_rows(xch_.data(), nc, idx_.data(), idx_.data() + nput, nput, a_, lda_, c0, ubuf_.data(), jb, upd_);
  }

  // U x = y, block row by block row from the bottom (as the CPU backend); products on the GPU.
  void back_substitution(std::vector<double>& x) {
    const int cb = owner_of(n_, nb_, g_.q);
    const std::int64_t lb = local_of(n_, nb_, g_.q);
    const std::int64_t ncol_a = numroc(n_, nb_, g_.mycol, g_.q);
    device_buffer<double> xl(static_cast<std::size_t>(std::max<std::int64_t>(1, sh_.nq))), sd(nb_);
    GPU500_CUDA_CHECK(cudaMemsetAsync(xl.data(), 0, sizeof(double) * std::max<std::int64_t>(1, sh_.nq), upd_));
    std::vector<double> s(nb_);
    const double one = 1.0, minus = -1.0;
    const int ld = static_cast<int>(lda_);
    for (std::int64_t k0 = (n_ - 1) / nb_ * nb_; k0 >= 0; k0 -= nb_) {
      const int w = width(k0);
      const int prow = owner_of(k0, nb_, g_.p), pcol = owner_of(k0, nb_, g_.q);
      if (g_.myrow == prow) {
        const std::int64_t li = local_of(k0, nb_, g_.p);
        if (g_.mycol == cb)
          GPU500_CUDA_CHECK(cudaMemcpyAsync(sd.data(), col(lb) + li, sizeof(double) * w, cudaMemcpyDeviceToDevice, upd_));
        else
          GPU500_CUDA_CHECK(cudaMemsetAsync(sd.data(), 0, sizeof(double) * w, upd_));
        const std::int64_t cs = local_start(k0 + w, nb_, g_.mycol, g_.q);
        if (ncol_a > cs)
          GPU500_CUBLAS_CHECK(gpu::dynload::cublasDgemv(h_, CUBLAS_OP_N, w, static_cast<int>(ncol_a - cs),
                                                        &minus, col(cs) + li, ld, xl.data() + cs, 1, &one,
                                                        sd.data(), 1));
        GPU500_CUDA_CHECK(cudaMemcpyAsync(s.data(), sd.data(), sizeof(double) * w, cudaMemcpyDeviceToHost, upd_));
        GPU500_CUDA_CHECK(cudaStreamSynchronize(upd_));
        row_.allreduce_sum(s.data(), w);
        if (g_.mycol == pcol) {
          const std::int64_t lc = local_of(k0, nb_, g_.q);
          GPU500_CUDA_CHECK(cudaMemcpyAsync(sd.data(), s.data(), sizeof(double) * w, cudaMemcpyHostToDevice, upd_));
          GPU500_CUBLAS_CHECK(gpu::dynload::cublasDtrsv(h_, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N,
                                                        CUBLAS_DIAG_NON_UNIT, w, col(lc) + li, ld, sd.data(),
                                                        1));
          GPU500_CUDA_CHECK(cudaMemcpyAsync(s.data(), sd.data(), sizeof(double) * w, cudaMemcpyDeviceToHost, upd_));
          GPU500_CUDA_CHECK(cudaStreamSynchronize(upd_));
          std::copy(s.begin(), s.begin() + w, x.begin() + k0);
        }
      }
      const int root = prm_.pmap_col_major ? pcol * g_.p + prow : prow * g_.q + pcol;
      all_.bcast(x.data() + k0, w, root);
      if (g_.mycol == pcol) {
        GPU500_CUDA_CHECK(cudaMemcpyAsync(xl.data() + local_of(k0, nb_, g_.q), x.data() + k0, sizeof(double) * w,
                                          cudaMemcpyHostToDevice, upd_));
        GPU500_CUDA_CHECK(cudaStreamSynchronize(upd_));
      }
    }
  }

  const params& prm_;
  const grid& g_;
  const run_options& opt_;
  transport tr_;
  nccl_links links_;
  const kernels::local_shape& sh_;
  std::int64_t n_;
  int nb_;
  double* a_;
  std::int64_t lda_;
  const comm& row_;
  const comm& col_;
  const comm& all_;
  std::size_t pack_cap_;
  pinned_buffer<double> hpack0_, hpack1_;
  device_buffer<double> dpack0_, dpack1_;
  device_buffer<double> xch_;
  pinned_buffer<double> hmine_, hall_;  // P > 1, no NCCL: this process's swap records, everyone's
  device_buffer<double> ubuf_;
  device_buffer<std::int64_t> idx_;
  pinned_buffer<std::int64_t> hidx_;
  // P > 1 over NCCL: this iteration's [rows | put | tgt] (two halves, alternating), the record
  // count of every process row and where this process's records start.
  device_buffer<std::int64_t> xidx_;
  pinned_buffer<std::int64_t> hxidx_;
  std::vector<std::int64_t> xcount_;
  std::int64_t xmine_ = 0;
  int xpar_ = 0, nrows_ = 0, nput_ = 0;
  event_pool events_;
  cudaStream_t upd_{}, cpy_{}, pnl_{};
  cublasHandle_t h_{};
  cudaEvent_t up_ev_[2] = {}, used_ev_[2] = {}, bc_ev_[2] = {}, idx_ev_{}, xidx_ev_[2] = {};
  // GPU panels (P = 1): cuSOLVER on pnl_, its workspace, pivots + info (device, pinned).
  cusolverDnHandle_t psh_{};
  std::int64_t gp_rows_ = 0;
  device_buffer<double> pwork_;
  device_buffer<double> gath_, whole_;  // P > 1: the gathered blocks, the panel laid out whole (gp_rows_ x nb)
  device_buffer<int> ppiv_;
  pinned_buffer<int> hpiv_;
  swap_plan plan_;
  int npairs_ = 0;
  int zero_ = 0;
};

}  // namespace

void cuda_run_dist(const params& prm, const grid& g, const run_options& opt, test_result& r) {
  if (prm.nb > 2048) throw usage_error("the CUDA backend of HPL needs NB <= 2048");
  const auto sh = shape_of(prm, g);
  if (sh.mp > INT32_MAX / 2 || sh.nq > INT32_MAX / 2) throw usage_error("the CUDA backend of HPL needs local sizes < 2^30");
  const auto& c = *g.comms;
  // The transport every process can use: NCCL where each has its own GPU (node-local ranks map
  // one to one onto the node's devices), else CUDA-aware MPI for the panel (Q > 1), else host.
  double no_nccl = opt.nccl && dist::nccl_available() && g.local_rank < dist::gpu_count() ? 0 : 1;
  double host_only = opt.device_mpi && dist::mpi_accepts_device_memory() ? 0 : 1;
  c.all.allreduce_max(&no_nccl, 1);
  c.all.allreduce_max(&host_only, 1);
  const transport tr = no_nccl == 0 ? transport::nccl : host_only == 0 && g.q > 1 ? transport::cuda_mpi : transport::host;
  if (g.p > 1 && tr != transport::nccl && (opt.gpu_panel > 0 || opt.gpu_panel_first) && g.world_rank == 0)
    std::fprintf(stderr, "hpl: %d x %d grid without NCCL between the GPUs: the panels are factored on the CPU "
                 "(GPU panels on P > 1 gather the panel over NCCL)\n", g.p, g.q);
  // Allocation is agreed: a process that cannot allocate must not leave the others waiting in
  // the first collective; every process throws.
  device_buffer<double> a;
  std::optional<dist_solver> s;
  double failed = 0;
  std::string why;
  try {
    const nccl_links links = tr == transport::nccl ? nccl_links_of(g) : nccl_links{};
    a = device_buffer<double>(static_cast<std::size_t>(sh.lda) * sh.nq);
    s.emplace(prm, g, opt, sh, a.data(), tr, links);
  } catch (const std::exception& e) {
    failed = 1;
    why = e.what();
  }
  c.all.allreduce_max(&failed, 1);
  if (failed > 0) {
    s.reset();
    a.reset();
    throw resource_error(why.empty() ? "HPL: another process could not allocate its GPU or pinned memory (lower N)" : why);
  }
  std::vector<double> x;
  s->warm_up();
  kernels::generate_local(a.data(), sh, nullptr);
  GPU500_CUDA_CHECK(cudaDeviceSynchronize());
  c.all.barrier();
  const double t0 = wall_time();
  s->solve(x, opt.timing ? &r.iters : nullptr, opt.progress);
  GPU500_CUDA_CHECK(cudaDeviceSynchronize());
  double t = wall_time() - t0;
  s.reset();
  c.all.allreduce_max(&t, 1);
  r.time = t;
  kernels::generate_local(a.data(), sh, nullptr);
  GPU500_CUDA_CHECK(cudaDeviceSynchronize());
  check_dist(prm, g, sh, a.data(), x, r);
  r.x = std::move(x);
  r.gpu_exchange = tr == transport::nccl ? "nccl" : tr == transport::cuda_mpi ? "cuda-aware-mpi" : "host";
}

}  // namespace gpu500::hpl::detail
