// Graph500 kernel 1 on the GPU, one process: device edge list -> device CSR (see
// gpu500/graph/cuda.hpp); and the steps a rank of many shares with it (kernel1_steps.cuh).
//
// 1. degree pass: one 64-bit atomic per endpoint (the tail only for a directed graph), self-loops
//    skipped;
// 2. (relabel) CUB radix sort of (degree, id) descending -> new2old; old2new is its inverse; ties
//    keep ascending original ids (the radix sort is stable), isolated vertices come last;
// 3. CUB inclusive scan of the (relabelled) degrees into offsets[1..n];
// 4. fill pass: one atomic cursor per vertex, both directions stored (a directed graph: the arc
//    src -> dst only), weights copied;
// 5. the edge list is freed; 6. (relabel) every row is sorted ascending by new id, i.e. by
//    descending degree (CUB segmented sort, in batches of about 2^28 arcs so that the scratch
//    space stays small next to the CSR).
// Steps 1, 4 and 6 and the scan of step 3 are kernel1_steps.cuh's, fed by the edge list's arcs.
#include <cuda_runtime.h>

#include <algorithm>
#include <bit>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <limits>
#include <type_traits>

#include "gpu500/core/cuda/check.cuh"
#include "gpu500/core/cuda/launch.cuh"
#include "gpu500/core/cuda/memory.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/graph/cuda.hpp"
#include "kernel1_steps.cuh"

