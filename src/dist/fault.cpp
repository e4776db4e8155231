// Test-only fault injection (dist::fault_point, gpu500/dist/comm.hpp): off unless the
// environment names a rank and a point; then that rank throws there, so that the tests of the
// abort rule can make one rank fail with bad input or an allocation failure while the others
// go on into their collectives.
#include <cstdlib>
#include <string>

#include "gpu500/config.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/dist/comm.hpp"

#if GPU500_HAVE_MPI
#include <mpi.h>
#endif

namespace gpu500::dist {
namespace {

struct fault_plan {
  bool armed = false;
  int rank = -1;
  std::string point;
  long nth = 1;  // throw the nth time the point is reached
  bool resource = false;
  long seen = 0;
};

fault_plan read_plan() {
  fault_plan f;
  const char* rank = std::getenv("GPU500_TEST_FAIL_RANK");
  const char* at = std::getenv("GPU500_TEST_FAIL_AT");
  if (rank == nullptr || at == nullptr || *at == '\0') return f;
  f.rank = std::atoi(rank);
  f.point = at;
  if (const auto colon = f.point.rfind(':'); colon != std::string::npos) {
    f.nth = std::atol(f.point.c_str() + colon + 1);
    f.point.resize(colon);
  }
  const char* kind = std::getenv("GPU500_TEST_FAIL_KIND");
  f.resource = kind != nullptr && std::string(kind) == "resource";
  f.armed = f.nth >= 1;
  return f;
}

int world_rank() {
#if GPU500_HAVE_MPI
  int init = 0, fin = 0;
  MPI_Initialized(&init);
  MPI_Finalized(&fin);
  if (init && !fin) {
    int r = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
  }
#endif
  return 0;
}

}  // namespace

void fault_point(const char* point) {
  static fault_plan plan = read_plan();
  if (!plan.armed || plan.point != point || world_rank() != plan.rank || ++plan.seen != plan.nth) return;
  const std::string where = "test fault on rank " + std::to_string(plan.rank) + " at " + point +
                            (plan.nth > 1 ? " #" + std::to_string(plan.nth) : "") + " (GPU500_TEST_FAIL_AT)";
  if (plan.resource) throw resource_error(where + ": simulated allocation failure");
  throw usage_error(where + ": simulated bad input");
}

}  // namespace gpu500::dist
