// gpu500 — one program, one sub-command per benchmark (see apps/gpu500/cmd_*.cpp).
// Errors become one line on stderr: exit code 2 for bad input, 3 for a problem that does not fit
// in memory, 1 for anything else (MPI_Abort when running under more than one MPI process).
// Under a launcher of several processes an error is printed once: one found before MPI starts
// (the command line, seen alike by every process) by launcher rank 0 only; one found after by
// rank 0 at once and by any other rank after a three seconds' wait, which rank 0's MPI_Abort cuts
// short when the error is every rank's (one second was not always enough for the abort to reach
// the other ranks of a loaded host, which then printed the error again). Commands of one process
// refuse to start on several.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <thread>

#include "command.hpp"
#include "gpu500/config.hpp"
#include "gpu500/core/device.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/core/host_team.hpp"
#include "gpu500/core/provenance.hpp"
#include "gpu500/dist/comm.hpp"

#if GPU500_HAVE_MPI
#include <mpi.h>
#endif

namespace gpu500::app {

std::vector<command>& registry() {
  static std::vector<command> r;
  return r;
}

int world_rank() {
#if GPU500_HAVE_MPI
  int init = 0;
  MPI_Initialized(&init);
  if (init) {
    int r = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
  }
#endif
  return 0;
}

static void usage(std::FILE* out) {
  std::fprintf(out, "usage: gpu500 <command> [options]   (gpu500 <command> --help for its options)\n\ncommands:\n");
  for (const auto& c : registry()) {
    std::string name = c.name;  // shown as typed: bellman-ford
    std::replace(name.begin(), name.end(), '_', '-');
    std::fprintf(out, "  %-14s %s\n", name.c_str(), c.summary);
  }
}

// One line, whatever the text echoes (a value holding a newline or a terminal escape).
static std::string escaped(const char* what) {
  std::string line;
  for (const char* c = what; *c; ++c) {
    const auto u = static_cast<unsigned char>(*c);
    if (u < 0x20 || u == 0x7f) {
      char esc[8];
      std::snprintf(esc, sizeof esc, u == '\n' ? "\\n" : "\\x%02x", u);
      line += esc;
    } else {
      line += *c;
    }
  }
  return line;
}

// The launcher's view of this process (set by Open MPI, PMIx and MPICH's PMI before MPI starts):
// its rank and the number of processes; 0 and 1 outside a launcher.
static int launcher_value(const char* const* names, int fallback) {
  for (const char* const* n = names; *n; ++n)
    if (const char* v = std::getenv(*n); v && *v) return std::atoi(v);
  return fallback;
}
static int launcher_rank() {
  static const char* const names[] = {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", nullptr};
  return launcher_value(names, 0);
}
static int launcher_size() {
  static const char* const names[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", nullptr};
  return launcher_value(names, 1);
}

[[noreturn]] static void fail(int code, const char* what) {
  int mpi_size = 1;
#if GPU500_HAVE_MPI
  int init = 0, fin = 0;
  MPI_Initialized(&init);
  MPI_Finalized(&fin);
  if (init && !fin) MPI_Comm_size(MPI_COMM_WORLD, &mpi_size);
#endif
  if (mpi_size > 1 && world_rank() != 0)  // rank 0's abort ends this wait when the error is every rank's
    std::this_thread::sleep_for(std::chrono::seconds(3));
  if (mpi_size > 1 || launcher_rank() == 0) {
    std::fprintf(stderr, "gpu500: error: %s\n", escaped(what).c_str());
    std::fflush(stderr);
  }
#if GPU500_HAVE_MPI
  if (init && !fin) {
    if (mpi_size > 1) MPI_Abort(MPI_COMM_WORLD, code);
    MPI_Finalize();
  }
#endif
  std::exit(code);
}

// Commands that run on several MPI processes; every other one runs on one.
static bool runs_on_many(const std::string& name) {
  return name == "graph500" || name == "hpl" || name == "hpl_mxp" || name == "info";
}

}  // namespace gpu500::app

int main(int argc, char** argv) {
  using namespace gpu500::app;
  auto& reg = registry();
  std::sort(reg.begin(), reg.end(), [](const command& a, const command& b) { return std::strcmp(a.name, b.name) < 0; });
  if (argc < 2 || !std::strcmp(argv[1], "-h") || !std::strcmp(argv[1], "--help")) {
    usage(argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  if (!std::strcmp(argv[1], "--version")) {
    std::printf("gpu500 %s\n", GPU500_VERSION);
    return 0;
  }
  // Sub-command names accept '-' for '_' (bellman-ford).
  std::string name = argv[1];
  std::replace(name.begin(), name.end(), '-', '_');
  const auto it = std::find_if(reg.begin(), reg.end(), [&](const command& c) { return name == c.name; });
  if (it == reg.end()) {
    if (launcher_rank() == 0)
      std::fprintf(stderr, "gpu500: error: unknown command '%s'\ngpu500: run 'gpu500 --help' for the commands\n",
                   escaped(argv[1]).c_str());
    return 2;
  }
  int code = 0;
  try {
    // What every --json and `gpu500 info` report of the libraries (core/provenance.hpp).
    gpu500::provenance::set_libraries(gpu500::dist::mpi_library_version(), gpu500::dist::nccl_library_version());
    // An OpenMP team that fits the idle cores (core/host_team.hpp), for every command but --help.
    const bool help = std::any_of(argv + 2, argv + argc, [](const char* a) { return !std::strcmp(a, "--help") || !std::strcmp(a, "-h"); });
    if (!help) {
      const auto team = gpu500::fit_openmp_team_to_idle_cores();
      if (team.threads > 0 && launcher_rank() == 0)
        std::fprintf(stderr, "gpu500: %d of this process's %d cores busy with other programs: OpenMP team of %d thread%s "
                             "(set OMP_NUM_THREADS to choose)\n", team.busy, team.cores, team.threads, team.threads == 1 ? "" : "s");
    }
    if (launcher_size() > 1 && !runs_on_many(name))
      throw gpu500::usage_error("gpu500 " + std::string(argv[1]) + " runs on one process; it was started on " +
                                std::to_string(launcher_size()) + " processes (run it without mpirun)");
    code = it->run(args_t(argv + 2, argv + argc));
  } catch (const gpu500::usage_error& e) {
    fail(2, e.what());
  } catch (const gpu500::resource_error& e) {
    fail(3, e.what());
  } catch (const std::bad_alloc&) {
    const std::string why = "out of host memory (" +
                            gpu500::human_bytes(static_cast<double>(gpu500::peak_resident_memory())) +
                            " resident at the peak, " +
                            gpu500::human_bytes(static_cast<double>(gpu500::host_available_memory())) + " available now)";
    fail(3, why.c_str());
  } catch (const std::exception& e) {
    fail(1, e.what());
  }
  if (gpu500::memory_report_requested())
    std::fprintf(stderr, "gpu500 memory: peak %lld\n", static_cast<long long>(gpu500::peak_resident_memory()));
  return code;
}
