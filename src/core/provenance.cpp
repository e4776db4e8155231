// The provenance record of every --json document and of `gpu500 info` (gpu500/core/provenance.hpp).
// GPU500_GIT_COMMIT comes from git_commit.h, written at every build (cmake/git_commit.cmake).
#include "gpu500/core/provenance.hpp"

#include <unistd.h>

#include <mutex>
#include <utility>

#include "git_commit.h"
#include "gpu500/config.hpp"

namespace gpu500::provenance {
namespace {

struct libraries {
  std::mutex lock;
  std::string mpi = GPU500_HAVE_MPI ? "unknown" : "none";
  std::string nccl = GPU500_HAVE_NCCL ? "unknown" : "none";
};

libraries& libs() {
  static libraries l;
  return l;
}

std::string host_name() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0 || name[0] == '\0') return "unknown";
  return name;
}

}  // namespace

void set_libraries(std::string mpi, std::string nccl) {
  auto& l = libs();
  const std::lock_guard<std::mutex> g(l.lock);
  l.mpi = std::move(mpi);
  l.nccl = std::move(nccl);
}

record current() {
  record r;
  r.version = GPU500_VERSION;
  r.commit = GPU500_GIT_COMMIT;
  r.host = host_name();
  r.blas = GPU500_BLAS;
  r.cuda_architectures = GPU500_CUDA_ARCHITECTURES;
  auto& l = libs();
  const std::lock_guard<std::mutex> g(l.lock);
  r.mpi = l.mpi;
  r.nccl = l.nccl;
  return r;
}

json::value to_json(const record& r) {
  json::value j = json::value::make_object();
  j["version"] = r.version;
  j["commit"] = r.commit;
  j["host"] = r.host;
  j["blas"] = r.blas;
  j["cuda_architectures"] = r.cuda_architectures;
  j["mpi"] = r.mpi;
  j["nccl"] = r.nccl;
  return j;
}

}  // namespace gpu500::provenance
