// NCCL between the GPUs of an MPI communicator's ranks (see gpu500/dist/nccl.hpp): the
// communicator made from a unique id broadcast by MPI, grouped point-to-point exchanges, and the
// NCCL communicators a process grid keeps (gpu500/dist/grid.hpp).
#include "gpu500/dist/nccl.hpp"

#include <memory>
#include <string>

#include "gpu500/dist/grid.hpp"

#include "gpu500/config.hpp"
#include "gpu500/core/error.hpp"

#if GPU500_HAVE_NCCL
#include <nccl.h>
#endif

namespace gpu500::dist {

#if GPU500_HAVE_NCCL

namespace {

void check(ncclResult_t r, const char* what) {
  if (r != ncclSuccess) throw std::runtime_error(std::string("NCCL: ") + what + ": " + ncclGetErrorString(r));
}
void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string("CUDA: ") + what + ": " + cudaGetErrorString(e));
}
ncclComm_t native(void* c) { return static_cast<ncclComm_t>(c); }

}  // namespace

bool nccl_available() { return true; }

std::string nccl_library_version() {
  int v = 0;
  if (ncclGetVersion(&v) != ncclSuccess || v <= 0) return "unknown";
  // 2.9 and later: major * 10000 + minor * 100 + patch; earlier: major * 1000 + minor * 100 + patch.
  const int major = v >= 10000 ? v / 10000 : v / 1000, rest = v >= 10000 ? v % 10000 : v % 1000;
  return std::to_string(major) + "." + std::to_string(rest / 100) + "." + std::to_string(rest % 100);
}

nccl_comm::nccl_comm(const communicator& c) : rank_(c.rank()), size_(c.size()) {
  ncclUniqueId id{};
  if (rank_ == 0) check(ncclGetUniqueId(&id), "ncclGetUniqueId");
  c.bcast_bytes(&id, sizeof id, 0);
  ncclComm_t comm = nullptr;
  check(ncclCommInitRank(&comm, size_, id, rank_), "ncclCommInitRank");
  comm_ = comm;
}

nccl_comm::~nccl_comm() {
  if (comm_) ncclCommDestroy(native(comm_));
}

void nccl_comm::alltoallv_bytes(const void* send, const index_t* send_counts, void* recv, const index_t* recv_counts,
                                std::size_t elem_bytes, cudaStream_t stream, const index_t* send_displs,
                                const index_t* recv_displs) const {
  const auto* s = static_cast<const char*>(send);
  auto* d = static_cast<char*>(recv);
  std::size_t so = 0, ro = 0;
  check(ncclGroupStart(), "ncclGroupStart");
  for (int r = 0; r < size_; ++r) {
    const auto sb = static_cast<std::size_t>(send_counts[r]) * elem_bytes;
    const auto rb = static_cast<std::size_t>(recv_counts[r]) * elem_bytes;
    if (send_displs) so = static_cast<std::size_t>(send_displs[r]) * elem_bytes;
    if (recv_displs) ro = static_cast<std::size_t>(recv_displs[r]) * elem_bytes;
    if (r == rank_) {
      if (sb) check(cudaMemcpyAsync(d + ro, s + so, sb, cudaMemcpyDeviceToDevice, stream), "own block");
    } else {
      if (sb) check(ncclSend(s + so, sb, ncclChar, r, native(comm_), stream), "ncclSend");
      if (rb) check(ncclRecv(d + ro, rb, ncclChar, r, native(comm_), stream), "ncclRecv");
    }
    so += sb;
    ro += rb;
  }
  check(ncclGroupEnd(), "ncclGroupEnd");
}

void nccl_comm::allgatherv_bytes(const void* mine, void* whole, const std::size_t* bytes, cudaStream_t stream) const {
  auto* d = static_cast<char*>(whole);
  std::size_t mine_at = 0;
  for (int r = 0; r < rank_; ++r) mine_at += bytes[r];
  const std::size_t mine_bytes = bytes[rank_];
  check(ncclGroupStart(), "ncclGroupStart");
  std::size_t at = 0;
  for (int r = 0; r < size_; ++r) {
    if (r != rank_) {
      if (mine_bytes) check(ncclSend(mine, mine_bytes, ncclChar, r, native(comm_), stream), "ncclSend");
      if (bytes[r]) check(ncclRecv(d + at, bytes[r], ncclChar, r, native(comm_), stream), "ncclRecv");
    }
    at += bytes[r];
  }
  check(ncclGroupEnd(), "ncclGroupEnd");
  if (mine_bytes && mine != d + mine_at)
    check(cudaMemcpyAsync(d + mine_at, mine, mine_bytes, cudaMemcpyDeviceToDevice, stream), "own block");
}

void nccl_comm::gatherv_bytes(const void* mine, void* whole, const std::size_t* bytes, int root,
                              cudaStream_t stream) const {
  auto* d = static_cast<char*>(whole);
  if (rank_ != root) {
    if (bytes[rank_]) {
      check(ncclGroupStart(), "ncclGroupStart");
      check(ncclSend(mine, bytes[rank_], ncclChar, root, native(comm_), stream), "ncclSend");
      check(ncclGroupEnd(), "ncclGroupEnd");
    }
    return;
  }
  check(ncclGroupStart(), "ncclGroupStart");
  std::size_t at = 0, mine_at = 0;
  for (int r = 0; r < size_; ++r) {
    if (r == rank_) mine_at = at;
    else if (bytes[r]) check(ncclRecv(d + at, bytes[r], ncclChar, r, native(comm_), stream), "ncclRecv");
    at += bytes[r];
  }
  check(ncclGroupEnd(), "ncclGroupEnd");
  if (bytes[rank_] && mine != d + mine_at)
    check(cudaMemcpyAsync(d + mine_at, mine, bytes[rank_], cudaMemcpyDeviceToDevice, stream), "own block");
}

void nccl_comm::bcast_bytes(void* buf, std::size_t bytes, int root, cudaStream_t stream) const {
  if (bytes == 0 || size_ == 1) return;
  check(ncclBroadcast(buf, buf, bytes, ncclChar, root, native(comm_), stream), "ncclBroadcast");
}

#else

bool nccl_available() { return false; }
nccl_comm::nccl_comm(const communicator&) { throw usage_error("this build of gpu500 has no NCCL"); }
nccl_comm::~nccl_comm() = default;
void nccl_comm::alltoallv_bytes(const void*, const index_t*, void*, const index_t*, std::size_t, cudaStream_t,
                                const index_t*, const index_t*) const {}
void nccl_comm::allgatherv_bytes(const void*, void*, const std::size_t*, cudaStream_t) const {}
void nccl_comm::gatherv_bytes(const void*, void*, const std::size_t*, int, cudaStream_t) const {}
void nccl_comm::bcast_bytes(void*, std::size_t, int, cudaStream_t) const {}

#endif

namespace {
const nccl_comm& made_on_first_use(std::shared_ptr<nccl_comm>& kept, const communicator& over) {
  if (!kept) kept = std::make_shared<nccl_comm>(over);
  return *kept;
}
}  // namespace

const nccl_comm& process_grid::row_nccl(int slot) const {
  GPU500_EXPECTS(slot == 0 || slot == 1, "an NCCL slot of 0 or 1");
  return made_on_first_use(row_nccl_[static_cast<std::size_t>(slot)], row_);
}

const nccl_comm& process_grid::col_nccl(int slot) const {
  GPU500_EXPECTS(slot == 0 || slot == 1, "an NCCL slot of 0 or 1");
  return made_on_first_use(col_nccl_[static_cast<std::size_t>(slot)], col_);
}

}  // namespace gpu500::dist
