// src/hpl/cuda/dist.cu — HPL on a P x Q grid of GPUs (internal; the design: dist_solver.cuh):
// the solver's construction and warm-up, its iteration loop with look-ahead, back substitution,
// and cuda_run_dist, which picks the transport, runs the solver and reports.
#include "dist_solver.cuh"

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

nccl_links nccl_links_of(const grid& g) {
  const dist::process_grid& ranks = g.comms->ranks;
  nccl_links links;
  if (g.q > 1) links.row = &ranks.row_nccl(0);
  if (g.p > 1) links.col = &ranks.col_nccl(0);
  if (g.p > 1) links.panel = &ranks.col_nccl(1);
  return links;
}

}  // namespace

dist_solver::dist_solver(const params& prm, const grid& g, const run_options& opt, const kernels::local_shape& sh, double* a,
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

dist_solver::~dist_solver() {
  gpu::dynload::cublasDestroy(h_);
  if (psh_) gpu::dynload::cusolverDnDestroy(psh_);
  for (auto e : {up_ev_[0], up_ev_[1], used_ev_[0], used_ev_[1], bc_ev_[0], bc_ev_[1], idx_ev_, xidx_ev_[0],
                 xidx_ev_[1]})
    cudaEventDestroy(e);
  cudaStreamDestroy(upd_);
  cudaStreamDestroy(cpy_);
  cudaStreamDestroy(pnl_);
}

void dist_solver::warm_up() {
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

int dist_solver::solve(std::vector<double>& x, std::vector<iter_time>* iters, const std::function<void(std::int64_t)>& progress) {
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

void dist_solver::back_substitution(std::vector<double>& x) {
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
