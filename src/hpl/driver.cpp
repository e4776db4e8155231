// One HPL test (HPL_pdtest): allocate and generate, barrier, time the solve, combine the times
// (max over ranks), then check the residual on a regenerated matrix.
#include <ctime>

#include "gpu500/core/error.hpp"
#include "gpu500/core/timer.hpp"
#include "gpu500/dist/placement.hpp"
#include "mpi/comm.hpp"
#include "solver.hpp"

namespace gpu500::hpl {
namespace {
std::string now_text() {
  const std::time_t t = std::time(nullptr);
  char buf[64];
  return ctime_r(&t, buf) ? std::string(buf) : std::string("?\n");
}
}  // namespace

test_result run_test(const params& prm, const grid& g, const run_options& opt) {
  test_result r;
  r.prm = prm;
  GPU500_EXPECTS(prm.p == g.p && prm.q == g.q, "run_test: the grid does not match the parameters");
  if (!g.in_grid) {
    r.skipped = true;
    r.skip_reason = "idle rank";
    return r;
  }
  if (opt.be == backend::cuda) {
    dist::use_gpu_of_rank(g.local_rank);
    r.start_time = now_text();
    detail::cuda_run(prm, g, opt, r);
    r.end_time = now_text();
    r.gflops = r.time > 0 ? hpl_flops(static_cast<double>(prm.n)) / r.time / 1e9 : 0;
    if (!opt.gather_x) r.x.clear();
    return r;
  }
  if (opt.be != backend::cpu) throw usage_error("HPL has cpu and cuda backends only");
  auto m = detail::make_local(prm, g);
  const auto& c = *g.comms;
  c.all.barrier();
  r.start_time = now_text();
  const double t0 = wall_time();
  std::vector<double> x;
  detail::cpu_pdgesv(prm, g, m, x, opt.timing ? &r.iters : nullptr, opt.progress);
  double t = wall_time() - t0;
  r.end_time = now_text();
  c.all.allreduce_max(&t, 1);
  r.time = t;
  r.gflops = t > 0 ? hpl_flops(static_cast<double>(prm.n)) / t / 1e9 : 0;
  m.a.clear();
  m.a.shrink_to_fit();
  detail::check_cpu(prm, g, x, r);
  if (opt.gather_x) r.x = std::move(x);
  return r;
}

}  // namespace gpu500::hpl
