// GLHT host bulk API (gpu500/hash/hopscotch_map.hpp): public functions check input and own the
// memory, dispatch picks the tile size and the launch policy, thin grid-stride kernels call the
// device-side hopscotch_ref (gpu500/hash/hopscotch_ref.cuh).
#include <cuda_runtime.h>

#include <algorithm>
#include <string>
#include <utility>

#include "gpu500/core/cuda/check.cuh"
#include "gpu500/core/error.hpp"
#include "gpu500/hash/hopscotch_map.hpp"
#include "gpu500/hash/hopscotch_ref.cuh"
#include "kernels.cuh"

namespace gpu500::hash {

namespace {

// ------------------------------------------------------------------ kernels (thin)

/// Kernel variants of tile 1 (template parameter M): bit 0 compiles the overlapped claim in
/// (hopscotch_options::overlap_claim), bit 1 the re-converging loop (hopscotch_options::converge);
/// M = -1 reads both from the view at run time (the launch-bounded twins). Kernels without a
/// feature do not pay its registers.
template <int M>
inline constexpr int overlap_of = M < 0 ? -1 : (M & 1);

/// hopscotch_options::converge (tile 1): the grid-stride loop runs while any lane of the warp has
/// an operation left, and the warp re-converges at the top of every iteration. Nobody holds a lock
/// or a hole there (an operation releases both before it returns), so no lane waits on one that
/// waits at the __syncwarp.
template <int G, int M>
__device__ __forceinline__ bool converged(const hopscotch_view& v) {
  if constexpr (G != 1) {
    return false;
  } else if constexpr (M < 0) {
    return v.converge;
  } else {
    return (M & 2) != 0;
  }
}
__device__ __forceinline__ index_t warp_lane() { return static_cast<index_t>(threadIdx.x & 31u); }
/// Top of a grid-stride iteration: re-converge the warp when asked; true when i is an operation.
template <int G, int M>
__device__ __forceinline__ bool lane_active(const hopscotch_view& v, index_t i, index_t n) {
  if (converged<G, M>(v)) __syncwarp();
  return i < n;
}

template <int G, int S, int M>
__device__ __forceinline__ void insert_body(hopscotch_view v, const key_type* keys, const value_type* values, index_t n,
                                            insert_status* status, unsigned long long* counters) {
  const tile<G> t;
  const hopscotch_ref<G, S, overlap_of<M>> ref(v);
  unsigned long long inserted = 0, no_room = 0;
  const index_t step = detail::op_stride<G>();
  index_t i = detail::first_op<G>();
  // The next operation's input is loaded while this one runs (one round trip fewer per op).
  key_type k = i < n ? keys[i] : 0;
  value_type x = i < n ? values[i] : 0;
  const index_t lane = converged<G, M>(v) ? warp_lane() : 0;
  for (; i - lane < n; i += step) {  // i < n unless converged: then while any lane of the warp has work
    const index_t j = i + step;
    const key_type next_k = j < n ? keys[j] : 0;
    const value_type next_x = j < n ? values[j] : 0;
    if (lane_active<G, M>(v, i, n)) {
      const insert_status r = ref.insert(t, k, x);
      if (t.leader()) {
        if (status) status[i] = r;
        inserted += r == insert_status::inserted;
        no_room += r == insert_status::no_room;
      }
    }
    k = next_k;
    x = next_x;
  }
  detail::block_add(counters, inserted, no_room);
}

/// M = 0 on interleaved or record slots (the sixth round's tile-1 insert, now the `-nc` A/B) fits
/// 48 registers without spilling (5 blocks of 256 per SM), which ptxas chose by itself for it before
/// the kernel variants existed; since then it sometimes takes 51 and drops to 4 blocks, so that
/// one is capped, to keep the A/B the old kernel. The other variants keep ptxas's choice: they
/// spill at 48, and the re-converging insert capped at 48 was slower (4.34 -> 3.87 G/s on an H100).
template <int G, int S, int M>
inline constexpr int insert_min_blocks = G == 1 && M == 0 && (S == 2 || S == 4) ? 5 : 1;

template <int G, int S, int M>
__global__ void __launch_bounds__(256, insert_min_blocks<G, S, M>)
    insert_kernel(hopscotch_view v, const key_type* keys, const value_type* values, index_t n, insert_status* status,
                  unsigned long long* counters) {
  insert_body<G, S, M>(v, keys, values, n, status, counters);
}

/// The occupancy A/B (hopscotch_options::min_blocks): at least B blocks of 256 threads per SM
/// (B = 8: 32 registers, ptxas spills a little; B = 6: 40 registers).
template <int G, int S, int B>
__global__ void __launch_bounds__(256, B) insert_kernel_bounded(hopscotch_view v, const key_type* keys,
                                                                 const value_type* values, index_t n,
                                                                 insert_status* status, unsigned long long* counters) {
  insert_body<G, S, -1>(v, keys, values, n, status, counters);
}

/// Retry of the inserts that found no room (after a grow): status[i] == no_room only.
template <int G, int S>
__global__ void retry_insert_kernel(hopscotch_view v, const key_type* keys, const value_type* values, index_t n,
                                    insert_status* status, unsigned long long* counters) {
  const tile<G> t;
  const hopscotch_ref<G, S> ref(v);
  unsigned long long inserted = 0, no_room = 0;
  for (index_t i = detail::first_op<G>(); i < n; i += detail::op_stride<G>()) {
    if (status[i] != insert_status::no_room) continue;  // uniform: same i for the whole tile
    const insert_status r = ref.insert(t, keys[i], values[i]);
    if (t.leader()) {
      status[i] = r;
      inserted += r == insert_status::inserted;
      no_room += r == insert_status::no_room;
    }
  }
  detail::block_add(counters, inserted, no_room);
}

template <int G, int S>
__global__ void erase_kernel(hopscotch_view v, const key_type* keys, index_t n, std::uint8_t* erased,
                             unsigned long long* counters) {
  const tile<G> t;
  const hopscotch_ref<G, S> ref(v);
  unsigned long long count = 0;
  const index_t lane = converged<G, -1>(v) ? warp_lane() : 0;
  for (index_t i = detail::first_op<G>(); i - lane < n; i += detail::op_stride<G>()) {  // as in insert_body
    if (!lane_active<G, -1>(v, i, n)) continue;
    const bool r = ref.erase(t, keys[i]);
    if (t.leader()) {
      if (erased) erased[i] = r;
      count += r;
    }
  }
  detail::block_add(counters, count, 0);
}

template <int G, int S>
__global__ void find_kernel(hopscotch_view v, const key_type* keys, index_t n, value_type* values,
                            std::uint8_t* found, unsigned long long* counters) {
  const tile<G> t;
  const hopscotch_ref<G, S> ref(v);
  unsigned long long count = 0;
  const index_t step = detail::op_stride<G>();
  index_t i = detail::first_op<G>();
  key_type k = i < n ? keys[i] : 0;  // prefetched one operation ahead, as in insert_body
  const index_t lane = converged<G, -1>(v) ? warp_lane() : 0;
  for (; i - lane < n; i += step) {  // as in insert_body
    const key_type next_k = i + step < n ? keys[i + step] : 0;
    if (!lane_active<G, -1>(v, i, n)) continue;
    value_type x = 0;
    const bool r = ref.find(t, k, x);
    if (t.leader()) {
      if (values) values[i] = r ? x : 0;
      if (found) found[i] = r;
      count += r;
    }
    k = next_k;
  }
  if (counters) detail::block_add(counters, count, 0);
}

template <int G, int S, int M>
__device__ __forceinline__ void mixed_body(hopscotch_view v, const op* ops, index_t n, op_result* results,
                                           unsigned long long* counters) {
  const tile<G> t;
  const hopscotch_ref<G, S, overlap_of<M>> ref(v);
  unsigned long long no_room = 0;
  const index_t step = detail::op_stride<G>();
  index_t i = detail::first_op<G>();
  op next = i < n ? ops[i] : op{};  // prefetched one operation ahead, as in insert_body
  const index_t lane = converged<G, M>(v) ? warp_lane() : 0;
  for (; i - lane < n; i += step) {  // as in insert_body
    const op o = next;
    if (i + step < n) next = ops[i + step];
    if (!lane_active<G, M>(v, i, n)) continue;
    op_result r{0, 0};
    switch (o.kind) {
      case op_kind::insert:
        r.code = static_cast<std::uint32_t>(ref.insert(t, o.key, o.value));
        break;
      case op_kind::erase:
        r.code = ref.erase(t, o.key);
        break;
      default:
        r.code = ref.find(t, o.key, r.value);
        break;
    }
    if (t.leader()) {
      if (results) results[i] = r;
      no_room += o.kind == op_kind::insert && r.code == static_cast<std::uint32_t>(insert_status::no_room);
    }
  }
  detail::block_add(counters, 0, no_room);
}

template <int G, int S, int M>
__global__ void mixed_kernel(hopscotch_view v, const op* ops, index_t n, op_result* results,
                             unsigned long long* counters) {
  mixed_body<G, S, M>(v, ops, n, results, counters);
}
template <int G, int S, int B>
__global__ void __launch_bounds__(256, B) mixed_kernel_bounded(hopscotch_view v, const op* ops, index_t n,
                                                                op_result* results, unsigned long long* counters) {
  mixed_body<G, S, -1>(v, ops, n, results, counters);
}

template <int G, int S>
__global__ void retry_mixed_kernel(hopscotch_view v, const op* ops, index_t n, op_result* results,
                                   unsigned long long* counters) {
  const tile<G> t;
  const hopscotch_ref<G, S> ref(v);
  unsigned long long no_room = 0;
  for (index_t i = detail::first_op<G>(); i < n; i += detail::op_stride<G>()) {
    const op o = ops[i];
    if (o.kind != op_kind::insert || results[i].code != static_cast<std::uint32_t>(insert_status::no_room))
      continue;
    const auto r = ref.insert(t, o.key, o.value);
    if (t.leader()) {
      results[i].code = static_cast<std::uint32_t>(r);
      no_room += r == insert_status::no_room;
    }
  }
  detail::block_add(counters, 0, no_room);
}

/// Rehash: every item of the old table into the new one (one tile per old slot).
template <int G, int S>
__global__ void rehash_kernel(hopscotch_view to, hopscotch_view from, index_t slots, unsigned long long* counters) {
  const tile<G> t;
  const hopscotch_ref<G, S> ref(to);
  unsigned long long no_room = 0;
  for (index_t i = detail::first_op<G>(); i < slots; i += detail::op_stride<G>()) {
    const key_type k = *from.key_ptr(i);
    if (!valid_key(k)) continue;
    const auto r = ref.insert(t, k, *from.value_ptr(i));
    if (t.leader()) no_room += r == insert_status::no_room;
  }
  detail::block_add(counters, 0, no_room);
}

__global__ void count_kernel(hopscotch_view v, index_t slots, unsigned long long* counters) {
  unsigned long long c = 0;
  for (index_t i = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x; i < slots;
       i += static_cast<index_t>(gridDim.x) * blockDim.x)
    c += valid_key(*v.key_ptr(i));
  detail::block_add(counters, c, 0);
}

// ------------------------------------------------------------------ dispatch

/// The insert and mixed kernels for the options: hopscotch_options::min_blocks picks a
/// launch-bounded twin (it reads overlap_claim and converge at run time), otherwise overlap_claim
/// and converge pick the variant M that compiles exactly those in. All of it exists for tile 1
/// only.
template <int G, int S>
struct op_kernels {
  template <class K, template <int, int, int> class Pick>
  static K pick(const hopscotch_options& o) {
    if constexpr (G == 1) {
      switch ((o.overlap_claim ? 1 : 0) | (o.converge ? 2 : 0)) {
        case 1: return Pick<G, S, 1>::get();
        case 2: return Pick<G, S, 2>::get();
        case 3: return Pick<G, S, 3>::get();
        default: break;
      }
    }
    return Pick<G, S, 0>::get();
  }
  template <int G_, int S_, int M>
  struct insert_of {
    static auto get() { return &insert_kernel<G_, S_, M>; }
  };
  template <int G_, int S_, int M>
  struct mixed_of {
    static auto get() { return &mixed_kernel<G_, S_, M>; }
  };
  static auto insert(const hopscotch_options& o) {
    using K = decltype(&insert_kernel<G, S, 0>);
    if constexpr (G == 1) {
      if (o.min_blocks == 8) return K{&insert_kernel_bounded<G, S, 8>};
      if (o.min_blocks == 6) return K{&insert_kernel_bounded<G, S, 6>};
    }
    return pick<K, insert_of>(o);
  }
  static auto mixed(const hopscotch_options& o) {
    using K = decltype(&mixed_kernel<G, S, 0>);
    if constexpr (G == 1) {
      if (o.min_blocks == 8) return K{&mixed_kernel_bounded<G, S, 8>};
      if (o.min_blocks == 6) return K{&mixed_kernel_bounded<G, S, 6>};
    }
    return pick<K, mixed_of>(o);
  }
};

/// Slot stride of a layout, in 64-bit words.
constexpr unsigned stride_of(slot_layout l) {
  return l == slot_layout::record ? 4u : l == slot_layout::interleaved ? 2u : 1u;
}

template <int G, class F>
void with_stride(unsigned s, F& f) {
  if (s == 4) f.template operator()<G, 4>();
  else if (s == 2) f.template operator()<G, 2>();
  else f.template operator()<G, 1>();
}

/// Calls f.template operator()<G, S>() for the options' tile size G and slot stride S (1: split,
/// 2: interleaved, 4: records; 0: read from the view at run time, the A/B of
/// hopscotch_options::static_stride).
template <class F>
void dispatch_tile(const hopscotch_options& o, F&& f) {
  const unsigned s = stride_of(o.layout);
  if (!o.static_stride) {
    switch (o.tile) {
      case 32: f.template operator()<32, 0>(); return;
      case 1: f.template operator()<1, 0>(); return;
      default: throw usage_error("hash: a run-time slot stride is built for tile sizes 1 and 32 only");
    }
  }
  switch (o.tile) {
    case 32: with_stride<32>(s, f); break;
    case 8: with_stride<8>(s, f); break;
    case 4: with_stride<4>(s, f); break;
    case 1: with_stride<1>(s, f); break;
    default: throw usage_error("hash: tile size must be 1, 4, 8 or 32, got " + std::to_string(o.tile));
  }
}

}  // namespace

// ------------------------------------------------------------------ state

struct hopscotch_map::impl {
  hopscotch_options opt;
  std::uint64_t n = 0;
  std::uint64_t* slot_words = nullptr;  // split: keys then values; interleaved: {key, value} pairs;
                                        // records: {key, value, bucket word, unused}
  key_type* keys = nullptr;
  value_type* values = nullptr;
  std::uint64_t* meta = nullptr;
  std::uint64_t* occ = nullptr;  // occupancy bits (opt.occupancy), one word per 64 slots
  unsigned long long* counters = nullptr;  // [0] count, [1] no_room
  int grows = 0;
  detail::launch_policy policy;

