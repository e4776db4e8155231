// src/hpl/cuda/update.cu — HPL on the GPUs of a P x Q grid (internal; the design: solver.cuh): the
// row swaps of the trailing columns (P = 1: row moves by a kernel, in the continuous pipeline of
// segments; P > 1: the records gathered and exchanged over the process column by NCCL or through
// the host) and the trailing update (DTRSM, DGEMM).
#include "solver.cuh"

namespace gpu500::hpl::detail {

void gpu_solver::prepare_swaps(std::int64_t k, int jb, int s) {
  std::vector<std::int64_t> ipiv(jb);
  for (int j = 0; j < jb; ++j) ipiv[j] = static_cast<std::int64_t>(hpack(s)[j]);
  plan_ = plan_swaps(k, jb, ipiv.data());
  if (g_.p > 1) {
    if (tr_ == transport::nccl) plan_records(k, jb);
    return;
  }
  // P = 1: [dest | src] into slot k / nb % 2 of the pinned staging and device buffers, on the
  // swap stream (ahead of the swaps that read it; the slot's last copy is done by then).
  std::vector<std::int64_t> dst, src;
  for (int t = 0; t < jb; ++t)
    if (plan_.u_src[t] != k + t) dst.push_back(k + t), src.push_back(plan_.u_src[t]);
  for (const auto& [d, sr] : plan_.moved) dst.push_back(d), src.push_back(sr);
  GPU500_EXPECTS(2 * dst.size() <= 4 * static_cast<std::size_t>(nb_), "HPL: too many row moves");
  slot_ = static_cast<int>(k / nb_ % 2);
  npairs_[slot_] = static_cast<int>(dst.size());
  const std::size_t off = static_cast<std::size_t>(slot_) * 4 * nb_;
  GPU500_CUDA_CHECK(cudaEventSynchronize(pairs_ev_[slot_]));
  std::copy(dst.begin(), dst.end(), hpairs_.data() + off);
  std::copy(src.begin(), src.end(), hpairs_.data() + off + dst.size());
  if (!dst.empty())
    GPU500_CUDA_CHECK(cudaMemcpyAsync(pairs_.data() + off, hpairs_.data() + off, sizeof(std::int64_t) * 2 * dst.size(),
                                      cudaMemcpyHostToDevice, sstream()));
  GPU500_CUDA_CHECK(cudaEventRecord(pairs_ev_[slot_], sstream()));
}

void gpu_solver::put_indices(const std::vector<std::int64_t>& h) {
  GPU500_EXPECTS(h.size() <= 6 * static_cast<std::size_t>(nb_), "HPL: too many swap indices");
  GPU500_CUDA_CHECK(cudaEventSynchronize(idx_ev_));  // the staging buffer's last copy is done
  std::copy(h.begin(), h.end(), hidx_.data());
  if (!h.empty())
    GPU500_CUDA_CHECK(cudaMemcpyAsync(idx_.data(), hidx_.data(), sizeof(std::int64_t) * h.size(), cudaMemcpyHostToDevice, upd_));
  GPU500_CUDA_CHECK(cudaEventRecord(idx_ev_, upd_));
}

void gpu_solver::plan_records(std::int64_t k, int jb) {
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

const double* gpu_solver::l1_of(std::int64_t k, int s, int* ld) {
  if (in_place_) return *ld = static_cast<int>(lda_), col(k) + k;
  *ld = width(k);
  return dpack(s) + width(k);
}

const double* gpu_solver::l2_of(std::int64_t k, int s, int* ld) {
  const int jb = width(k);
  if (in_place_) return *ld = static_cast<int>(lda_), col(k) + k + jb;
  *ld = static_cast<int>(std::max<std::int64_t>(1, sh_.mp - o_first(k, jb)));
  return dpack(s) + jb + static_cast<std::int64_t>(jb) * jb;
}

void gpu_solver::update(std::int64_t k, int jb, int s, std::int64_t c0, std::int64_t c1, bool one_piece) {
  const std::int64_t nc = c1 - c0;
  if (nc <= 0) return;
  if (g_.p == 1) {  // the rest in segments of geometrically growing width
    if (one_piece) {
      update_segment(k, jb, s, c0, c1);
      return;
    }
    double w = std::max<double>(nb_, opt_.seg_first * static_cast<double>(nc));
    for (std::int64_t c = c0; c < c1;) {
      std::int64_t e = std::min<std::int64_t>(c1, c + static_cast<std::int64_t>(w));
      if (c1 - e < nb_) e = c1;  // no sliver at the end
      update_segment(k, jb, s, c, e);
      c = e;
      w *= opt_.seg_growth;
    }
    return;
  }
  const int prow = owner_of(k, nb_, g_.p);
  const std::int64_t ii = local_start(k, nb_, g_.myrow, g_.p), mo = sh_.mp - o_first(k, jb);
  int ld1 = 0, ld2 = 0;
  const double* l1 = l1_of(k, s, &ld1);
  const double* l2 = l2_of(k, s, &ld2);
  const double one = 1.0, minus = -1.0;
  const int ld = static_cast<int>(lda_), inc = static_cast<int>(nc);
  if (tr_ == transport::nccl) exchange_nccl(jb, c0, nc);
  else exchange(k, jb, c0, nc);
  GPU500_CUBLAS_CHECK(gpu::dynload::cublasDtrsm(h_, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
                                                CUBLAS_DIAG_UNIT, jb, inc, &one, l1, ld1, ubuf_.data(), jb));
  if (mo > 0)
    GPU500_CUBLAS_CHECK(gpu::dynload::cublasDgemm(h_, CUBLAS_OP_N, CUBLAS_OP_N, static_cast<int>(mo), inc, jb,
                                                  &minus, l2, ld2, ubuf_.data(), jb, &one, col(c0) + o_first(k, jb), ld));
  if (g_.myrow == prow)
    GPU500_CUDA_CHECK(cudaMemcpy2DAsync(col(c0) + ii, sizeof(double) * lda_, ubuf_.data(), sizeof(double) * jb,
                                        sizeof(double) * jb, nc, cudaMemcpyDeviceToDevice, upd_));
}

void gpu_solver::update_segment(std::int64_t k, int jb, int s, std::int64_t c0, std::int64_t c1) {
  // The swap may start once the previous iteration's DGEMM has passed column c1.
  for (const auto& [end, ev] : prev_segs_)
    if (end >= c1 || &ev == &prev_segs_.back().second) {
      GPU500_CUDA_CHECK(cudaStreamWaitEvent(sstream(), ev));
      break;
    }
  const std::int64_t* d = pairs_.data() + static_cast<std::size_t>(slot_) * 4 * nb_;
  kernels::swap_rows(a_, lda_, c0, c1, d, d + npairs_[slot_], npairs_[slot_], sstream());
  int ld1 = 0, ld2 = 0;
  const double* l1 = l1_of(k, s, &ld1);
  const double* l2 = l2_of(k, s, &ld2);
  const double one = 1.0, minus = -1.0;
  const int nc = static_cast<int>(c1 - c0), ld = static_cast<int>(lda_);
  GPU500_CUBLAS_CHECK(gpu::dynload::cublasDtrsm(shandle(), CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
                                                CUBLAS_DIAG_UNIT, jb, nc, &one, l1, ld1, col(c0) + k, ld));
  if (swp_) GPU500_CUDA_CHECK(cudaStreamWaitEvent(upd_, events_.record(swp_)));
  const std::int64_t m2 = n_ - k - jb;
  if (m2 > 0)
    GPU500_CUBLAS_CHECK(gpu::dynload::cublasDgemm(h_, CUBLAS_OP_N, CUBLAS_OP_N, static_cast<int>(m2), nc, jb, &minus,
                                                  l2, ld2, col(c0) + k, ld, &one, col(c0) + k + jb, ld));
  segs_.emplace_back(c1, events_.record(upd_));
}

void gpu_solver::exchange_nccl(int jb, std::int64_t c0, std::int64_t nc) {
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

void gpu_solver::exchange(std::int64_t k, int jb, std::int64_t c0, std::int64_t nc) {
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
