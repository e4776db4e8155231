// The set-up run_program and run_tune share (setup.hpp): MPI, placement, the agreed device
// class and memory, the short form's defaults and the per-test options.
#include "setup.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

#include "gpu500/core/error.hpp"

namespace gpu500::hpl::detail {

mpi_session::mpi_session() : world(dist::communicator::world()) {
  rank = world.rank();
  size = world.size();
}

namespace {

// Rank 0's value everywhere.
int from_rank0(int v, const mpi_session& mpi) { return mpi.world.bcast(v, 0); }

// The smallest value over the ranks.
std::int64_t min_over_ranks(std::int64_t v, const mpi_session& mpi) {
  return mpi.world.allreduce(v, dist::reduce_op::min);
}

double gib(std::int64_t b) { return static_cast<double>(b) / static_cast<double>(std::int64_t{1} << 30); }

/// HPL's rate on the CPU backend over the DGEMM probe's: above 1, as the trailing updates of a
/// large N run faster than the probe's small one, more than the panels, swaps and solves cost
/// (measured 1.53 with OpenBLAS on 2 cores: 65.5 GFLOP/s at N = 9024, the probe 42.7; docs/hpl.md).
constexpr double cpu_hpl_share_of_dgemm = 1.5;

}  // namespace

run_setup set_up(const program_settings& s, const mpi_session& mpi) {
  run_setup st;
  st.place = dist::place_process(s.be, s.share_gpus);
  if (mpi.size > 1 || !st.place.cores.empty()) std::fprintf(stderr, "%s\n", dist::describe(st.place, mpi.rank).c_str());
  st.cls = static_cast<device_class>(from_rank0(static_cast<int>(this_device_class(s.be, st.place.gpu)), mpi));
  return st;
}

params resolve_short_form(const program_settings& s, const run_setup& setup, const mpi_session& mpi) {
  params p = *s.short_form;
  if (s.nb_default) p.nb = defaults_for(setup.cls, p.p * p.q == 1).nb;
  if (p.n != auto_n) return p;
  const std::int64_t mem = min_over_ranks(memory_for_sizing(s.be, setup.place.gpu, setup.place.local_size), mpi);
  const sizing z = choose_n(s.be, mem, p.p, p.q, p.nb);
  if (z.n <= 0)
    throw resource_error("hpl: no N fits: " + std::to_string(gib(mem)) + " GiB per process (give -N)");
  p.n = z.n;
  if (s.be == backend::cpu) {
    // On the CPU the memory allows runs of hours: N is also held to what ends in about a minute
    // at the rate a DGEMM probe measures (the slowest rank's, times the grid).
    const double grid_rate =
        static_cast<double>(min_over_ranks(static_cast<std::int64_t>(cpu_gemm_rate(false)), mpi)) * p.p * p.q *
        cpu_hpl_share_of_dgemm;
    p.n = cpu_default_n("hpl", "a DGEMM", z.n, "fits half the available host memory", grid_rate, p.nb, mpi.rank == 0);
    return p;
  }
  if (mpi.rank == 0) {
    std::fprintf(stderr,
                 "hpl: N = %lld (largest multiple of NB %d that fits %s: %.2f GiB per process of %.2f GiB, "
                 "margin %.2f GiB%s)\n",
                 static_cast<long long>(z.n), p.nb, s.be == backend::cuda ? "the GPU memory" : "half the available host memory",
                 gib(z.bytes_used), gib(mem), gib(z.margin),
                 s.be == backend::cuda ? ": 6 % or 2 GiB, the larger" : ": the other half");
  }
  return p;
}

run_options base_options(const program_settings& s) {
  run_options o;
  o.be = s.be;
  o.swap_stream = !s.no_swap_stream;
  o.device_mpi = !s.no_cuda_aware_mpi;
  o.nccl = !s.no_nccl;
  o.timing = !s.timing_path.empty();
  return o;
}

run_options test_options(const program_settings& s, const run_options& base, device_class cls, const params& t) {
  run_options o = base;
  const tuned_defaults d = defaults_for_grid(cls, t.p, t.q);
  o.tail_getrf = s.tail_getrf.value_or(d.tail_getrf.value_or(t.n / 3));
  o.gpu_panel = s.gpu_panel.value_or(d.gpu_panel);
  o.gpu_panel_first = s.gpu_panel_first.value_or(d.gpu_panel_first);
  o.panel_gemm_gpu = static_cast<int>(s.panel_gemm_gpu.value_or(d.panel_gemm_gpu));
  return o;
}

}  // namespace gpu500::hpl::detail