  [[nodiscard]] std::uint64_t slots() const { return n + hop_range; }
  [[nodiscard]] bool records() const { return opt.layout == slot_layout::record; }
  [[nodiscard]] std::uint64_t occ_words() const { return (slots() + 63) / 64; }
  [[nodiscard]] unsigned meta_stride() const { return records() ? 4u : 1u; }
  /// 64-bit words of the slot array (records hold the bucket words too).
  [[nodiscard]] std::uint64_t slot_array_words() const { return (records() ? 4 : 2) * slots(); }
  [[nodiscard]] hopscotch_view view() const {
    return {keys,          values,           meta,        n, opt.probe_limit, opt.find == find_mode::bitmap,
            opt.precheck,  stride_of(opt.layout), meta_stride(), opt.home_first,
            opt.home_claim, opt.pair_store, opt.fenced_atomics, occ,
            opt.overlap_claim, opt.converge};
  }
  void allocate(std::uint64_t buckets) {
    n = buckets;
    const std::uint64_t s = slots();
    detail::device_alloc(&slot_words, slot_array_words(), "hash table slots");
    if (!records()) detail::device_alloc(&meta, s, "hash table bucket words");
    if (opt.occupancy) detail::device_alloc(&occ, occ_words(), "hash table occupancy bits");
    keys = slot_words;
    values = opt.layout == slot_layout::split ? slot_words + s : slot_words + 1;
    if (records()) meta = slot_words + 2;
    fill_empty();
  }
  /// empty_key in every slot, every bucket word 0.
  void fill_empty() const {
    GPU500_CUDA_CHECK(cudaMemset(slot_words, 0xff, slot_array_words() * sizeof(std::uint64_t)));
    const std::size_t pitch = meta_stride() * sizeof(std::uint64_t);
    GPU500_CUDA_CHECK(cudaMemset2D(meta, pitch, 0, sizeof(std::uint64_t), slots()));
    if (occ) GPU500_CUDA_CHECK(cudaMemset(occ, 0, occ_words() * sizeof(std::uint64_t)));
  }
  void release() {
    cudaFree(slot_words);
    if (!records()) cudaFree(meta);
    cudaFree(occ);
    slot_words = keys = values = meta = occ = nullptr;
  }
  void reset_counters(cudaStream_t st) {
    GPU500_CUDA_CHECK(cudaMemsetAsync(counters, 0, 2 * sizeof(unsigned long long), st));
  }
  [[nodiscard]] std::pair<index_t, index_t> read_counters(cudaStream_t st) const {
    unsigned long long h[2];
    GPU500_CUDA_CHECK(cudaMemcpyAsync(h, counters, sizeof h, cudaMemcpyDeviceToHost, st));
    GPU500_CUDA_CHECK(cudaStreamSynchronize(st));
    return {static_cast<index_t>(h[0]), static_cast<index_t>(h[1])};
  }
  /// Grid for n operations of tiles of G lanes.
  template <int G>
  [[nodiscard]] unsigned grid(index_t ops) const {
    return policy.grid(ops * G);
  }
};

hopscotch_map::hopscotch_map(index_t capacity, hopscotch_options opt) : p_(std::make_unique<impl>()) {
  GPU500_EXPECTS(capacity >= 1, "hash: capacity must be positive");
  GPU500_EXPECTS(opt.probe_limit >= hop_range, "hash: probe limit must be at least 32");
  GPU500_EXPECTS(opt.tile == 1 || opt.tile == 4 || opt.tile == 8 || opt.tile == 32,
                 "hash: tile size must be 1, 4, 8 or 32");
  GPU500_EXPECTS(opt.min_blocks == 0 || ((opt.min_blocks == 6 || opt.min_blocks == 8) && opt.tile == 1),
                 "hash: min_blocks is 0, or 6 or 8 with tile size 1");
  GPU500_EXPECTS(!opt.overlap_claim || (opt.tile == 1 && opt.occupancy && !opt.home_claim),
                 "hash: overlap_claim needs tile size 1 and occupancy bits (and excludes home_claim)");
  GPU500_EXPECTS(opt.static_stride || opt.tile == 1 || opt.tile == 32,
                 "hash: a run-time slot stride is built for tile sizes 1 and 32 only");
  p_->opt = opt;
  p_->policy = detail::launch_policy::for_device();
  detail::device_alloc(&p_->counters, 2, "hash counters");
  p_->allocate(std::max<std::uint64_t>(static_cast<std::uint64_t>(capacity), hop_range));
}

hopscotch_map::~hopscotch_map() {
  if (!p_) return;
  p_->release();
  cudaFree(p_->counters);
}
hopscotch_map::hopscotch_map(hopscotch_map&&) noexcept = default;
hopscotch_map& hopscotch_map::operator=(hopscotch_map&&) noexcept = default;

// ------------------------------------------------------------------ bulk API

void hopscotch_map::insert_async(const key_type* keys, const value_type* values, index_t n, insert_status* status,
                                 cudaStream_t stream) {
  GPU500_EXPECTS(n >= 0, "hash: negative batch size");
  if (n == 0) return;
  auto* P = p_.get();
  dispatch_tile(P->opt, [&]<int G, int S>() {
    const auto k = op_kernels<G, S>::insert(P->opt);
    k<<<P->grid<G>(n), P->policy.block, 0, stream>>>(P->view(), keys, values, n, status, P->counters);
    GPU500_CUDA_CHECK_LAUNCH();
  });
}

index_t hopscotch_map::insert(const key_type* keys, const value_type* values, index_t n, insert_status* status) {
  GPU500_EXPECTS(n >= 0, "hash: negative batch size");
  if (n == 0) return 0;
  auto* P = p_.get();
  detail::device_array<insert_status> own;
  if (!status) status = own.allocate(n);
  P->reset_counters(nullptr);
  insert_async(keys, values, n, status, nullptr);
  auto [inserted, no_room] = P->read_counters(nullptr);
  while (no_room > 0) {  // grow, then retry only the keys that found no room
    rehash(static_cast<index_t>(P->n) * 2);
    ++P->grows;
    P->reset_counters(nullptr);
    dispatch_tile(P->opt, [&]<int G, int S>() {
      retry_insert_kernel<G, S><<<P->grid<G>(n), P->policy.block>>>(P->view(), keys, values, n, status, P->counters);
      GPU500_CUDA_CHECK_LAUNCH();
    });
    const auto c = P->read_counters(nullptr);
    inserted += c.first;
    no_room = c.second;
  }
  return inserted;
}

void hopscotch_map::erase_async(const key_type* keys, index_t n, std::uint8_t* erased, cudaStream_t stream) {
  GPU500_EXPECTS(n >= 0, "hash: negative batch size");
  if (n == 0) return;
  auto* P = p_.get();
  dispatch_tile(P->opt, [&]<int G, int S>() {
    erase_kernel<G, S><<<P->grid<G>(n), P->policy.block, 0, stream>>>(P->view(), keys, n, erased, P->counters);
    GPU500_CUDA_CHECK_LAUNCH();
  });
}

index_t hopscotch_map::erase(const key_type* keys, index_t n, std::uint8_t* erased) {
  if (n == 0) return 0;
  p_->reset_counters(nullptr);
  erase_async(keys, n, erased, nullptr);
  return p_->read_counters(nullptr).first;
}

void hopscotch_map::find_async(const key_type* keys, index_t n, value_type* values, std::uint8_t* found,
                               cudaStream_t stream) {
  GPU500_EXPECTS(n >= 0, "hash: negative batch size");
  if (n == 0) return;
  auto* P = p_.get();
  dispatch_tile(P->opt, [&]<int G, int S>() {
    find_kernel<G, S><<<P->grid<G>(n), P->policy.block, 0, stream>>>(P->view(), keys, n, values, found, P->counters);
    GPU500_CUDA_CHECK_LAUNCH();
  });
}

index_t hopscotch_map::find(const key_type* keys, index_t n, value_type* values, std::uint8_t* found) {
  if (n == 0) return 0;
  p_->reset_counters(nullptr);
  find_async(keys, n, values, found, nullptr);
  return p_->read_counters(nullptr).first;
}

void hopscotch_map::contains_async(const key_type* keys, index_t n, std::uint8_t* found, cudaStream_t stream) {
  find_async(keys, n, nullptr, found, stream);
}
index_t hopscotch_map::contains(const key_type* keys, index_t n, std::uint8_t* found) {
  return find(keys, n, nullptr, found);
}

void hopscotch_map::mixed_async(const op* ops, index_t n, op_result* results, cudaStream_t stream) {
  GPU500_EXPECTS(n >= 0, "hash: negative batch size");
  if (n == 0) return;
  auto* P = p_.get();
  dispatch_tile(P->opt, [&]<int G, int S>() {
    const auto k = op_kernels<G, S>::mixed(P->opt);
    k<<<P->grid<G>(n), P->policy.block, 0, stream>>>(P->view(), ops, n, results, P->counters);
    GPU500_CUDA_CHECK_LAUNCH();
  });
}

void hopscotch_map::mixed(const op* ops, index_t n, op_result* results) {
  if (n == 0) return;
  auto* P = p_.get();
  detail::device_array<op_result> own;
  if (!results) results = own.allocate(n);
  P->reset_counters(nullptr);
  mixed_async(ops, n, results, nullptr);
  auto no_room = P->read_counters(nullptr).second;
  while (no_room > 0) {
    rehash(static_cast<index_t>(P->n) * 2);
    ++P->grows;
    P->reset_counters(nullptr);
    dispatch_tile(P->opt, [&]<int G, int S>() {
      retry_mixed_kernel<G, S><<<P->grid<G>(n), P->policy.block>>>(P->view(), ops, n, results, P->counters);
      GPU500_CUDA_CHECK_LAUNCH();
    });
    no_room = P->read_counters(nullptr).second;
  }
}

// ------------------------------------------------------------------ host-vector conveniences

std::vector<insert_status> hopscotch_map::insert(const std::vector<key_type>& keys,
                                                 const std::vector<value_type>& values) {
  GPU500_EXPECTS(keys.size() == values.size(), "hash: keys and values differ in length");
  const index_t n = static_cast<index_t>(keys.size());
  std::vector<insert_status> out(keys.size());
  if (n == 0) return out;
  detail::device_array<key_type> dk;
  detail::device_array<value_type> dv;
  detail::device_array<insert_status> ds;
  dk.upload(keys);
  dv.upload(values);
  insert(dk.data(), dv.data(), n, ds.allocate(n));
  ds.download(out);
  return out;
}

std::vector<std::uint8_t> hopscotch_map::erase(const std::vector<key_type>& keys) {
  const index_t n = static_cast<index_t>(keys.size());
  std::vector<std::uint8_t> out(keys.size());
  if (n == 0) return out;
  detail::device_array<key_type> dk;
  detail::device_array<std::uint8_t> de;
  dk.upload(keys);
  erase(dk.data(), n, de.allocate(n));
  de.download(out);
  return out;
}

std::vector<std::uint8_t> hopscotch_map::find(const std::vector<key_type>& keys, std::vector<value_type>& values) {
  const index_t n = static_cast<index_t>(keys.size());
  std::vector<std::uint8_t> out(keys.size());
  values.assign(keys.size(), 0);
  if (n == 0) return out;
  detail::device_array<key_type> dk;
  detail::device_array<value_type> dv;
  detail::device_array<std::uint8_t> df;
  dk.upload(keys);
  find(dk.data(), n, dv.allocate(n), df.allocate(n));
  df.download(out);
  dv.download(values);
  return out;
}

std::vector<op_result> hopscotch_map::mixed(const std::vector<op>& ops) {
  const index_t n = static_cast<index_t>(ops.size());
  std::vector<op_result> out(ops.size());
  if (n == 0) return out;
  detail::device_array<op> dops;
  detail::device_array<op_result> dres;
  dops.upload(ops);
  mixed(dops.data(), n, dres.allocate(n));
  dres.download(out);
  return out;
}

// ------------------------------------------------------------------ size, growth, state

index_t hopscotch_map::size() const {
  auto* P = p_.get();
  P->reset_counters(nullptr);
  count_kernel<<<P->policy.grid(static_cast<index_t>(P->slots())), P->policy.block>>>(
      P->view(), static_cast<index_t>(P->slots()), P->counters);
  GPU500_CUDA_CHECK_LAUNCH();
  return P->read_counters(nullptr).first;
}

index_t hopscotch_map::capacity() const { return static_cast<index_t>(p_->n); }
double hopscotch_map::load_factor() const { return static_cast<double>(size()) / static_cast<double>(p_->n); }
int hopscotch_map::grow_count() const { return p_->grows; }

void hopscotch_map::rehash(index_t new_capacity) {
  auto* P = p_.get();
  GPU500_EXPECTS(new_capacity >= hop_range, "hash: rehash capacity must be at least 32");
  GPU500_CUDA_CHECK(cudaDeviceSynchronize());
  std::uint64_t target = static_cast<std::uint64_t>(new_capacity);
  for (;;) {
    impl fresh;
    fresh.opt = P->opt;
    fresh.policy = P->policy;
    fresh.counters = P->counters;
    fresh.allocate(target);
    P->reset_counters(nullptr);
    dispatch_tile(P->opt, [&]<int G, int S>() {
      const auto slots = static_cast<index_t>(P->slots());
      rehash_kernel<G, S><<<P->grid<G>(slots), P->policy.block>>>(fresh.view(), P->view(), slots, P->counters);
      GPU500_CUDA_CHECK_LAUNCH();
    });
    if (P->read_counters(nullptr).second == 0) {
      P->release();
      P->slot_words = fresh.slot_words;
      P->keys = fresh.keys;
      P->values = fresh.values;
      P->meta = fresh.meta;
      P->occ = fresh.occ;
      P->n = fresh.n;
      return;
    }
    fresh.release();  // the new size did not hold every key: try twice as many buckets
    target *= 2;
  }
}

void hopscotch_map::clear() {
  auto* P = p_.get();
  P->fill_empty();
  GPU500_CUDA_CHECK(cudaDeviceSynchronize());
}

hopscotch_view hopscotch_map::view() const { return p_->view(); }
const hopscotch_options& hopscotch_map::options() const { return p_->opt; }

table_snapshot hopscotch_map::snapshot() const {
  auto* P = p_.get();
  GPU500_CUDA_CHECK(cudaDeviceSynchronize());
  table_snapshot s;
  s.n_buckets = P->n;
  s.keys.resize(P->slots());
  s.values.resize(P->slots());
  s.meta.resize(P->slots());
  const std::size_t pitch = P->view().stride * sizeof(std::uint64_t);
  GPU500_CUDA_CHECK(cudaMemcpy2D(s.keys.data(), sizeof(key_type), P->keys, pitch, sizeof(key_type), P->slots(),
                                 cudaMemcpyDeviceToHost));
  GPU500_CUDA_CHECK(cudaMemcpy2D(s.values.data(), sizeof(value_type), P->values, pitch, sizeof(value_type),
                                 P->slots(), cudaMemcpyDeviceToHost));
  const std::size_t meta_pitch = P->meta_stride() * sizeof(std::uint64_t);
  GPU500_CUDA_CHECK(cudaMemcpy2D(s.meta.data(), sizeof(std::uint64_t), P->meta, meta_pitch, sizeof(std::uint64_t),
                                 P->slots(), cudaMemcpyDeviceToHost));
  if (P->occ) {
    s.occupancy.resize(P->occ_words());
    GPU500_CUDA_CHECK(cudaMemcpy(s.occupancy.data(), P->occ, P->occ_words() * sizeof(std::uint64_t),
                                 cudaMemcpyDeviceToHost));
  }
  return s;
}

}  // namespace gpu500::hash
