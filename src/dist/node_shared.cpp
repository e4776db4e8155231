// One block of host memory shared by the ranks of a host (see gpu500/dist/node_shared.hpp): the
// host's first rank allocates it in an MPI-3 shared window, the others map it.
#include "gpu500/dist/node_shared.hpp"

#include <cstring>
#include <string>

#include "gpu500/config.hpp"
#include "gpu500/core/error.hpp"

#if GPU500_HAVE_MPI
#include "mpi_handles.hpp"
#endif

namespace gpu500::dist {

#if GPU500_HAVE_MPI
using detail::bits_of;
using detail::check;
using detail::handle_of;
#endif

node_shared::node_shared(const communicator& c, std::size_t bytes) : bytes_(bytes) {
#if GPU500_HAVE_MPI
  if (c.is_mpi() && c.size() > 1) {
    MPI_Comm node = detail::split_by_host(handle_of<MPI_Comm>(c.native_bits()));
    MPI_Comm_size(node, &ranks_);
    MPI_Comm_rank(node, &rank_);
    node_comm_ = bits_of(node);
    if (ranks_ > 1) {
      // The host's first rank holds the block; 64 bytes of slack keep it 64-byte aligned.
      const MPI_Aint mine = rank_ == 0 ? static_cast<MPI_Aint>(bytes + 64) : 0;
      void* base = nullptr;
      MPI_Win win = MPI_WIN_NULL;
      check(MPI_Win_allocate_shared(mine, 1, MPI_INFO_NULL, node, &base, &win), "MPI_Win_allocate_shared");
      win_ = bits_of(win);
      MPI_Aint size = 0;
      int unit = 0;
      check(MPI_Win_shared_query(win, 0, &size, &unit, &base), "MPI_Win_shared_query");
      const auto addr = reinterpret_cast<std::uintptr_t>(base);
      base_ = reinterpret_cast<void*>((addr + 63) & ~std::uintptr_t{63});
      // Passive-target access for the window's whole life: loads and stores go straight to it.
      check(MPI_Win_lock_all(MPI_MODE_NOCHECK, win), "MPI_Win_lock_all");
      if (rank_ == 0) std::memset(base_, 0, bytes);
      sync();
      return;
    }
  }
#else
  (void)c;
#endif
  own_.assign(bytes + 64, std::byte{0});
  const auto addr = reinterpret_cast<std::uintptr_t>(own_.data());
  base_ = reinterpret_cast<void*>((addr + 63) & ~std::uintptr_t{63});
}

node_shared::~node_shared() {
#if GPU500_HAVE_MPI
  if (win_ != 0) {
    auto win = handle_of<MPI_Win>(win_);
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
  }
  if (node_comm_ != 0) {
    auto node = handle_of<MPI_Comm>(node_comm_);
    MPI_Comm_free(&node);
  }
#endif
}

void node_shared::sync() const {
#if GPU500_HAVE_MPI
  if (win_ == 0) return;
  const auto win = handle_of<MPI_Win>(win_);
  check(MPI_Win_sync(win), "MPI_Win_sync");
  check(MPI_Barrier(handle_of<MPI_Comm>(node_comm_)), "MPI_Barrier");
  check(MPI_Win_sync(win), "MPI_Win_sync");
#endif
}

}  // namespace gpu500::dist
