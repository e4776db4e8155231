// src/hpl/cuda/solver.cuh — HPL on the GPUs of a P x Q grid, one MPI process per GPU, the 1 x 1
// grid (one process, no MPI needed) included (internal): the solver class. Its members are defined
// by job in solver.cu (construction, warm-up, the iteration loop, the cuSOLVER tail, back
// substitution, the entry point cuda_run), panel.cu (the panel: factorisation on the CPU or the
// GPU and its way to every process of the row) and update.cu (row swaps and the trailing update).
// The design, as the HPL paper (ISCAS) distributes it:
//
// Every process keeps its block-cyclic local part of [A | b] (mp x nq) resident on its GPU,
// generated there with the jump-ahead generator (on 1 x 1 the part is the whole matrix). Iteration
// k (panel of jb columns at global column k, owned by process column pcol, top block on process
// row prow), as the CPU backend (src/hpl/cpu/pdgesv.cpp) but with the trailing matrix on the GPU:
//   1. panel factorisation:
//      - CPU panel: the processes of pcol copy their panel rows to pinned host memory, into a
//        pack [ipiv | L1 | L2], and factor them with the CPU panel code (pivot search across
//        the process column: MAXLOC all-reduce); process row prow writes the factored top
//        block back into the matrix. On one process (1 x 1) the GPU may run the large DGEMMs of
//        the panel's recursion (--panel-gemm-gpu, panel_offload.cuh) on the panel's own columns;
//      - GPU panel (--gpu-panel / --gpu-panel-first): P = 1: the whole panel is local, so
//        cuSOLVER getrf factors it in place on a high-priority stream; P > 1 (over NCCL only):
//        the column's panel rows are gathered on prow's GPU, factored there and broadcast back
//        down the column (panel_start_gathered). Only the jb pivots come to the host;
//   2. the panel goes along the process row to every GPU as a device pack, by one of three
//      transports chosen once per run (all processes agree):
//      - NCCL (default where every process has its own GPU and the build has NCCL): the device
//        pack is broadcast GPU to GPU with ncclBroadcast on a high-priority stream; receivers
//        fetch only the pivots to the host (the swap plan);
//      - CUDA-aware MPI (--no-nccl, MPIX_Query_cuda_support): the device pack by MPI, with the
//        HPL.dat BCAST topology;
//      - host (any MPI; ranks sharing a GPU; --no-cuda-aware-mpi): the pinned host pack with the
//        BCAST topology, uploaded by every receiver.
//      On 1 x 1 nothing travels: the factored panel is in the matrix's own columns (written back
//      there from the host after a CPU panel) and the update reads L1 and L2 in place;
//   3. row swaps of the trailing columns. P = 1: every row is local; the (dest, src) row moves go
//      to the device and a swap kernel moves them. P > 1: the rows a process contributes to U
//      (and, on prow, the rows the pivots displace) are gathered by a kernel and all-gathered in
//      the process column, then a kernel scatters them into a device U buffer and into the rows
//      they replace. Every process derives the layout of everyone's records from the pivots, so
//      with NCCL the gather, the all-gather (ring or tree, NCCL's choice; the HPL.dat SWAP
//      variant does not apply) and the scatter are enqueued on the update stream with no host
//      synchronisation. Without NCCL the records travel through pinned host buffers with the
//      CPU backend's algorithms (binary exchange / spread-roll / mix, comm::allgather);
//   4. U = L1^-1 U (cuBLAS DTRSM), A2 -= L2 U (cuBLAS DGEMM); prow stores U.
// Look-ahead (DEPTH >= 1): the owner of panel k+1 first updates those columns, starts
// factoring panel k+1 (copy down for the CPU, getrf on the panel stream for the GPU) and
// enqueues the update of the rest; the panel is shared while the GPU updates. Processes that do
// not own panel k+1 receive it during their update.
// Continuous row-swap pipeline (P = 1, where the swaps need no exchange): the rest is cut into
// segments of geometrically growing width (the first run_options::seg_first of the columns, then
// seg_growth times wider); the swap and DTRSM of segment i+1 run on a high-priority stream while
// the update stream runs the DGEMM of segment i, and iteration k+1's swaps start as soon as
// iteration k's DGEMM has passed the columns they touch (per-segment events chain the
// iterations; --no-swap-stream puts them on the update stream).
// Tail (1 x 1, --tail-getrf M): once the trailing matrix has at most M rows, no more panels:
// after the last update cuSOLVER getrf factors the trailing block with its own partial pivoting
// and getrs solves it for the trailing part of b; rows above it are never swapped by its pivots,
// so the back substitution goes on from there (b1 -= U12 x2, then the block rows above). A grid
// cannot use it: its trailing block is spread over the processes.
// Back substitution is distributed as the CPU backend's (block rows from the bottom, partial
// sums along the process row), with the products on the GPU (DGEMV, DTRSV).
#pragma once

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
#include "panel_offload.cuh"
#include "util.cuh"

