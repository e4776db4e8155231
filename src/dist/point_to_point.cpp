// Point-to-point messages and the max-location reduction of the communicator
// (gpu500/dist/comm.hpp), for the dense solvers' panel broadcasts and row swaps.
#include <climits>
#include <cstdint>
#include <string>

#include "gpu500/config.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/dist/comm.hpp"

#if GPU500_HAVE_MPI
#include "mpi_handles.hpp"
#endif

namespace gpu500::dist {

#if GPU500_HAVE_MPI
namespace {

template <class T>
MPI_Datatype element_type_of() {
  static_assert(std::is_same_v<T, double> || std::is_same_v<T, std::int64_t>);
  if constexpr (std::is_same_v<T, double>) return MPI_DOUBLE;
  else return MPI_INT64_T;
}

int count_of(std::size_t n) {
  GPU500_EXPECTS(n <= static_cast<std::size_t>(INT_MAX), "a message of at most 2^31 - 1 elements");
  return static_cast<int>(n);
}

MPI_Comm mpi_of(bool mpi, std::uint64_t handle, const char* what) {
  if (!mpi) throw error(std::string(what) + " without MPI");
  return detail::handle_of<MPI_Comm>(handle);
}

}  // namespace

int communicator::maxloc(double v) const {
  if (!mpi_ || size_ == 1) return 0;
  fault_point("collective");
  struct {
    double v;
    int r;
  } in{v, rank_}, out{};
  detail::check(MPI_Allreduce(&in, &out, 1, MPI_DOUBLE_INT, MPI_MAXLOC, detail::handle_of<MPI_Comm>(handle_)),
                "MPI_Allreduce");
  return out.r;
}

template <class T>
void communicator::send(const T* data, std::size_t n, int dest, int tag) const {
  detail::check(MPI_Send(data, count_of(n), element_type_of<T>(), dest, tag, mpi_of(mpi_, handle_, "send")),
                "MPI_Send");
}

template <class T>
void communicator::recv(T* data, std::size_t n, int src, int tag) const {
  detail::check(MPI_Recv(data, count_of(n), element_type_of<T>(), src, tag, mpi_of(mpi_, handle_, "recv"),
                         MPI_STATUS_IGNORE),
                "MPI_Recv");
}

template <class T>
std::size_t communicator::sendrecv(const T* send, std::size_t n_send, int dest, T* recv, std::size_t n_recv, int src,
                                   int tag) const {
  MPI_Status st;
  detail::check(MPI_Sendrecv(send, count_of(n_send), element_type_of<T>(), dest, tag, recv, count_of(n_recv),
                             element_type_of<T>(), src, tag, mpi_of(mpi_, handle_, "sendrecv"), &st),
                "MPI_Sendrecv");
  int got = 0;
  MPI_Get_count(&st, element_type_of<T>(), &got);
  return static_cast<std::size_t>(got);
}

template <class T>
void communicator::isend(const T* data, std::size_t n, int dest, int tag, send_requests& pending) const {
  MPI_Request r = MPI_REQUEST_NULL;
  detail::check(MPI_Isend(data, count_of(n), element_type_of<T>(), dest, tag, mpi_of(mpi_, handle_, "isend"), &r),
                "MPI_Isend");
  pending.requests_.push_back(detail::bits_of(r));
}

void send_requests::wait() {
  for (const std::uint64_t bits : requests_) {
    auto r = detail::handle_of<MPI_Request>(bits);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
  }
  requests_.clear();
}

#else

int communicator::maxloc(double) const { return 0; }
template <class T>
void communicator::send(const T*, std::size_t, int, int) const {
  throw error("send without MPI");
}
template <class T>
void communicator::recv(T*, std::size_t, int, int) const {
  throw error("recv without MPI");
}
template <class T>
std::size_t communicator::sendrecv(const T*, std::size_t, int, T*, std::size_t, int, int) const {
  throw error("sendrecv without MPI");
}
template <class T>
void communicator::isend(const T*, std::size_t, int, int, send_requests&) const {
  throw error("isend without MPI");
}
void send_requests::wait() { requests_.clear(); }

#endif

template void communicator::send(const double*, std::size_t, int, int) const;
template void communicator::send(const std::int64_t*, std::size_t, int, int) const;
template void communicator::recv(double*, std::size_t, int, int) const;
template void communicator::recv(std::int64_t*, std::size_t, int, int) const;
template std::size_t communicator::sendrecv(const double*, std::size_t, int, double*, std::size_t, int, int) const;
template std::size_t communicator::sendrecv(const std::int64_t*, std::size_t, int, std::int64_t*, std::size_t, int,
                                            int) const;
template void communicator::isend(const double*, std::size_t, int, int, send_requests&) const;
template void communicator::isend(const std::int64_t*, std::size_t, int, int, send_requests&) const;

}  // namespace gpu500::dist
