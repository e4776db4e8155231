// src/dist/mpi_handles.hpp — internal to the distributed layer, included only where MPI is
// compiled in: MPI handles (a pointer or an int, by implementation) kept as 64-bit values so
// that the public headers need no <mpi.h>, and the check of an MPI call's return code.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <cstring>
#include <string>

#include "gpu500/core/error.hpp"

namespace gpu500::dist::detail {

template <class H>
[[nodiscard]] std::uint64_t bits_of(H h) {
  static_assert(sizeof(H) <= sizeof(std::uint64_t), "an MPI handle must fit 64 bits");
  std::uint64_t b = 0;
  std::memcpy(&b, &h, sizeof h);
  return b;
}

template <class H>
[[nodiscard]] H handle_of(std::uint64_t b) {
  static_assert(sizeof(H) <= sizeof(std::uint64_t), "an MPI handle must fit 64 bits");
  H h;
  std::memcpy(&h, &b, sizeof h);
  return h;
}

/// Throws gpu500::error naming the call when it did not return MPI_SUCCESS.
inline void check(int rc, const char* what) {
  if (rc != MPI_SUCCESS) throw error(std::string("MPI call failed: ") + what);
}

}  // namespace gpu500::dist::detail