namespace gpu500::hpl::detail {

// How the panel pack and the row-swap records travel between the GPUs (see the file comment;
// none on 1 x 1).
enum class transport { none, host, cuda_mpi, nccl };

// The NCCL communicators of the grid's process row and column (nullptr where that dimension is
// 1), made on the first run over NCCL and kept with the grid's MPI communicators.
struct nccl_links {
  const dist::nccl_comm* row = nullptr;    // panel broadcast (stream cpy)
  const dist::nccl_comm* col = nullptr;    // row swaps (stream upd)
  const dist::nccl_comm* panel = nullptr;  // GPU panels over the column (stream pnl)
};

// Column end and "the DGEMM has passed it" event of each update segment of an iteration (P = 1).
using segment_events = std::vector<std::pair<std::int64_t, cudaEvent_t>>;

class gpu_solver {
 public:
  gpu_solver(const params& prm, const grid& g, const run_options& opt, const kernels::local_shape& sh, double* a,
             transport tr, nccl_links links);
  ~gpu_solver();
  gpu_solver(const gpu_solver&) = delete;
  gpu_solver& operator=(const gpu_solver&) = delete;

  // Untimed, on the zeroed, not yet generated matrix: the first cuBLAS and cuSOLVER calls of a
  // shape load their kernels (lazy module loading); run the update shapes, the GPU panels'
  // largest and smallest and the tail once. The NCCL links carry one small message each (their
  // first operation sets up connections).
  void warm_up();
  // Untimed, on the generated matrix (P = 1, owner of panel 0, CPU panel 0): the first panel
  // factorisations pay for thread start-up and first touches; factor a copy of panel 0 once and
  // throw it away. Returns true when it wrote into panel 0's columns (the GPU DGEMMs of
  // --panel-gemm-gpu): the caller then generates the matrix again.
  bool warm_up_panel();

  // The timed solve; every process ends with the whole x. Returns the zero pivots met.
  int solve(std::vector<double>& x, std::vector<iter_time>* iters, const std::function<void(std::int64_t)>& progress);

  // --panel-gemm-gpu: the DGEMMs the CPU panels ran on the GPU so far.
  long offloaded_gemms() const { return offload_ ? offload_->calls() : 0; }

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
  // 1 x 1 with --tail-getrf: from column k on, cuSOLVER finishes the solve.
  bool in_tail(std::int64_t k) const { return tail_ > 0 && n_ - k <= tail_; }
  // The stream and cuBLAS handle of the swaps and the DTRSM of a segment (P = 1).
  cudaStream_t sstream() const { return swp_ ? swp_ : upd_; }
  cublasHandle_t shandle() const { return swp_ ? hs_ : h_; }

  // Start factoring panel k into pack s (processes of its column), once `after` has happened on
  // the update stream (nullptr: after the updates queued so far): the CPU panel's copy down, or
  // the GPU panel's getrf and pack assembly.
  void panel_start(std::int64_t k, int s, cudaEvent_t after = nullptr);
  // P > 1, GPU panel: the column's panel rows gathered on process row prow (NCCL), which lays
  // them out as one (n - k) x jb matrix, top block first, then its own rows below it and the
  // other process rows' in turn; cuSOLVER getrf factors it there and the factored matrix and
  // its pivots are broadcast back down the column. Partial pivoting does not depend on the
  // order of the rows below the top block, so the pivots, read through that layout's row map
  // (global_row), are HPL's sequential interchanges of global rows. Every process copies its
  // own rows into pack s (prow: the top block into the matrix, as the CPU panel does). All on
  // stream pnl, with its own NCCL communicator.
  void panel_start_gathered(std::int64_t k, int s, cudaEvent_t after);
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
  void panel_finish(std::int64_t k, int s, double since, iter_time& t);

  void share_timed(std::int64_t k, int buf, bool root_async, iter_time& t);

  // Panel k's local rows down into pack s, where the CPU factorisation works in place: the top
  // block (process row prow) into the L1 slot, the rows below into the L2 slot (ld mo). After the
  // update stream's event `after`.
  void panel_down(std::int64_t k, int s, cudaEvent_t after);

  // Factor panel k on the CPU (processes of its process column), in place in pack s (after
  // panel_down), and write what the matrix keeps back (the top block on prow; on 1 x 1 the
  // whole panel, unless the offload's finish() does it).
  void factor(std::int64_t k, int s);
  // The CPU panel code on pack s (pivots at its head); the offload (1 x 1) works on the panel's
  // columns of the matrix meanwhile.
  void factor_pack(std::int64_t k, int s);

  // Pack s to every process of the row and onto every GPU (the update streams wait for it); on
  // return every process has the pivots at the head of its host pack s.
  void share(std::int64_t k, int s, bool root_async);
  // The owner's pack s onto its device: the whole pinned pack (CPU panel), or only the pivots
  // (GPU panel: the rest was assembled there). On 1 x 1 the panel is in the matrix already.
  // The update streams wait for it.
  void publish(std::int64_t k, int s);
  // A receiver of a device pack: the pivots to the host (after the broadcast on cpy_, or the
  // MPI one), the update streams waiting for the pack.
  void fetch_pivots(int jb, int s);
  // The update stream (and the swap stream, P = 1) wait for event e.
  void ready(cudaEvent_t e);

