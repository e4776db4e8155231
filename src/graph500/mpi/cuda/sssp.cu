// Delta-stepping SSSP of the CUDA backend over MPI ranks (see sssp.hpp): the engine's host steps
// (buffers, the bucket loop, the exchanges); its kernels are in sssp_kernels.cuh.
#include "sssp.hpp"

#include <bit>
#include <cmath>
#include <limits>
#include <string>

#include "gpu500/core/cuda/check.cuh"
#include "gpu500/core/error.hpp"
#include "gpu500/core/timer.hpp"
#include "gpu500/dist/bitmap.hpp"
#include "gpu500/sssp/delta.hpp"
#include "sssp_kernels.cuh"

namespace gpu500::graph500::mpi::cuda {

std::size_t sssp_engine::device_bytes(index_t rows, index_t arcs, index_t n) {
  const auto r = static_cast<std::size_t>(rows), a = static_cast<std::size_t>(arcs), v = static_cast<std::size_t>(n);
  // Per row: distance, parent, key, three flags and three lists; per arc: a request each way;
  // the chunks; per vertex of the graph: the offered distance and three bitmaps' bits.
  return 48 * r + 2 * sizeof(request) * a + 24 * static_cast<std::size_t>(max_chunks(arcs)) + 4 * v + 3 * v / 8 + 64;
}

sssp_engine::sssp_engine(dist::device_exchange& x, const dist::block_partition& part, graph::csr_view<std::int64_t> g,
                         device_sssp_policy pol)
    : x_(x), part_(part), g_(g), pol_(pol) {
  const auto rows = static_cast<std::size_t>(g.local_vertices);
  const int R = x.comm().size();
  const auto limit = static_cast<index_t>(std::numeric_limits<std::uint32_t>::max());
  if (part.block() > limit)
    throw usage_error("the CUDA SSSP over MPI ranks takes at most 2^32 vertices per rank (" +
                      std::to_string(part.block()) + " here): use more ranks");
  owned_arcs_ = static_cast<std::size_t>(read_one(g.offsets + g.local_vertices));
  if (static_cast<index_t>(owned_arcs_) >= limit)
    throw usage_error("the CUDA SSSP over MPI ranks takes fewer than 2^32 arcs per rank (" +
                      std::to_string(owned_arcs_) + " here): use more ranks");
  resident_blocks_ = gpu::resident_blocks(block_threads);
  dist_ = gpu::device_buffer<float>(rows);
  parent_ = gpu::device_buffer<std::int64_t>(rows);
  key_ = gpu::device_buffer<unsigned long long>(rows);
  lowered_ = gpu::device_buffer<std::uint8_t>(rows);
  queued_ = gpu::device_buffer<std::uint8_t>(rows);
  settled_mark_ = gpu::device_buffer<std::uint8_t>(rows);
  lists_[0] = gpu::device_buffer<index_t>(rows);
  lists_[1] = gpu::device_buffer<index_t>(rows);
  settled_ = gpu::device_buffer<index_t>(rows);
  const auto n = static_cast<std::size_t>(part.num_vertices());
  if (R > 1 || pol.pull_share <= 1) offered_ = gpu::device_buffer<unsigned>(n);
  if (pol.pull_share <= 1) bucket_bits_ = gpu::device_buffer<std::uint64_t>(static_cast<std::size_t>(dist::bitmap_words(part.num_vertices())));
  if (R > 1) {
    slice_ = gpu::device_buffer<std::uint64_t>(static_cast<std::size_t>(dist::bitmap_slice_words(part, x.comm().rank())));
    settled_bits_ = gpu::device_buffer<std::uint64_t>(static_cast<std::size_t>(dist::bitmap_words(part.num_vertices())));
  }
  counters_ = gpu::device_buffer<index_t>(counter_slots);
  host_counters_ = gpu::pinned_buffer<index_t>(static_cast<std::size_t>(R) + 3);
  cursor_ = gpu::device_buffer<index_t>(static_cast<std::size_t>(R));
  seg_start_ = gpu::device_buffer<index_t>(static_cast<std::size_t>(R));
  displs_ = gpu::device_buffer<index_t>(static_cast<std::size_t>(R) + 1);
  host_displs_ = gpu::pinned_buffer<index_t>(static_cast<std::size_t>(R) + 1);
  chunks_ = gpu::device_buffer<index_t>(3 * static_cast<std::size_t>(max_chunks(static_cast<index_t>(owned_arcs_))));
  // The send buffer holds one block per owner, as long as the arcs whose heads it owns: a phase
  // relaxes each listed row once, so a block never overflows.
  host_seg_start_ = owner_block_starts(g, part.block(), seg_start_);
  host_counts_.assign(static_cast<std::size_t>(R), 0);
  recv_counts_.assign(static_cast<std::size_t>(R), 0);
  payload_.assign(static_cast<std::size_t>(payload_width * R), 0);
  recv_payload_.assign(static_cast<std::size_t>(payload_width * R), 0);
  bucket_rows_.assign(static_cast<std::size_t>(R), 0);
  total_arcs_ = x.comm().allreduce(static_cast<index_t>(owned_arcs_), dist::reduce_op::sum);
  reset();
}

void sssp_engine::prepare() {
  // The exchange buffers at their largest (one request per owned arc out, one per arc into the
  // owned rows in), once, here and not in a timed region (kernel 1 or a search).
  send_.reserve(owned_arcs_ + 1);
  recv_.reserve(owned_arcs_ + 1);
  reset();
}

void sssp_engine::reset() {
  const index_t rows = g_.local_vertices;
  fill<float>(dist_.data(), rows, std::numeric_limits<float>::infinity());
  if (rows > 0) {
    gpu::fill_bytes_async(parent_.data(), 0xFF, parent_.bytes(), nullptr);  // -1
    gpu::fill_bytes_async(key_.data(), 0xFF, key_.bytes(), nullptr);        // unreached_key
    lowered_.zero_async(nullptr);
    queued_.zero_async(nullptr);
    settled_mark_.zero_async(nullptr);
  }
  if (!offered_.empty()) gpu::fill_bytes_async(offered_.data(), 0xFF, offered_.bytes(), nullptr);  // above +inf
  if (!slice_.empty()) slice_.zero_async(nullptr);
  if (!settled_bits_.empty()) settled_bits_.zero_async(nullptr);
  if (!bucket_bits_.empty()) bucket_bits_.zero_async(nullptr);
  counters_.zero_async(nullptr);
  gpu::synchronize();
}

void sssp_engine::gather_settled() {
  gpu::synchronize();  // kernels that wrote the slice are compute: the communication clock starts after them
  stopwatch t;
  x_.allgather_bitmap(part_, slice_.data(), settled_bits_.data());
  comm_seconds_ += t.seconds();
}

index_t sssp_engine::relax(const index_t* list, const index_t* list_count, arcs which, float hi, int next) {
  const dist::communicator& c = x_.comm();
  const int R = c.size();
  const auto Rs = static_cast<std::size_t>(R);
  gpu::copy_bytes_async(cursor_.data(), seg_start_.data(), seg_start_.bytes(), nullptr);
  gpu::fill_bytes_async(counters_.data() + chunk_count, 0, sizeof(index_t), nullptr);
  if (next >= 0) gpu::fill_bytes_async(counters_.data() + next, 0, sizeof(index_t), nullptr);
  const relax_args a{g_,           part_.block(),   c.rank(),
                     dist_.data(), offered_.data(), settled_bits_.empty() ? nullptr : settled_bits_.data(),
                     cursor_.data(), send_.data()};
  const bucket_arcs span{g_.offsets, g_.weights, dist_.data(), hi, static_cast<int>(which)};
  const unsigned grid = resident_blocks_;
  gpu::launch(relax_tiles_kernel, grid, block_threads, 0, nullptr, a, span, list, list_count, chunks_.data(),
              counters_.data() + chunk_count);
  gpu::launch(relax_chunks_kernel, grid, block_threads, 0, nullptr, a, static_cast<const index_t*>(chunks_.data()),
              static_cast<const index_t*>(counters_.data() + chunk_count));
  gpu::copy_bytes_async(host_counters_.data(), cursor_.data(), cursor_.bytes(), nullptr);
  gpu::copy_bytes_async(host_counters_.data() + R, list_count, sizeof(index_t), nullptr);
  gpu::copy_bytes_async(host_counters_.data() + R + 1, counters_.data() + settled_count, 2 * sizeof(index_t), nullptr);
  gpu::synchronize();
  const index_t* h = host_counters_.data();
  for (std::size_t r = 0; r < Rs; ++r) {
    host_counts_[r] = h[r] - host_seg_start_[r];
    index_t* p = payload_.data() + static_cast<std::size_t>(payload_width) * r;
    p[0] = host_counts_[r];
    p[1] = h[R];      // listed
    p[2] = h[R + 1];  // the bucket's settled rows so far
    p[3] = h[R + 2];  // and their arcs
  }
  stopwatch t;
  c.exchange_counts(payload_.data(), recv_payload_.data(), payload_width);
  index_t global = 0, total = 0;
  bucket_arcs_ = 0;
  for (std::size_t r = 0; r < Rs; ++r) {
    const index_t* p = recv_payload_.data() + static_cast<std::size_t>(payload_width) * r;
    recv_counts_[r] = p[0];
    total += recv_counts_[r];
    global += p[1];
    bucket_rows_[r] = p[2];
    bucket_arcs_ += p[3];
  }
  if (global == 0) {
    comm_seconds_ += t.seconds();
    return 0;
  }
  if (total >= static_cast<index_t>(std::numeric_limits<std::uint32_t>::max()))
    throw usage_error("the CUDA SSSP over MPI ranks received 2^32 requests or more in one phase: use more ranks");
  recv_.reserve(static_cast<std::size_t>(total));
  x_.alltoallv_bytes(send_.data(), host_counts_.data(), recv_.data(), recv_counts_.data(), sizeof(request),
                     host_seg_start_.data());
  comm_seconds_ += t.seconds();
  level_bytes_.push_back(bytes_to_others(host_counts_, c.rank(), sizeof(request)));
  if (total > 0) {
    index_t* d = host_displs_.data();
    d[0] = 0;
    for (std::size_t r = 0; r < Rs; ++r) d[r + 1] = d[r] + recv_counts_[r];
    gpu::copy_bytes_async(displs_.data(), d, displs_.bytes(), nullptr);
    gpu::launch(bid_kernel, grid_for(total), block_threads, 0, nullptr, static_cast<const request*>(recv_.data()), total,
                key_.data(), lowered_.data());
    gpu::launch(win_kernel, grid_for(total), block_threads, 0, nullptr, static_cast<const request*>(recv_.data()), total,
                static_cast<const index_t*>(displs_.data()), R, part_.block(),
                static_cast<const unsigned long long*>(key_.data()), lowered_.data(), dist_.data(), parent_.data(),
                queued_.data(), next >= 0 ? 1 : 0, hi, next >= 0 ? lists_[next].data() : nullptr, next,
                settled_.data(), settled_mark_.data(), static_cast<const index_t*>(g_.offsets), counters_.data());
  }
  return global;
}

index_t sssp_engine::pull(float lo, float hi) {
  const dist::communicator& c = x_.comm();
  const int R = c.size();
  const auto me = static_cast<std::size_t>(c.rank());
  index_t total = 0;
  for (index_t k : bucket_rows_) total += k;
  const index_t mine = bucket_rows_[me];
  // The request buffers are free during a pull and hold a settled row each (8 bytes < 12) for
  // every owned arc; recv_ grows if the bucket is larger than this rank's arcs.
  auto words = [](index_t k) { return static_cast<std::size_t>((k * sizeof(settled_row) + sizeof(request) - 1) / sizeof(request)) + 1; };
  auto* out = reinterpret_cast<settled_row*>(send_.reserve(words(mine)));
  auto* in = reinterpret_cast<settled_row*>(recv_.reserve(words(total)));
  if (mine > 0)
    gpu::launch(pack_settled_kernel, grid_for(mine), block_threads, 0, nullptr, static_cast<const index_t*>(settled_.data()),
                mine, static_cast<const float*>(dist_.data()), out);
  {
    gpu::synchronize();  // the packing is compute
    stopwatch t;
    x_.allgatherv_bytes(out, in, bucket_rows_.data(), sizeof(settled_row));
    comm_seconds_ += t.seconds();
  }
  level_bytes_.push_back(mine * static_cast<index_t>(sizeof(settled_row)) * (R - 1));
  index_t* d = host_displs_.data();
  d[0] = 0;
  for (std::size_t r = 0; r < bucket_rows_.size(); ++r) d[r + 1] = d[r] + bucket_rows_[r];
  gpu::copy_bytes_async(displs_.data(), d, displs_.bytes(), nullptr);
  if (total > 0)
    gpu::launch(bucket_scatter_kernel, grid_for(total), block_threads, 0, nullptr, static_cast<const settled_row*>(in),
                total, static_cast<const index_t*>(displs_.data()), R, part_.block(), bucket_bits_.data(),
                offered_.data());
  if (g_.local_vertices > 0)
    gpu::launch(pull_kernel, resident_blocks_, block_threads, 0, nullptr,
                pull_args{g_, dist_.data(), parent_.data(), key_.data(), queued_.data(), bucket_bits_.data(),
                          offered_.data(), lo, hi});
  bucket_bits_.zero_async(nullptr);
  gpu::synchronize();  // the trace times the pull's kernels in its own phase
  return total;
}

void sssp_engine::run(index_t root) {
  const dist::communicator& c = x_.comm();
  levels_.clear();
  level_bytes_.clear();
  settled_since_gather_ = 0;
  const index_t rows = g_.local_vertices;
  if (part_.owner(root) == c.rank()) {
    const index_t l = root - g_.first_vertex;
    write_one<float>(dist_.data() + l, 0.f);
    write_one<unsigned long long>(key_.data() + l, unreached_key >> 32);  // distance 0, no arrival
    write_one<std::int64_t>(parent_.data() + l, root);
    write_one<std::uint8_t>(queued_.data() + l, 1);
  }
  const bool split = !pol_.no_light_heavy;
  const bool gathers = !settled_bits_.empty();
  float delta = pol_.delta;
  int peaked = 0;
  int phase = 0, cur = 0;
  auto record = [&](const char* what, index_t global, stopwatch& sw) {
    level_record rec;
    rec.level = phase++;
    rec.direction = what;
    rec.frontier = global;
    rec.comm_seconds = comm_seconds_;
    rec.compute_seconds = sw.seconds() - comm_seconds_;
    levels_.push_back(std::move(rec));
    sw.restart();
    comm_seconds_ = 0;
  };
  for (;;) {
    stopwatch sw;
    comm_seconds_ = 0;
    // The bucket: from the smallest queued distance on any rank, delta wide.
    gpu::copy_bytes_async(counters_.data() + min_bits, &none, sizeof(index_t), nullptr);
    if (rows > 0)
      gpu::launch(min_queued_kernel, resident_blocks_, block_threads, 0, nullptr, dist_.data(), queued_.data(), rows,
                  counters_.data() + min_bits);
    index_t smallest = read_one(counters_.data() + min_bits);
    {
      stopwatch t;
      smallest = c.allreduce(smallest, dist::reduce_op::min);
      comm_seconds_ += t.seconds();
    }
    if (smallest == none) break;
    const float lo = std::bit_cast<float>(static_cast<std::uint32_t>(smallest));
    float hi = lo + delta;
    if (!(hi > lo)) hi = std::nextafter(lo, std::numeric_limits<float>::infinity());
    gpu::fill_bytes_async(counters_.data() + cur, 0, sizeof(index_t), nullptr);
    gpu::fill_bytes_async(counters_.data() + settled_count, 0, sizeof(index_t), nullptr);
    gpu::fill_bytes_async(counters_.data() + settled_arcs, 0, sizeof(index_t), nullptr);
    if (rows > 0)
      gpu::launch(take_kernel, resident_blocks_, block_threads, 0, nullptr, static_cast<const float*>(dist_.data()),
                  queued_.data(), static_cast<const index_t*>(g_.offsets), rows, hi, lists_[cur].data(), cur,
                  settled_.data(), settled_mark_.data(), counters_.data());
    // Light phases until every rank's frontier is empty.
    index_t bucket_rows = 0;
    for (;;) {
      const index_t global = relax(lists_[cur].data(), counters_.data() + cur, split ? arcs::light : arcs::all, hi,
                                   cur ^ 1);
      if (global == 0) break;
      bucket_rows += global;
      record(split ? "light" : "all", global, sw);
      cur ^= 1;
    }
    // The bucket's settled rows join the bitmap; it is gathered once enough rows are new to it
    // to pay for its n/8 bytes a rank.
    if (gathers) {
      gpu::launch(mark_kernel, resident_blocks_, block_threads, 0, nullptr, static_cast<const index_t*>(settled_.data()),
                  static_cast<const index_t*>(counters_.data() + settled_count), index_t{0}, slice_.data());
      settled_since_gather_ += bucket_rows;
      if (settled_since_gather_ * 64 >= part_.num_vertices()) {
        gather_settled();
        settled_since_gather_ = 0;
      }
    }
    // The heavy arcs: pulled when the bucket's rows hold enough of the graph's arcs (the
    // light phases' last exchange told every rank bucket_rows_ and bucket_arcs_), else pushed.
    if (split && !bucket_bits_.empty() && bucket_arcs_ > 0 &&
        static_cast<double>(bucket_arcs_) >= pol_.pull_share * static_cast<double>(total_arcs_)) {
      record("pull", pull(lo, hi), sw);
    } else if (split) {
      const index_t global = relax(settled_.data(), counters_.data() + settled_count, arcs::heavy, hi, -1);
      if (global > 0) record("heavy", global, sw);
    }
    gpu::launch(clear_marks_kernel, resident_blocks_, block_threads, 0, nullptr,
                static_cast<const index_t*>(settled_.data()), static_cast<const index_t*>(counters_.data() + settled_count),
                settled_mark_.data());
    // The sparse tail: after the busiest bucket, a bucket of few rows widens the next.
    if (pol_.delta_max > pol_.delta)
      gpu500::sssp::widen_in_sparse_tail(delta, pol_.delta_max, bucket_rows, pol_.grow_below, peaked);
  }
  gpu::synchronize();
  // The trace's bytes summed over the ranks: one reduction per search (every rank ran the same phases).
  if (!level_bytes_.empty()) c.allreduce(level_bytes_.data(), level_bytes_.size(), dist::reduce_op::sum);
  for (std::size_t i = 0; i < levels_.size() && i < level_bytes_.size(); ++i) levels_[i].bytes = level_bytes_[i];
}

index_t sssp_engine::traversed_edges() {
  gpu::device_buffer<index_t> sum;
  return reached_edges(x_.comm(), g_, parent_.data(), sum);
}

}  // namespace gpu500::graph500::mpi::cuda
