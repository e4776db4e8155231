// What run_program and run_tune share (src/hpl/setup.cpp): MPI for the run, the process's
// placement, the device class agreed by the ranks, the short form with the device's NB and N
// filled in, and a test's run_options with the device's defaults for what the user left unset.
#pragma once

#include <cstdint>

#include "gpu500/dist/comm.hpp"
#include "gpu500/hpl/defaults.hpp"
#include "gpu500/hpl/pdgesv.hpp"
#include "gpu500/dist/placement.hpp"
#include "gpu500/hpl/program.hpp"

namespace gpu500::hpl::detail {

/// MPI for the duration of the run (dist::mpi_session: initialised unless the caller did, not
/// finalised while an exception unwinds), and this process's place in MPI_COMM_WORLD.
struct mpi_session {
  dist::mpi_session session;
  dist::communicator world;
  int rank = 0, size = 1;
  mpi_session();
};

/// The run's set-up on this process.
struct run_setup {
  dist::placement place;
  device_class cls = device_class::cpu;  ///< rank 0's device class (the ranks agree on NB)
};

/// Places the process (one line on stderr per rank when there are several), agrees the class.
run_setup set_up(const program_settings& s, const mpi_session& mpi);

/// The short form with NB from the table when not given and N chosen when auto_n (rank 0 prints
/// one line on stderr with the N, the memory it uses and the margin).
params resolve_short_form(const program_settings& s, const run_setup& setup, const mpi_session& mpi);

/// The options every test shares (backend, switches, timing).
run_options base_options(const program_settings& s);
/// One test's options: the user's panel options, else the table's for its grid (CUDA).
run_options test_options(const program_settings& s, const run_options& base, device_class cls, const params& t);

}  // namespace gpu500::hpl::detail