  // Pack s up to the device once the updates that read the previous panel there are done; the
  // update streams wait for it.
  void upload(std::int64_t k, int s);
  void used(int s) { GPU500_CUDA_CHECK(cudaEventRecord(used_ev_[s], upd_)); }

  // The swaps of panel k (ipiv at the head of pack s). P = 1: the (dest, src) row moves go to
  // the device for the swap kernel (two slots: iteration k+1's may be queued while k's are still
  // pending); P > 1: the plan is kept for the exchanges, and over NCCL the record layout and
  // index lists of this iteration go to the device once.
  void prepare_swaps(std::int64_t k, int jb, int s);
  // Index list to the device (idx_), through the pinned staging buffer, on the update stream.
  void put_indices(const std::vector<std::int64_t>& h);

  // P > 1 over NCCL: every process row's records in the all-gather, in process-row order; each
  // contributes the U rows it holds (ascending u), and prow then the rows the pivots displace.
  // Every process computes the same layout from the plan; it keeps the local rows it gathers
  // and the records it takes (into U, or into the rows of the matrix they replace).
  void plan_records(std::int64_t k, int jb);

  // Swap and update local columns [c0, c1) with panel k (pack s on the device); P = 1 cuts the
  // columns into the pipeline's segments, unless `one_piece` (the look-ahead's columns).
  void update(std::int64_t k, int jb, int s, std::int64_t c0, std::int64_t c1, bool one_piece = false);
  // P = 1: swap, DTRSM and DGEMM of local columns [c0, c1), the swap after the previous
  // iteration's DGEMM has passed c1; its own DGEMM's event goes to segs_.
  void update_segment(std::int64_t k, int jb, int s, std::int64_t c0, std::int64_t c1);
  // L1 and L2 of panel k as the update reads them: pack s on the device, or (1 x 1) the matrix.
  const double* l1_of(std::int64_t k, int s, int* ld);
  const double* l2_of(std::int64_t k, int s, int* ld);

  // P > 1 over NCCL: gather this process's records of local columns [c0, c0 + nc) into its slot
  // of the exchange buffer, all-gather the column's records, scatter the ones this process takes
  // (layout: plan_records). All on the update stream.
  void exchange_nccl(int jb, std::int64_t c0, std::int64_t nc);

  // P > 1 without NCCL: the rows of U (into ubuf_, jb x nc) and the displaced rows (into the
  // matrix) of local columns [c0, c0 + nc), exchanged in the process column through pinned host
  // buffers (reused: no allocation or first touch per exchange). Records are
  // [code, row (nc)]: code < jb is U row `code`, code >= jb the row going to position code - jb.
  void exchange(std::int64_t k, int jb, std::int64_t c0, std::int64_t nc);

  // 1 x 1: cuSOLVER getrf on the trailing block A(k:n, k:n) (its own partial pivoting) and getrs
  // on b(k:n): afterwards b(k:n) = x(k:n). Update stream, after everything queued before.
  void finish_tail(std::int64_t k);

  // U x = y, block row by block row from the bottom (as the CPU backend); products on the GPU.
  // After a tail from column `top` (1 x 1), b(top:n) already holds x there.
  void back_substitution(std::vector<double>& x, std::int64_t top);

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
  bool in_place_;  // 1 x 1: the panel stays in the matrix, no device packs
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
  // P = 1: the row moves of the last two panels ([dest | src] per slot), the slot in use.
  device_buffer<std::int64_t> pairs_;
  pinned_buffer<std::int64_t> hpairs_;
  cudaEvent_t pairs_ev_[2] = {};
  int npairs_[2] = {0, 0};
  int slot_ = 0;
  segment_events prev_segs_, segs_;  // P = 1: the last iteration's segments and this one's
  event_pool events_;
  cudaStream_t upd_{}, cpy_{}, pnl_{}, swp_{};  // swp_: P = 1 with the swap stream, else none
  cublasHandle_t h_{}, hs_{};
  cudaEvent_t up_ev_[2] = {}, used_ev_[2] = {}, bc_ev_[2] = {}, idx_ev_{}, xidx_ev_[2] = {};
  // GPU panels: cuSOLVER on pnl_, its workspace, pivots + info (device, pinned).
  cusolverDnHandle_t psh_{};
  std::int64_t gp_rows_ = 0;
  device_buffer<double> pwork_;
  device_buffer<double> gath_, whole_;  // P > 1: the gathered blocks, the panel laid out whole (gp_rows_ x nb)
  device_buffer<int> ppiv_;
  pinned_buffer<int> hpiv_;
  // 1 x 1, --tail-getrf: the tail's rows (at most n), cuSOLVER on upd_, workspace, pivots + info.
  std::int64_t tail_ = 0;
  cusolverDnHandle_t tsh_{};
  device_buffer<double> twork_;
  device_buffer<int> tpiv_;
  std::unique_ptr<cuda_panel_offload> offload_;  // 1 x 1, --panel-gemm-gpu
  swap_plan plan_;
  int zero_ = 0;
};

}  // namespace gpu500::hpl::detail
