// The CUDA pipeline over MPI ranks in a build without CUDA: its factory refuses with one line.
#include "gpu500/config.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/graph500/mpi_pipeline.hpp"

namespace gpu500::graph500 {

#if !GPU500_HAVE_CUDA
std::unique_ptr<mpi_pipeline> make_mpi_cuda_pipeline(const dist::communicator&, const graph::kronecker_params&,
                                                     const mpi_options&) {
  throw usage_error("this build has no CUDA backend");
}
#endif

}  // namespace gpu500::graph500
