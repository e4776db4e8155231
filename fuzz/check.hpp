// Checks shared by the fuzz targets: a failed property aborts (libFuzzer then saves the input),
// naming the property; error messages must be one printable line.
#pragma once

#include <cstdio>
#include <cstdlib>

#define FUZZ_CHECK(cond)                                                                  \
  do {                                                                                    \
    if (!(cond)) {                                                                        \
      std::fprintf(stderr, "fuzz property failed: %s (%s:%d)\n", #cond, __FILE__, __LINE__); \
      std::abort();                                                                       \
    }                                                                                     \
  } while (0)

namespace fuzz {

/// A message for the user: non-empty, one line, no control characters (no binary bytes echoed).
inline void check_one_line(const char* msg) {
  FUZZ_CHECK(msg != nullptr && *msg != '\0');
  for (const char* c = msg; *c; ++c) {
    const auto u = static_cast<unsigned char>(*c);
    if (u < 0x20 || u == 0x7f) {
      std::fprintf(stderr, "fuzz: control character 0x%02x in message: %s\n", u, msg);
      std::abort();
    }
  }
}

}  // namespace fuzz
