// libFuzzer target: the command-line parser (cli::parser) and its number parsers. The input is
// split at NUL bytes into argv; the parser declares an option of every kind but the output file
// (whose check creates a file at the path given: not for random paths), i.e. switch, string,
// int, int64, double, list, callback and positionals.
// Properties beyond "no crash, no sanitizer report": a refusal is a usage_error adding no line
// of its own (a newline in it came from the input; the program escapes those); parse_int and
// parse_double, on the whole input as one value, accept exactly what strtoll (base 10)/strtod read whole
// and in range, and return the same number; help() ends in a newline.
#include <cerrno>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "check.hpp"
#include "gpu500/core/cli.hpp"
#include "gpu500/core/error.hpp"

using namespace gpu500;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> args(1);
  for (std::size_t i = 0; i < size; ++i) {
    if (data[i] == 0) args.emplace_back();
    else args.back() += static_cast<char>(data[i]);
  }
  // The number parsers on the whole input as one value (up to a NUL), against the C library.
  const std::string v(reinterpret_cast<const char*>(data), size);
  if (v.find('\0') == std::string::npos) {
    errno = 0;
    char* end = nullptr;
    const long long ll = std::strtoll(v.c_str(), &end, 10);
    const bool int_ok = !v.empty() && end != v.c_str() && *end == '\0' && errno != ERANGE;
    try {
      FUZZ_CHECK(cli::parse_int(v, "v") == ll && int_ok);
    } catch (const usage_error&) {
      FUZZ_CHECK(!int_ok);
    }
    errno = 0;
    const double d = std::strtod(v.c_str(), &end);
    const bool real_ok = !v.empty() && end != v.c_str() && *end == '\0' && errno != ERANGE && std::isfinite(d);
    try {
      const double got = cli::parse_double(v, "v");
      FUZZ_CHECK(real_ok && (got == d || (std::isnan(got) && std::isnan(d))));
    } catch (const usage_error&) {
      FUZZ_CHECK(!real_ok);
    }
  }
  bool sw = false;
  std::string s;
  int i32 = 0, pos_i = 0;
  std::int64_t i64 = 0;
  double x = 0;
  std::vector<std::int64_t> list;
  std::string pos_s, last_cb;
  cli::parser p("fuzz", "every kind of option");
  p.flag("--switch", sw, "a switch")
      .option("-s|--string", s, "a string")
      .option("--int", i32, "an int")
      .option("-N", i64, "an int64")
      .option("--real", x, "a double")
      .option("--list", list, "a list")
      .option("--cb", [&](const std::string& val) { last_cb = val; }, "a callback")
      .positional("POS", pos_i, "an int positional")
      .positional("NAME", pos_s, "a string positional");
  try {
    p.parse(args);
  } catch (const usage_error& e) {
    const std::string m = e.what();
    FUZZ_CHECK(!m.empty());
    // A message of the parser's own may echo a value (which the program escapes) but adds no
    // line of its own: any newline in it came from the input.
    FUZZ_CHECK(m.find('\n') == std::string::npos || v.find('\n') != std::string::npos);
    return 0;
  }
  FUZZ_CHECK(p.help().back() == '\n');
  if (p.given("--real")) FUZZ_CHECK(std::isfinite(x));
  FUZZ_CHECK(p.given("-s") == p.given("--string"));
  return 0;
}
