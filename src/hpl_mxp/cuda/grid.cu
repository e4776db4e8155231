// The CUDA backend of HPL-MxP on a P x Q grid of MPI processes, one GPU each (o.device). Each
// process keeps its part of A in FP32 on its GPU, in HPL's 2-D block-cyclic layout (the grid of
// mpi/grid.hpp), generated there (kernels.cuh: each thread walks one local row over one local
// column block); the row sums of |A| are summed over the grid for the diagonal.
// LU without pivoting, block column by block column (grid_step), on two streams per GPU:
//   panel stream (high priority): the owner of the diagonal block factors it (recursive
//     halving, lu.cuh) and broadcasts it along its process column and row; the process column
//     computes L21 = A21 U11^-1, the process row U12 = L11^-1 A12 (cublasStrsm, FP32), each
//     rounds its part into the GEMM's precision (BF16 / FP16 / FP32; FP16 L21 scaled by a power
//     of two; FP8 as on one GPU, fp8.cuh: L21 transposed, rows padded to 16, each part with its
//     own scale from its own amax, sent in the same broadcast as the part), and L21 goes along
//     the process rows, U12 along the process columns;
//   update stream: A22 -= L21 U12 (cublasGemmEx, FP32 accumulation; FP8: cuBLASLt with the two
//     received parts' scales, C rows padded to 16 into the local part's padding rows) on the
//     process's part, in three pieces: the next block column's local columns and the next block
//     row's local rows first (an event lets the panel stream start the next block column:
//     look-ahead), then the rest, which runs while the next panel is factored and broadcast.
//   Two sets of L21 / U12 buffers alternate, as on one GPU.
// The broadcasts go GPU to GPU with NCCL on the panel stream where every process has its own
// GPU; processes that share a GPU (--share-gpus, the tests) use MPI on the device buffers when
// MPI accepts device memory, else a host copy.
// GMRES runs as grid_space.hpp describes; this process's products (FP64 A v with A regenerated,
// the block products and diagonal solves of the preconditioner with the FP32 factors) run on
// its GPU.
#include <cublas_v2.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "../backend.hpp"
#include "../gmres.hpp"
#include "../grid_space.hpp"
#include "cpu/lu.hpp"
#include "gpu500/core/cuda/check.cuh"
#include "gpu500/core/cuda/memory.hpp"
#include "gpu500/core/device.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/core/timer.hpp"
#include "gpu500/dist/nccl.hpp"
#include "gpu500/dist/placement.hpp"
#include "kernels.cuh"
#include "lu.cuh"
#include "mpi/grid.hpp"

namespace gpu500::hpl_mxp::detail {

namespace {

using gpu::device_buffer;
using namespace cuda;

// Broadcast of a device buffer over one communicator (see the file comment), ordered on the
// panel stream; `nccl`: the grid's NCCL communicator over the same ranks, or nullptr.
class device_bcast {
 public:
  device_bcast(const dist::communicator& c, const dist::nccl_comm* nccl, cudaStream_t s)
      : c_(c), s_(s), device_mpi_(dist::mpi_accepts_device_memory()), nccl_(nccl) {}
  void operator()(void* buf, std::size_t bytes, int root) {
    if (bytes == 0 || c_.size() < 2) return;
    if (nccl_) {
      nccl_->bcast_bytes(buf, bytes, root, s_);
      return;
    }
    gpu::synchronize(s_);
    if (device_mpi_) {
      c_.bcast_bytes(buf, bytes, root);
      return;
    }
    host_.resize(bytes);
    if (c_.rank() == root) gpu::copy_bytes(host_.data(), buf, bytes);
    c_.bcast_bytes(host_.data(), bytes, root);
    if (c_.rank() != root) gpu::copy_bytes(buf, host_.data(), bytes);
  }

