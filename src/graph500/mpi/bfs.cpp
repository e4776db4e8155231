// Direction-optimising BFS over MPI ranks (see bfs.hpp).
#include "bfs.hpp"

#include "gpu500/core/timer.hpp"
#include "gpu500/dist/bitmap.hpp"

namespace gpu500::graph500::mpi {

bfs_engine::bfs_engine(const dist::communicator& c, const dist::block_partition& part,
                       graph::csr_view<std::int64_t> g, bfs_policy pol)
    : c_(c), part_(part), g_(g), pol_(pol) {
  parent_.assign(static_cast<std::size_t>(g.local_vertices), -1);
  queue_.reserve(static_cast<std::size_t>(g.local_vertices));
  next_.reserve(static_cast<std::size_t>(g.local_vertices));
  slice_.assign(static_cast<std::size_t>(dist::bitmap_slice_words(part, c.rank())), 0);
  bitmap_.assign(static_cast<std::size_t>(dist::bitmap_words(part.num_vertices())), 0);
  counts_.assign(static_cast<std::size_t>(c.size()), 0);
}

void bfs_engine::prepare() { std::fill(parent_.begin(), parent_.end(), -1); }

index_t bfs_engine::top_down() {
  const int me = c_.rank();
  const index_t first = g_.first_vertex;
  std::fill(counts_.begin(), counts_.end(), 0);
  // A child owned here and already visited needs no message; every other arc does.
  auto wanted = [&](std::int64_t v) { return part_.owner(v) != me || parent_[v - first] == -1; };
  for (index_t u : queue_)
    for (index_t k = g_.offsets[u]; k < g_.offsets[u + 1]; ++k)
      if (wanted(g_.columns[k])) ++counts_[static_cast<std::size_t>(part_.owner(g_.columns[k]))];
  std::vector<index_t> pos(counts_.size(), 0);
  for (std::size_t r = 1; r < pos.size(); ++r) pos[r] = pos[r - 1] + 2 * counts_[r - 1];
  send_.resize(static_cast<std::size_t>(pos.back() + 2 * counts_.back()));
  for (index_t u : queue_)
    for (index_t k = g_.offsets[u]; k < g_.offsets[u + 1]; ++k) {
      const std::int64_t v = g_.columns[k];
      if (!wanted(v)) continue;
      index_t& p = pos[static_cast<std::size_t>(part_.owner(v))];
      send_[p] = v;
      send_[p + 1] = first + u;
      p += 2;
    }
  index_t bytes = 0;
  for (std::size_t r = 0; r < counts_.size(); ++r) {
    counts_[r] *= 2;
    if (static_cast<int>(r) != me) bytes += counts_[r] * static_cast<index_t>(sizeof(std::int64_t));
  }
  stopwatch t;
  const std::vector<std::int64_t> in = c_.alltoallv<std::int64_t>(send_, counts_);
  comm_seconds_ += t.seconds();
  for (std::size_t i = 0; i < in.size(); i += 2) {
    const index_t l = in[i] - first;
    if (parent_[l] == -1) {
      parent_[l] = in[i + 1];
      next_.push_back(l);
    }
  }
  return bytes;
}

index_t bfs_engine::bottom_up() {
  std::fill(slice_.begin(), slice_.end(), 0);
  for (index_t u : queue_) dist::set_bit(slice_.data(), u);  // the slice starts at a word boundary
  stopwatch t;
  dist::allgather_bitmap(c_, part_, slice_.data(), bitmap_.data());
  comm_seconds_ += t.seconds();
  const index_t rows = g_.local_vertices;
  for (index_t l = 0; l < rows; ++l) {
    if (parent_[l] != -1) continue;
    for (index_t k = g_.offsets[l]; k < g_.offsets[l + 1]; ++k)
      if (dist::test_bit(bitmap_.data(), g_.columns[k])) {
        parent_[l] = g_.columns[k];
        next_.push_back(l);
        break;
      }
  }
  return static_cast<index_t>(slice_.size() * sizeof(std::uint64_t)) * (c_.size() - 1);
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
  index_t last_bytes = 0;
  for (int level = 0;; ++level) {
    stopwatch sw;
    comm_seconds_ = 0;
    // Global frontier vertices and arcs, unexplored arcs, and the last level's bytes: one reduction.
    index_t sums[4] = {static_cast<index_t>(queue_.size()), 0, unexplored, last_bytes};
    for (index_t u : queue_) sums[1] += g_.degree(u);
    {
      stopwatch t;
      c_.allreduce(sums, 4, dist::reduce_op::sum);
      comm_seconds_ += t.seconds();
    }
    if (!levels_.empty()) levels_.back().bytes = sums[3];
    const index_t frontier = sums[0], frontier_arcs = sums[1], unexplored_arcs = sums[2];
    if (frontier == 0) break;
    if (!pol_.top_down_only) {
      if (!bottom_up_now && static_cast<double>(frontier_arcs) > static_cast<double>(unexplored_arcs) / pol_.alpha)
        bottom_up_now = true;
      else if (bottom_up_now && static_cast<double>(frontier) < static_cast<double>(part_.num_vertices()) / pol_.beta)
        bottom_up_now = false;
    }
    next_.clear();
    last_bytes = bottom_up_now ? bottom_up() : top_down();
    for (index_t v : next_) unexplored -= g_.degree(v);
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
