// HPL's own communication algorithms (see comm.hpp), over point-to-point messages of
// gpu500/dist. The panel broadcasts follow netlib's topologies:
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

namespace gpu500::hpl::detail {

namespace {
constexpr int tag_bcast = 101, tag_gather = 102, tag_count = 103;

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
  if (size() == 1 || n == 0) return;
  const int rel = (rank() - root + size()) % size();
  send_mode mode(*this, root_async && rel == 0);
  const int last = size() - 1;
  auto abs = [&](int r) { return (r + root) % size(); };
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
  const std::vector<std::int64_t> counts = c_.allgather(static_cast<std::int64_t>(n));
  return {counts.begin(), counts.end()};
}

std::vector<double> comm::allgather(const std::vector<double>& mine, bool bin_exch) const {
  if (size() == 1) return mine;
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
  const int me = rank(), ranks = size();
  const long my = counts[me];
  if (ranks == 1) {
    std::copy(mine, mine + my, out);
    return;
  }
  if (!bin_exch) {
    // Spread-roll: size-1 ring steps, each forwarding the block received in the step before.
    std::vector<long> off(size() + 1, 0);
    for (int r = 0; r < size(); ++r) off[r + 1] = off[r] + counts[r];
    std::copy(mine, mine + my, out + off[rank()]);
    const int next = (rank() + 1) % size(), prev = (rank() + size() - 1) % size();
    for (int s = 0; s < size() - 1; ++s) {
      const int bs = (rank() - s + size()) % size(), br = (rank() - s - 1 + size()) % size();
      sendrecv(out + off[bs], counts[bs], next, out + off[br], counts[br], prev, tag_gather);
    }
    return;
  }
  // Binary exchange: ranks >= pof2 fold into rank - pof2, recursive doubling among the first
  // pof2 ranks (the gathered prefix of `out` grows in place), then the folded ranks get the
  // result back.
  int pof2 = 1;
  while (pof2 * 2 <= size()) pof2 *= 2;
  auto exchange_count = [&](int peer, long o) {
    const std::int64_t mine_count = o;
    std::int64_t in = 0;
    c_.sendrecv(&mine_count, 1, peer, &in, 1, peer, tag_count);
    return static_cast<long>(in);
  };
  if (rank() >= pof2) {
    send(mine, my, rank() - pof2, tag_gather);
    recv(out, total, rank() - pof2, tag_gather);
    return;
  }
  std::copy(mine, mine + my, out);
  long len = my;
  if (rank() + pof2 < size()) {
    const int peer = rank() + pof2;
    recv(out + len, counts[peer], peer, tag_gather);
    len += counts[peer];
  }
  for (int mask = 1; mask < pof2; mask <<= 1) {
    const int peer = rank() ^ mask;
    const long in_n = exchange_count(peer, len);
    GPU500_EXPECTS(len + in_n <= total, "binary-exchange gathered a wrong size");
    sendrecv(out, len, peer, out + len, in_n, peer, tag_gather);
    len += in_n;
  }
  GPU500_EXPECTS(len == total, "binary-exchange gathered a wrong size");
  if (me + pof2 < ranks) send(out, total, me + pof2, tag_gather);
}

}  // namespace gpu500::hpl::detail
