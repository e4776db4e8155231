// The communicator of gpu500/dist/comm.hpp: MPI calls when MPI is compiled in and initialised,
// local copies for the one-rank communicator. Exchanges whose counts or displacements do not fit
// MPI's int (or exceed max_message_bytes) are split into point-to-point messages.
#include "gpu500/dist/comm.hpp"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <stdexcept>

#include "gpu500/config.hpp"
#include "gpu500/core/error.hpp"

#if GPU500_HAVE_MPI
#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif
#include "mpi_handles.hpp"
#endif

namespace gpu500::dist {

#if GPU500_HAVE_MPI
namespace {

using detail::check;

MPI_Comm native(std::uint64_t h) { return detail::handle_of<MPI_Comm>(h); }

template <class T>
MPI_Datatype mpi_type() {
  if constexpr (std::is_same_v<T, int>) return MPI_INT;
  else if constexpr (std::is_same_v<T, std::int64_t>) return MPI_INT64_T;
  else if constexpr (std::is_same_v<T, std::uint64_t>) return MPI_UINT64_T;
  else if constexpr (std::is_same_v<T, float>) return MPI_FLOAT;
  else return MPI_DOUBLE;
}

MPI_Op mpi_op(reduce_op op) {
  switch (op) {
    case reduce_op::sum: return MPI_SUM;
    case reduce_op::max: return MPI_MAX;
    case reduce_op::min: return MPI_MIN;
    case reduce_op::lor: return MPI_LOR;
    case reduce_op::bor: return MPI_BOR;
  }
  return MPI_SUM;
}

/// A contiguous type of elem_bytes bytes (freed on scope exit).
class element_type {
 public:
  explicit element_type(std::size_t elem_bytes) {
    check(MPI_Type_contiguous(static_cast<int>(elem_bytes), MPI_BYTE, &t_), "MPI_Type_contiguous");
    check(MPI_Type_commit(&t_), "MPI_Type_commit");
  }
  ~element_type() { MPI_Type_free(&t_); }
  element_type(const element_type&) = delete;
  element_type& operator=(const element_type&) = delete;
  [[nodiscard]] MPI_Datatype get() const { return t_; }

