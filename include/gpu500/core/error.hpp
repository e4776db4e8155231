// gpu500/core/error.hpp — the one error vocabulary of the project.
//
// The library throws gpu500::error (or usage_error for bad user input, which the program maps to
// exit code 2). Preconditions are stated with GPU500_EXPECTS(cond, msg). CUDA calls are wrapped
// by GPU500_CUDA_CHECK in core/cuda/check.cuh.
#pragma once

#include <stdexcept>
#include <string>

namespace gpu500 {

/// Any failure inside the library: a broken precondition, a failed device call, a wrong result.
class error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Bad input from the user (arguments, files): reported in one line, exit code 2.
class usage_error : public error {
 public:
  using error::error;
};

/// Not enough memory (host or device) for the requested problem: one line naming the sizes.
class resource_error : public error {
 public:
  using error::error;
};

namespace detail {
[[noreturn]] void throw_expects(const char* cond, const std::string& msg, const char* file, int line);
}  // namespace detail

}  // namespace gpu500

/// Precondition check, active in every build type.
#define GPU500_EXPECTS(cond, msg)                                                   \
  do {                                                                              \
    if (!(cond)) ::gpu500::detail::throw_expects(#cond, (msg), __FILE__, __LINE__); \
  } while (0)
