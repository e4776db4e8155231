// Recursive panel factorisation of HPL (internal; used by the CPU solver and, on host memory,
// by the CUDA backend's panel step).
//
// A process of the panel's process column sees the panel as a virtual matrix [T; O]: T is the
// jb x jb top block (global rows k .. k+jb-1), replicated on every process of the column, O are
// the process's own other panel rows (global rows >= k+jb). Every column does a max-loc search
// over T and all O's of the column (one MAXLOC all-reduce and a broadcast of the pivot row, as
// HPL_pdmxswp), then swaps whole panel rows. The variants follow HPL_pdfact:
//   RFACT (recursive): split into NDIV parts until the width is <= NBMIN; left-looking,
//   Crout or right-looking order of the parts' updates (DTRSM on T, DGEMM below).
//   PFACT (base case): left-looking (DTRSV + DGEMV), Crout (DGEMV on column and row), or
//   right-looking (DSCAL + DGER) column by column.
// ipiv receives, for every panel column j, the global position swapped with position k + j
// (LAPACK's sequential convention, global 0-based).
#pragma once

#include <cstdint>
#include <vector>

#include "gpu500/hpl/dat.hpp"
#include "../mpi/comm.hpp"

namespace gpu500::hpl::detail {

struct panel_view {
  int jb = 0;
  std::int64_t k = 0;             ///< global position of T's row 0
  double* t = nullptr;            ///< jb x jb, leading dimension jb
  double* o = nullptr;            ///< mo x jb, leading dimension ldo
  std::int64_t ldo = 1, mo = 0;
  // Global position of O row i: global_of(o_first + i, nb, myrow, nprow).
  std::int64_t o_first = 0;
  int nb = 1, myrow = 0, nprow = 1;
  const comm* col = nullptr;      ///< the process column (size 1 on one process)
};

class panel_offload;

struct panel_opts {
  fact pfact = fact::right, rfact = fact::crout;
  int nbmin = 4, ndiv = 2;
  /// 0: OpenMP threads (at most 16) over the O rows with BLAS single-threaded inside the panel
  /// (the CUDA backend: the cores are free while the GPU updates); 1: serial loops, BLAS as configured
  /// (the CPU backend: its threaded BLAS and spinning OpenMP threads would fight).
  int threads = 1;
  /// With a single process: the recursion's large trailing updates go to this device copy of the
  /// panel (the HPL paper (ISCAS)'s GPU DGEMM inside the panel); nullptr: all on the CPU.
  panel_offload* offload = nullptr;
};

/// GPU DGEMM inside the recursive panel (the HPL paper (ISCAS)), the bookkeeping half: the panel's columns
/// also live in device memory (the CUDA backend copied them down from there). A trailing update
/// of the recursion, rows >= r0 of columns [c0, c1) minus rows >= r0 of the factored columns
/// [k0, k1) times U = T(k0:k1, c0:c1), runs on the device when both widths are >= min_width:
/// the device copy catches up with the host's row swaps, receives what the host changed, runs
/// the DGEMM and the result comes back (the host waits: the next step needs it).
/// Invariant: for a column with sync point p >= 0, the device copy with the swaps of pivots
/// p .. cur-1 applied equals the host's column in every row >= cur (the rows not yet pivoted);
/// the host touches those rows only by swaps, the base case (its columns) and the CPU DGEMM (its
/// columns), which mark them dirty (-1). So a column once factored and sent stays current: only
/// its swaps are applied on the device (no copy), and the right-hand columns of the first DGEMM
/// of a panel are never sent (only swapped).
/// Single process only (one panel_view holds every panel row: T rows 0..jb, O rows jb..jb+mo).
/// The device side is five primitives (CUDA in the CUDA backend, a host copy in the tests).
class panel_offload {
 public:
  explicit panel_offload(int min_width) : min_width_(min_width) {}
  virtual ~panel_offload() = default;
  panel_offload(const panel_offload&) = delete;
  panel_offload& operator=(const panel_offload&) = delete;

  /// A panel starts: the device copy equals the host's in every row and column.
  void begin(const panel_view& v);
  /// The update above on the device; false (nothing done) below the threshold.
  bool gemm(int r0, int c0, int c1, int k0, int k1, const std::int64_t* ipiv);
  /// The host changed rows >= cur of columns [c0, c1) (other than by swaps).
  void dirty(int c0, int c1);
  /// After factor_panel (its pivots): bring the device copy to the factored panel — pending
  /// swaps on the device, T (jb x jb) and only the dirty columns' O rows sent (instead of the
  /// whole panel). Queued, not waited for.
  void finish(const std::int64_t* ipiv);
  /// Updates run on the device since construction (tests, timing).
  long calls() const { return calls_; }
  /// Host seconds spent in the device updates since construction (they wait for the result).
  double seconds() const { return seconds_; }
  int min_width() const { return min_width_; }

 protected:
  // Device primitives. Rows are panel rows (0 = T's row 0, jb + i = O row i), columns panel
  // columns; host blocks are column-major with leading dimension ldh.
  /// For every column in [c0, c1): new row dest[i] = old row src[i] (all read before written).
  virtual void dev_moves(int c0, int c1, const std::vector<std::int64_t>& dest, const std::vector<std::int64_t>& src) = 0;
  virtual void dev_put(std::int64_t r0, std::int64_t nr, int c0, int nc, const double* h, std::int64_t ldh) = 0;
  virtual void dev_get(std::int64_t r0, std::int64_t nr, int c0, int nc, double* h, std::int64_t ldh) = 0;
  /// Rows r0.. of columns [c0, c1) -= rows r0.. of columns [k0, k1) * rows [k0, k1) of [c0, c1).
  virtual void dev_gemm(std::int64_t r0, std::int64_t m, int c0, int c1, int k0, int k1) = 0;
  /// Everything above has finished (the host may read what dev_get wrote).
  virtual void dev_wait() = 0;

 private:
  void catch_up(int c0, int c1, int cur, const std::int64_t* ipiv);
  void put_rows(int r0, int c0, int c1);

  int min_width_;
  long calls_ = 0;
  double seconds_ = 0;
  panel_view v_;
  std::vector<int> sync_;  // per panel column: pivots applied on the device copy; -1: differs
};

/// Factor the panel in place; returns the pivots (global positions). Zero pivots are counted
/// in `zero_pivots` (the factorisation goes on, as HPL's does).
std::vector<std::int64_t> factor_panel(const panel_view& pv, const panel_opts& po, int* zero_pivots = nullptr);

/// The net row movement of the swaps ipiv[0..jb) applied to positions k.. : for every U row t
/// (position k + t) the original position it comes from, and for every other position that
/// changes the original (block) position of its new content.
struct swap_plan {
  std::vector<std::int64_t> u_src;                          ///< jb entries
  std::vector<std::pair<std::int64_t, std::int64_t>> moved;  ///< (dest outside block, src in block)
};
swap_plan plan_swaps(std::int64_t k, int jb, const std::int64_t* ipiv);

}  // namespace gpu500::hpl::detail
