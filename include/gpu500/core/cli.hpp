// gpu500/core/cli.hpp — the command-line parser shared by every sub-command.
//
// Options are declared with a target variable and parsed in one pass; an unknown flag, a missing
// value or a malformed number throws gpu500::usage_error naming the flag (exit code 2).
//   cli::parser p("gpu500 hpl", "Solve a dense system with HPL");
//   p.option("-N", n, "problem size");  p.flag("--no-validate", skip, "skip validation");
//   p.positional("SCALE", scale, "log2 of the vertex count", /*required=*/false);
//   p.parse(argc, argv);            // "-h"/"--help" prints help() and sets help_requested()
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace gpu500::cli {

class parser {
 public:
  parser(std::string program, std::string summary);

  /// A boolean switch: present -> true.
  parser& flag(std::string name, bool& target, std::string help);
  /// An option with one value ("--name V" or "--name=V"). Aliases separated by '|' ("-i|--input").
  parser& option(std::string name, std::string& target, std::string help);
  parser& option(std::string name, int& target, std::string help);
  parser& option(std::string name, std::int64_t& target, std::string help);
  parser& option(std::string name, double& target, std::string help);
  /// An output file ("--json FILE"): checked while parsing (its directory exists, it can be
  /// written), so that a bad path fails before any work; the file is written at the end.
  parser& output_file(std::string name, std::string& target, std::string help);
  /// A comma-separated list of integers ("--seed 2,3").
  parser& option(std::string name, std::vector<std::int64_t>& target, std::string help);
  /// A custom option: the callback gets the raw value and throws usage_error when it is bad.
  parser& option(std::string name, std::function<void(const std::string&)> set, std::string help,
                 std::string metavar = "V");
  /// Positional arguments, taken in declaration order.
  parser& positional(std::string name, int& target, std::string help, bool required = false);
  parser& positional(std::string name, std::string& target, std::string help, bool required = false);

  /// Parses argv[first..argc). Throws usage_error on anything it does not understand.
  void parse(int argc, const char* const* argv, int first = 1);
  void parse(const std::vector<std::string>& args);

  [[nodiscard]] bool help_requested() const { return help_; }
  [[nodiscard]] std::string help() const;
  /// True when the named option (any alias) appeared on the command line.
  [[nodiscard]] bool given(const std::string& name) const;
  /// Options declared so far (a mark for given_between).
  [[nodiscard]] std::size_t option_count() const { return opts_.size(); }
  /// The first name of every option declared between two marks that appeared on the command line.
  [[nodiscard]] std::vector<std::string> given_between(std::size_t first, std::size_t last) const;

 private:
  struct opt {
    std::vector<std::string> names;
    std::string help, metavar;
    bool takes_value = true;
    std::function<void(const std::string&)> set;
    bool seen = false;
  };
  struct pos {
    std::string name, help;
    bool required;
    std::function<void(const std::string&)> set;
  };
  opt* find(const std::string& name);
  std::string program_, summary_;
  std::vector<opt> opts_;
  std::vector<pos> pos_;
  bool help_ = false;
};

/// Strict number parsing (whole string, range-checked); throws usage_error naming `what`.
/// Integers are decimal: leading zeros mean nothing ("010" is 10), "0x10" is refused.
std::int64_t parse_int(const std::string& s, const std::string& what);
double parse_double(const std::string& s, const std::string& what);

}  // namespace gpu500::cli