 private:
  const dist::communicator& c_;
  cudaStream_t s_;
  bool device_mpi_;
  const dist::nccl_comm* nccl_;
  std::vector<char> host_;
};

class grid_lu {
 public:
  grid_lu(const local_layout& l, const process_grid& g, precision p, bool nccl)
      : l_(l), g_(g), prec_(p), scale_(panel_scale(p, l.n)), esize_(gemm_bytes(p)) {
    const std::size_t w = static_cast<std::size_t>(std::min(l.nb, std::max<std::int64_t>(l.n, 1)));
    const bool fp8 = p == precision::fp8;
    if (fp8) {
      require_fp8_device();
      GPU500_EXPECTS(l.nb % fp8_nb_multiple == 0, "fp8 needs NB a multiple of 16");
      GPU500_EXPECTS(l.lld >= fp8_rows(l.mp), "the FP8 GEMMs' padding rows lie inside the local part");
    }
    // fp8: the transposed L21 part's rows padded to 16, a scale slot after each part.
    const std::size_t lrows = static_cast<std::size_t>(fp8 ? fp8_rows(l.mp) : l.mp);
    const std::size_t slot = fp8 ? static_cast<std::size_t>(fp8_scale_slot) : 0;
    for (int s = 0; s < 2; ++s) {
      lbuf_[s] = device_buffer<char>(std::max<std::size_t>(1, esize_ * w * lrows + slot));
      ubuf_[s] = device_buffer<char>(std::max<std::size_t>(1, esize_ * w * static_cast<std::size_t>(l.nq) + slot));
    }
    if (fp8) {
      amax_ = device_buffer<float>(fp8_scratch_floats);
      lt_ = std::make_unique<fp8_gemm>(st_.update);
    }
    d11_ = device_buffer<float>(w * w);
    // The grid's NCCL communicators, made (on first use) in the same order on every process:
    // the row's, then the column's.
    const dist::nccl_comm* row_nccl = nccl && g.row().size() > 1 ? &g.row_nccl() : nullptr;
    const dist::nccl_comm* col_nccl = nccl && g.col().size() > 1 ? &g.col_nccl() : nullptr;
    row_ = std::make_unique<device_bcast>(g.row(), row_nccl, st_.panel);
    col_ = std::make_unique<device_bcast>(g.col(), col_nccl, st_.panel);
  }
  ~grid_lu() {
    lt_.reset();  // cuBLASLt before its stream
  }
  grid_lu(const grid_lu&) = delete;
  grid_lu& operator=(const grid_lu&) = delete;

  cudaStream_t stream() const { return st_.update; }
  cublasHandle_t handle() const { return st_.h_update; }

  // Factors this process's part a (lld) in place; returns when both streams are done.
  void factor(float* a) {
    if (l_.n == 0) return;
    if (prec_ == precision::fp8) zero_fp8_padding(a, l_.lld, l_.mp, l_.nq, st_.panel);
    panel(a, grid_step_at(l_.n, l_.nb, 0, g_), 0);
    GPU500_CUDA_CHECK(cudaEventRecord(st_.panel_done, st_.panel));
    int set = 0;
    for (std::int64_t k = 0; k < l_.n; k += l_.nb, set ^= 1) {
      GPU500_CUDA_CHECK(cudaStreamWaitEvent(st_.update, st_.panel_done, 0));
      update(a, grid_step_at(l_.n, l_.nb, k, g_), set);
      if (k + l_.nb < l_.n) {
        GPU500_CUDA_CHECK(cudaStreamWaitEvent(st_.panel, st_.strips_done, 0));
        panel(a, grid_step_at(l_.n, l_.nb, k + l_.nb, g_), set ^ 1);
        GPU500_CUDA_CHECK(cudaEventRecord(st_.panel_done, st_.panel));
      }
    }
    GPU500_CUDA_CHECK(cudaStreamSynchronize(st_.panel));
    GPU500_CUDA_CHECK(cudaStreamSynchronize(st_.update));
  }

 private:
  float* at(float* a, std::int64_t li, std::int64_t lj) const { return a + lj * l_.lld + li; }

