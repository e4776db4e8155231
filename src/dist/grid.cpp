// The P x Q grid of ranks (gpu500/dist/grid.hpp): the grid's, the process rows' and the process
// columns' communicators split from the world communicator, freed with the grid.
#include "gpu500/dist/grid.hpp"

#include "gpu500/config.hpp"
#include "gpu500/core/error.hpp"

#if GPU500_HAVE_MPI
#include "mpi_handles.hpp"
#endif

namespace gpu500::dist {

process_grid::process_grid(const communicator& world, int p, int q, bool col_major)
    : p_(p), q_(q), col_major_(col_major), world_(world) {
  GPU500_EXPECTS(p >= 1 && q >= 1 && static_cast<long>(p) * q <= world_.size(),
                 "a P x Q grid of at most the ranks started");
  const int me = world_.rank();
  in_grid_ = me < p * q;
  if (in_grid_) {
    myrow_ = col_major ? me % p : me / q;
    mycol_ = col_major ? me / p : me % q;
  }
  if (world_.size() == 1) {
    all_ = row_ = col_ = world_;
    return;
  }
#if GPU500_HAVE_MPI
  const auto world_mpi = detail::handle_of<MPI_Comm>(world_.native_bits());
  MPI_Comm all = MPI_COMM_NULL, row = MPI_COMM_NULL, col = MPI_COMM_NULL;
  detail::check(MPI_Comm_split(world_mpi, in_grid_ ? 0 : MPI_UNDEFINED, me, &all), "MPI_Comm_split");
  if (!in_grid_) return;  // idle: one-rank stand-ins
  owned_[0] = detail::bits_of(all);
  detail::check(MPI_Comm_split(all, myrow_, mycol_, &row), "MPI_Comm_split");
  owned_[1] = detail::bits_of(row);
  detail::check(MPI_Comm_split(all, mycol_, myrow_, &col), "MPI_Comm_split");
  owned_[2] = detail::bits_of(col);
  all_ = communicator::from_native(&all);
  row_ = communicator::from_native(&row);
  col_ = communicator::from_native(&col);
#endif
}

process_grid::~process_grid() {
  for (auto& n : row_nccl_) n.reset();
  for (auto& n : col_nccl_) n.reset();
#if GPU500_HAVE_MPI
  int finalized = 0;
  MPI_Finalized(&finalized);
  for (const std::uint64_t bits : owned_) {
    if (bits == 0 || finalized) continue;
    auto c = detail::handle_of<MPI_Comm>(bits);
    MPI_Comm_free(&c);
  }
#endif
}

}  // namespace gpu500::dist
