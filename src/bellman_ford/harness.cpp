// The one host harness of dense Bellman-Ford: names and parsers of the variants and schedules, the
// engine factory, and the round loop with early exit, negative-cycle check and timing, identical
// for every engine (see bellman_ford.hpp); the stand-ins of the CUDA-only functions in a build
// without CUDA.
#include <string>

#include "engines.hpp"
#include "gpu500/bellman_ford/sync_floor.hpp"
#include "gpu500/config.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/core/timer.hpp"

namespace gpu500::bellman_ford {

const char* variant_name(variant v) {
  switch (v) {
    case variant::naive: return "naive";
    case variant::reduce: return "reduce";
    case variant::coarse: return "coarse";
  }
  return "?";
}

const char* engine_name(engine_kind k) {
  switch (k) {
    case engine_kind::serial: return "serial";
    case engine_kind::openmp: return "openmp";
    case engine_kind::cuda: return "cuda";
    case engine_kind::opencl: return "opencl";
  }
  return "?";
}

const char* status_name(status s) { return s == status::ok ? "ok" : "negative cycle"; }

const char* schedule_name(schedule s) {
  switch (s) {
    case schedule::launch: return "launch";
    case schedule::skip: return "skip";
    case schedule::resident: return "resident";
  }
  return "?";
}

schedule parse_schedule(const std::string& s) {
  if (s == "launch") return schedule::launch;
  if (s == "skip") return schedule::skip;
  if (s == "resident") return schedule::resident;
  throw usage_error("--schedules: expected launch, skip or resident; got '" + s + "'");
}

engine::resident_outcome engine::solve_resident(variant, index_t, index_t, bool) {
  throw usage_error(std::string("bellman-ford: the ") + engine_name(kind()) + " engine has no resident schedule");
}

variant parse_variant(const std::string& s) {
  if (s == "naive") return variant::naive;
  if (s == "reduce") return variant::reduce;
  if (s == "coarse") return variant::coarse;
  throw usage_error("--variant: expected naive, reduce or coarse; got '" + s + "'");
}

layout layout_for(engine_kind k, variant v) {
  if (k == engine_kind::serial || k == engine_kind::openmp) return layout::by_source;
  return v == variant::coarse ? layout::by_target : layout::by_source;
}

namespace detail {
void check_group(int group, int max_group, const char* who) {
  if (group < 1 || group > max_group || (group & (group - 1)) != 0)
    throw usage_error(std::string(who) + ": group size M must be a power of two in [1, " +
                      std::to_string(max_group) + "]; got " + std::to_string(group));
}
}  // namespace detail

std::unique_ptr<engine> make_engine(engine_kind k, const engine_config& cfg) {
  switch (k) {
    case engine_kind::serial: return detail::make_cpu_engine(false, cfg);
    case engine_kind::openmp: return detail::make_cpu_engine(true, cfg);
    case engine_kind::cuda:
#if GPU500_HAVE_CUDA
      return detail::make_cuda_engine(cfg);
#else
      throw usage_error("bellman-ford: this build has no CUDA backend");
#endif
    case engine_kind::opencl:
#if GPU500_HAVE_OPENCL
      return detail::make_opencl_engine(cfg);
#else
      throw usage_error("bellman-ford: this build has no OpenCL backend");
#endif
  }
  throw usage_error("bellman-ford: unknown engine");
}

result solve(engine& e, index_t n, const run_options& o) {
  GPU500_EXPECTS(o.source >= 0 && o.source < n, "bellman-ford: source out of range");
  GPU500_EXPECTS(e.uploaded_layout() == layout_for(e.kind(), o.var),
                 std::string("bellman-ford: the ") + variant_name(o.var) + " variant needs the " +
                     (layout_for(e.kind(), o.var) == layout::by_source ? "by_source" : "by_target") + " layout");
  if (!e.supports(o.sched, o.var, n))
    throw usage_error(std::string("bellman-ford: the ") + engine_name(e.kind()) + " engine cannot run the " +
                      variant_name(o.var) + " variant with the " + schedule_name(o.sched) + " schedule at N = " +
                      std::to_string(n));
  result r;
  stopwatch sw;
  e.init(o.source);
  e.finish();
  r.t_init = sw.seconds();

  // Round k computes dist_k. Rounds 1..n-1 reach the fixpoint unless a negative cycle is
  // reachable; round n is the check: it changes something iff such a cycle exists. The resident
  // schedule runs the same loop on the device (with full_rounds none may stop early).
  sw.restart();
  bool last_changed = true;
  index_t k = 0;
  if (o.sched == schedule::resident) {
    const auto out = e.solve_resident(o.var, o.source, n, !o.full_rounds);
    k = out.rounds;
    last_changed = out.last_changed;
  } else {
    while (k < n) {
      ++k;
      const bool check = !o.full_rounds || k == n;
      e.round(o.var, o.group, check, o.sched == schedule::skip);
      if (check) {
        last_changed = e.changed();
        if (!last_changed) break;
      }
    }
  }
  e.finish();
  r.t_rounds = sw.seconds();
  r.rounds = k;
  r.st = (k == n && last_changed) ? status::negative_cycle : status::ok;

  sw.restart();
  e.download(r.dist, r.pred);
  r.t_download = sw.seconds();
  return r;
}

result run(engine& e, const dense_matrix& m, const run_options& o) {
  GPU500_EXPECTS(m.lay == layout_for(e.kind(), o.var),
                 std::string("bellman-ford: the ") + variant_name(o.var) + " variant on " + engine_name(e.kind()) +
                     " needs the " + (layout_for(e.kind(), o.var) == layout::by_source ? "by_source" : "by_target") +
                     " layout");
  stopwatch sw;
  e.upload(m);
  e.finish();
  const double up = sw.seconds();
  result r = solve(e, m.n, o);
  r.t_upload = up;
  return r;
}

#if !GPU500_HAVE_CUDA
copy_bandwidth cuda_copy_bandwidth(std::size_t, int, int) {
  throw usage_error("bellman-ford: this build has no CUDA backend");
}
void cuda_check_device_memory(double, const std::string&, int) {
  throw usage_error("bellman-ford: this build has no CUDA backend");
}
detail::pinned_host::pinned_host(const dense_matrix&) {}
detail::pinned_host::~pinned_host() = default;
sync_floor_result sync_floor(int, int) { throw usage_error("bf_sync_floor: this build has no CUDA backend"); }
#endif

double time_rounds(engine& e, variant v, int group, int k) {
  e.finish();
  stopwatch sw;
  for (int i = 0; i < k; ++i) e.round(v, group, false, false);
  e.finish();
  return sw.seconds();
}

double time_resident_rounds(engine& e, variant v, index_t source, int k) {
  e.init(source);
  e.finish();
  stopwatch sw;
  (void)e.solve_resident(v, source, k, false);
  e.finish();
  return sw.seconds();
}

}  // namespace gpu500::bellman_ford
