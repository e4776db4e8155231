// Abort probe: rank 1 throws inside communicator::guard while the others wait in a collective.
// The run must end (MPI_Abort) with rank 1's message instead of hanging; ctest checks the message.
#include <stdexcept>

#include "gpu500/dist/comm.hpp"

#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const auto c = gpu500::dist::communicator::world();
  c.guard([&] {
    if (c.rank() == 1) throw std::runtime_error("deliberate failure");
    c.barrier();
  });
  MPI_Finalize();
  return 0;
}
