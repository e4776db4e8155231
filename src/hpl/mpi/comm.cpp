// Communication layer of HPL (see comm.hpp). The panel broadcasts follow netlib's topologies:
//   1ring   root -> 1 -> 2 -> ... -> Q-1
//   1ringM  root -> 1 (the next panel's owner, freed at once) and root -> 2 -> 3 -> ...
//   2ring   root -> 1 -> ... -> a  and  root -> a+1 -> ... -> Q-1 (two half rings)
//   2ringM  root -> 1, then 2ring over 2 .. Q-1
//   Blong   spread (piece i of Q-1 to relative rank i) then roll (ring all-gather of the pieces)
//   BlongM  root -> 1, then Blong over 2 .. Q-1
// Row swaps gather the pieces of U (and the displaced rows) with binary exchange (recursive
// doubling, extra ranks folded in) or spread-roll (a ring all-gather).
#include "comm.hpp"

#include <algorithm>
#include <cstring>

#include "gpu500/config.hpp"
#include "gpu500/core/error.hpp"

#if GPU500_HAVE_MPI
#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>  // MPIX_CUDA_AWARE_SUPPORT (OpenMPI)
#endif
#endif

namespace gpu500::hpl::detail {

namespace {
constexpr int tag_bcast = 101;  // (the broadcasts below are written for any build; one rank sends nothing)
}  // namespace

#if GPU500_HAVE_MPI
namespace {
MPI_Comm mc(void* c) { return *static_cast<MPI_Comm*>(c); }
int icount(long n) {
  GPU500_EXPECTS(n >= 0 && n <= INT32_MAX, "HPL message larger than 2^31 doubles");
  return static_cast<int>(n);
}
constexpr int tag_gather = 102, tag_count = 103;
}  // namespace

comm::comm(void* mpi_comm) : c_(mpi_comm) {
  if (c_) {
    MPI_Comm_rank(mc(c_), &rank_);
    MPI_Comm_size(mc(c_), &size_);
  }
}
void comm::bcast(double* buf, long n, int root) const {
  if (size_ > 1 && n > 0) MPI_Bcast(buf, icount(n), MPI_DOUBLE, root, mc(c_));
}
int comm::maxloc(double v) const {
  if (size_ == 1) return 0;
  struct { double v; int r; } in{v, rank_}, out{};
  MPI_Allreduce(&in, &out, 1, MPI_DOUBLE_INT, MPI_MAXLOC, mc(c_));
  return out.r;
}
void comm::allreduce_sum(double* buf, long n) const {
  if (size_ > 1 && n > 0) MPI_Allreduce(MPI_IN_PLACE, buf, icount(n), MPI_DOUBLE, MPI_SUM, mc(c_));
}
void comm::allreduce_max(double* buf, long n) const {
  if (size_ > 1 && n > 0) MPI_Allreduce(MPI_IN_PLACE, buf, icount(n), MPI_DOUBLE, MPI_MAX, mc(c_));
}
void comm::barrier() const {
  if (size_ > 1) MPI_Barrier(mc(c_));
}
void comm::send(const double* buf, long n, int dest, int tag) const {
  if (async_) return isend(buf, n, dest, tag);
  MPI_Send(buf, icount(n), MPI_DOUBLE, dest, tag, mc(c_));
}
void comm::isend(const double* buf, long n, int dest, int tag) const {
  static_assert(sizeof(MPI_Request) <= sizeof(long), "MPI_Request must fit a long");
  MPI_Request r;
  MPI_Isend(buf, icount(n), MPI_DOUBLE, dest, tag, mc(c_), &r);
  long v = 0;
  std::memcpy(&v, &r, sizeof r);
  pending_.push_back(v);
}
void comm::wait_sends() const {
  for (long v : pending_) {
    MPI_Request r;
    std::memcpy(&r, &v, sizeof r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
  }
  pending_.clear();
}
void comm::recv(double* buf, long n, int src, int tag) const {
  MPI_Recv(buf, icount(n), MPI_DOUBLE, src, tag, mc(c_), MPI_STATUS_IGNORE);
}
long comm::sendrecv(const double* s, long sn, int dest, double* r, long rmax, int src, int tag) const {
  MPI_Status st;
  MPI_Sendrecv(s, icount(sn), MPI_DOUBLE, dest, tag, r, icount(rmax), MPI_DOUBLE, src, tag, mc(c_), &st);
  int got = 0;
  MPI_Get_count(&st, MPI_DOUBLE, &got);
  return got;
}
#else
comm::comm(void*) {}
void comm::bcast(double*, long, int) const {}
int comm::maxloc(double) const { return 0; }
void comm::allreduce_sum(double*, long) const {}
void comm::allreduce_max(double*, long) const {}
void comm::barrier() const {}
void comm::send(const double*, long, int, int) const { throw error("HPL: send without MPI"); }
void comm::isend(const double*, long, int, int) const { throw error("HPL: send without MPI"); }
void comm::wait_sends() const {}
void comm::recv(double*, long, int, int) const { throw error("HPL: recv without MPI"); }
long comm::sendrecv(const double*, long, int, double*, long, int, int) const { throw error("HPL: sendrecv without MPI"); }
#endif

namespace {

// A ring over relative ranks first..last (inclusive), fed by the root: first receives from the
// root, every other member from its predecessor, and forwards to its successor.
void ring(const comm& c, double* buf, long n, int root, int rel, int first, int last, int tag) {
  if (first > last) return;
  auto abs = [&](int r) { return (r + root) % c.size(); };
  if (rel == 0) {
    c.send(buf, n, abs(first), tag);
  } else if (rel >= first && rel <= last) {
    c.recv(buf, n, rel == first ? root : abs(rel - 1), tag);
    if (rel < last) c.send(buf, n, abs(rel + 1), tag);
  }
}

// Spread-roll over the relative ranks first..last, fed by the root: piece t of m goes to
// first + t, then m-1 ring steps give every member every piece.
void spread_roll(const comm& c, double* buf, long n, int root, int rel, int first, int last, int tag) {
  const int m = last - first + 1;
  if (m <= 0) return;
  if (m == 1) return ring(c, buf, n, root, rel, first, last, tag);
  auto abs = [&](int r) { return (r + root) % c.size(); };
  auto lo = [&](int t) { return n * t / m; };
  if (rel == 0) {
    for (int t = 0; t < m; ++t)
      if (lo(t + 1) > lo(t)) c.send(buf + lo(t), lo(t + 1) - lo(t), abs(first + t), tag);
    return;
  }
  if (rel < first || rel > last) return;
  const int me = rel - first;
  if (lo(me + 1) > lo(me)) c.recv(buf + lo(me), lo(me + 1) - lo(me), root, tag);
  const int next = abs(first + (me + 1) % m), prev = abs(first + (me + m - 1) % m);
  for (int s = 0; s < m - 1; ++s) {
    const int ts = (me - s + m) % m, tr = (me - s - 1 + m) % m;  // piece sent, piece received
    c.sendrecv(buf + lo(ts), lo(ts + 1) - lo(ts), next, buf + lo(tr), lo(tr + 1) - lo(tr), prev, tag);
  }
}

}  // namespace

// Makes the root's sends of one broadcast non-blocking (comm::send checks async_).
struct send_mode {
  const comm& c;
  send_mode(const comm& cc, bool on) : c(cc) { c.async_ = on; }
  ~send_mode() { c.async_ = false; }
};

void comm::bcast_panel(double* buf, long n, int root, ::gpu500::hpl::bcast algo, bool root_async) const {
  if (size_ == 1 || n == 0) return;
  const int rel = (rank_ - root + size_) % size_;
  send_mode mode(*this, root_async && rel == 0);
  const int last = size_ - 1;
  auto abs = [&](int r) { return (r + root) % size_; };
  switch (algo) {
    case ::gpu500::hpl::bcast::ring1:
      ring(*this, buf, n, root, rel, 1, last, tag_bcast);
      break;
    case ::gpu500::hpl::bcast::ring1m:
      if (rel == 0) send(buf, n, abs(1), tag_bcast);
      else if (rel == 1) recv(buf, n, root, tag_bcast);
      ring(*this, buf, n, root, rel, 2, last, tag_bcast);
      break;
    case ::gpu500::hpl::bcast::ring2: {
      const int a = (last + 1) / 2;  // ring A: 1..a, ring B: a+1..last
      ring(*this, buf, n, root, rel, 1, a, tag_bcast);
      ring(*this, buf, n, root, rel, a + 1, last, tag_bcast);
      break;
    }
    case ::gpu500::hpl::bcast::ring2m: {
      if (rel == 0) send(buf, n, abs(1), tag_bcast);
      else if (rel == 1) recv(buf, n, root, tag_bcast);
      const int a = 1 + last / 2;  // ring A: 2..a, ring B: a+1..last
      ring(*this, buf, n, root, rel, 2, a, tag_bcast);
      ring(*this, buf, n, root, rel, a + 1, last, tag_bcast);
      break;
    }
    case ::gpu500::hpl::bcast::blong:
      spread_roll(*this, buf, n, root, rel, 1, last, tag_bcast);
      break;
    case ::gpu500::hpl::bcast::blongm:
      if (rel == 0) send(buf, n, abs(1), tag_bcast);
      else if (rel == 1) recv(buf, n, root, tag_bcast);
      spread_roll(*this, buf, n, root, rel, 2, last, tag_bcast);
      break;
  }
}

std::vector<long> comm::gather_counts(long n) const {
  std::vector<long> counts(size_, n);
#if GPU500_HAVE_MPI
  if (size_ > 1) MPI_Allgather(&n, 1, MPI_LONG, counts.data(), 1, MPI_LONG, mc(c_));
#endif
  return counts;
}

std::vector<double> comm::allgather(const std::vector<double>& mine, bool bin_exch) const {
  if (size_ == 1) return mine;
  // Sizes first (one small all-gather), so every receive knows its length.
  const auto counts = gather_counts(static_cast<long>(mine.size()));
  long total = 0;
  for (auto x : counts) total += x;
  std::vector<double> all(total);
  allgather(mine.data(), counts, all.data(), bin_exch);
  return all;
}

void comm::allgather(const double* mine, const std::vector<long>& counts, double* out, bool bin_exch) const {
  long total = 0;
  for (auto x : counts) total += x;
  const long my = counts[rank_];
  if (size_ == 1) {
    std::copy(mine, mine + my, out);
    return;
  }
#if GPU500_HAVE_MPI
  if (!bin_exch) {
    // Spread-roll: size-1 ring steps, each forwarding the block received in the step before.
    std::vector<long> off(size_ + 1, 0);
    for (int r = 0; r < size_; ++r) off[r + 1] = off[r] + counts[r];
    std::copy(mine, mine + my, out + off[rank_]);
    const int next = (rank_ + 1) % size_, prev = (rank_ + size_ - 1) % size_;
    for (int s = 0; s < size_ - 1; ++s) {
      const int bs = (rank_ - s + size_) % size_, br = (rank_ - s - 1 + size_) % size_;
      sendrecv(out + off[bs], counts[bs], next, out + off[br], counts[br], prev, tag_gather);
    }
    return;
  }
  // Binary exchange: ranks >= pof2 fold into rank - pof2, recursive doubling among the first
  // pof2 ranks (the gathered prefix of `out` grows in place), then the folded ranks get the
  // result back.
  int pof2 = 1;
  while (pof2 * 2 <= size_) pof2 *= 2;
  auto exchange_count = [&](int peer, long o) {
    long in = 0;
    MPI_Sendrecv(&o, 1, MPI_LONG, peer, tag_count, &in, 1, MPI_LONG, peer, tag_count, mc(c_), MPI_STATUS_IGNORE);
    return in;
  };
  if (rank_ >= pof2) {
    send(mine, my, rank_ - pof2, tag_gather);
    recv(out, total, rank_ - pof2, tag_gather);
    return;
  }
  std::copy(mine, mine + my, out);
  long len = my;
  if (rank_ + pof2 < size_) {
    const int peer = rank_ + pof2;
    recv(out + len, counts[peer], peer, tag_gather);
    len += counts[peer];
  }
  for (int mask = 1; mask < pof2; mask <<= 1) {
    const int peer = rank_ ^ mask;
    const long in_n = exchange_count(peer, len);
    GPU500_EXPECTS(len + in_n <= total, "binary-exchange gathered a wrong size");
    sendrecv(out, len, peer, out + len, in_n, peer, tag_gather);
    len += in_n;
  }
  GPU500_EXPECTS(len == total, "binary-exchange gathered a wrong size");
  if (rank_ + pof2 < size_) send(out, total, rank_ + pof2, tag_gather);
#else
  std::copy(mine, mine + my, out);
#endif
}

grid_comms::~grid_comms() {
#if GPU500_HAVE_MPI
  int fin = 0;
  MPI_Finalized(&fin);
  for (auto* p : owned) {
    auto* c = static_cast<MPI_Comm*>(p);
    if (c) {
      if (!fin && *c != MPI_COMM_NULL) MPI_Comm_free(c);
      delete c;
    }
  }
#endif
}

}  // namespace gpu500::hpl::detail

namespace gpu500::hpl {

bool device_mpi_available() {
#if GPU500_HAVE_MPI && defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  return MPIX_Query_cuda_support() == 1;
#else
  return false;
#endif
}

grid grid::create(int p, int q, bool col_major) {
  GPU500_EXPECTS(p >= 1 && q >= 1, "HPL grid dimensions must be >= 1");
  grid g;
  g.p = p;
  g.q = q;
  g.comms = std::make_shared<detail::grid_comms>();
#if GPU500_HAVE_MPI
  int init = 0, fin = 0;
  MPI_Initialized(&init);
  MPI_Finalized(&fin);
  if (init && !fin) {
    MPI_Comm_rank(MPI_COMM_WORLD, &g.world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &g.world_size);
    if (g.world_size > 1) {  // the node-local rank picks the GPU (CUDA backend)
      MPI_Comm node;
      MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, g.world_rank, MPI_INFO_NULL, &node);
      MPI_Comm_rank(node, &g.local_rank);
      MPI_Comm_free(&node);
    }
  }
#endif
  if (static_cast<long>(p) * q > g.world_size)
    throw usage_error("HPL grid " + std::to_string(p) + " x " + std::to_string(q) + " needs " +
                      std::to_string(static_cast<long>(p) * q) + " processes, only " +
                      std::to_string(g.world_size) + " running (use mpirun -np)");
  g.in_grid = g.world_rank < p * q;
  if (g.in_grid) {
    g.myrow = col_major ? g.world_rank % p : g.world_rank / q;
    g.mycol = col_major ? g.world_rank / p : g.world_rank % q;
  }
#if GPU500_HAVE_MPI
  if (g.world_size > 1) {
    auto* all = new MPI_Comm, *row = new MPI_Comm, *col = new MPI_Comm;
    const int color = g.in_grid ? 0 : MPI_UNDEFINED;
    MPI_Comm_split(MPI_COMM_WORLD, color, g.world_rank, all);
    g.comms->owned[0] = all;
    g.comms->owned[1] = row;
    g.comms->owned[2] = col;
    *row = *col = MPI_COMM_NULL;
    if (g.in_grid) {
      MPI_Comm_split(*all, g.myrow, g.mycol, row);
      MPI_Comm_split(*all, g.mycol, g.myrow, col);
      g.comms->all = detail::comm(all);
      g.comms->row = detail::comm(row);
      g.comms->col = detail::comm(col);
    }
  }
#endif
  return g;
}

}  // namespace gpu500::hpl
