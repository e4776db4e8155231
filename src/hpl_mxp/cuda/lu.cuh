// The CUDA backend's LU without pivoting (internal), one for every P x Q grid of processes, the
// 1 x 1 grid included: this process's part of the FP32 matrix (local_layout, HPL's 2-D
// block-cyclic layout) in device memory, block column by block column (grid_step of
// mpi/grid.hpp), blocked right-looking with look-ahead on two streams:
//   panel stream (high priority): the owner of the NB x NB diagonal block factors it in place
//     (recursive halving: cuBLAS strsm / sgemm in FP32 down to 64 x 64 blocks factored in shared
//     memory) and sends it along its process column and row; the process column computes
//     L21 = A21 U11^-1, the process row U12 = L11^-1 A12 (cublasStrsm, FP32, in place), each
//     rounds its part into the GEMM's precision — BF16 / FP16 (the FP16 L21 scaled by a power
//     of two, as FP16's normal range ends at 6e-5) or FP8 E4M3 (fp8.cuh: L21 transposed, rows
//     padded to 16, a scale per part from its own amax, sent with the part) — and L21 goes along
//     the process rows, U12 along the process columns (bcast.cuh);
//   update stream (low priority): A22 -= L21 U12 on this process's part (cublasGemmEx, FP32
//     accumulation and output, CUBLAS_COMPUTE_32F; FP8: cuBLASLt with both parts' scales, C rows
//     padded to 16 into the part's padding rows) in the three pieces of grid_pieces: the next
//     block column's local columns and the next block row's local rows first, then an event
//     that lets the panel stream factor the next panel, then the rest, which runs while the next
//     panel is factored and sent (look-ahead).
// Two sets of panel copies alternate, so a set is rewritten only after the GEMMs reading its
// previous contents are done (they precede the event the panel stream waits for).
// What a process computed it reads where it lies; a block is copied only to be sent or rounded:
// the owner's trsm reads the diagonal block in the matrix (a copy of it exists only to be sent),
// an FP32 L21 (U12) that no other process needs — one process column (row) — is read by the
// GEMM in the matrix, and an L21 copy that stays keeps the part's leading dimension (one that is
// sent is packed to its rows). So the 1 x 1 grid runs the one-matrix algorithm: nothing is sent
// or copied beyond the low-precision copies, and no NCCL communicator or MPI call is made.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <memory>
#include <string>

#include "../backend.hpp"
#include "bcast.cuh"
#include "fp8.cuh"
#include "gpu500/core/cuda/dynload.hpp"
#include "gpu500/core/cuda/memory.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/hpl_mxp/mxp.hpp"
#include "kernels.cuh"
#include "mpi/grid.hpp"

namespace gpu500::hpl_mxp::detail::cuda {

inline void cublas_check(cublasStatus_t st, const char* what) {
  if (st != CUBLAS_STATUS_SUCCESS)
    throw error(std::string("hpl-mxp: ") + what + ": " + gpu::dynload::cublasGetStatusString(st));
}

/// The power of two the FP16 copies of L21 are multiplied by (L21 is about 2/N in size; the
/// GEMM's alpha divides it out exactly); 1 for BF16 and FP32.
float panel_scale(precision p, std::int64_t n);

/// In-place LU without pivoting of the m x m block at a (leading dimension lda) on stream s with
/// handle h (bound to s): recursive halving, cuBLAS strsm / sgemm in FP32 down to blocks of
/// small_lu_block factored in shared memory.
void factor_diagonal_block(float* a, std::int64_t lda, std::int64_t m, cublasHandle_t h, cudaStream_t s);

/// Rounds the m x n FP32 block src (lds) into dst (ldd) in precision p, times scale: BF16 or FP16
/// bits, or an FP32 copy (scale 1) for fp32.
void copy_low(const float* src, std::int64_t lds, std::int64_t m, std::int64_t n, void* dst, std::int64_t ldd,
              precision p, float scale, cudaStream_t s);
/// The cudaDataType of precision p's GEMM inputs, and their size in bytes.
cudaDataType_t gemm_type(precision p);
std::size_t gemm_bytes(precision p);

/// The LU's two streams — update at the lowest priority, panel at the highest, so that the
/// panel's small kernels take SMs as the update's GEMM tiles finish rather than queueing behind
/// the whole GEMM — a cuBLAS handle on each, and the two events between them.
struct lu_streams {
  lu_streams();
  ~lu_streams();
  lu_streams(const lu_streams&) = delete;
  lu_streams& operator=(const lu_streams&) = delete;
  cudaStream_t update = nullptr, panel = nullptr;
  cublasHandle_t h_update = nullptr, h_panel = nullptr;
  cudaEvent_t panel_done = nullptr, strips_done = nullptr;
};

class device_lu {
 public:
  /// Buffers for this process's part l on grid g (which must outlive it) with trailing updates
  /// in p; `nccl`: the broadcasts go over the grid's NCCL communicators of the process row and
  /// column, made here where those have several processes (collective over them). Throws
  /// usage_error for fp8 with NB not a multiple of 16 or on a GPU without FP8 tensor cores.
  device_lu(const local_layout& l, const process_grid& g, precision p, bool nccl);
  ~device_lu();
  device_lu(const device_lu&) = delete;
  device_lu& operator=(const device_lu&) = delete;

  /// Factors this process's part a (leading dimension l.lld) in place, collective over the grid;
  /// returns when both streams are done.
  void factor(float* a);
  /// The update stream and its handle (the refinement's, after factor()).
  cudaStream_t stream() const { return st_.update; }
  cublasHandle_t handle() const { return st_.h_update; }

 private:
  float* at(float* a, std::int64_t li, std::int64_t lj) const { return a + lj * l_.lld + li; }
  void panel(float* a, const grid_step& st, int set);
  void update(float* a, const grid_step& st, int set);
  void gemm(float* a, const grid_step& st, int set, const gemm_piece& pc);
  /// The leading dimension of a step's L21 copy (mloc rows; 0 when there are none): the part's,
  /// lld, where the copy stays on this process; packed to mloc rounded up to 32 (columns aligned
  /// for the tensor cores) where it is sent along the process row, so that the broadcast carries
  /// little more than its rows.
  std::int64_t l21_ld(std::int64_t mloc) const {
    return mloc <= 0 ? 0 : g_.row().size() > 1 ? cuda_leading_dimension(mloc) : l_.lld;
  }

  local_layout l_;
  const process_grid& g_;
  precision prec_;
  float scale_;
  std::size_t esize_;
  bool l21_in_place_, u12_in_place_;  // FP32 parts no other process needs: the GEMM reads the matrix
  gpu::device_buffer<char> lcopy_[2], ucopy_[2];  // the two sets: BF16 / FP16 / FP32, or FP8 with scales
  gpu::device_buffer<float> d11_;                 // the diagonal block as sent and received
  gpu::device_buffer<float> amax_;                // fp8: the amax reduction's scratch
  lu_streams st_;
  std::unique_ptr<fp8_gemm> lt_;                   // fp8: cuBLASLt on the update stream
  std::unique_ptr<device_bcast> row_, col_;        // along the process row (L21), the process column (U12)
};

}  // namespace gpu500::hpl_mxp::detail::cuda
