// The CUDA backend of HPL-MxP, one solver for every P x Q grid of MPI processes (mpi/grid.hpp),
// one GPU each (o.device), the 1 x 1 grid included: there the grid is the process alone (a
// one-rank communicator, no MPI, also when solve is called with 1 x 1 in a run of several
// processes), its part is the whole matrix, and no broadcast, sum over the grid or NCCL
// communicator happens. Each process checks its GPU's memory before any allocation, generates
// its part of A in FP32 on the GPU (kernels.cuh) with the row sums of |A| summed over the grid
// for the diagonal, factors it without pivoting with low-precision trailing updates over the
// grid (lu.cuh), and refines in FP64 (refine.cuh: on the 1 x 1 grid with every vector on the
// GPU, on larger grids through grid_space.hpp). Also here: the test hooks cuda_generated and
// cuda_factored, the same pieces on the 1 x 1 grid.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "../backend.hpp"
#include "../grid_space.hpp"
#include "cpu/lu.hpp"
#include "gpu500/core/cuda/memory.hpp"
#include "gpu500/core/device.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/core/timer.hpp"
#include "gpu500/dist/nccl.hpp"
#include "gpu500/dist/placement.hpp"
#include "kernels.cuh"
#include "lu.cuh"
#include "mpi/grid.hpp"
#include "refine.cuh"

namespace gpu500::hpl_mxp::detail {

namespace {

using gpu::device_buffer;
using namespace cuda;

std::size_t at_least_one(std::int64_t n) { return static_cast<std::size_t>(std::max<std::int64_t>(n, 1)); }

// The memory plan (bytes_needed) against the GPU's free memory, on every process before any
// allocation; `sharing` processes share this GPU and its free memory. Collective over g.
void check_device_memory(const options& o, const process_grid& g, int sharing) {
  const std::int64_t need = bytes_needed(backend::cuda, o.prec, o.n, o.nb, o.p, o.q);
  const std::int64_t share = static_cast<std::int64_t>(gpu::device_memory().first) / sharing;
  if (g.all().all(need <= share)) return;
  throw resource_error("hpl-mxp: N = " + std::to_string(o.n) + " on a " + std::to_string(o.p) + " x " +
                       std::to_string(o.q) + " grid needs " + human_bytes(static_cast<double>(need)) +
                       " of device memory per process; " + human_bytes(static_cast<double>(share)) + " is free here" +
                       (sharing > 1 ? " for each of the " + std::to_string(sharing) + " processes on this GPU" : "") +
                       (g.all().size() > 1 ? ", and some process has less than it needs" : ""));
}

// This process's part of A into a (l.lld) with its diagonal entries, and the whole diagonal
// into diag (device, n doubles by global row), on stream s; returns the diagonal and ||A||_oo.
// Collective over g: each process's row sums are summed over the grid.
row_sums generate_part(const local_layout& l, diagonal d, const process_grid& g, float* a, double* diag,
                       cudaStream_t s) {
  device_buffer<double> rowabs(at_least_one(l.mp)), own(at_least_one(l.mp)), partial(at_least_one(l.chunks() * l.mp));
  generate_local(a, l, rowabs.data(), own.data(), partial.data(), s);
  gpu::synchronize(s);
  const std::vector<double> part_sums = gpu::to_host(rowabs.data(), static_cast<std::size_t>(l.mp));
  const std::vector<double> part_own = gpu::to_host(own.data(), static_cast<std::size_t>(l.mp));
  std::vector<double> sums(static_cast<std::size_t>(l.n), 0.0), owns(static_cast<std::size_t>(l.n), 0.0);
  for (std::int64_t li = 0; li < l.mp; ++li) {
    const std::int64_t gi = hpl::global_of(li, l.nb, l.myrow, l.p);
    sums[gi] = part_sums[li];
    owns[gi] = part_own[li];
  }
  row_sums out = grid_row_sums(sums, owns, d, g);
  gpu::copy_bytes(diag, out.diag.data(), sizeof(double) * static_cast<std::size_t>(l.n));
  set_local_diagonal(a, l, diag, s);
  gpu::synchronize(s);
  return out;
}

// The order-n matrix as the device generates it (and, when `factor`, as the LU with blocks of nb
// and updates in p leaves it), on the 1 x 1 grid, copied to the host with leading dimension n.
std::vector<float> matrix_on_host(std::int64_t n, int nb, precision p, bool factor) {
  const process_grid g(dist::communicator(), 1, 1);
  const local_layout l = local_layout_of(n, nb, 0, 0, 1, 1);
  device_lu lu(l, g, p, false);
  device_buffer<float> a(static_cast<std::size_t>(l.lld) * at_least_one(n));
  device_buffer<double> diag(at_least_one(n));
  generate_part(l, diagonal::reference, g, a.data(), diag.data(), lu.stream());
  if (factor) lu.factor(a.data());
  std::vector<float> out(static_cast<std::size_t>(n * n));
  for (std::int64_t j = 0; j < n; ++j)
    gpu::copy_bytes(out.data() + j * n, a.data() + j * l.lld, sizeof(float) * static_cast<std::size_t>(n));
  return out;
}

}  // namespace

std::vector<float> cuda_generated(std::int64_t n) { return matrix_on_host(n, 1, precision::fp32, false); }
std::vector<float> cuda_factored(std::int64_t n, int nb, precision p) { return matrix_on_host(n, nb, p, true); }

result solve_cuda(const options& o) {
  const bool alone = static_cast<long>(o.p) * o.q == 1;
  const dist::communicator world = alone ? dist::communicator() : dist::communicator::world();
  check_grid_size(world, o.p, o.q);
  const process_grid g(world, o.p, o.q);
  dist::use_gpu(o.device);
  result r;
  r.n = o.n;
  r.nb = o.nb;
  r.be = backend::cuda;
  r.prec = o.prec;
  const int sharing = dist::ranks_on_gpu_of(g.all().node_rank(), g.all().node_size(), dist::gpu_count());
  check_device_memory(o, g, sharing);
  // NCCL needs a GPU of its own on every process; the 1 x 1 grid sends nothing.
  const bool nccl = !alone && o.nccl && dist::nccl_available() && g.all().all(sharing == 1);

  const local_layout l = local_layout_of(o.n, o.nb, g.myrow(), g.mycol(), g.p(), g.q());
  device_lu lu(l, g, o.prec, nccl);
  const cudaStream_t s = lu.stream();
  device_buffer<float> a(static_cast<std::size_t>(l.lld) * at_least_one(l.nq));
  device_buffer<double> diag(at_least_one(l.n));

  stage(o, alone ? "generating the matrix on the device" : "generating the matrix on the devices (P x Q grid)");
  g.all().barrier();
  stopwatch sw;
  const row_sums sums = generate_part(l, o.diag, g, a.data(), diag.data(), s);
  const std::vector<double> b = generate_b(o.n);
  r.t_generate = slowest(g, sw);

  stage(o, alone ? "LU without pivoting (FP32 panels, low-precision trailing updates)"
                 : "LU without pivoting (FP32 panels, low-precision trailing updates, P x Q grid)");
  g.all().barrier();
  sw.restart();
  lu.factor(a.data());
  r.t_lu = slowest(g, sw);

  stage(o, "GMRES refinement (FP64)");
  refine(r, o, l, a.data(), diag.data(), g, sums, b, s, lu.handle());
  return r;
}

}  // namespace gpu500::hpl_mxp::detail
