// src/hpl/cuda/solver.cu — HPL on the GPUs of a P x Q grid, 1 x 1 included (internal; the design:
// solver.cuh): the solver's construction and warm-ups, its iteration loop with look-ahead, the
// cuSOLVER tail, back substitution, and cuda_run, which picks the transport, runs the solver and
// reports.
#include "solver.cuh"

namespace gpu500::hpl::detail {

namespace {

nccl_links nccl_links_of(const grid& g) {
  const dist::process_grid& ranks = g.comms->ranks;
  nccl_links links;
  if (g.q > 1) links.row = &ranks.row_nccl(0);
  if (g.p > 1) links.col = &ranks.col_nccl(0);
  if (g.p > 1) links.panel = &ranks.col_nccl(1);
  return links;
}

// Every panel on the GPU (1 x 1): the host packs then carry the pivots only.
bool every_panel_on_gpu(const run_options& opt, std::int64_t n, int nb) {
  return opt.gpu_panel >= n || (opt.gpu_panel_first && opt.gpu_panel >= n - nb);
}

std::size_t host_pack_size(const params& prm, const grid& g, const run_options& opt, const kernels::local_shape& sh) {
  const std::size_t whole = prm.nb + static_cast<std::size_t>(prm.nb) * prm.nb + sh.mp * prm.nb;
  return g.p * g.q == 1 && every_panel_on_gpu(opt, prm.n, prm.nb) ? static_cast<std::size_t>(prm.nb) : whole;
}

}  // namespace

gpu_solver::gpu_solver(const params& prm, const grid& g, const run_options& opt, const kernels::local_shape& sh,
                       double* a, transport tr, nccl_links links)
    : prm_(prm), g_(g), opt_(opt), tr_(tr), links_(links), sh_(sh), n_(prm.n), nb_(prm.nb), a_(a), lda_(sh.lda),
      row_(g.comms->row), col_(g.comms->col), all_(g.comms->all), in_place_(g.p * g.q == 1),
      pack_cap_(nb_ + static_cast<std::size_t>(nb_) * nb_ + sh.mp * nb_), hpack0_(host_pack_size(prm, g, opt, sh)),
      hpack1_(host_pack_size(prm, g, opt, sh)), dpack0_(in_place_ ? 0 : pack_cap_), dpack1_(in_place_ ? 0 : pack_cap_),
      xch_(g.p > 1 ? std::max<std::size_t>(g.p, 2 * static_cast<std::size_t>(nb_) * (sh.nq + 1)) : 0),
      hmine_(g.p > 1 && tr != transport::nccl ? 2 * static_cast<std::size_t>(nb_) * (sh.nq + 1) : 0),
      hall_(g.p > 1 && tr != transport::nccl ? 2 * static_cast<std::size_t>(nb_) * (sh.nq + 1) : 0),
      ubuf_(g.p > 1 ? static_cast<std::size_t>(nb_) * std::max<std::int64_t>(1, sh.nq) : 0),
      idx_(g.p > 1 ? 6 * static_cast<std::size_t>(nb_) : 0), hidx_(g.p > 1 ? 6 * static_cast<std::size_t>(nb_) : 0),
      xidx_(g.p > 1 ? 2 * 6 * static_cast<std::size_t>(nb_) : 0),
      hxidx_(g.p > 1 ? 2 * 6 * static_cast<std::size_t>(nb_) : 0), xcount_(g.p),
      pairs_(g.p == 1 ? 2 * 4 * static_cast<std::size_t>(nb_) : 0),
      hpairs_(g.p == 1 ? 2 * 4 * static_cast<std::size_t>(nb_) : 0), events_(256) {
  int least = 0, greatest = 0;
  GPU500_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  GPU500_CUDA_CHECK(cudaStreamCreateWithFlags(&upd_, cudaStreamNonBlocking));
  // Panel copies and broadcasts feed the next iteration: highest priority, so their kernels
  // (NCCL's) get SMs as soon as the running DGEMM frees one.
  GPU500_CUDA_CHECK(cudaStreamCreateWithPriority(&cpy_, cudaStreamNonBlocking, greatest));
  GPU500_CUDA_CHECK(cudaStreamCreateWithPriority(&pnl_, cudaStreamNonBlocking, greatest));
  GPU500_CUBLAS_CHECK(gpu::dynload::cublasCreate(&h_));
  GPU500_CUBLAS_CHECK(gpu::dynload::cublasSetStream(h_, upd_));
  // P = 1: the swaps and a segment's DTRSM are short and feed the next DGEMM: highest priority,
  // so their blocks are scheduled as soon as the running DGEMM frees an SM.
  if (g.p == 1 && opt.swap_stream) {
    GPU500_CUDA_CHECK(cudaStreamCreateWithPriority(&swp_, cudaStreamNonBlocking, greatest));
    GPU500_CUBLAS_CHECK(gpu::dynload::cublasCreate(&hs_));
    GPU500_CUBLAS_CHECK(gpu::dynload::cublasSetStream(hs_, swp_));
  }
  for (auto* e : {&up_ev_[0], &up_ev_[1], &used_ev_[0], &used_ev_[1], &bc_ev_[0], &bc_ev_[1], &idx_ev_,
                  &xidx_ev_[0], &xidx_ev_[1], &pairs_ev_[0], &pairs_ev_[1]})
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
  if (in_place_) {
    tail_ = std::min<std::int64_t>(opt.tail_getrf, n_);
    if (tail_ > 0) {
      GPU500_CUSOLVER_CHECK(gpu::dynload::cusolverDnCreate(&tsh_));
      GPU500_CUSOLVER_CHECK(gpu::dynload::cusolverDnSetStream(tsh_, upd_));
      int lwork = 0;
      GPU500_CUSOLVER_CHECK(gpu::dynload::cusolverDnDgetrf_bufferSize(
          tsh_, static_cast<int>(tail_), static_cast<int>(tail_), a_, static_cast<int>(lda_), &lwork));
      twork_ = device_buffer<double>(static_cast<std::size_t>(std::max(1, lwork)));
      tpiv_ = device_buffer<int>(static_cast<std::size_t>(tail_) + 1);
    }
    if (opt.panel_gemm_gpu > 0) offload_ = std::make_unique<cuda_panel_offload>(opt.panel_gemm_gpu, nb_);
  }
}

gpu_solver::~gpu_solver() {
  gpu::dynload::cublasDestroy(h_);
  if (hs_) gpu::dynload::cublasDestroy(hs_);
  if (psh_) gpu::dynload::cusolverDnDestroy(psh_);
  if (tsh_) gpu::dynload::cusolverDnDestroy(tsh_);
  for (auto e : {up_ev_[0], up_ev_[1], used_ev_[0], used_ev_[1], bc_ev_[0], bc_ev_[1], idx_ev_, xidx_ev_[0],
                 xidx_ev_[1], pairs_ev_[0], pairs_ev_[1]})
    cudaEventDestroy(e);
  cudaStreamDestroy(upd_);
  cudaStreamDestroy(cpy_);
  cudaStreamDestroy(pnl_);
  if (swp_) cudaStreamDestroy(swp_);
}

void gpu_solver::warm_up() {
  if (links_.row) links_.row->bcast_bytes(dpack0_.data(), sizeof(double), 0, cpy_);
  if (links_.col) {
    std::vector<std::size_t> bytes(g_.p, sizeof(double));
    links_.col->allgatherv_bytes(xch_.data() + g_.myrow, xch_.data(), bytes.data(), cpy_);
    links_.panel->bcast_bytes(xch_.data(), sizeof(double), 0, cpy_);
  }
  GPU500_CUDA_CHECK(cudaStreamSynchronize(cpy_));
  GPU500_CUDA_CHECK(cudaMemsetAsync(a_, 0, sizeof(double) * lda_ * sh_.nq, upd_));
  GPU500_CUDA_CHECK(cudaStreamSynchronize(upd_));
  if (tail_ > 0) {  // cuSOLVER's kernels at the tail's size (on zeros: singular, but untimed)
    finish_tail(n_ - tail_);
    GPU500_CUDA_CHECK(cudaStreamSynchronize(upd_));
  }
  // In-place GPU panels at their largest and smallest heights, on the process's first columns
  // (as many as it holds, at most a panel's width: a process of a 1 x Q grid may hold none).
  const std::int64_t held = std::min<std::int64_t>({nb_, n_, sh_.nq});
  if (psh_ && g_.p == 1 && held > 0) {
    for (std::int64_t m : {gp_rows_, std::min<std::int64_t>(nb_, gp_rows_)})
      GPU500_CUSOLVER_CHECK(gpu::dynload::cusolverDnDgetrf(psh_, static_cast<int>(m), static_cast<int>(std::min(held, m)),
                                                           a_, static_cast<int>(lda_), pwork_.data(), ppiv_.data(),
                                                           ppiv_.data() + nb_));
    GPU500_CUDA_CHECK(cudaStreamSynchronize(pnl_));
  }
  const std::int64_t m = sh_.mp - nb_, nc = sh_.nq - nb_;
  if (m <= 0 || nc <= 0) return;
  const double one = 1.0, minus = -1.0;
  const int ld = static_cast<int>(lda_);
  for (std::int64_t w : {nc, nc / 8, std::min<std::int64_t>(nc, nb_)}) {
    if (w <= 0) continue;
    GPU500_CUBLAS_CHECK(gpu::dynload::cublasDtrsm(shandle(), CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
                                                  CUBLAS_DIAG_UNIT, nb_, static_cast<int>(w), &one, a_, ld,
                                                  a_ + nb_ * lda_, ld));
    GPU500_CUDA_CHECK(cudaStreamSynchronize(sstream()));
    GPU500_CUBLAS_CHECK(gpu::dynload::cublasDgemm(h_, CUBLAS_OP_N, CUBLAS_OP_N, static_cast<int>(m),
                                                  static_cast<int>(w), nb_, &minus, a_ + nb_, ld,
                                                  a_ + nb_ * lda_, ld, &one, a_ + nb_ + nb_ * lda_, ld));
  }
  GPU500_CUDA_CHECK(cudaStreamSynchronize(upd_));
}

bool gpu_solver::warm_up_panel() {
  if (n_ == 0 || g_.p != 1 || on_gpu(0) || in_tail(0) || g_.mycol != owner_of(0, nb_, g_.q)) return false;
  panel_down(0, 0, events_.record(upd_));
  GPU500_CUDA_CHECK(cudaStreamSynchronize(cpy_));
  factor_pack(0, 0);
  GPU500_CUDA_CHECK(cudaDeviceSynchronize());
  zero_ = 0;
  return offload_ != nullptr;  // only the offload's DGEMMs work in the matrix's columns
}

int gpu_solver::solve(std::vector<double>& x, std::vector<iter_time>* iters, const std::function<void(std::int64_t)>& progress) {
  x.assign(n_, 0.0);
  if (n_ == 0) return 0;
  const bool lookahead = prm_.depth >= 1;
  // Timing: the span of each iteration on the update stream (from the swaps' index copy to the
  // last DGEMM; it starts once the panel is there) and the stream's idle gap before the next.
  std::optional<event_pool> tev;
  if (iters) tev.emplace(2 * static_cast<int>((n_ + nb_ - 1) / nb_) + 2, true);
  std::vector<std::pair<cudaEvent_t, cudaEvent_t>> iter_ev;
  std::int64_t tail_at = -1;  // first row and column cuSOLVER finished, -1: none
  // The tail from column k on (1 x 1): cuSOLVER on the trailing block, timed as one iteration.
  auto run_tail = [&](std::int64_t k) {
    iter_time t;
    t.k = k;
    const double w0 = wall_time();
    if (tev) iter_ev.emplace_back(tev->record(upd_), nullptr);
    finish_tail(k);
    if (tev) iter_ev.back().second = tev->record(upd_);
    t.total = wall_time() - w0;
    if (iters) iters->push_back(t);
    if (progress) progress(n_);
    tail_at = k;
  };
  prev_segs_.clear();
  int cur = 0;
  if (in_tail(0)) {
    run_tail(0);
  } else {
    if (g_.mycol == owner_of(0, nb_, g_.q)) {
      iter_time untimed;
      const double tw = wall_time();
      panel_start(0, cur);
      panel_finish(0, cur, tw, untimed);
    }
    share(0, cur, false);
  }
  for (std::int64_t k = 0; k < n_ && tail_at < 0; k += nb_) {
    const int jb = width(k), nxt = 1 - cur;
    const std::int64_t k1 = k + jb;
    const bool tail_next = k1 < n_ && in_tail(k1);  // no more panels after this one
    const std::int64_t c_next = local_start(k1, nb_, g_.mycol, g_.q);
    iter_time t;
    t.k = k;
    const double w0 = wall_time();
    if (tev) iter_ev.emplace_back(tev->record(upd_), nullptr);
    segs_.clear();
    prepare_swaps(k, jb, cur);
    if (k1 < n_ && lookahead && !tail_next && g_.mycol == owner_of(k1, nb_, g_.q)) {
      const std::int64_t c_rest = c_next + width(k1);
      update(k, jb, cur, c_next, c_rest, /*one_piece=*/true);
      const cudaEvent_t lookahead_done = events_.record(upd_);
      // P = 1, GPU panel: the rest's kernels are queued first; the panel's high-priority
      // kernels slot in as SMs free up. Otherwise the panel starts before the rest is queued.
      const bool after_rest = g_.p == 1 && on_gpu(k1);
      if (!after_rest) panel_start(k1, nxt, lookahead_done);
      update(k, jb, cur, c_rest, sh_.nq);
      used(cur);
      if (tev) iter_ev.back().second = tev->record(upd_);
      if (after_rest) panel_start(k1, nxt, lookahead_done);
      panel_finish(k1, nxt, wall_time(), t);
      share_timed(k1, nxt, /*root_async=*/true, t);
    } else {
      update(k, jb, cur, c_next, sh_.nq);
      used(cur);
      if (tev) iter_ev.back().second = tev->record(upd_);
      if (k1 < n_ && !tail_next) {
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
    std::swap(prev_segs_, segs_);
    if (tail_next) run_tail(k1);
  }
  if (iters) {
    GPU500_CUDA_CHECK(cudaStreamSynchronize(upd_));
    read_update_spans(iter_ev, *iters);
  }
  back_substitution(x, tail_at >= 0 ? tail_at : n_);
  return zero_;
}

void gpu_solver::finish_tail(std::int64_t k) {
  const int m = static_cast<int>(n_ - k), ld = static_cast<int>(lda_);
  if (m <= 0) return;
  double* a22 = col(k) + k;
  int* piv = tpiv_.data();
  int* info = piv + tail_;
  GPU500_CUSOLVER_CHECK(gpu::dynload::cusolverDnDgetrf(tsh_, m, m, a22, ld, twork_.data(), piv, info));
  GPU500_CUSOLVER_CHECK(gpu::dynload::cusolverDnDgetrs(tsh_, CUBLAS_OP_N, m, 1, a22, ld, piv, col(n_) + k, ld, info));
}

void gpu_solver::back_substitution(std::vector<double>& x, std::int64_t top) {
  const int cb = owner_of(n_, nb_, g_.q);
  const std::int64_t lb = local_of(n_, nb_, g_.q);
  const std::int64_t ncol_a = numroc(n_, nb_, g_.mycol, g_.q);
  device_buffer<double> xl(static_cast<std::size_t>(std::max<std::int64_t>(1, sh_.nq))), sd(nb_);
  GPU500_CUDA_CHECK(cudaMemsetAsync(xl.data(), 0, sizeof(double) * std::max<std::int64_t>(1, sh_.nq), upd_));
  if (top < n_) {  // 1 x 1 after the tail: x(top:n) is in b(top:n)
    GPU500_CUDA_CHECK(cudaMemcpyAsync(xl.data() + top, col(n_) + top, sizeof(double) * (n_ - top),
                                      cudaMemcpyDeviceToDevice, upd_));
    GPU500_CUDA_CHECK(cudaMemcpyAsync(x.data() + top, col(n_) + top, sizeof(double) * (n_ - top),
                                      cudaMemcpyDeviceToHost, upd_));
    GPU500_CUDA_CHECK(cudaStreamSynchronize(upd_));
  }
  std::vector<double> s(nb_);
  const double one = 1.0, minus = -1.0;
  const int ld = static_cast<int>(lda_);
  for (std::int64_t k0 = (top - 1) / nb_ * nb_; top > 0 && k0 >= 0; k0 -= nb_) {
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

void cuda_run(const params& prm, const grid& g, const run_options& opt, test_result& r) {
  if (prm.nb > 2048) throw usage_error("the CUDA backend of HPL needs NB <= 2048");
  const auto sh = layout_of(prm.n, prm.nb, g, 32, 32);  // ld: multiples of 32 (coalesced columns)
  if (sh.mp > INT32_MAX / 2 || sh.nq > INT32_MAX / 2) throw usage_error("the CUDA backend of HPL needs local sizes < 2^30");
  const auto& c = *g.comms;
  const bool one = g.p * g.q == 1;
  // The transport every process can use: NCCL where each has its own GPU (node-local ranks map
  // one to one onto the node's devices), else CUDA-aware MPI for the panel (Q > 1), else host.
  double no_nccl = opt.nccl && dist::nccl_available() && g.local_rank < dist::gpu_count() ? 0 : 1;
  double host_only = opt.device_mpi && dist::mpi_accepts_device_memory() ? 0 : 1;
  c.all.allreduce_max(&no_nccl, 1);
  c.all.allreduce_max(&host_only, 1);
  const transport tr = one            ? transport::none
                       : no_nccl == 0 ? transport::nccl
                       : host_only == 0 && g.q > 1 ? transport::cuda_mpi
                                                   : transport::host;
  if (g.p > 1 && tr != transport::nccl && (opt.gpu_panel > 0 || opt.gpu_panel_first) && g.world_rank == 0)
    std::fprintf(stderr, "hpl: %d x %d grid without NCCL between the GPUs: the panels are factored on the CPU "
                 "(GPU panels on P > 1 gather the panel over NCCL)\n", g.p, g.q);
  // Allocation is agreed: a process that cannot allocate must not leave the others waiting in
  // the first collective; every process throws.
  device_buffer<double> a;
  std::optional<gpu_solver> s;
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
  if (s->warm_up_panel()) {  // its GPU DGEMMs wrote into panel 0's columns
    kernels::generate_local(a.data(), sh, nullptr);
    GPU500_CUDA_CHECK(cudaDeviceSynchronize());
  }
  c.all.barrier();
  const long gemms0 = s->offloaded_gemms();
  const double t0 = wall_time();
  s->solve(x, opt.timing ? &r.iters : nullptr, opt.progress);
  GPU500_CUDA_CHECK(cudaDeviceSynchronize());
  double t = wall_time() - t0;
  r.panel_gemms_gpu = s->offloaded_gemms() - gemms0;
  s.reset();
  c.all.allreduce_max(&t, 1);
  r.time = t;
  kernels::generate_local(a.data(), sh, nullptr);
  GPU500_CUDA_CHECK(cudaDeviceSynchronize());
  check_dist(prm, g, sh, a.data(), x, r);
  r.x = std::move(x);
  if (!one) r.gpu_exchange = tr == transport::nccl ? "nccl" : tr == transport::cuda_mpi ? "cuda-aware-mpi" : "host";
}

}  // namespace gpu500::hpl::detail
