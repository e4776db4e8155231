// GoogleTest main for suites that run under mpiexec: MPI initialised around the tests, results
// printed by rank 0 only, and the exit code the worst over all ranks. Without MPI: one process.
// Where OMP_NUM_THREADS is unset (a run by hand; CTest sets it), each rank's OpenMP team is its
// share of the host's cores, as `gpu500` sets it (dist/host_threads.hpp): R full teams would
// oversubscribe the host R times over and slow the host-backend comparisons by orders of magnitude.
#include <gtest/gtest.h>

#include "gpu500/config.hpp"
#include "gpu500/dist/host_threads.hpp"

#if GPU500_HAVE_MPI
#include <mpi.h>
#endif

int main(int argc, char** argv) {
#if GPU500_HAVE_MPI
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
#endif
  ::testing::InitGoogleTest(&argc, argv);
  int rank = 0;
#if GPU500_HAVE_MPI
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  (void)gpu500::dist::share_host_cores(gpu500::dist::communicator::world());
#endif
  if (rank != 0) {
    auto& l = ::testing::UnitTest::GetInstance()->listeners();
    delete l.Release(l.default_result_printer());
  }
  int rc = RUN_ALL_TESTS();
#if GPU500_HAVE_MPI
  int all = 0;
  MPI_Allreduce(&rc, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  rc = all;
  MPI_Finalize();
#endif
  return rc;
}
