// Kernel 1 on the GPU over MPI ranks (see gpu500/graph/cuda.hpp, build_device_rows): what a rank
// of many adds to the one-process kernel 1 is the journey of the arcs to their rows' owners.
// In rounds of at most round_edges edges of the rank's slice, so that its memory is about 64 bytes
// per edge of the slice plus one round's: arc j of a round is direction j & 1 of edge j / 2. Keys
// (owner rank; R for a self-loop, sorted last and not sent) and arc ids go through a CUB radix
// sort, the arcs are gathered into that order and exchanged; the owner appends what arrives to a
// staging area of (row, column, weight) and counts the degrees. After the last round the staged
// arcs go through kernel1_steps.cuh as one process's edges do: offsets from the degrees, each arc
// placed in its row, every row sorted (by column, or by (weight, column) when weighted). The only
// rank of a run has no journey to make: its rows come straight from its slice's edges
// (kernel1_steps.cuh's edge_arcs, as one process's), with no rounds and no staging area.
#include <bit>
#include <cub/device/device_radix_sort.cuh>

#include "gpu500/core/error.hpp"
#include "gpu500/dist/device_exchange.hpp"
#include "gpu500/dist/device_pairs.cuh"
#include "gpu500/graph/cuda.hpp"
#include "kernel1_steps.cuh"

namespace gpu500::graph::cuda {

namespace {

using namespace detail;
using dist::cuda::aggregated_take;
using dist::cuda::atomic_add;
using dist::cuda::owner_of;

constexpr int block_threads = 256;

struct arc {
  std::int64_t tail, head;
  float weight;
};

/// keys[j]: the owner of arc j's tail (R for a self-loop); ids[j] = j; counts[owner] += 1.
__global__ void owner_keys_kernel(const std::int64_t* src, const std::int64_t* dst, index_t m, index_t block,
                                  int R, std::uint32_t* keys, std::uint64_t* ids, index_t* counts) {
  for (index_t j : gpu::grid_stride(2 * m)) {
    const index_t i = j >> 1;
    const std::int64_t u = src[i], v = dst[i];
    const std::uint32_t k = u == v ? static_cast<std::uint32_t>(R) : owner_of((j & 1) ? v : u, block);
    keys[j] = k;
    ids[j] = static_cast<std::uint64_t>(j);
    if (u != v) aggregated_take(counts, static_cast<int>(k));
  }
}

/// counts[owner] += the arcs of edges [0, m) that owner receives (self-loops excluded).
__global__ void owner_counts_kernel(const std::int64_t* src, const std::int64_t* dst, index_t m,
                                    index_t block, index_t* counts) {
  for (index_t j : gpu::grid_stride(2 * m)) {
    const std::int64_t u = src[j >> 1], v = dst[j >> 1];
    if (u != v) aggregated_take(counts, owner_of((j & 1) ? v : u, block));
  }
}

__global__ void gather_arcs_kernel(const std::uint64_t* ids, index_t n, const std::int64_t* src,
                                   const std::int64_t* dst, const float* w, arc* out) {
  for (index_t p : gpu::grid_stride(n)) {
    const auto j = static_cast<index_t>(ids[p]);
    const index_t i = j >> 1;
    const std::int64_t u = src[i], v = dst[i];
    const float x = w ? w[i] : 0.f;
    out[p] = (j & 1) ? arc{v, u, x} : arc{u, v, x};
  }
}

/// The arrivals appended to the staging area at `at`: row, column and weight; degree[row] += 1.
__global__ void stage_kernel(const arc* in, index_t n, index_t first, std::uint32_t* row, std::int64_t* col,
                             float* w, index_t* degree) {
  for (index_t j : gpu::grid_stride(n)) {
    const auto r = static_cast<std::uint32_t>(in[j].tail - first);
    row[j] = r;
    col[j] = in[j].head;
    if (w) w[j] = in[j].weight;
    atomic_add(&degree[r], 1);
  }
}

/// The staged arcs as an arc source of kernel1_steps.cuh.
struct staged_arcs {
  const std::uint32_t* row;
  const std::int64_t* col;
  const float* weight;  ///< null: no weights
  template <class Out>
  __device__ void operator()(index_t j, Out&& out) const {
    out(static_cast<index_t>(row[j]), col[j], weight ? weight[j] : 0.f);
  }
};

/// A stable radix sort of (key, id) pairs on the low `bits` bits of the keys (n below 2^31: a
/// round's arcs).
template <class K>
void sort_pairs(gpu::device_buffer<K>& keys, gpu::device_buffer<std::uint64_t>& ids, index_t n, int bits) {
  if (n <= 0) return;
  GPU500_EXPECTS(n < (index_t{1} << 31), "kernel 1: a round's arcs must stay below 2^31");
  gpu::device_buffer<K> keys_out(static_cast<std::size_t>(n));
  gpu::device_buffer<std::uint64_t> ids_out(static_cast<std::size_t>(n));
  std::size_t temp_bytes = 0;
  const int items = static_cast<int>(n), end_bit = bits < 1 ? 1 : bits;
  GPU500_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, keys.data(), keys_out.data(),
                                                    ids.data(), ids_out.data(), items, 0, end_bit));
  gpu::device_buffer<unsigned char> temp(temp_bytes);
  GPU500_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(temp.data(), temp_bytes, keys.data(), keys_out.data(),
                                                    ids.data(), ids_out.data(), items, 0, end_bit));
  keys = std::move(keys_out);
  ids = std::move(ids_out);
}

