// The sub-command registry of the gpu500 program.
//
// Each sub-command lives in its own cmd_<name>.cpp and registers itself with
//   GPU500_COMMAND(hpl, "Solve a dense linear system (HPL 2.3)") { ... return exit code; }
// The body receives the arguments after the sub-command name. Errors are thrown (gpu500::error /
// usage_error); main() prints them as one line and picks the exit code.
#pragma once

#include <string>
#include <vector>

namespace gpu500::app {

using args_t = std::vector<std::string>;
using command_fn = int (*)(const args_t& args);

struct command {
  const char* name;
  const char* summary;
  command_fn run;
};

/// Registered commands, sorted by name.
std::vector<command>& registry();

struct registrar {
  registrar(const char* name, const char* summary, command_fn fn) { registry().push_back({name, summary, fn}); }
};

/// MPI rank of this process (0 without MPI) and whether it prints the shared output.
int world_rank();

}  // namespace gpu500::app

#define GPU500_COMMAND(NAME, SUMMARY)                                                          \
  static int gpu500_cmd_##NAME(const ::gpu500::app::args_t& args);                             \
  static ::gpu500::app::registrar gpu500_reg_##NAME(#NAME, SUMMARY, &gpu500_cmd_##NAME);        \
  static int gpu500_cmd_##NAME(const ::gpu500::app::args_t& args)
