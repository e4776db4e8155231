// gpu500 — one program, one sub-command per benchmark (see apps/gpu500/cmd_*.cpp).
// Errors become one line on stderr: exit code 2 for bad input, 1 for anything else
// (MPI_Abort when running under more than one MPI process).
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

#include "command.hpp"
#include "gpu500/config.hpp"
#include "gpu500/core/error.hpp"

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

[[noreturn]] static void fail(int code, const char* what) {
  // One line, whatever the message echoes (a value holding a newline or a terminal escape).
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
  std::fprintf(stderr, "gpu500: error: %s\n", line.c_str());
  std::fflush(stderr);
#if GPU500_HAVE_MPI
  int init = 0, fin = 0, size = 1;
  MPI_Initialized(&init);
  MPI_Finalized(&fin);
  if (init && !fin) {
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size > 1) MPI_Abort(MPI_COMM_WORLD, code);
    MPI_Finalize();
  }
#endif
  std::exit(code);
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
    std::fprintf(stderr, "gpu500: error: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
  }
  int code = 0;
  try {
    code = it->run(args_t(argv + 2, argv + argc));
  } catch (const gpu500::usage_error& e) {
    fail(2, e.what());
  } catch (const gpu500::resource_error& e) {
    fail(3, e.what());
  } catch (const std::bad_alloc&) {
    fail(3, "out of host memory");
  } catch (const std::exception& e) {
    fail(1, e.what());
  }
  return code;
}