namespace gpu500::graph::cuda {

namespace {

using namespace detail;

struct kernel1_policy {
  static constexpr int block = 256;
};

template <class V>
__global__ void iota_kernel(V* x, index_t n) {
  for (index_t i : gpu::grid_stride(n))
    x[i] = static_cast<V>(i);
}

template <class V>
__global__ void invert_kernel(const V* new2old, V* old2new, index_t n) {
  for (index_t i : gpu::grid_stride(n))
    old2new[new2old[i]] = static_cast<V>(i);
}

/// non_isolated = number of vertices with degree > 0; max_degree.
__global__ void degree_stats_kernel(const index_t* deg, index_t n, ull* non_isolated, ull* max_degree) {
  ull cnt = 0, mx = 0;
  for (index_t i : gpu::grid_stride(n)) {
    const ull d = static_cast<ull>(deg[i]);
    cnt += d > 0;
    mx = d > mx ? d : mx;
  }
  for (int o = 16; o > 0; o >>= 1) {
    cnt += __shfl_down_sync(0xffffffffu, cnt, o);
    const ull y = __shfl_down_sync(0xffffffffu, mx, o);
    mx = y > mx ? y : mx;
  }
  if (gpu::lane_id() == 0) {
    atomicAdd(non_isolated, cnt);
    atomicMax(max_degree, mx);
  }
}

/// bounds[k] = the last row starting at or before arc k * batch (k = 1..K-1; row 0 for k = 0),
/// with its offset.
__global__ void batch_bounds_kernel(const index_t* offsets, index_t n, index_t batch, index_t k_count, index_t* rows,
                                    index_t* starts) {
  const index_t k = gpu::global_thread_id();
  if (k >= k_count) return;
  const index_t target = k * batch;
  index_t lo = 0, hi = k == 0 ? 0 : n;  // largest r in [0, n] with offsets[r] <= target (row 0 for k = 0)
  while (lo < hi) {
    const index_t mid = lo + (hi - lo + 1) / 2;
    if (offsets[mid] <= target)
      lo = mid;
    else
      hi = mid - 1;
  }
  rows[k] = lo;
  starts[k] = offsets[lo];
}

__global__ void relative_offsets_kernel(const index_t* offsets, index_t first_row, index_t rows, index_t* rel) {
  const index_t base = offsets[first_row];
  for (index_t i : gpu::grid_stride(rows + 1))
    rel[i] = offsets[first_row + i] - base;
}

/// A weight >= 0 and a column below 2^32 as one 64-bit key, in place of the column: the weight's
/// bits above the column's (a float >= 0 orders as its bits; -0 is taken as +0), so that keys
/// order as (weight, column) pairs.
__global__ void pack_weight_column_kernel(std::int64_t* columns, const float* weights, index_t items) {
  for (index_t i : gpu::grid_stride(items)) {
    const float w = weights[i];
    const std::uint64_t bits = w == 0.f ? 0u : __float_as_uint(w);
    columns[i] = static_cast<std::int64_t>((bits << 32) | static_cast<std::uint32_t>(columns[i]));
  }
}

/// The keys of pack_weight_column_kernel taken apart again into columns and weights.
__global__ void unpack_weight_column_kernel(const std::int64_t* keys, index_t items, std::int64_t* columns,
                                            float* weights) {
  for (index_t i : gpu::grid_stride(items)) {
    const auto k = static_cast<std::uint64_t>(keys[i]);
    columns[i] = static_cast<std::int64_t>(k & 0xffffffffu);
    weights[i] = __uint_as_float(static_cast<std::uint32_t>(k >> 32));
  }
}

template <class V>
__global__ void has_edges_kernel(const index_t* offsets, const V* old2new, index_t n, std::uint8_t* out) {
  for (index_t o : gpu::grid_stride(n)) {
    const index_t v = old2new ? static_cast<index_t>(old2new[o]) : o;
    out[o] = offsets[v + 1] > offsets[v];
  }
}

}  // namespace

row_batch_plan plan_row_batches(const index_t* offsets, index_t n, index_t arcs, index_t batch) {
  GPU500_EXPECTS(batch >= 1, "row batches: a batch must hold at least one arc");
  row_batch_plan p;
  if (arcs == 0) {
    p.rows = {0, n};
    p.starts = {0, 0};
    p.max_rows = n;
    return p;
  }
  const index_t k_count = (arcs + batch - 1) / batch;
  gpu::device_buffer<index_t> rows_d(static_cast<std::size_t>(k_count)), starts_d(static_cast<std::size_t>(k_count));
  batch_bounds_kernel<<<static_cast<unsigned>((k_count + 255) / 256), 256>>>(offsets, n, batch, k_count,
                                                                             rows_d.data(), starts_d.data());
  GPU500_CUDA_CHECK_LAUNCH();
  p.rows = gpu::to_host(rows_d.data(), rows_d.size());
  p.starts = gpu::to_host(starts_d.data(), starts_d.size());
  p.rows.push_back(n);
  p.starts.push_back(arcs);
  for (std::size_t k = 0; k < p.size(); ++k) {
    p.max_rows = std::max(p.max_rows, p.rows[k + 1] - p.rows[k]);
    p.max_items = std::max(p.max_items, p.starts[k + 1] - p.starts[k]);
  }
  return p;
}

void relative_offsets(const index_t* offsets, index_t first_row, index_t rows, index_t* rel, cudaStream_t s) {
  relative_offsets_kernel<<<gpu::grid_blocks(rows + 1, 256), 256, 0, s>>>(offsets, first_row, rows, rel);
  GPU500_CUDA_CHECK_LAUNCH();
}

namespace detail {

template <class V>
void sort_rows(const index_t* offsets, index_t n, index_t arcs, index_t batch, V* columns, float* weights,
               bool by_weight, bool narrow_columns) {
  if (arcs == 0) return;
  GPU500_EXPECTS(weights || !by_weight, "kernel 1: rows sorted by weight need weights");
  const bool packed = by_weight && narrow_columns && std::is_same_v<V, std::int64_t>;
  const row_batch_plan plan = plan_row_batches(offsets, n, arcs, batch);
  const auto cap = static_cast<std::int64_t>(plan.max_items), most_rows = static_cast<std::int64_t>(plan.max_rows);
  gpu::device_buffer<index_t> rel(static_cast<std::size_t>(plan.max_rows) + 1);
  gpu::device_buffer<V> keys_out(static_cast<std::size_t>(cap));
  gpu::device_buffer<float> vals_out(weights && !packed ? static_cast<std::size_t>(cap) : 0);
  const index_t* seg = rel.data();  // (for the scratch queries: any segments of the largest batch's size)
  std::size_t temp_bytes = 0, stable_bytes = 0;
  if (weights && !packed)
    GPU500_CUDA_CHECK(cub::DeviceSegmentedSort::SortPairs(nullptr, temp_bytes, columns, keys_out.data(), weights,
                                                          vals_out.data(), cap, most_rows, seg, seg + 1));
  else
    GPU500_CUDA_CHECK(cub::DeviceSegmentedSort::SortKeys(nullptr, temp_bytes, columns, keys_out.data(), cap,
                                                         most_rows, seg, seg + 1));
  if (by_weight && !packed)
    GPU500_CUDA_CHECK(cub::DeviceSegmentedSort::StableSortPairs(nullptr, stable_bytes, vals_out.data(), weights,
                                                                keys_out.data(), columns, cap, most_rows, seg,
                                                                seg + 1));
  gpu::device_buffer<unsigned char> temp(std::max(temp_bytes, stable_bytes) + 256);
  for_each_row_batch(plan, offsets, rel.data(), nullptr,
                     [&](index_t, index_t rows, index_t o0, index_t items, const index_t* r) {
                       std::size_t bytes = temp.size();
                       if constexpr (std::is_same_v<V, std::int64_t>) {
                         if (packed) {  // (weight, column) as one key, sorted alone, then taken apart
                           const int B = kernel1_policy::block;
                           pack_weight_column_kernel<<<gpu::grid_blocks(items, B), B>>>(columns + o0, weights + o0,
                                                                                       items);
                           GPU500_CUDA_CHECK_LAUNCH();
                           GPU500_CUDA_CHECK(cub::DeviceSegmentedSort::SortKeys(temp.data(), bytes, columns + o0,
                                                                                keys_out.data(), items, rows, r, r + 1));
                           unpack_weight_column_kernel<<<gpu::grid_blocks(items, B), B>>>(
                               keys_out.data(), items, columns + o0, weights + o0);
                           GPU500_CUDA_CHECK_LAUNCH();
                           return;
                         }
                       }
                       if (!weights) {
                         GPU500_CUDA_CHECK(cub::DeviceSegmentedSort::SortKeys(temp.data(), bytes, columns + o0,
                                                                              keys_out.data(), items, rows, r, r + 1));
                       } else {
                         GPU500_CUDA_CHECK(cub::DeviceSegmentedSort::SortPairs(
                             temp.data(), bytes, columns + o0, keys_out.data(), weights + o0, vals_out.data(), items,
                             rows, r, r + 1));
                         if (by_weight) {  // then stably by weight, straight back into place
                           bytes = temp.size();
                           GPU500_CUDA_CHECK(cub::DeviceSegmentedSort::StableSortPairs(
                               temp.data(), bytes, vals_out.data(), weights + o0, keys_out.data(), columns + o0,
                               items, rows, r, r + 1));
                           return;
                         }
                         GPU500_CUDA_CHECK(cudaMemcpy(weights + o0, vals_out.data(), items * sizeof(float),
                                                      cudaMemcpyDeviceToDevice));
                       }
                       GPU500_CUDA_CHECK(cudaMemcpy(columns + o0, keys_out.data(), items * sizeof(V),
                                                    cudaMemcpyDeviceToDevice));
                     });
}

template void sort_rows<std::uint32_t>(const index_t*, index_t, index_t, index_t, std::uint32_t*, float*, bool, bool);
template void sort_rows<std::int64_t>(const index_t*, index_t, index_t, index_t, std::int64_t*, float*, bool, bool);

}  // namespace detail

index_t offsets_from_degrees(const index_t* degree, index_t rows, index_t* offsets) {
  GPU500_CUDA_CHECK(cudaMemset(offsets, 0, sizeof(index_t)));
  std::size_t bytes = 0;
  GPU500_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, bytes, degree, offsets + 1, rows));
  gpu::device_buffer<unsigned char> temp(bytes + 256);
  GPU500_CUDA_CHECK(cub::DeviceScan::InclusiveSum(temp.data(), bytes, degree, offsets + 1, rows));
  index_t arcs = 0;
  gpu::copy_bytes(&arcs, offsets + rows, sizeof(index_t));
  return arcs;
}