 private:
  MPI_Datatype t_{};
};

constexpr int split_tag = 0x6735, self_tag = 0x6736;

/// Copies bytes from this rank to itself through MPI (pieces of at most INT_MAX bytes), so that
/// the split paths work on any memory MPI can read, device memory under a CUDA-aware MPI included.
void self_copy(void* dst, const void* src, std::size_t bytes, MPI_Comm comm) {
  int me = 0;
  MPI_Comm_rank(comm, &me);
  for (std::size_t done = 0; done < bytes;) {
    const int k = static_cast<int>(std::min<std::size_t>(bytes - done, INT_MAX));
    check(MPI_Sendrecv(static_cast<const char*>(src) + done, k, MPI_BYTE, me, self_tag,
                       static_cast<char*>(dst) + done, k, MPI_BYTE, me, self_tag, comm, MPI_STATUS_IGNORE),
          "MPI_Sendrecv");
    done += static_cast<std::size_t>(k);
  }
}

}  // namespace
#endif

mpi_session::mpi_session() : uncaught_(std::uncaught_exceptions()) {
#if GPU500_HAVE_MPI
  int init = 0;
  MPI_Initialized(&init);
  if (!init) {
    int provided = 0;
    check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
    owned_ = true;
  }
#endif
  fault_point("start");
}

mpi_session::~mpi_session() {
#if GPU500_HAVE_MPI
  // Leaving by an exception: the other ranks may be waiting in a collective, so no
  // MPI_Finalize here; the program's error path ends the run (MPI_Abort).
  if (std::uncaught_exceptions() > uncaught_) return;
  int fin = 0;
  MPI_Finalized(&fin);
  if (owned_ && !fin) MPI_Finalize();
#endif
}

communicator communicator::world() {
#if GPU500_HAVE_MPI
  int init = 0, fin = 0;
  MPI_Initialized(&init);
  MPI_Finalized(&fin);
  if (init && !fin) {
    MPI_Comm w = MPI_COMM_WORLD;
    return from_native(&w);
  }
#endif
  return communicator{};
}

communicator communicator::from_native(const void* mpi_comm) {
  communicator c;
#if GPU500_HAVE_MPI
  GPU500_EXPECTS(mpi_comm != nullptr, "an MPI communicator");
  MPI_Comm m = *static_cast<const MPI_Comm*>(mpi_comm);
  std::memcpy(&c.handle_, &m, sizeof m);
  c.mpi_ = true;
  MPI_Comm_rank(m, &c.rank_);
  MPI_Comm_size(m, &c.size_);
  MPI_Comm node = detail::split_by_host(m);
  MPI_Comm_size(node, &c.node_size_);
  MPI_Comm_rank(node, &c.node_rank_);
  MPI_Comm_free(&node);
#else
  GPU500_EXPECTS(mpi_comm == nullptr, "this build has no MPI");
#endif
  return c;
}

void communicator::barrier() const {
#if GPU500_HAVE_MPI
  if (mpi_ && size_ > 1) fault_point("collective");
  if (mpi_) check(MPI_Barrier(native(handle_)), "MPI_Barrier");
#endif
}

template <class T>
void communicator::allreduce(T* data, std::size_t n, reduce_op op) const {
#if GPU500_HAVE_MPI
  if (!mpi_ || size_ == 1) return;
  fault_point("collective");
  for (std::size_t done = 0; done < n;) {
    const int k = static_cast<int>(std::min<std::size_t>(n - done, INT_MAX));
    check(MPI_Allreduce(MPI_IN_PLACE, data + done, k, mpi_type<T>(), mpi_op(op), native(handle_)), "MPI_Allreduce");
    done += static_cast<std::size_t>(k);
  }
#else
  (void)data, (void)n, (void)op;
#endif
}
template void communicator::allreduce(int*, std::size_t, reduce_op) const;
template void communicator::allreduce(std::int64_t*, std::size_t, reduce_op) const;
template void communicator::allreduce(std::uint64_t*, std::size_t, reduce_op) const;
template void communicator::allreduce(float*, std::size_t, reduce_op) const;
template void communicator::allreduce(double*, std::size_t, reduce_op) const;

void communicator::bcast_bytes(void* data, std::size_t bytes, int root) const {
#if GPU500_HAVE_MPI
  if (!mpi_ || size_ == 1) return;
  fault_point("collective");
  auto* p = static_cast<char*>(data);
  for (std::size_t done = 0; done < bytes;) {
    const int k = static_cast<int>(std::min<std::size_t>(bytes - done, INT_MAX));
    check(MPI_Bcast(p + done, k, MPI_BYTE, root, native(handle_)), "MPI_Bcast");
    done += static_cast<std::size_t>(k);
  }
#else
  (void)data, (void)bytes, (void)root;
#endif
}

std::string communicator::bcast(std::string s, int root) const {
  const auto n = bcast(static_cast<std::uint64_t>(s.size()), root);
  s.resize(n);
  bcast_bytes(s.data(), n, root);
  return s;
}

void communicator::allgatherv_bytes(const void* send, void* recv, const index_t* recv_counts,
                                    std::size_t elem_bytes) const {
  if (size_ == 1 || !mpi_) {
    if (recv_counts[0] > 0) std::memmove(recv, send, static_cast<std::size_t>(recv_counts[0]) * elem_bytes);
    return;
  }
  fault_point("collective");
#if GPU500_HAVE_MPI
  std::vector<int> counts(static_cast<std::size_t>(size_)), displs(static_cast<std::size_t>(size_));
  index_t off = 0;
  bool fits = true;
  const index_t limit = max_message_bytes_ ? static_cast<index_t>(max_message_bytes_ / elem_bytes) : INT_MAX;
  for (int r = 0; r < size_; ++r) {
    fits = fits && recv_counts[r] <= std::min<index_t>(limit, INT_MAX) && off <= INT_MAX;
    counts[r] = static_cast<int>(recv_counts[r]);
    displs[r] = static_cast<int>(off);
    off += recv_counts[r];
  }
  fits = fits && off <= INT_MAX;
  auto* out = static_cast<char*>(recv);
  if (fits) {
    const element_type t(elem_bytes);
    // MPI_IN_PLACE would need the own block already in recv; a separate send buffer is simpler.
    check(MPI_Allgatherv(send, counts[rank_], t.get(), out, counts.data(), displs.data(), t.get(), native(handle_)),
          "MPI_Allgatherv");
    return;
  }
  // Too large for one call: each rank's block is broadcast from its owner in pieces.
  off = 0;
  for (int r = 0; r < size_; ++r) {
    const auto bytes = static_cast<std::size_t>(recv_counts[r]) * elem_bytes;
    char* dst = out + static_cast<std::size_t>(off) * elem_bytes;
    if (r == rank_ && bytes > 0) self_copy(dst, send, bytes, native(handle_));
    const std::size_t piece = max_message_bytes_ ? max_message_bytes_ : std::size_t{INT_MAX};
    for (std::size_t done = 0; done < bytes;) {
      const std::size_t k = std::min(bytes - done, piece);
      check(MPI_Bcast(dst + done, static_cast<int>(k), MPI_BYTE, r, native(handle_)), "MPI_Bcast");
      done += k;
    }
    off += recv_counts[r];
  }
#endif
}

void communicator::exchange_counts(const index_t* send_counts, index_t* recv_counts, int per_rank) const {
  if (size_ == 1 || !mpi_) {
    std::copy(send_counts, send_counts + per_rank, recv_counts);
    return;
  }
  fault_point("collective");
#if GPU500_HAVE_MPI
  check(MPI_Alltoall(send_counts, per_rank, MPI_INT64_T, recv_counts, per_rank, MPI_INT64_T, native(handle_)),
        "MPI_Alltoall");
#endif
}

void communicator::alltoallv_bytes(const void* send, const index_t* send_counts, void* recv,
                                   const index_t* recv_counts, std::size_t elem_bytes, index_t bound) const {
  if (size_ == 1 || !mpi_) {
    if (send_counts[0] > 0) std::memmove(recv, send, static_cast<std::size_t>(send_counts[0]) * elem_bytes);
    return;
  }
  fault_point("collective");
#if GPU500_HAVE_MPI
  const auto R = static_cast<std::size_t>(size_);
  std::vector<index_t> sdispl(R + 1, 0), rdispl(R + 1, 0);
  for (std::size_t r = 0; r < R; ++r) {
    sdispl[r + 1] = sdispl[r] + send_counts[r];
    rdispl[r + 1] = rdispl[r] + recv_counts[r];
  }
  // One collective when every count and displacement fits an int (and the message limit); the
  // decision must be the same on every rank, hence the reduction, or the caller's bound.
  const index_t limit = max_message_bytes_ ? static_cast<index_t>(max_message_bytes_ / elem_bytes) : INT_MAX;
  index_t largest[1] = {std::max(sdispl[R], rdispl[R])};
  for (std::size_t r = 0; r < R; ++r) largest[0] = std::max({largest[0], send_counts[r], recv_counts[r]});
  if (bound >= 0) {
    if (largest[0] > bound) throw std::logic_error("communicator::alltoallv_bytes: a count passes the caller's bound");
    largest[0] = bound;
  } else {
    allreduce(largest, 1, reduce_op::max);
  }
  const auto* in = static_cast<const char*>(send);
  auto* out = static_cast<char*>(recv);
  if (largest[0] <= std::min<index_t>(limit, INT_MAX) && sdispl[R] <= INT_MAX && rdispl[R] <= INT_MAX) {
    std::vector<int> sc(R), sd(R), rc(R), rd(R);
    for (std::size_t r = 0; r < R; ++r) {
      sc[r] = static_cast<int>(send_counts[r]), sd[r] = static_cast<int>(sdispl[r]);
      rc[r] = static_cast<int>(recv_counts[r]), rd[r] = static_cast<int>(rdispl[r]);
    }
    const element_type t(elem_bytes);
    check(MPI_Alltoallv(send, sc.data(), sd.data(), t.get(), recv, rc.data(), rd.data(), t.get(), native(handle_)),
          "MPI_Alltoallv");
    return;
  }
  // Split path: point-to-point messages of at most `piece` bytes, all posted at once.
  const std::size_t piece = std::max<std::size_t>(
      elem_bytes, max_message_bytes_ ? max_message_bytes_ / elem_bytes * elem_bytes
                                     : static_cast<std::size_t>(INT_MAX) / elem_bytes * elem_bytes);
  std::vector<MPI_Request> reqs;
  for (std::size_t r = 0; r < R; ++r) {
    const auto bytes = static_cast<std::size_t>(recv_counts[r]) * elem_bytes;
    char* dst = out + static_cast<std::size_t>(rdispl[r]) * elem_bytes;
    if (static_cast<int>(r) == rank_) {
      if (bytes) self_copy(dst, in + static_cast<std::size_t>(sdispl[r]) * elem_bytes, bytes, native(handle_));
      continue;
    }
    for (std::size_t done = 0; done < bytes; done += piece) {
      reqs.emplace_back();
      check(MPI_Irecv(dst + done, static_cast<int>(std::min(piece, bytes - done)), MPI_BYTE, static_cast<int>(r),
                      split_tag, native(handle_), &reqs.back()),
            "MPI_Irecv");
    }
  }
  for (std::size_t r = 0; r < R; ++r) {
    if (static_cast<int>(r) == rank_) continue;
    const auto bytes = static_cast<std::size_t>(send_counts[r]) * elem_bytes;
    const char* src = in + static_cast<std::size_t>(sdispl[r]) * elem_bytes;
    for (std::size_t done = 0; done < bytes; done += piece) {
      reqs.emplace_back();
      check(MPI_Isend(src + done, static_cast<int>(std::min(piece, bytes - done)), MPI_BYTE, static_cast<int>(r),
                      split_tag, native(handle_), &reqs.back()),
            "MPI_Isend");
    }
  }
  check(MPI_Waitall(static_cast<int>(reqs.size()), reqs.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
#endif
}

bool mpi_accepts_device_memory() {
#if GPU500_HAVE_MPI && defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  return MPIX_Query_cuda_support() == 1;
#else
  return false;
#endif
}

std::string mpi_library_version() {
#if GPU500_HAVE_MPI
  char text[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int len = 0;
  if (MPI_Get_library_version(text, &len) != MPI_SUCCESS) return "unknown";
  std::string v(text, static_cast<std::size_t>(std::max(0, len)));
  v = v.substr(0, v.find_first_of("\r\n,"));
  return v.empty() ? "unknown" : v;
#else
  return "none";
#endif
}

#if !GPU500_HAVE_NCCL
std::string nccl_library_version() { return "none"; }  // (with NCCL: nccl.cpp)
#endif

int communicator::exit_code(const std::exception& e) {
  if (dynamic_cast<const usage_error*>(&e) != nullptr) return 2;
  if (dynamic_cast<const resource_error*>(&e) != nullptr) return 3;
  return 1;
}

void communicator::abort(const std::string& message, int code) const {
  std::fprintf(stderr, "gpu500: error on rank %d of %d: %s\n", rank_, size_, message.c_str());
  std::fflush(stderr);
#if GPU500_HAVE_MPI
  if (mpi_) MPI_Abort(native(handle_), code);
#endif
  std::exit(code);
}

}  // namespace gpu500::dist