  // The diagonal block, L21 and U12 of step st into buffer set `set`, broadcast (file comment).
  void panel(float* a, const grid_step& st, int set) {
    const std::int64_t jb = st.jb;
    const int ijb = static_cast<int>(jb), ld = static_cast<int>(l_.lld);
    if (st.in_row && st.in_col) {
      factor_diagonal_block(at(a, st.li0, st.lj0), l_.lld, jb, st_.h_panel, st_.panel);
      GPU500_CUDA_CHECK(cudaMemcpy2DAsync(d11_.data(), sizeof(float) * jb, at(a, st.li0, st.lj0),
                                          sizeof(float) * l_.lld, sizeof(float) * jb, jb,
                                          cudaMemcpyDeviceToDevice, st_.panel));
    }
    const std::size_t d11_bytes = sizeof(float) * static_cast<std::size_t>(jb * jb);
    if (st.in_col) (*col_)(d11_.data(), d11_bytes, st.pr);
    if (st.in_row) (*row_)(d11_.data(), d11_bytes, st.pc);
    const float one = 1.0f;
    if (st.in_col && st.mloc > 0) {
      cublas_check(gpu::dynload::cublasStrsm(st_.h_panel, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER,
                                             CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, static_cast<int>(st.mloc),
                                             ijb, &one, d11_.data(), ijb, at(a, st.li1, st.lj0), ld),
                   "cublasStrsm (L21)");
      if (prec_ == precision::fp8)
        copy_fp8(at(a, st.li1, st.lj0), l_.lld, st.mloc, jb, true, lbuf_[set].data(), amax_.data(), st_.panel);
      else
        copy_low(at(a, st.li1, st.lj0), l_.lld, st.mloc, jb, lbuf_[set].data(), st.mloc, prec_, scale_,
                 st_.panel);
    }
    if (st.in_row && st.nloc > 0) {
      cublas_check(gpu::dynload::cublasStrsm(st_.h_panel, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER,
                                             CUBLAS_OP_N, CUBLAS_DIAG_UNIT, ijb, static_cast<int>(st.nloc),
                                             &one, d11_.data(), ijb, at(a, st.li0, st.lj1), ld),
                   "cublasStrsm (U12)");
      if (prec_ == precision::fp8)
        copy_fp8(at(a, st.li0, st.lj1), l_.lld, jb, st.nloc, false, ubuf_[set].data(), amax_.data(), st_.panel);
      else
        copy_low(at(a, st.li0, st.lj1), l_.lld, jb, st.nloc, ubuf_[set].data(), jb, prec_, 1.0f, st_.panel);
    }
    // A process row shares its local rows (the same mloc), a process column its columns; an FP8
    // part travels with its padding and scale.
    const bool fp8 = prec_ == precision::fp8;
    (*row_)(lbuf_[set].data(),
            fp8 ? fp8_copy_bytes(st.mloc, jb, true) : esize_ * static_cast<std::size_t>(st.mloc * jb), st.pc);
    (*col_)(ubuf_[set].data(),
            fp8 ? fp8_copy_bytes(jb, st.nloc, false) : esize_ * static_cast<std::size_t>(st.nloc * jb), st.pr);
  }