template <class V>
device_csr<V> build_device_csr(device_edge_list<V>&& el, build_options o) {
  const index_t n = el.num_vertices, m = el.num_edges;
  GPU500_EXPECTS(n >= 1, "kernel 1: empty vertex set");
  GPU500_EXPECTS(o.sort_batch >= 1, "kernel 1: a sort batch must hold at least one arc");
  const int B = kernel1_policy::block;
  device_csr<V> g;
  g.n_ = n;
  g.relabelled_ = o.relabel;
  gpu::device_buffer<index_t> deg(static_cast<std::size_t>(n));
  GPU500_CUDA_CHECK(cudaMemset(deg.data(), 0, deg.size() * sizeof(index_t)));
  const edge_arcs<V> ends{el.src.data(), el.dst.data(), nullptr, o.directed, nullptr};  // (no weights: degrees)
  count_arcs_kernel<<<gpu::grid_blocks(m, B), B>>>(m, ends, reinterpret_cast<ull*>(deg.data()));
  GPU500_CUDA_CHECK_LAUNCH();

  g.offsets_ = gpu::device_buffer<index_t>(static_cast<std::size_t>(n) + 1);
  const index_t* scan_in = deg.data();
  gpu::device_buffer<index_t> sorted_deg;
  if (o.relabel) {
    g.new2old_ = gpu::device_buffer<V>(static_cast<std::size_t>(n));
    g.old2new_ = gpu::device_buffer<V>(static_cast<std::size_t>(n));
    sorted_deg = gpu::device_buffer<index_t>(static_cast<std::size_t>(n));
    {
      gpu::device_buffer<V> ids(static_cast<std::size_t>(n));
      iota_kernel<V><<<gpu::grid_blocks(n, B), B>>>(ids.data(), n);
      GPU500_CUDA_CHECK_LAUNCH();
      const int end_bit = static_cast<int>(std::bit_width(static_cast<std::uint64_t>(2 * m) + 1));
      std::size_t bytes = 0;
      GPU500_CUDA_CHECK(cub::DeviceRadixSort::SortPairsDescending(nullptr, bytes, deg.data(), sorted_deg.data(),
                                                                  ids.data(), g.new2old_.data(), n, 0, end_bit));
      gpu::device_buffer<unsigned char> temp(bytes + 256);
      GPU500_CUDA_CHECK(cub::DeviceRadixSort::SortPairsDescending(temp.data(), bytes, deg.data(), sorted_deg.data(),
                                                                  ids.data(), g.new2old_.data(), n, 0, end_bit));
    }
    invert_kernel<V><<<gpu::grid_blocks(n, B), B>>>(g.new2old_.data(), g.old2new_.data(), n);
    GPU500_CUDA_CHECK_LAUNCH();
    scan_in = sorted_deg.data();
  }
  {
    gpu::device_buffer<ull> st(2);
    GPU500_CUDA_CHECK(cudaMemset(st.data(), 0, 2 * sizeof(ull)));
    degree_stats_kernel<<<gpu::grid_blocks(n, B), B>>>(scan_in, n, st.data(), st.data() + 1);
    GPU500_CUDA_CHECK_LAUNCH();
    ull h[2];
    gpu::copy_bytes(h, st.data(), sizeof h);
    g.non_isolated_ = static_cast<index_t>(h[0]);
    g.max_degree_ = static_cast<index_t>(h[1]);
  }
  g.arcs_ = offsets_from_degrees(scan_in, n, g.offsets_.data());
  sorted_deg.reset();
  // The degree buffer becomes the fill cursor.
  GPU500_CUDA_CHECK(cudaMemcpy(deg.data(), g.offsets_.data(), n * sizeof(index_t), cudaMemcpyDeviceToDevice));
  g.columns_ = gpu::device_buffer<V>(static_cast<std::size_t>(g.arcs_));
  if (!el.weight.empty()) g.weights_ = gpu::device_buffer<float>(static_cast<std::size_t>(g.arcs_));
  const edge_arcs<V> arcs{el.src.data(), el.dst.data(), el.weight.empty() ? nullptr : el.weight.data(), o.directed,
                          o.relabel ? g.old2new_.data() : nullptr};
  place_arcs_kernel<V><<<gpu::grid_blocks(m, B), B>>>(m, arcs, reinterpret_cast<ull*>(deg.data()), g.columns_.data(),
                                                     g.weights_.empty() ? nullptr : g.weights_.data());
  GPU500_CUDA_CHECK_LAUNCH();
  GPU500_CUDA_CHECK(cudaDeviceSynchronize());
  deg.reset();
  el.src.reset();
  el.dst.reset();
  el.weight.reset();
  if (o.relabel)
    sort_rows<V>(g.offsets_.data(), n, g.arcs_, o.sort_batch, g.columns_.data(),
                 g.weights_.empty() ? nullptr : g.weights_.data(), false, false);
  GPU500_CUDA_CHECK(cudaDeviceSynchronize());
  return g;
}

