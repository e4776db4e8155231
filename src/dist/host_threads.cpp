// OpenMP threads per rank where several ranks share a host (see gpu500/dist/host_threads.hpp):
// the pure rule, and the gathering of the host's affinity masks that feeds it.
#include "gpu500/dist/host_threads.hpp"

#include <omp.h>
#include <sched.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iterator>

#include "gpu500/config.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/core/host_team.hpp"

#if GPU500_HAVE_MPI
#include "mpi_handles.hpp"
#endif

namespace gpu500::dist {

namespace {

bool overlap(const std::vector<int>& a, const std::vector<int>& b) {
  for (std::size_t i = 0, j = 0; i < a.size() && j < b.size();) {
    if (a[i] == b[j]) return true;
    a[i] < b[j] ? ++i : ++j;
  }
  return false;
}

// A mask as the fixed record the ranks exchange: one bit per core id below CPU_SETSIZE.
constexpr int mask_words = CPU_SETSIZE / 64;
struct rank_record {
  std::uint64_t bits[mask_words];
  int requested;
  int pad;
};

rank_record my_record() {
  rank_record r{};
  for (int c : allowed_cores()) r.bits[c / 64] |= std::uint64_t{1} << (c % 64);
  r.requested = std::getenv("OMP_NUM_THREADS") != nullptr ? omp_get_max_threads() : 0;
  return r;
}

std::vector<int> cores_of(const rank_record& r) {
  std::vector<int> c;
  for (int i = 0; i < CPU_SETSIZE; ++i)
    if ((r.bits[i / 64] >> (i % 64)) & 1U) c.push_back(i);
  return c;
}

// Every rank's plan at once: the overlaps, sharing counts and teams are computed once (n^2 mask
// comparisons), so a host of many ranks costs milliseconds.
std::vector<host_threads> plan_every_rank(const std::vector<std::vector<int>>& masks, const std::vector<int>& requested) {
  const std::size_t n = masks.size();
  GPU500_EXPECTS(requested.size() == n, "a mask and a request per rank");
  // An empty mask (affinity unknown) stands for one core that no other rank shares.
  std::vector<std::vector<char>> shares(n, std::vector<char>(n, 0));
  std::vector<int> sharing(n, 0), team(n, 1);
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = a; b < n; ++b)
      shares[a][b] = shares[b][a] = (a == b || overlap(masks[a], masks[b])) ? 1 : 0;
  for (std::size_t a = 0; a < n; ++a) {
    for (std::size_t b = 0; b < n; ++b) sharing[a] += shares[a][b];
    const int cores = std::max<int>(1, static_cast<int>(masks[a].size()));
    team[a] = requested[a] > 0 ? requested[a] : std::max(1, cores / sharing[a]);
  }
  std::vector<host_threads> plans(n);
  for (std::size_t a = 0; a < n; ++a) {
    host_threads& t = plans[a];
    t.threads = team[a];
    t.sharing = sharing[a];
    t.load = 0;
    std::vector<int> all;
    int lone = 0;  // ranks of unknown affinity among those sharing: one core each
    for (std::size_t b = 0; b < n; ++b) {
      if (!shares[a][b]) continue;
      t.load += team[b];
      if (masks[b].empty()) ++lone;
      std::vector<int> u;
      std::set_union(all.begin(), all.end(), masks[b].begin(), masks[b].end(), std::back_inserter(u));
      all = std::move(u);
    }
    t.cores = static_cast<int>(all.size()) + lone;
  }
  return plans;
}

}  // namespace

std::vector<int> allowed_cores() { return affinity_cores(); }

host_threads plan_host_threads(const std::vector<std::vector<int>>& masks, const std::vector<int>& requested, int me) {
  GPU500_EXPECTS(me >= 0 && static_cast<std::size_t>(me) < masks.size(), "a rank of the host");
  return plan_every_rank(masks, requested)[static_cast<std::size_t>(me)];
}

std::string oversubscription_warning(const host_threads& t) {
  auto count = [](int n, const char* one, const char* many) { return std::to_string(n) + " " + (n == 1 ? one : many); };
  const int fits = std::max(1, t.cores / t.sharing);
  return "gpu500: warning: " + count(t.sharing, "rank", "ranks") + " of this host run " +
         count(t.load, "OpenMP thread", "OpenMP threads") + " on " + count(t.cores, "core", "cores") +
         ": oversubscribed, the host's OpenMP loops can run hundreds of times slower (set OMP_NUM_THREADS to at most " +
         std::to_string(fits) + ", or leave it unset)";
}

host_threads share_host_cores(const communicator& comm) {
  const rank_record mine = my_record();
  std::vector<rank_record> host{mine};
  int me = 0;
#if GPU500_HAVE_MPI
  if (comm.is_mpi() && comm.size() > 1) {
    MPI_Comm node = detail::split_by_host(detail::handle_of<MPI_Comm>(comm.native_bits()));
    int size = 1;
    MPI_Comm_size(node, &size);
    MPI_Comm_rank(node, &me);
    host.resize(static_cast<std::size_t>(size));
    detail::check(MPI_Allgather(&mine, sizeof mine, MPI_BYTE, host.data(), sizeof mine, MPI_BYTE, node), "MPI_Allgather");
    MPI_Comm_free(&node);
  }
#else
  (void)comm;
#endif
  std::vector<std::vector<int>> masks;
  std::vector<int> requested;
  for (const rank_record& r : host) {
    masks.push_back(cores_of(r));
    requested.push_back(r.requested);
  }
  const std::vector<host_threads> plans = plan_every_rank(masks, requested);
  const host_threads t = plans[static_cast<std::size_t>(me)];
  // Never more than the team the program fitted to the idle cores at start (core/host_team.hpp).
  const int fitted = fitted_openmp_team();
  if (mine.requested == 0) omp_set_num_threads(fitted > 0 ? std::min(t.threads, fitted) : t.threads);
  if (me == 0) {
    // The host's most oversubscribed rank.
    const auto worst = std::max_element(plans.begin(), plans.end(),
                                        [](const host_threads& a, const host_threads& b) { return a.excess() < b.excess(); });
    if (worst->oversubscribed()) std::fprintf(stderr, "%s\n", oversubscription_warning(*worst).c_str());
  }
  return t;
}

}  // namespace gpu500::dist
