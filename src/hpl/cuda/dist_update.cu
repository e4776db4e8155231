// src/hpl/cuda/dist_update.cu — HPL on a P x Q grid of GPUs (internal; the design: dist_solver.cuh):
// the row swaps of the trailing columns (the swap plan, the records gathered and exchanged over the
// process column by NCCL or through the host) and the trailing update (DTRSM, DGEMM).
#include "dist_solver.cuh"

namespace gpu500::hpl::detail {

void dist_solver::prepare_swaps(std::int64_t k, int jb, int s) {
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

void dist_solver::put_indices(const std::vector<std::int64_t>& h) {
  GPU500_EXPECTS(h.size() <= 6 * static_cast<std::size_t>(nb_), "HPL: too many swap indices");
  GPU500_CUDA_CHECK(cudaEventSynchronize(idx_ev_));  // the staging buffer's last copy is done
  std::copy(h.begin(), h.end(), hidx_.data());
  if (!h.empty())
    GPU500_CUDA_CHECK(cudaMemcpyAsync(idx_.data(), hidx_.data(), sizeof(std::int64_t) * h.size(), cudaMemcpyHostToDevice, upd_));
  GPU500_CUDA_CHECK(cudaEventRecord(idx_ev_, upd_));
}

void dist_solver::plan_records(std::int64_t k, int jb) {
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

void dist_solver::update(std::int64_t k, int jb, int s, std::int64_t c0, std::int64_t c1) {
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

void dist_solver::exchange_nccl(int jb, std::int64_t c0, std::int64_t nc) {
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

void dist_solver::exchange(std::int64_t k, int jb, std::int64_t c0, std::int64_t nc) {
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

}  // namespace gpu500::hpl::detail
