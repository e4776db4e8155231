// The CUDA backend's FP64 refinement (see refine.cuh): the device vectors of the 1 x 1 grid
// (device_space) and a process's part for the grid's GMRES (device_part).
#include "refine.cuh"

#include <algorithm>
#include <cmath>

#include "../gmres.hpp"
#include "../grid_space.hpp"
#include "gpu500/core/cuda/memory.hpp"
#include "gpu500/core/timer.hpp"
#include "lu.cuh"

namespace gpu500::hpl_mxp::detail::cuda {

namespace {

using gpu::device_buffer;

std::size_t at_least_one(std::int64_t n) { return static_cast<std::size_t>(std::max<std::int64_t>(n, 1)); }

// GMRES's vectors on the GPU over the whole factored matrix (the 1 x 1 grid's part).
class device_space final : public krylov_space {
 public:
  device_space(const local_layout& l, const float* lu, const double* diag, const std::vector<double>& b, int restart,
               cudaStream_t s, cublasHandle_t h)
      : l_(l), n_(l.n), lda_(l.lld), nb_(std::max<std::int64_t>(1, l.nb)), lu_(lu), diag_(diag), s_(s), h_(h),
        v_(static_cast<std::size_t>(n_) * (restart + 1)), z_(static_cast<std::size_t>(n_) * restart),
        x_(static_cast<std::size_t>(n_)), w_(static_cast<std::size_t>(n_)), b_(static_cast<std::size_t>(n_)),
        f_(static_cast<std::size_t>(n_)), partial_(at_least_one(l.chunks() * l.mp)),
        small_(static_cast<std::size_t>(restart + 1)), scratch_(norm_scratch_size) {
    gpu::copy_bytes(b_.data(), b.data(), sizeof(double) * static_cast<std::size_t>(n_));
  }
  std::int64_t size() const override { return n_; }
  double* basis(int k) override { return v_.data() + static_cast<std::size_t>(k) * n_; }
  double* zbasis(int k) override { return z_.data() + static_cast<std::size_t>(k) * n_; }
  double* x() override { return x_.data(); }
  double* work() override { return w_.data(); }
  void residual(const double* x, double* r) override {
    local_matvec(l_, diag_, x, -1.0, b_.data(), r, partial_.data(), s_);
  }
  void matvec(const double* v, double* y) override {
    local_matvec(l_, diag_, v, 1.0, nullptr, y, partial_.data(), s_);
  }
  void precondition(const double* v, double* z) override {
    to_float(v, f_.data(), n_, s_);
    solve_triangle(true);
    solve_triangle(false);
    to_double(f_.data(), z, n_, s_);
  }
  void project(int k, const double* w, double* h) override {
    const double one = 1.0, zero = 0.0;
    cublas_check(gpu::dynload::cublasDgemv(h_, CUBLAS_OP_T, static_cast<int>(n_), k, &one, v_.data(),
                                           static_cast<int>(n_), w, 1, &zero, small_.data(), 1),
                 "cublasDgemv (project)");
    gpu::copy_bytes_async(h, small_.data(), sizeof(double) * k, s_);
    gpu::synchronize(s_);
  }
  void subtract(int k, const double* h, double* w) override { combine(k, h, v_.data(), -1.0, w); }
  void update(int k, const double* y, double* x) override { combine(k, y, z_.data(), 1.0, x); }
  double nrm2(const double* v) override {
    double r = 0;
    cublas_check(gpu::dynload::cublasDnrm2(h_, static_cast<int>(n_), v, 1, &r), "cublasDnrm2");
    return r;
  }
  double norm_inf(const double* v) override { return cuda::norm_inf(v, n_, scratch_.data(), s_); }
  void scale(double a, double* v) override {
    cublas_check(gpu::dynload::cublasDscal(h_, static_cast<int>(n_), &a, v, 1), "cublasDscal");
  }
  void zero(double* v) override { gpu::fill_bytes_async(v, 0, sizeof(double) * n_, s_); }
  /// A host copy of x.
  std::vector<double> host_x() {
    std::vector<double> h(static_cast<std::size_t>(n_));
    gpu::copy_bytes_async(h.data(), x_.data(), sizeof(double) * n_, s_);
    gpu::synchronize(s_);
    return h;
  }

 private:
  // f = L^-1 f (lower: unit diagonal) or U^-1 f by blocks of nb, from the first block down or
  // the last one up: cublasStrsv on the diagonal block, then cublasSgemv with the block column
  // below it (above it) takes the solved block out of the rest of f.
  void solve_triangle(bool lower) {
    const float one = 1.0f, minus_one = -1.0f;
    const int ld = static_cast<int>(lda_);
    const std::int64_t blocks = (n_ + nb_ - 1) / nb_;
    float* f = f_.data();
    for (std::int64_t t = 0; t < blocks; ++t) {
      const std::int64_t k = (lower ? t : blocks - 1 - t) * nb_, jb = std::min(nb_, n_ - k);
      const float* akk = lu_ + k + k * lda_;
      cublas_check(gpu::dynload::cublasStrsv(h_, lower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N,
                                             lower ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT, static_cast<int>(jb), akk,
                                             ld, f + k, 1),
                   "cublasStrsv (preconditioner)");
      const std::int64_t rows = lower ? n_ - k - jb : k;
      if (rows > 0)
        cublas_check(gpu::dynload::cublasSgemv(h_, CUBLAS_OP_N, static_cast<int>(rows), static_cast<int>(jb),
                                               &minus_one, lower ? akk + jb : lu_ + k * lda_, ld, f + k, 1, &one,
                                               lower ? f + k + jb : f, 1),
                     "cublasSgemv (preconditioner)");
    }
  }
  // out += alpha basis(:, 0..k) c, c from the host.
  void combine(int k, const double* c, const double* basis, double alpha, double* out) {
    const double one = 1.0;
    gpu::copy_bytes_async(small_.data(), c, sizeof(double) * k, s_);
    cublas_check(gpu::dynload::cublasDgemv(h_, CUBLAS_OP_N, static_cast<int>(n_), k, &alpha, basis,
                                           static_cast<int>(n_), small_.data(), 1, &one, out, 1),
                 "cublasDgemv (combine)");
    gpu::synchronize(s_);  // c lives on the host caller's stack
  }

