// The CUDA backend of HPL-MxP on one GPU: memory checked first (gpu::check_device_memory), A
// generated on the device in FP32 (kernels.cuh), LU without pivoting with low-precision
// trailing updates (lu.cuh), then flexible GMRES (gmres.hpp) on device vectors: A v in FP64
// with A regenerated on the fly, the preconditioner as blocked triangular solves (cublasStrsv
// on the diagonal blocks, cublasSgemv beside them) on an FP32 copy of the vector, the
// Gram-Schmidt passes as cublasDgemv. Only scalars (norms, the Hessenberg column, the small
// solution y) cross to the host.
#include <cublas_v2.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "../backend.hpp"
#include "../gmres.hpp"
#include "gpu500/core/cuda/check.cuh"
#include "gpu500/core/cuda/memory.hpp"
#include "gpu500/core/timer.hpp"
#include "gpu500/dist/placement.hpp"
#include "kernels.cuh"
#include "lu.cuh"

namespace gpu500::hpl_mxp::detail {

namespace {

using gpu::device_buffer;
using namespace cuda;

class device_space final : public krylov_space {
 public:
  device_space(std::int64_t n, std::int64_t lda, int nb, int restart, const float* lu, const double* diag,
               const double* b, cudaStream_t s, cublasHandle_t h)
      : n_(n), lda_(lda), nb_(std::max(1, nb)), lu_(lu), diag_(diag), b_(b), s_(s), h_(h),
        v_(static_cast<std::size_t>(n) * (restart + 1)), z_(static_cast<std::size_t>(n) * restart),
        x_(static_cast<std::size_t>(n)), w_(static_cast<std::size_t>(n)), f_(static_cast<std::size_t>(n)),
        partial_(static_cast<std::size_t>(walk_shape_for(n).chunks * n)), small_(static_cast<std::size_t>(restart + 1)),
        scratch_(norm_scratch_size) {}
  std::int64_t size() const override { return n_; }
  double* basis(int k) override { return v_.data() + static_cast<std::size_t>(k) * n_; }
  double* zbasis(int k) override { return z_.data() + static_cast<std::size_t>(k) * n_; }
  double* x() override { return x_.data(); }
  double* work() override { return w_.data(); }
  void residual(const double* x, double* r) override { matvec_into(x, -1.0, b_, r); }
  void matvec(const double* v, double* y) override { matvec_into(v, 1.0, nullptr, y); }
  void precondition(const double* v, double* z) override {
    to_float(v, f_.data(), n_, s_);
    forward_substitution();
    back_substitution();
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
  // f = L^-1 f and f = U^-1 f by blocks of nb: cublasStrsv on the diagonal block, cublasSgemv for
  // the block column below (above): one streaming pass over each triangle, where a whole-matrix
  // cublasStrsv would walk it in small steps.
  void forward_substitution() {
    const float one = 1.0f, minus_one = -1.0f;
    const int ld = static_cast<int>(lda_);
    for (std::int64_t k = 0; k < n_; k += nb_) {
      const std::int64_t jb = std::min<std::int64_t>(nb_, n_ - k), m2 = n_ - k - jb;
      const float* akk = lu_ + k + k * lda_;
      cublas_check(gpu::dynload::cublasStrsv(h_, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT,
                                             static_cast<int>(jb), akk, ld, f_.data() + k, 1),
                   "cublasStrsv (L)");
      if (m2 > 0)
        cublas_check(
            gpu::dynload::cublasSgemv(h_, CUBLAS_OP_N, static_cast<int>(m2), static_cast<int>(jb), &minus_one,
                                      akk + jb, ld, f_.data() + k, 1, &one, f_.data() + k + jb, 1),
            "cublasSgemv (L)");
    }
  }
  void back_substitution() {
    const float one = 1.0f, minus_one = -1.0f;
    const int ld = static_cast<int>(lda_);
    for (std::int64_t k = (n_ - 1) / nb_ * nb_; k >= 0; k -= nb_) {
      const std::int64_t jb = std::min<std::int64_t>(nb_, n_ - k);
      const float* akk = lu_ + k + k * lda_;
      cublas_check(gpu::dynload::cublasStrsv(h_, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT,
                                             static_cast<int>(jb), akk, ld, f_.data() + k, 1),
                   "cublasStrsv (U)");
      if (k > 0)
        cublas_check(
            gpu::dynload::cublasSgemv(h_, CUBLAS_OP_N, static_cast<int>(k), static_cast<int>(jb), &minus_one,
                                      lu_ + k * lda_, ld, f_.data() + k, 1, &one, f_.data(), 1),
            "cublasSgemv (U)");
    }
  }
  void matvec_into(const double* v, double alpha, const double* b, double* y) {
    cuda::matvec(n_, diag_, v, alpha, b, y, partial_.data(), s_);
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

  std::int64_t n_, lda_, nb_;
  const float* lu_;
  const double *diag_, *b_;
  cudaStream_t s_;
  cublasHandle_t h_;
  device_buffer<double> v_, z_, x_, w_;
  device_buffer<float> f_;
  device_buffer<double> partial_, small_, scratch_;
};

// The FP32 matrix of order n generated on the device (then factored when `factor`), as a host
// copy with leading dimension n.
std::vector<float> device_matrix(std::int64_t n, int nb, precision p, bool factor) {
  const std::int64_t lda = cuda_leading_dimension(n);
  device_lu lu(n, lda, nb, p);
  const cudaStream_t s = lu.stream();
  const std::size_t cells = static_cast<std::size_t>(std::max<std::int64_t>(n, 1));
  device_buffer<float> a(static_cast<std::size_t>(lda) * cells);
  device_buffer<double> diag(cells), rowabs(cells), own(cells),
      partial(static_cast<std::size_t>(walk_shape_for(n).chunks) * cells);
  generate_matrix(a.data(), lda, n, false, diag.data(), rowabs.data(), partial.data(), own.data(), s);
  gpu::synchronize(s);
  if (factor) lu.factor(a.data());
  std::vector<float> out(static_cast<std::size_t>(n * n));
  for (std::int64_t j = 0; j < n; ++j)
    gpu::copy_bytes(out.data() + j * n, a.data() + j * lda, sizeof(float) * static_cast<std::size_t>(n));
  return out;
}

}  // namespace

std::vector<float> cuda_generated(std::int64_t n) { return device_matrix(n, 1, precision::fp32, false); }
std::vector<float> cuda_factored(std::int64_t n, int nb, precision p) { return device_matrix(n, nb, p, true); }

result solve_cuda(const options& o) {
  result r;
  r.n = o.n;
  r.nb = o.nb;
  r.be = backend::cuda;
  r.prec = o.prec;
  dist::use_gpu(o.device);
  const std::int64_t n = o.n, lda = cuda_leading_dimension(n);
  gpu::check_device_memory("hpl-mxp", static_cast<std::size_t>(bytes_needed(backend::cuda, o.prec, n, o.nb)));

  device_lu lu(n, lda, o.nb, o.prec);
  const cudaStream_t s = lu.stream();
  device_buffer<float> a(static_cast<std::size_t>(lda * std::max<std::int64_t>(n, 1)));
  device_buffer<double> diag(static_cast<std::size_t>(std::max<std::int64_t>(n, 1))),
      rowabs(static_cast<std::size_t>(std::max<std::int64_t>(n, 1))), b(static_cast<std::size_t>(std::max<std::int64_t>(n, 1)));
  device_space space(n, lda, o.nb, gmres_restart, a.data(), diag.data(), b.data(), s, lu.handle());

  stage(o, "generating the matrix on the device");
  stopwatch sw;
  {
    const walk_shape w = walk_shape_for(n);
    device_buffer<double> partial(static_cast<std::size_t>(std::max<std::int64_t>(1, w.chunks * n)), s),
        own(static_cast<std::size_t>(std::max<std::int64_t>(n, 1)), s);
    generate_matrix(a.data(), lda, n, o.diag == diagonal::zero, diag.data(), rowabs.data(), partial.data(), own.data(),
                    s);
    generate_b(b.data(), n, s);
    r.norm_a = space.norm_inf(rowabs.data());
    r.norm_b = space.norm_inf(b.data());
  }
  gpu::synchronize(s);
  r.t_generate = sw.seconds();

  stage(o, "LU without pivoting (FP32 panels, low-precision trailing updates)");
  sw.restart();
  lu.factor(a.data());
  r.t_lu = sw.seconds();

  stage(o, "GMRES refinement (FP64)");
  sw.restart();
  const gmres_result g = fgmres(space, gmres_restart, o.max_iters, r.norm_a, r.norm_b, threshold);
  gpu::synchronize(s);
  r.t_refine = sw.seconds();
  r.iterations = g.iterations;
  r.restarts = g.restarts;
  r.norm_r = g.norm_r;
  r.norm_x = g.norm_x;
  r.x = space.host_x();
  return r;
}

}  // namespace gpu500::hpl_mxp::detail
