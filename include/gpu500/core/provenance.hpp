// gpu500/core/provenance.hpp — what made a result: the build (version, git commit, BLAS, CUDA
// architectures), the host it ran on and the communication libraries it ran with (MPI, NCCL).
//
// One record, one writer: `gpu500 info` prints it and json::write_file adds it to every --json
// document as its "provenance" object (docs/json.md), so that a figure can always be traced back
// to the build and machine that produced it. The core library cannot call MPI or NCCL itself
// (they sit above it), so the program sets their versions once at startup (set_libraries).
#pragma once

#include <string>

#include "gpu500/core/json.hpp"

namespace gpu500::provenance {

struct record {
  std::string version;             ///< the project's version (CMake's project VERSION)
  std::string commit;              ///< git commit at configure time ("unknown" outside a checkout)
  std::string host;                ///< host name
  std::string blas;                ///< OpenBLAS, BLIS, MKL or reference
  std::string cuda_architectures;  ///< e.g. "90" ("" without the CUDA backend)
  std::string mpi;                 ///< the MPI library's version line ("none" without MPI)
  std::string nccl;                ///< e.g. "2.21.5" ("none" without NCCL)
};

/// The MPI and NCCL versions this process runs with; the program calls it before any command.
void set_libraries(std::string mpi, std::string nccl);

/// The record of this build and process.
[[nodiscard]] record current();

/// The record as the "provenance" object of docs/json.md.
[[nodiscard]] json::value to_json(const record& r);

}  // namespace gpu500::provenance