/// g's rows from the degrees counted in `degree` (rows + 1 entries; used up as the cursors): the
/// offsets, then every arc of the items [0, items) of `arcs` placed in its row (weights beside the
/// columns when `weighted`). `expected`: the arcs the degrees must add up to, checked before any
/// is placed (< 0: not checked).
template <class Arcs>
void place_rows(device_rows& g, gpu::device_buffer<index_t>& degree, index_t items, const Arcs& arcs, bool weighted,
                index_t expected = -1) {
  const index_t rows = g.owned.count;
  g.offsets = gpu::device_buffer<index_t>(static_cast<std::size_t>(rows) + 1);
  g.arcs = offsets_from_degrees(degree.data(), rows, g.offsets.data());
  GPU500_EXPECTS(expected < 0 || g.arcs == expected, "kernel 1: the rows' degrees do not add up to the arcs that arrived");
  g.columns = gpu::device_buffer<std::int64_t>(static_cast<std::size_t>(g.arcs));
  if (weighted) g.weights = gpu::device_buffer<float>(static_cast<std::size_t>(g.arcs));
  if (g.arcs > 0) {
    gpu::copy_bytes(degree.data(), g.offsets.data(), sizeof(index_t) * static_cast<std::size_t>(rows));  // cursors
    gpu::launch(place_arcs_kernel<std::int64_t, Arcs>, gpu::grid_blocks(items, block_threads), block_threads, 0,
                nullptr, items, arcs, reinterpret_cast<ull*>(degree.data()), g.columns.data(),
                weighted ? g.weights.data() : nullptr);
  }
  gpu::synchronize();
}

}  // namespace