template <class V>
index_t device_csr<V>::to_new(index_t original) const {
  GPU500_EXPECTS(original >= 0 && original < n_, "vertex id out of range");
  if (!relabelled_) return original;
  V v{};
  gpu::copy_bytes(&v, old2new_.data() + original, sizeof(V));
  return static_cast<index_t>(v);
}

template <class V>
std::vector<std::uint8_t> device_csr<V>::has_edges_host() const {
  gpu::device_buffer<std::uint8_t> f(static_cast<std::size_t>(n_));
  has_edges_kernel<V><<<gpu::grid_blocks(n_, 256), 256>>>(offsets_.data(), old2new(), n_, f.data());
  GPU500_CUDA_CHECK_LAUNCH();
  return gpu::to_host(f.data(), f.size());
}

template <class V>
std::size_t device_csr<V>::bytes() const {
  return offsets_.size() * sizeof(index_t) + columns_.size() * sizeof(V) + weights_.size() * sizeof(float) +
         (new2old_.size() + old2new_.size()) * sizeof(V);
}

template <class V>
csr<V> device_csr<V>::download_original_ids() const {
  const auto off = gpu::to_host(offsets_.data(), offsets_.size());
  const auto col = gpu::to_host(columns_.data(), columns_.size());
  const auto wts = gpu::to_host(weights_.data(), weights_.size());
  std::vector<V> n2o, o2n;
  if (relabelled_) {
    n2o = gpu::to_host(new2old_.data(), new2old_.size());
    o2n = gpu::to_host(old2new_.data(), old2new_.size());
  }
  csr<V> h;
  h.num_vertices = n_;
  h.offsets.assign(static_cast<std::size_t>(n_) + 1, 0);
  for (index_t o = 0; o < n_; ++o) {
    const index_t v = relabelled_ ? static_cast<index_t>(o2n[o]) : o;
    h.offsets[o + 1] = h.offsets[o] + (off[v + 1] - off[v]);
  }
  h.columns.resize(col.size());
  if (!wts.empty()) h.weights.resize(wts.size());
  for (index_t o = 0; o < n_; ++o) {
    const index_t v = relabelled_ ? static_cast<index_t>(o2n[o]) : o;
    for (index_t k = 0; k < off[v + 1] - off[v]; ++k) {
      const V c = col[off[v] + k];
      h.columns[h.offsets[o] + k] = relabelled_ ? n2o[c] : c;
      if (!wts.empty()) h.weights[h.offsets[o] + k] = wts[off[v] + k];
    }
  }
  return h;
}

template class device_csr<std::uint32_t>;
template class device_csr<std::int64_t>;
template device_csr<std::uint32_t> build_device_csr<std::uint32_t>(device_edge_list<std::uint32_t>&&, build_options);
template device_csr<std::int64_t> build_device_csr<std::int64_t>(device_edge_list<std::int64_t>&&, build_options);

}  // namespace gpu500::graph::cuda
