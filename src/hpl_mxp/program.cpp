// The `gpu500 hpl-mxp` run (run_program in gpu500/hpl_mxp/mxp.hpp): MPI, defaults for N and NB,
// the grid against the processes started, the header (rank 0), one solve, the result block in the layout of the HPL-MxP
// implementations ("HPL MxP Result": norms, the scaled residual with PASSED / FAILED, GFLOPS and
// LU GFLOPS) after the reference's time lines, and the same figures as JSON. A run in a precision
// the rules no longer accept (fp8: below 16 bits) says so in one line and in "valid_submission".
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "gpu500/core/device.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/core/json.hpp"
#include "gpu500/dist/comm.hpp"
#include "gpu500/hpl/defaults.hpp"
#include "gpu500/dist/placement.hpp"
#include "gpu500/hpl_mxp/mxp.hpp"

namespace gpu500::hpl_mxp {

namespace {

/// HPL-MxP's rate on the CPU backend (LU and refinement) over the SGEMM probe's (measured 0.77
/// with OpenBLAS on 2 cores: 107 GFLOP/s at N = 12544, the probe 139; docs/hpl-mxp.md).
constexpr double cpu_lu_share_of_sgemm = 0.75;

// More than one process started by a launcher (Open MPI, MPICH / PMI, PMIx): in a build without
// MPI each would run alone.
int launched_processes() {
  int most = 1;
  for (const char* var : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"})
    if (const char* v = std::getenv(var)) most = std::max(most, std::atoi(v));
  return most;
}

// The device the run uses: the GPU's name, or "CPU".
std::string device_name(const options& o) {
  if (o.be != backend::cuda) return "CPU";
  const auto devs = cuda_devices();
  return devs.empty() ? "CUDA device" : devs[static_cast<std::size_t>(std::max(0, o.device)) % devs.size()].name;
}

void print_header(const options& o) {
  const char* rule = "================================================================================";
  std::printf("%s\n", rule);
  std::printf("HPL-MxP: mixed-precision HPL -- LU without pivoting in low precision,\n");
  std::printf("GMRES refinement in FP64 (rules of hpl-mxp.org, HPL-AI reference generator)\n");
  std::printf("%s\n\n", rule);
  std::printf("N         : %lld\n", static_cast<long long>(o.n));
  std::printf("NB        : %d\n", o.nb);
  std::printf("P x Q     : %d x %d\n", o.p, o.q);
  std::printf("Backend   : %s (%s)\n", backend_name(o.be), device_name(o).c_str());
  std::printf("Precision : %s (trailing-update inputs; FP32 matrix, panels and accumulation)\n", precision_name(o.prec));
  std::printf("Max iters : %d (GMRES, restart %d)\n\n", o.max_iters, gmres_restart);
  std::fflush(stdout);
}

void print_result(const result& r, int p, int q) {
  std::printf("Time spent in generation (untimed) : %12.3f second\n", r.t_generate);
  std::printf("Time spent in factorization        : %12.3f second\n", r.t_lu);
  std::printf("Time spent in GMRES                : %12.3f second\n", r.t_refine);
  std::printf("Total time                         : %12.3f second\n", r.t_total);
  std::printf("GMRES iterations                   : %12d (%d restart%s)\n\n", r.iterations, r.restarts,
              r.restarts == 1 ? "" : "s");
  const char* dots = ". . . . . . . . . . . . . . . . .";
  std::printf(" ****** HPL MxP Result    ******\n\n");
  std::printf("   EPS           %s          = %15.6E\n", dots, std::ldexp(1.0, -53));
  std::printf("   Threshold     %s          = %15.6E\n", dots, threshold);
  std::printf(" ||Ax-b||_oo     %s          = %15.6E\n", dots, r.norm_r);
  std::printf(" ||A   ||_oo     %s          = %15.6E\n", dots, r.norm_a);
  std::printf(" ||x   ||_oo     %s          = %15.6E\n", dots, r.norm_x);
  std::printf(" ||b   ||_oo     %s          = %15.6E\n", dots, r.norm_b);
  std::printf(" ||Ax-b||_oo / (EPS * (||A||_oo * ||x||_oo + ||b||_oo) * N) = %15.6E ...... %s\n\n", r.backward_error,
              r.passed ? "PASSED" : "FAILED");
  const char* per = r.be == backend::cuda ? "GPU" : "process";
  const double procs = static_cast<double>(p) * q;
  std::printf("   N = %lld, NB = %d, NPROW = %d, NPCOL = %d, PRECISION = %s\n", static_cast<long long>(r.n), r.nb, p, q,
              precision_name(r.prec));
  std::printf("      GFLOPS = %.4e, per %s = %10.2f ------ The HPL-MxP performance to report\n", r.gflops, per,
              r.gflops / procs);
  std::printf("   LU GFLOPS = %.4e, per %s = %10.2f ------ The performance excluding the iterative solver part\n\n",
              r.lu_gflops, per, r.lu_gflops / procs);
  if (!valid_for_submission(r.prec))
    std::printf("   %s: not a valid HPL-MxP submission (the rules ask for at least 16 bits)\n\n", precision_name(r.prec));
  std::printf(" ****** HPL MxP Result    ******\n");
  std::fflush(stdout);
}

json::value to_json(const result& r, const options& o) {
  json::value v = json::value::make_object();
  v["benchmark"] = "hpl-mxp";
  v["device"] = device_name(o);
  v["n"] = r.n;
  v["nb"] = r.nb;
  v["p"] = o.p;
  v["q"] = o.q;
  v["backend"] = backend_name(r.be);
  v["precision"] = precision_name(r.prec);
  v["max_iters"] = o.max_iters;
  v["time_generate"] = r.t_generate;
  v["time_lu"] = r.t_lu;
  v["time_refine"] = r.t_refine;
  v["time_total"] = r.t_total;
  v["gflops"] = r.gflops;
  v["lu_gflops"] = r.lu_gflops;
  v["iterations"] = r.iterations;
  v["restarts"] = r.restarts;
  v["eps"] = std::ldexp(1.0, -53);
  v["threshold"] = threshold;
  v["norm_r"] = r.norm_r;
  v["norm_a"] = r.norm_a;
  v["norm_x"] = r.norm_x;
  v["norm_b"] = r.norm_b;
  v["backward_error"] = r.backward_error;
  v["passed"] = r.passed;
  // A result the rules accept: passed, and computed in at least 16 bits (never for fp8).
  v["valid_submission"] = r.passed && valid_for_submission(r.prec);
  return v;
}

}  // namespace

int run_program(program_settings s) {
  dist::mpi_session mpi;
  const dist::communicator world = dist::communicator::world();
  options& o = s.opt;
  const long grid = static_cast<long>(o.p) * o.q;
  if (world.size() == 1 && launched_processes() > 1)
    throw usage_error("hpl-mxp: started as several processes, but this gpu500 was built without MPI");
  if (grid != world.size())
    throw usage_error("hpl-mxp: -P " + std::to_string(o.p) + " -Q " + std::to_string(o.q) + " needs " +
                      std::to_string(grid) + " processes, " + std::to_string(world.size()) +
                      " were started (mpirun -np P*Q)");
  if (o.be == backend::cuda && !cuda_available())
    throw usage_error("hpl-mxp: --backend cuda, but no CUDA device is available (or this gpu500 has no CUDA backend)");
  // A grid on GPUs: one process per GPU, by node-local rank, bound to the cores nearest it (as
  // gpu500 hpl); with --share-gpus several processes may share one.
  int sharing = 1;
  if (o.be == backend::cuda && world.size() > 1) {
    const dist::placement place = dist::place_process(backend::cuda, s.share_gpus, "hpl-mxp");
    o.device = place.gpu;
    const int count = static_cast<int>(cuda_devices().size());
    sharing = dist::ranks_on_gpu_of(place.local_rank, place.local_size, count);
  }
  if (s.auto_nb) o.nb = default_nb(o.be, o.device);
  if (s.auto_n) {
    // The memory of one process (its share of the host, or of its GPU), the smallest over the grid.
    const std::int64_t mem =
        world.allreduce(hpl::memory_for_sizing(o.be, o.device, world.node_size()) / sharing, dist::reduce_op::min);
    o.n = choose_n(o.be, o.prec, mem, std::max(1, o.nb), o.p, o.q);
    if (o.n == 0)
      throw resource_error("hpl-mxp: not even N = NB = " + std::to_string(o.nb) + " fits in " +
                           human_bytes(static_cast<double>(mem)) + " of memory");
    if (o.be == backend::cpu) {
      // As gpu500 hpl on the CPU: N also held to a run of about a minute, at the rate an SGEMM
      // probe measures (the slowest rank's, times the grid) times HPL-MxP's measured rate over it.
      const double rate = static_cast<double>(world.allreduce(static_cast<std::int64_t>(hpl::cpu_gemm_rate(true)),
                                                              dist::reduce_op::min)) *
                          o.p * o.q * cpu_lu_share_of_sgemm;
      o.n = hpl::cpu_default_n("hpl-mxp", "an SGEMM", o.n, "fits the memory", rate, std::max(1, o.nb), world.rank() == 0);
    }
  }
  const bool rank0 = world.rank() == 0;
  o.progress = !s.quiet && rank0;
  check_options(o);
  if (rank0) print_header(o);
  const result r = solve(o);
  if (rank0) {
    print_result(r, o.p, o.q);
    if (!s.json_path.empty()) json::write_file(s.json_path, to_json(r, o));
  }
  return r.passed ? 0 : 1;
}

}  // namespace gpu500::hpl_mxp
