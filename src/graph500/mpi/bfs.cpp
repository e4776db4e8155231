// Direction-optimising BFS over MPI ranks on the host, OpenMP inside each rank (see bfs.hpp).
#include "bfs.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <limits>
#include <type_traits>
#include <utility>

#include "by_rank.hpp"
#include "gpu500/core/timer.hpp"
#include "gpu500/dist/bitmap.hpp"

namespace gpu500::graph500::mpi {

bfs_engine::bfs_engine(const dist::communicator& c, const dist::block_partition& part,
                       graph::csr_view<std::int64_t> g, bfs_policy pol)
    : c_(c), part_(part), g_(g), pol_(pol) {
  parent_.assign(static_cast<std::size_t>(g.local_vertices), -1);
  queue_.reserve(static_cast<std::size_t>(g.local_vertices));
  next_.reserve(static_cast<std::size_t>(g.local_vertices));
  static_assert(sizeof(pair) == 2 * sizeof(std::int64_t));
  slice_.assign(static_cast<std::size_t>(dist::bitmap_slice_words(part, c.rank())), 0);
  bitmap_.assign(static_cast<std::size_t>(dist::bitmap_words(part.num_vertices())), 0);
  counts_.assign(static_cast<std::size_t>(c.size()), 0);
  graph_arcs_ = c.allreduce(g.offsets[g.local_vertices] - g.offsets[0], dist::reduce_op::sum);
  order_rows_by_degree();
}

void bfs_engine::order_rows_by_degree() {
  // Every vertex's degree class, the bit width of its degree (0 isolated, 1 degree 1, 2 degrees
  // 2-3, ... ), from its owner: a byte a vertex to all-gather, and a key a counting pass can order
  // rows by (a comparison sort of every row made kernel 1 half again as long).
  const index_t n = part_.num_vertices(), rows = g_.local_vertices;
  constexpr int classes = 64;
  std::vector<std::uint8_t> mine(static_cast<std::size_t>(rows)), degree_class(static_cast<std::size_t>(n));
#pragma omp parallel for schedule(static)
  for (index_t u = 0; u < rows; ++u)
    mine[u] = static_cast<std::uint8_t>(std::bit_width(static_cast<std::uint64_t>(g_.degree(u))));
  std::vector<index_t> counts(static_cast<std::size_t>(c_.size()));
  for (int r = 0; r < c_.size(); ++r) counts[r] = part_.range(r).count;
  c_.allgatherv_bytes(mine.data(), degree_class.data(), counts.data(), 1);
  // Each row in descending class, its arcs' order kept within a class (a stable counting pass),
  // copied into 32-bit columns where every id fits (half the bytes a row scan streams), else 64.
  const index_t base = g_.offsets[0], arcs = g_.offsets[rows] - base;
  const std::uint8_t* cls = degree_class.data();
  const auto order = [&](auto* cols) {
    using C = std::remove_pointer_t<decltype(cols)>;
#pragma omp parallel for schedule(dynamic, 256)
    for (index_t u = 0; u < rows; ++u) {
      const index_t b = g_.offsets[u], e = g_.offsets[u + 1];
      index_t at[classes] = {};
      for (index_t k = b; k < e; ++k) ++at[classes - 1 - cls[g_.columns[k]]];
      index_t next = b;  // at[j]: where class slot j's arcs start
      for (index_t& a : at) next += std::exchange(a, next);
      for (index_t k = b; k < e; ++k) {
        const std::int64_t v = g_.columns[k];
        cols[at[classes - 1 - cls[v]]++] = static_cast<C>(v);
      }
    }
  };
  if (!pol_.wide_columns && n <= static_cast<index_t>(std::numeric_limits<std::uint32_t>::max())) {
    cols32_.resize(static_cast<std::size_t>(arcs));
    order(cols32_.data() - base);
  } else {
    cols_.resize(static_cast<std::size_t>(arcs));
    order(cols_.data() - base);
  }
}

void bfs_engine::prepare() { std::fill(parent_.begin(), parent_.end(), -1); }

index_t bfs_engine::top_down() {
  return cols32_.empty() ? top_down(cols_.data() - g_.offsets[0]) : top_down(cols32_.data() - g_.offsets[0]);
}

index_t bfs_engine::bottom_up() {
  return cols32_.empty() ? bottom_up(cols_.data() - g_.offsets[0]) : bottom_up(cols32_.data() - g_.offsets[0]);
}

template <class C>
index_t bfs_engine::top_down(const C* col) {
  const int me = c_.rank();
  const index_t first = g_.first_vertex;
  const index_t* off = g_.offsets;
  const std::int64_t* par = parent_.data();
  const index_t* q = queue_.data();
  // A child owned here and already visited needs no message; every other arc does.
  auto wanted = [&](std::int64_t v) { return part_.owner(v) != me || par[v - first] == -1; };
  group_by_rank<pair>(c_.size(), arc_slices(q, static_cast<index_t>(queue_.size()), off), [&](index_t i, auto&& send) {
    const index_t u = q[i];
    for (index_t k = off[u]; k < off[u + 1]; ++k) {
      const auto v = static_cast<std::int64_t>(col[k]);
      if (wanted(v)) send(part_.owner(v), pair{v, first + u});
    }
  }, send_, counts_);
  index_t bytes = 0;
  for (std::size_t r = 0; r < counts_.size(); ++r)
    if (static_cast<int>(r) != me) bytes += counts_[r] * static_cast<index_t>(sizeof(pair));
  stopwatch t;
  // At most one pair per arc leaves or reaches a rank: the graph's arcs bound the exchange.
  const std::vector<pair> in = c_.alltoallv<pair>(send_, counts_, nullptr, graph_arcs_);
  comm_seconds_ += t.seconds();
  // An unvisited child takes the parent of whichever pair claims it first.
  const auto received = static_cast<index_t>(in.size());
  std::int64_t* parent = parent_.data();
#pragma omp parallel
  {
    std::vector<index_t> mine;
#pragma omp for schedule(static) nowait
    for (index_t i = 0; i < received; ++i) {
      const index_t l = in[i].child - first;
      std::atomic_ref<std::int64_t> p(parent[l]);
      std::int64_t none = -1;
      if (p.load(std::memory_order_relaxed) == -1 && p.compare_exchange_strong(none, in[i].parent)) mine.push_back(l);
    }
    append(mine);
  }
  return bytes;
}

template <class C>
index_t bfs_engine::bottom_up(const C* col) {
  std::fill(slice_.begin(), slice_.end(), 0);
  const auto frontier = static_cast<index_t>(queue_.size());
  std::uint64_t* slice = slice_.data();
#pragma omp parallel for schedule(static)
  for (index_t i = 0; i < frontier; ++i) {  // the slice starts at a word boundary
    const index_t u = queue_[i];
    std::atomic_ref<std::uint64_t>(slice[u >> 6]).fetch_or(std::uint64_t{1} << (u & 63), std::memory_order_relaxed);
  }
  stopwatch t;
  dist::allgather_bitmap(c_, part_, slice_.data(), bitmap_.data());
  comm_seconds_ += t.seconds();
  const index_t rows = g_.local_vertices;
  const index_t* off = g_.offsets;
  const std::uint64_t* bits = bitmap_.data();
  std::int64_t* parent = parent_.data();
#pragma omp parallel
  {
    std::vector<index_t> mine;
#pragma omp for schedule(dynamic, 1024) nowait
    for (index_t l = 0; l < rows; ++l) {
      if (parent[l] != -1) continue;
      const index_t end = off[l + 1];
      for (index_t k = off[l]; k < end; ++k)
        if (dist::test_bit(bits, static_cast<index_t>(col[k]))) {
          parent[l] = static_cast<std::int64_t>(col[k]);
          mine.push_back(l);
          break;
        }
    }
    append(mine);
  }
  return static_cast<index_t>(slice_.size() * sizeof(std::uint64_t)) * (c_.size() - 1);
}

void bfs_engine::append(const std::vector<index_t>& rows) {
  if (rows.empty()) return;
#pragma omp critical(gpu500_mpi_bfs_next)
  next_.insert(next_.end(), rows.begin(), rows.end());
}

index_t bfs_engine::arcs_of(const std::vector<index_t>& rows) const {
  const auto n = static_cast<index_t>(rows.size());
  index_t sum = 0;
#pragma omp parallel for schedule(static) reduction(+ : sum)
  for (index_t i = 0; i < n; ++i) sum += g_.degree(rows[i]);
  return sum;
}

void bfs_engine::run(index_t root) {
  levels_.clear();
  queue_.clear();
  const index_t first = g_.first_vertex, rows = g_.local_vertices;
  if (part_.owner(root) == c_.rank()) {
    parent_[root - first] = root;
    queue_.push_back(root - first);
  }
  index_t unexplored = g_.offsets[rows];  // arcs of unvisited owned vertices
  for (index_t u : queue_) unexplored -= g_.degree(u);
  bool bottom_up_now = false;
  index_t last_bytes = 0, previous_frontier = 0;
  for (int level = 0;; ++level) {
    stopwatch sw;
    comm_seconds_ = 0;
    // Global frontier vertices and arcs, unexplored arcs, and the last level's bytes: one reduction.
    index_t sums[4] = {static_cast<index_t>(queue_.size()), arcs_of(queue_), unexplored, last_bytes};
    {
      stopwatch t;
      c_.allreduce(sums, 4, dist::reduce_op::sum);
      comm_seconds_ += t.seconds();
    }
    if (!levels_.empty()) levels_.back().bytes = sums[3];
    const index_t frontier = sums[0], frontier_arcs = sums[1], unexplored_arcs = sums[2];
    if (frontier == 0) break;
    if (!pol_.top_down_only) {
      if (!bottom_up_now && frontier > previous_frontier &&
          static_cast<double>(frontier_arcs) > static_cast<double>(unexplored_arcs) / pol_.alpha)
        bottom_up_now = true;
      else if (bottom_up_now && static_cast<double>(frontier) < static_cast<double>(part_.num_vertices()) / pol_.beta)
        bottom_up_now = false;
    }
    previous_frontier = frontier;
    next_.clear();
    last_bytes = bottom_up_now ? bottom_up() : top_down();
    unexplored -= arcs_of(next_);
    queue_.swap(next_);
    level_record rec;
    rec.level = level;
    rec.direction = bottom_up_now ? "bottom-up" : "top-down";
    rec.frontier = frontier;
    rec.comm_seconds = comm_seconds_;
    rec.compute_seconds = sw.seconds() - comm_seconds_;
    levels_.push_back(std::move(rec));
  }
}

index_t bfs_engine::traversed_edges() const { return reached_edges(c_, g_, parent_); }

}  // namespace gpu500::graph500::mpi