  // A22 -= L21 U12 on this process's part: the next block column's and block row's local
  // columns and rows, the event, the rest.
  void update(float* a, const grid_step& st, int set) {
    if (st.mloc <= 0 || st.nloc <= 0) {
      GPU500_CUDA_CHECK(cudaEventRecord(st_.strips_done, st_.update));
      return;
    }
    const std::int64_t next = st.k + st.jb, jn = std::min(l_.nb, l_.n - next);
    const bool more = next < l_.n;
    const std::int64_t cols_first = more && g_.mycol() == (st.kb + 1) % g_.q() ? jn : 0;
    const std::int64_t rows_first = more && g_.myrow() == (st.kb + 1) % g_.p() ? jn : 0;
    // fp8: row0 is 0 or a whole block (a multiple of 16), so rows padded to 16 end at most at
    // fp8_rows(mloc), inside the L21 part's zero padding and the local part's padding rows.
    const char* l8 = lbuf_[set].data();
    const char* u8 = ubuf_[set].data();
    const float* sl = fp8_scale_in(l8, fp8_data_bytes(st.mloc, st.jb, true));
    const float* su = fp8_scale_in(u8, fp8_data_bytes(st.jb, st.nloc, false));
    auto gemm = [&](std::int64_t row0, std::int64_t rows, std::int64_t col0, std::int64_t cols) {
      if (rows <= 0 || cols <= 0) return;
      if (prec_ == precision::fp8) {
        lt_->run(fp8_rows(rows), cols, st.jb, l8 + row0 * st.jb, st.jb, sl, u8 + col0 * st.jb, st.jb, su,
                 at(a, st.li1 + row0, st.lj1 + col0), l_.lld);
        return;
      }
      const float alpha = -1.0f / scale_, beta = 1.0f;
      const cudaDataType_t t = gemm_type(prec_);
      cublas_check(gpu::dynload::cublasGemmEx(
                       st_.h_update, CUBLAS_OP_N, CUBLAS_OP_N, static_cast<int>(rows), static_cast<int>(cols),
                       static_cast<int>(st.jb), &alpha, lbuf_[set].data() + esize_ * row0, t,
                       static_cast<int>(st.mloc), ubuf_[set].data() + esize_ * col0 * st.jb, t,
                       static_cast<int>(st.jb), &beta, at(a, st.li1 + row0, st.lj1 + col0), CUDA_R_32F,
                       static_cast<int>(l_.lld), CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
                   "cublasGemmEx (trailing update)");
    };
    gemm(0, st.mloc, 0, cols_first);
    gemm(0, rows_first, cols_first, st.nloc - cols_first);
    GPU500_CUDA_CHECK(cudaEventRecord(st_.strips_done, st_.update));
    gemm(rows_first, st.mloc - rows_first, cols_first, st.nloc - cols_first);
  }

  local_layout l_;
  const process_grid& g_;
  precision prec_;
  float scale_;
  std::size_t esize_;
  device_buffer<char> lbuf_[2], ubuf_[2];
  device_buffer<float> d11_, amax_;
  lu_streams st_;
  std::unique_ptr<fp8_gemm> lt_;  // fp8: cuBLASLt on the update stream
  std::unique_ptr<device_bcast> row_, col_;
};

// This process's part for the grid's GMRES (grid_space.hpp), on its GPU.
class device_part final : public grid_part {
 public:
  device_part(const local_layout& l, const float* a, const double* diag, cudaStream_t s, cublasHandle_t h)
      : l_(l),
        a_(a),
        diag_(diag),
        s_(s),
        h_(h),
        v_(static_cast<std::size_t>(std::max<std::int64_t>(l.n, 1))),
        y_(static_cast<std::size_t>(std::max<std::int64_t>(l.mp, 1))),
        partial_(static_cast<std::size_t>(std::max<std::int64_t>(1, l.column_blocks() * l.mp))),
        xl_(static_cast<std::size_t>(std::max<std::int64_t>(l.nq, 1))),
        s_dev_(static_cast<std::size_t>(std::max<std::int64_t>(l.nb, 1))),
        y_host_(static_cast<std::size_t>(l.mp)),
        grow_(static_cast<std::size_t>(l.mp)) {
    for (std::int64_t i = 0; i < l.mp; ++i) grow_[i] = hpl::global_of(i, l.nb, l.myrow, l.p);
  }
  void add_product(const double* v, double* full) override {
    if (l_.mp == 0) return;
    gpu::copy_bytes_async(v_.data(), v, sizeof(double) * static_cast<std::size_t>(l_.n), s_);
    local_matvec(l_, diag_, v_.data(), y_.data(), partial_.data(), s_);
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

result solve_cuda_grid(const options& o) {
  const dist::communicator world = dist::communicator::world();
  check_grid_size(world, o.p, o.q);
  const process_grid g(world, o.p, o.q);
  const int count = dist::gpu_count();
  dist::use_gpu(o.device);
  result r;
  r.n = o.n;
  r.nb = o.nb;
  r.be = backend::cuda;
  r.prec = o.prec;
  local_layout l;
  l.n = o.n;
  l.nb = std::max(1, o.nb);
  l.p = g.p();
  l.q = g.q();
  l.myrow = g.myrow();
  l.mycol = g.mycol();
  l.mp = hpl::numroc(l.n, l.nb, g.myrow(), g.p());
  l.nq = hpl::numroc(l.n, l.nb, g.mycol(), g.q());
  l.lld = cuda_leading_dimension(l.mp);

  // Memory, checked on every process before any allocation; processes that share a GPU share
  // its free memory.
  const int sharing = dist::ranks_on_gpu_of(g.all().node_rank(), g.all().node_size(), count);
  const std::int64_t need = bytes_needed(backend::cuda, o.prec, o.n, o.nb, o.p, o.q);
  const std::int64_t free_bytes = static_cast<std::int64_t>(gpu::device_memory().first) / sharing;
  if (!g.all().all(need <= free_bytes))
    throw resource_error("hpl-mxp: N = " + std::to_string(o.n) + " on a " + std::to_string(o.p) + " x " +
                         std::to_string(o.q) + " grid needs " + std::to_string(need) +
                         " bytes of device memory per process; a process has " + std::to_string(free_bytes) +
                         " here, and some process has less than it needs");
  // NCCL needs a GPU of its own on every process.
  const bool nccl = o.nccl && dist::nccl_available() && g.all().all(sharing == 1);

  grid_lu lu(l, g, o.prec, nccl);
  const cudaStream_t s = lu.stream();
  device_buffer<float> a(static_cast<std::size_t>(l.lld * std::max<std::int64_t>(l.nq, 1)));
  device_buffer<double> diag(static_cast<std::size_t>(std::max<std::int64_t>(l.n, 1)));

  stage(o, "generating the matrix on the devices (P x Q grid)");
  g.all().barrier();
  stopwatch sw;
  row_sums sums;
  {
    device_buffer<double> rowabs(static_cast<std::size_t>(std::max<std::int64_t>(l.mp, 1))),
        own(static_cast<std::size_t>(std::max<std::int64_t>(l.mp, 1))),
        partial(static_cast<std::size_t>(std::max<std::int64_t>(1, l.column_blocks() * l.mp)));
    generate_local(a.data(), l, rowabs.data(), own.data(), partial.data(), s);
    const std::vector<double> h_rowabs = gpu::to_host(rowabs.data(), static_cast<std::size_t>(l.mp));
    const std::vector<double> h_own = gpu::to_host(own.data(), static_cast<std::size_t>(l.mp));
    std::vector<double> full_sums(static_cast<std::size_t>(l.n), 0.0),
        full_own(static_cast<std::size_t>(l.n), 0.0);
    for (std::int64_t i = 0; i < l.mp; ++i) {
      const std::int64_t gi = hpl::global_of(i, l.nb, l.myrow, l.p);
      full_sums[gi] = h_rowabs[i];
      full_own[gi] = h_own[i];
    }
    sums = grid_row_sums(full_sums, full_own, o.diag, g);
    if (l.n > 0)
      gpu::copy_bytes(diag.data(), sums.diag.data(), sizeof(double) * static_cast<std::size_t>(l.n));
    set_local_diagonal(a.data(), l, diag.data(), s);
    gpu::synchronize(s);
  }
  const std::vector<double> b = generate_b(o.n);
  r.t_generate = slowest(g, sw);

  stage(o, "LU without pivoting (FP32 panels, low-precision trailing updates, P x Q grid)");
  g.all().barrier();
  sw.restart();
  lu.factor(a.data());
  r.t_lu = slowest(g, sw);

  stage(o, "GMRES refinement (FP64)");
  device_part part(l, a.data(), diag.data(), s, lu.handle());
  refine_on_grid(r, o, part, g, sums, b);
  return r;
}

}  // namespace gpu500::hpl_mxp::detail
