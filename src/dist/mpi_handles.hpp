// src/dist/mpi_handles.hpp — internal to the distributed layer, included only where MPI is
// compiled in: MPI handles (a pointer or an int, by implementation) kept as 64-bit values so
// that the public headers need no <mpi.h>, the check of an MPI call's return code, and the one
// split of a communicator into the ranks of each host (node-local ranks).
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

/// Collective over `parent`: a new communicator of the ranks of `parent` that share this rank's
/// host (MPI_COMM_TYPE_SHARED), in their order in `parent` (its rank there is the node-local
/// rank). The caller frees it.
[[nodiscard]] inline MPI_Comm split_by_host(MPI_Comm parent) {
  int me = 0;
  MPI_Comm_rank(parent, &me);
  MPI_Comm host = MPI_COMM_NULL;
  check(MPI_Comm_split_type(parent, MPI_COMM_TYPE_SHARED, me, MPI_INFO_NULL, &host), "MPI_Comm_split_type");
  return host;
}

}  // namespace gpu500::dist::detail
