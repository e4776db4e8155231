// src/hpl/cuda/panel.cu — HPL on the GPUs of a P x Q grid (internal; the design: solver.cuh): a
// panel's factorisation (on the CPU after its copy down, or by cuSOLVER on the GPU, gathered over
// the process column when P > 1) and its way along the process row to every GPU (NCCL, CUDA-aware
// MPI or the host; on 1 x 1 it stays in the matrix).
#include "solver.cuh"

namespace gpu500::hpl::detail {

void gpu_solver::panel_start(std::int64_t k, int s, cudaEvent_t after) {
  if (!after) after = events_.record(upd_);
  if (!on_gpu(k)) {
    panel_down(k, s, after);
    return;
  }
  if (g_.p > 1) {
    panel_start_gathered(k, s, after);
    return;
  }
  const int jb = width(k);
  const std::int64_t ii = local_start(k, nb_, g_.myrow, g_.p), jj = local_start(k, nb_, g_.mycol, g_.q);
  const std::int64_t of = ii + jb, mo = sh_.mp - of;
  GPU500_CUDA_CHECK(cudaEventSynchronize(up_ev_[s]));  // the pinned pack's last copy is done
  GPU500_CUDA_CHECK(cudaStreamWaitEvent(pnl_, after));
  GPU500_CUDA_CHECK(cudaStreamWaitEvent(pnl_, used_ev_[s]));  // the device pack is free
  GPU500_CUDA_CHECK(cudaStreamWaitEvent(pnl_, bc_ev_[s]));
  GPU500_CUSOLVER_CHECK(gpu::dynload::cusolverDnDgetrf(psh_, static_cast<int>(sh_.mp - ii), jb,
                                                       col(jj) + ii, static_cast<int>(lda_), pwork_.data(),
                                                       ppiv_.data(), ppiv_.data() + nb_));
  GPU500_CUDA_CHECK(cudaMemcpyAsync(hpiv_.data(), ppiv_.data(), sizeof(int) * jb, cudaMemcpyDeviceToHost, pnl_));
  GPU500_CUDA_CHECK(cudaMemcpyAsync(hpiv_.data() + nb_, ppiv_.data() + nb_, sizeof(int), cudaMemcpyDeviceToHost, pnl_));
  if (in_place_) {  // the update reads the panel where it is
    GPU500_CUDA_CHECK(cudaEventRecord(up_ev_[s], pnl_));
    return;
  }
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

void gpu_solver::panel_start_gathered(std::int64_t k, int s, cudaEvent_t after) {
  const int jb = width(k);
  const int prow = owner_of(k, nb_, g_.p);
  const std::int64_t jj = local_start(k, nb_, g_.mycol, g_.q);
  const std::int64_t m = n_ - k;
  GPU500_CUDA_CHECK(cudaEventSynchronize(up_ev_[s]));
  GPU500_CUDA_CHECK(cudaStreamWaitEvent(pnl_, after));
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

void gpu_solver::panel_finish(std::int64_t k, int s, double since, iter_time& t) {
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

void gpu_solver::share_timed(std::int64_t k, int buf, bool root_async, iter_time& t) {
  const double tb = wall_time();
  share(k, buf, root_async);
  t.bcast = wall_time() - tb;
}

void gpu_solver::panel_down(std::int64_t k, int s, cudaEvent_t after) {
  const int jb = width(k);
  const std::int64_t ii = local_start(k, nb_, g_.myrow, g_.p), jj = local_start(k, nb_, g_.mycol, g_.q);
  const std::int64_t of = o_first(k, jb), mo = sh_.mp - of;
  GPU500_CUDA_CHECK(cudaEventSynchronize(up_ev_[s]));  // the pack's last upload is done
  double* t = hpack(s) + jb;
  double* l2 = t + static_cast<std::int64_t>(jb) * jb;
  GPU500_CUDA_CHECK(cudaStreamWaitEvent(cpy_, after));
  if (g_.myrow == owner_of(k, nb_, g_.p))
    GPU500_CUDA_CHECK(cudaMemcpy2DAsync(t, sizeof(double) * jb, col(jj) + ii, sizeof(double) * lda_,
                                        sizeof(double) * jb, jb, cudaMemcpyDeviceToHost, cpy_));
  if (mo > 0)
    GPU500_CUDA_CHECK(cudaMemcpy2DAsync(l2, sizeof(double) * mo, col(jj) + of, sizeof(double) * lda_,
                                        sizeof(double) * mo, jb, cudaMemcpyDeviceToHost, cpy_));
}

void gpu_solver::factor(std::int64_t k, int s) {
  const int jb = width(k);
  const std::int64_t ii = local_start(k, nb_, g_.myrow, g_.p), jj = local_start(k, nb_, g_.mycol, g_.q);
  const int prow = owner_of(k, nb_, g_.p);
  const std::int64_t of = o_first(k, jb), mo = sh_.mp - of;
  factor_pack(k, s);
  if (offload_ && !opt_.panel_up_all) {  // its finish() (queued by factor_pack) brings the matrix's panel up to date
    GPU500_CUDA_CHECK(cudaEventRecord(up_ev_[s], offload_->stream()));
    return;
  }
  const double* t = hpack(s) + jb;
  if (g_.myrow == prow)  // U11 / L11 back into the matrix (U is read by the back substitution)
    GPU500_CUDA_CHECK(cudaMemcpy2DAsync(col(jj) + ii, sizeof(double) * lda_, t, sizeof(double) * jb,
                                        sizeof(double) * jb, jb, cudaMemcpyHostToDevice, cpy_));
  if (in_place_ && mo > 0)  // 1 x 1: L2 as well, where the update reads it
    GPU500_CUDA_CHECK(cudaMemcpy2DAsync(col(jj) + of, sizeof(double) * lda_, t + static_cast<std::int64_t>(jb) * jb,
                                        sizeof(double) * mo, sizeof(double) * mo, jb, cudaMemcpyHostToDevice, cpy_));
  if (in_place_) GPU500_CUDA_CHECK(cudaEventRecord(up_ev_[s], cpy_));
}

void gpu_solver::factor_pack(std::int64_t k, int s) {
  const int jb = width(k);
  const std::int64_t ii = local_start(k, nb_, g_.myrow, g_.p), jj = local_start(k, nb_, g_.mycol, g_.q);
  const int prow = owner_of(k, nb_, g_.p);
  const std::int64_t of = o_first(k, jb), mo = sh_.mp - of;
  double* buf = hpack(s);
  double* t = buf + jb;
  col_.bcast(t, static_cast<long>(jb) * jb, prow);
  // The panel's columns in the matrix are the offload's device copy (they equal the pack now);
  // at() first waits for the last panel's finish(), which read its pack.
  if (offload_) offload_->at(col(jj) + ii, lda_);
  const panel_view pv{.jb = jb, .k = k, .t = t, .o = t + static_cast<std::int64_t>(jb) * jb,
                      .ldo = std::max<std::int64_t>(1, mo), .mo = mo, .o_first = of, .nb = nb_, .myrow = g_.myrow,
                      .nprow = g_.p, .col = &col_};
  panel_opts po{prm_.pfact, prm_.rfact, prm_.nbmin, prm_.ndiv, /*threads=*/0};
  po.offload = offload_.get();
  int zero = 0;
  const auto ipiv = factor_panel(pv, po, &zero);
  zero_ += zero;
  for (int j = 0; j < jb; ++j) buf[j] = static_cast<double>(ipiv[j]);
  if (offload_ && !opt_.panel_up_all) offload_->finish(ipiv.data());
}

void gpu_solver::share(std::int64_t k, int s, bool root_async) {
  const int jb = width(k);
  const int pcol = owner_of(k, nb_, g_.q);
  const bool owner = g_.mycol == pcol;
  const long len = static_cast<long>(pack_size(k, jb));
  if (owner) publish(k, s);
  switch (tr_) {
    case transport::none:  // 1 x 1: the one process owns every panel
      return;
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

void gpu_solver::publish(std::int64_t k, int s) {
  if (in_place_) {  // the factored panel is in the matrix, or on its way there (up_ev_)
    ready(up_ev_[s]);
    return;
  }
  if (!on_gpu(k)) {
    upload(k, s);
    return;
  }
  GPU500_CUDA_CHECK(cudaStreamWaitEvent(cpy_, up_ev_[s]));
  GPU500_CUDA_CHECK(cudaMemcpyAsync(dpack(s), hpack(s), sizeof(double) * width(k), cudaMemcpyHostToDevice, cpy_));
  GPU500_CUDA_CHECK(cudaEventRecord(up_ev_[s], cpy_));
  ready(up_ev_[s]);
}

void gpu_solver::fetch_pivots(int jb, int s) {
  GPU500_CUDA_CHECK(cudaEventSynchronize(up_ev_[s]));  // the pinned pack is free
  GPU500_CUDA_CHECK(cudaMemcpyAsync(hpack(s), dpack(s), sizeof(double) * jb, cudaMemcpyDeviceToHost, cpy_));
  GPU500_CUDA_CHECK(cudaEventRecord(up_ev_[s], cpy_));
  ready(up_ev_[s]);
  GPU500_CUDA_CHECK(cudaStreamSynchronize(cpy_));
}

void gpu_solver::upload(std::int64_t k, int s) {
  GPU500_CUDA_CHECK(cudaStreamWaitEvent(cpy_, used_ev_[s]));
  GPU500_CUDA_CHECK(cudaMemcpyAsync(dpack(s), hpack(s), sizeof(double) * pack_size(k, width(k)),
                                    cudaMemcpyHostToDevice, cpy_));
  GPU500_CUDA_CHECK(cudaEventRecord(up_ev_[s], cpy_));
  ready(up_ev_[s]);
}

void gpu_solver::ready(cudaEvent_t e) {
  GPU500_CUDA_CHECK(cudaStreamWaitEvent(upd_, e));
  if (swp_) GPU500_CUDA_CHECK(cudaStreamWaitEvent(swp_, e));
}

}  // namespace gpu500::hpl::detail