  local_layout l_;
  std::int64_t n_, lda_, nb_;
  const float* lu_;
  const double* diag_;
  cudaStream_t s_;
  cublasHandle_t h_;
  device_buffer<double> v_, z_, x_, w_, b_;
  device_buffer<float> f_;
  device_buffer<double> partial_, small_, scratch_;
};

// This process's part for the grid's GMRES (grid_space.hpp), on its GPU.
class device_part final : public grid_part {
 public:
  device_part(const local_layout& l, const float* a, const double* diag, cudaStream_t s, cublasHandle_t h)
      : l_(l), a_(a), diag_(diag), s_(s), h_(h), v_(at_least_one(l.n)), y_(at_least_one(l.mp)),
        partial_(at_least_one(l.chunks() * l.mp)), xl_(at_least_one(l.nq)), s_dev_(at_least_one(l.nb)),
        y_host_(static_cast<std::size_t>(l.mp)), grow_(static_cast<std::size_t>(l.mp)) {
    for (std::int64_t i = 0; i < l.mp; ++i) grow_[i] = hpl::global_of(i, l.nb, l.myrow, l.p);
  }
  void add_product(const double* v, double* full) override {
    if (l_.mp == 0) return;
    gpu::copy_bytes_async(v_.data(), v, sizeof(double) * static_cast<std::size_t>(l_.n), s_);
    local_matvec(l_, diag_, v_.data(), 1.0, nullptr, y_.data(), partial_.data(), s_);
    gpu::copy_bytes_async(y_host_.data(), y_.data(), sizeof(double) * static_cast<std::size_t>(l_.mp), s_);
    gpu::synchronize(s_);
    for (std::int64_t i = 0; i < l_.mp; ++i) full[grow_[i]] += y_host_[i];
  }
  void block_product(std::int64_t li0, std::int64_t jb, std::int64_t c0, std::int64_t c1, float* s) override {
    const float one = 1.0f, zero = 0.0f;
    cublas_check(gpu::dynload::cublasSgemv(h_, CUBLAS_OP_N, static_cast<int>(jb), static_cast<int>(c1 - c0),
                                           &one, a_ + c0 * l_.lld + li0, static_cast<int>(l_.lld),
                                           xl_.data() + c0, 1, &zero, s_dev_.data(), 1),
                 "cublasSgemv (block row)");
    gpu::copy_bytes_async(s, s_dev_.data(), sizeof(float) * static_cast<std::size_t>(jb), s_);
    gpu::synchronize(s_);
  }
  void diagonal_solve(bool lower, std::int64_t li0, std::int64_t lj0, std::int64_t jb, float* yk) override {
    float* x = xl_.data() + lj0;
    gpu::copy_bytes_async(x, yk, sizeof(float) * static_cast<std::size_t>(jb), s_);
    cublas_check(
        gpu::dynload::cublasStrsv(h_, lower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N,
                                  lower ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT, static_cast<int>(jb),
                                  a_ + lj0 * l_.lld + li0, static_cast<int>(l_.lld), x, 1),
        "cublasStrsv (diagonal block)");
    gpu::copy_bytes_async(yk, x, sizeof(float) * static_cast<std::size_t>(jb), s_);
    gpu::synchronize(s_);
  }
  void set_solved(std::int64_t lj0, std::int64_t jb, const float* yk) override {
    gpu::copy_bytes_async(xl_.data() + lj0, yk, sizeof(float) * static_cast<std::size_t>(jb), s_);
    gpu::synchronize(s_);  // yk is the caller's, and changes next
  }

 private:
  local_layout l_;
  const float* a_;
  const double* diag_;
  cudaStream_t s_;
  cublasHandle_t h_;
  device_buffer<double> v_, y_, partial_;
  device_buffer<float> xl_, s_dev_;
  std::vector<double> y_host_;
  std::vector<std::int64_t> grow_;
};

}  // namespace

void refine(result& r, const options& o, const local_layout& l, const float* a, const double* diag,
            const process_grid& g, const row_sums& sums, const std::vector<double>& b, cudaStream_t s,
            cublasHandle_t h) {
  if (g.all().size() > 1) {
    device_part part(l, a, diag, s, h);
    refine_on_grid(r, o, part, g, sums, b);
    return;
  }
  device_space space(l, a, diag, b, gmres_restart, s, h);  // allocated before the clock starts
  set_input_norms(r, sums, b);
  stopwatch sw;
  const gmres_result gr = fgmres(space, gmres_restart, o.max_iters, r.norm_a, r.norm_b, threshold);
  gpu::synchronize(s);
  r.t_refine = sw.seconds();
  set_gmres_figures(r, gr);
  r.x = space.host_x();
}

}  // namespace gpu500::hpl_mxp::detail::cuda
