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
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0)
    for (int c = 0; c < CPU_SETSIZE; ++c)
      if (CPU_ISSET(c, &set)) r.bits[c / 64] |= std::uint64_t{1} << (c % 64);
  r.requested = std::getenv("OMP_NUM_THREADS") != nullptr ? omp_get_max_threads() : 0;
  return r;
}

std::vector<int> cores_of(const rank_record& r) {
  std::vector<int> c;
  for (int i = 0; i < CPU_SETSIZE; ++i)
    if ((r.bits[i / 64] >> (i % 64)) & 1U) c.push_back(i);
  return c;
}

}  // namespace

host_threads plan_host_threads(const std::vector<std::vector<int>>& masks, const std::vector<int>& requested, int me) {
  const auto n = static_cast<int>(masks.size());
  GPU500_EXPECTS(static_cast<int>(requested.size()) == n && me >= 0 && me < n, "a mask and a request per rank");
  // An empty mask (affinity unknown) stands for one core that no other rank shares.
  auto shares = [&](int a, int b) { return a == b || overlap(masks[static_cast<std::size_t>(a)], masks[static_cast<std::size_t>(b)]); };
  auto sharing_of = [&](int r) {
    int k = 0;
    for (int j = 0; j < n; ++j) k += shares(r, j) ? 1 : 0;
    return k;
  };
  auto team_of = [&](int r) {
    const auto ur = static_cast<std::size_t>(r);
    if (requested[ur] > 0) return requested[ur];
    const int cores = std::max<int>(1, static_cast<int>(masks[ur].size()));
    return std::max(1, cores / sharing_of(r));
  };
  host_threads t;
  t.threads = team_of(me);
  t.sharing = sharing_of(me);
  std::vector<int> all;
  t.load = 0;
  int lone = 0;  // ranks of unknown affinity among those sharing: one core each
  for (int j = 0; j < n; ++j) {
    if (!shares(me, j)) continue;
    t.load += team_of(j);
    const auto& m = masks[static_cast<std::size_t>(j)];
    if (m.empty()) ++lone;
    std::vector<int> u;
    std::set_union(all.begin(), all.end(), m.begin(), m.end(), std::back_inserter(u));
    all = std::move(u);
  }
  t.cores = static_cast<int>(all.size()) + lone;
  return t;
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
    MPI_Comm node = MPI_COMM_NULL;
    detail::check(MPI_Comm_split_type(detail::handle_of<MPI_Comm>(comm.native_bits()), MPI_COMM_TYPE_SHARED,
                                      comm.rank(), MPI_INFO_NULL, &node),
                  "MPI_Comm_split_type");
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
  const host_threads t = plan_host_threads(masks, requested, me);
  if (mine.requested == 0) omp_set_num_threads(t.threads);
  if (me == 0) {
    // The host's most oversubscribed rank.
    host_threads worst = t;
    for (int r = 0; r < static_cast<int>(host.size()); ++r) {
      const host_threads o = plan_host_threads(masks, requested, r);
      if (o.excess() > worst.excess()) worst = o;
    }
    if (worst.oversubscribed()) std::fprintf(stderr, "%s\n", oversubscription_warning(worst).c_str());
  }
  return t;
}

}  // namespace gpu500::dist
