// gpu500/dist/host_threads.hpp — OpenMP threads per rank where several ranks share a host.
//
// R ranks of a host, each with a full OpenMP team, put R times more threads on its cores than
// there are cores. OpenMP threads spin at every barrier while the rank's master thread polls in
// MPI, so an oversubscribed host does not run R times slower but hundreds of times slower (3 ranks
// of 2 threads on 2 cores: a SCALE 12 Graph500 run took 59.6 s instead of 0.7 s).
//
// The rule: a rank's cores are its affinity mask (taskset, mpirun's binding, a batch system's
// cgroup); the ranks whose masks overlap it share those cores. Where OMP_NUM_THREADS is unset, a
// rank takes its share: its mask's cores over the ranks sharing them (at least 1); an explicit
// OMP_NUM_THREADS is kept. The load on a rank's cores is the sum of the teams of the ranks sharing
// them; more threads than cores (the union of those ranks' masks), beyond one thread per rank, is
// oversubscription, which the programs report in one warning per host.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "gpu500/dist/comm.hpp"

namespace gpu500::dist {

struct host_threads {
  int threads = 1;  // this rank's OpenMP team
  int sharing = 1;  // ranks whose cores overlap this rank's, itself included
  int cores = 1;    // the cores those ranks may run on (the union of their masks)
  int load = 1;     // the OpenMP threads those ranks run together
  /// Threads beyond what the cores can hold, or the ranks with one thread each where they
  /// outnumber the cores (those have no team to shrink).
  [[nodiscard]] int excess() const { return load - std::max(cores, sharing); }
  [[nodiscard]] bool oversubscribed() const { return excess() > 0; }
};

/// The cores this process may run on now (its affinity mask: taskset, mpirun's binding, a batch
/// system's cgroup), ascending; empty where the system does not say.
[[nodiscard]] std::vector<int> allowed_cores();

/// The rule for rank `me` of a host. masks[r]: the sorted core ids rank r may run on (an empty
/// mask counts as one core of its own); requested[r]: rank r's OMP_NUM_THREADS, 0 where unset.
[[nodiscard]] host_threads plan_host_threads(const std::vector<std::vector<int>>& masks,
                                             const std::vector<int>& requested, int me);

/// Collective over comm: gathers the masks and OMP_NUM_THREADS of this rank's host, gives this
/// rank its team (omp_set_num_threads) where OMP_NUM_THREADS is unset, and returns its plan. When
/// a rank of the host is oversubscribed, the host's first rank writes oversubscription_warning
/// of the worst one to stderr.
host_threads share_host_cores(const communicator& comm);

/// "gpu500: warning: ..." naming the threads, ranks and cores and the OMP_NUM_THREADS that fits.
[[nodiscard]] std::string oversubscription_warning(const host_threads& t);

}  // namespace gpu500::dist
