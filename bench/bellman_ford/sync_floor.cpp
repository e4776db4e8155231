// bf_sync_floor: what one round of the resident dense Bellman-Ford costs before any arithmetic
// (gpu500/bellman_ford/sync_floor.hpp says what each way of meeting is). Prints nanoseconds per
// round (best of 5 launches) and the SM clock from clock64, so that a round of the resident
// schedule can be put against the floor of its barrier.
//   bf_sync_floor [rounds (default 20000)] [threads per block: 512 (default) or 1024]
#include <cstdio>
#include <cstdlib>
#include <exception>

#include "gpu500/bellman_ford/sync_floor.hpp"

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 20000;
  const int threads = argc > 2 ? std::atoi(argv[2]) : 512;
  if (rounds < 1 || (threads != 512 && threads != 1024)) {
    std::fprintf(stderr, "usage: bf_sync_floor [rounds >= 1] [512|1024]\n");
    return 2;
  }
  try {
    const auto r = gpu500::bellman_ford::sync_floor(rounds, threads);
    std::printf("device %s, %d SMs, %d rounds per launch, %d threads per block\n", r.device.c_str(), r.sms, rounds,
                threads);
    for (const auto& x : r.rows) {
      const double ns = x.ms * 1e6 / x.rounds;
      if (x.cycles > 0)
        std::printf("%-16s blocks %4d  %8.1f ns/round  %7.0f cycles/round  SM clock %.2f GHz\n", x.what.c_str(),
                    x.blocks, ns, static_cast<double>(x.cycles) / x.rounds,
                    static_cast<double>(x.cycles) / (x.ms * 1e6));
      else
        std::printf("%-16s blocks %4d  %8.1f ns/round\n", x.what.c_str(), x.blocks, ns);
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bf_sync_floor: %s\n", e.what());
    return 1;
  }
}