device_rows build_device_rows(dist::device_exchange& x, const dist::block_partition& part,
                              device_edge_list<std::int64_t>&& slice, index_t round_edges) {
  const dist::communicator& c = x.comm();
  const int R = c.size();
  const index_t m = slice.num_edges;
  const bool weighted = !slice.weight.empty();
  const bool any_weighted = c.any(weighted);
  const index_t round = round_edges > 0 ? round_edges : default_round_edges;
  device_rows g;
  g.num_vertices = part.num_vertices();
  g.owned = part.range(c.rank());
  const index_t rows = g.owned.count;
  const auto sort_each_row = [&](bool weights) {  // by column, or by (weight, column) when weighted
    // In batches of about two rounds' arcs (2^28 by default): the round size bounds the sort's
    // scratch as it bounds the exchange's.
    sort_rows(g.offsets.data(), rows, g.arcs, 4 * round, g.columns.data(), weights ? g.weights.data() : nullptr,
              weights, g.num_vertices - 1 <= index_t{0xffffffff});
    gpu::synchronize();
  };
  if (R == 1) {  // every arc is this rank's: the rows straight from the slice
    gpu::device_buffer<index_t> degree(static_cast<std::size_t>(rows) + 1);
    degree.zero();
    const edge_arcs<std::int64_t> arcs{slice.src.data(), slice.dst.data(), weighted ? slice.weight.data() : nullptr,
                                       false, nullptr};
    if (m > 0)
      gpu::launch(count_arcs_kernel<edge_arcs<std::int64_t>>, gpu::grid_blocks(m, block_threads), block_threads, 0,
                  nullptr, m, arcs, reinterpret_cast<ull*>(degree.data()));
    place_rows(g, degree, m, arcs, weighted);
    slice = {};
    degree = {};
    sort_each_row(weighted);
    return g;
  }
  GPU500_EXPECTS(rows + 1 < (index_t{1} << 32), "kernel 1: one rank's rows must stay below 2^32");
  // 0. The arcs this rank receives in all, for the staging area.
  index_t arriving = 0;
  {
    gpu::device_buffer<index_t> dcounts(static_cast<std::size_t>(R));
    dcounts.zero();
    if (m > 0)
      gpu::launch(owner_counts_kernel, gpu::grid_blocks(2 * m, block_threads), block_threads, 0, nullptr,
                  slice.src.data(), slice.dst.data(), m, part.block(), dcounts.data());
    const std::vector<index_t> to = gpu::to_host(dcounts.data(), static_cast<std::size_t>(R));
    std::vector<index_t> from(static_cast<std::size_t>(R));
    x.exchange_counts(to.data(), from.data());
    for (index_t k : from) arriving += k;
  }
  gpu::device_buffer<std::uint32_t> st_row(static_cast<std::size_t>(arriving));
  gpu::device_buffer<std::int64_t> st_col(static_cast<std::size_t>(arriving));
  gpu::device_buffer<float> st_w(any_weighted ? static_cast<std::size_t>(arriving) : 0);
  gpu::device_buffer<index_t> degree(static_cast<std::size_t>(rows) + 1);
  degree.zero();
  // 1. Rounds: arcs grouped by owner, one all-to-all, the arrivals staged. Every rank runs the
  // same number of rounds (the largest slice's), with empty ones past the end of its slice.
  const index_t most = c.allreduce(m, dist::reduce_op::max);
  index_t staged = 0;
  for (index_t e0 = 0; e0 < most; e0 += round) {
    const index_t lo = std::min(e0, m), n = std::min(round, m - lo);
    gpu::device_buffer<arc> send;
    std::vector<index_t> counts;
    {
      gpu::device_buffer<std::uint32_t> keys(static_cast<std::size_t>(2 * n));
      gpu::device_buffer<std::uint64_t> ids(static_cast<std::size_t>(2 * n));
      gpu::device_buffer<index_t> dcounts(static_cast<std::size_t>(R) + 1);
      dcounts.zero();
      if (n > 0)
        gpu::launch(owner_keys_kernel, gpu::grid_blocks(2 * n, block_threads), block_threads, 0, nullptr,
                    slice.src.data() + lo, slice.dst.data() + lo, n, part.block(), R, keys.data(), ids.data(),
                    dcounts.data());
      sort_pairs(keys, ids, 2 * n, static_cast<int>(std::bit_width(static_cast<std::uint64_t>(R))));
      counts = gpu::to_host(dcounts.data(), static_cast<std::size_t>(R));
      index_t sent = 0;
      for (index_t k : counts) sent += k;
      send = gpu::device_buffer<arc>(static_cast<std::size_t>(sent));
      if (sent > 0)
        gpu::launch(gather_arcs_kernel, gpu::grid_blocks(sent, block_threads), block_threads, 0, nullptr,
                    ids.data(), sent, slice.src.data() + lo, slice.dst.data() + lo,
                    weighted ? slice.weight.data() + lo : nullptr, send.data());
      gpu::synchronize();
    }
    gpu::device_buffer<arc> in;
    std::vector<index_t> got;
    const index_t arrived = x.alltoallv(send, counts, in, got);
    send = {};
    GPU500_EXPECTS(staged + arrived <= arriving, "kernel 1: more arcs arrived than were announced");
    if (arrived > 0)
      gpu::launch(stage_kernel, gpu::grid_blocks(arrived, block_threads), block_threads, 0, nullptr,
                  in.data(), arrived, g.owned.first, st_row.data() + staged, st_col.data() + staged,
                  any_weighted ? st_w.data() + staged : nullptr, degree.data());
    gpu::synchronize();
    staged += arrived;
  }
  slice = {};
  // 2. The rows from the staged arcs, as one process makes them from its edges.
  const staged_arcs arcs{st_row.data(), st_col.data(), any_weighted ? st_w.data() : nullptr};
  place_rows(g, degree, staged, arcs, any_weighted, staged);
  st_row = {};
  st_col = {};
  st_w = {};
  degree = {};
  sort_each_row(any_weighted);
  return g;
}

csr<std::int64_t> device_rows::download() const {
  csr<std::int64_t> h;
  h.num_vertices = num_vertices;
  h.first_vertex = owned.first;
  const auto off = gpu::to_host(offsets);
  const auto col = gpu::to_host(columns);
  const auto w = gpu::to_host(weights);
  h.offsets.assign(off.begin(), off.end());
  h.columns.assign(col.begin(), col.end());
  h.weights.assign(w.begin(), w.end());
  return h;
}

}  // namespace gpu500::graph::cuda
