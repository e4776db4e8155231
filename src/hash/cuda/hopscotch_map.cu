// GLHT host bulk API (gpu500/hash/hopscotch_map.hpp): public functions check input and own the
// memory, dispatch picks the tile size and the launch policy, thin grid-stride kernels call the
// device-side hopscotch_ref (gpu500/hash/hopscotch_ref.cuh).
#include <cuda_runtime.h>

#include <algorithm>
#include <string>
#include <utility>

#include "gpu500/core/cuda_check.cuh"
#include "gpu500/core/error.hpp"
#include "gpu500/hash/hopscotch_map.hpp"
#include "gpu500/hash/hopscotch_ref.cuh"
#include "kernels.cuh"

namespace gpu500::hash {

namespace {

// ------------------------------------------------------------------ kernels (thin)

template <int G>
__global__ void insert_kernel(hopscotch_view v, const key_type* keys, const value_type* values, index_t n,
                              insert_status* status, unsigned long long* counters) {
  const tile<G> t;
  const hopscotch_ref<G> ref(v);
  unsigned long long inserted = 0, no_room = 0;
  for (index_t i = detail::first_op<G>(); i < n; i += detail::op_stride<G>()) {
    const insert_status r = ref.insert(t, keys[i], values[i]);
    if (t.leader()) {
      if (status) status[i] = r;
      inserted += r == insert_status::inserted;
      no_room += r == insert_status::no_room;
    }
  }
  detail::block_add(counters, inserted, no_room);
}

/// Retry of the inserts that found no room (after a grow): status[i] == no_room only.
template <int G>
__global__ void retry_insert_kernel(hopscotch_view v, const key_type* keys, const value_type* values, index_t n,
                                    insert_status* status, unsigned long long* counters) {
  const tile<G> t;
  const hopscotch_ref<G> ref(v);
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

template <int G>
__global__ void erase_kernel(hopscotch_view v, const key_type* keys, index_t n, std::uint8_t* erased,
                             unsigned long long* counters) {
  const tile<G> t;
  const hopscotch_ref<G> ref(v);
  unsigned long long count = 0;
  for (index_t i = detail::first_op<G>(); i < n; i += detail::op_stride<G>()) {
    const bool r = ref.erase(t, keys[i]);
    if (t.leader()) {
      if (erased) erased[i] = r;
      count += r;
    }
  }
  detail::block_add(counters, count, 0);
}

template <int G>
__global__ void find_kernel(hopscotch_view v, const key_type* keys, index_t n, value_type* values,
                            std::uint8_t* found, unsigned long long* counters) {
  const tile<G> t;
  const hopscotch_ref<G> ref(v);
  unsigned long long count = 0;
  for (index_t i = detail::first_op<G>(); i < n; i += detail::op_stride<G>()) {
    value_type x = 0;
    const bool r = ref.find(t, keys[i], x);
    if (t.leader()) {
      if (values) values[i] = r ? x : 0;
      if (found) found[i] = r;
      count += r;
    }
  }
  if (counters) detail::block_add(counters, count, 0);
}

template <int G>
__global__ void mixed_kernel(hopscotch_view v, const op* ops, index_t n, op_result* results,
                             unsigned long long* counters) {
  const tile<G> t;
  const hopscotch_ref<G> ref(v);
  unsigned long long no_room = 0;
  for (index_t i = detail::first_op<G>(); i < n; i += detail::op_stride<G>()) {
    const op o = ops[i];
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

template <int G>
__global__ void retry_mixed_kernel(hopscotch_view v, const op* ops, index_t n, op_result* results,
                                   unsigned long long* counters) {
  const tile<G> t;
  const hopscotch_ref<G> ref(v);
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
template <int G>
__global__ void rehash_kernel(hopscotch_view to, hopscotch_view from, index_t slots, unsigned long long* counters) {
  const tile<G> t;
  const hopscotch_ref<G> ref(to);
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

/// Calls f.template operator()<G>() for the runtime tile size.
template <class F>
void dispatch_tile(int g, F&& f) {
  switch (g) {
    case 32: f.template operator()<32>(); break;
    case 8: f.template operator()<8>(); break;
    case 4: f.template operator()<4>(); break;
    case 1: f.template operator()<1>(); break;
    default: throw usage_error("hash: tile size must be 1, 4, 8 or 32, got " + std::to_string(g));
  }
}

}  // namespace

// ------------------------------------------------------------------ state

struct hopscotch_map::impl {
  hopscotch_options opt;
  std::uint64_t n = 0;
  std::uint64_t* slot_words = nullptr;  // split: keys then values; interleaved: {key, value} pairs
  key_type* keys = nullptr;
  value_type* values = nullptr;
  std::uint64_t* meta = nullptr;
  unsigned long long* counters = nullptr;  // [0] count, [1] no_room
  int grows = 0;
  detail::launch_policy policy;

  [[nodiscard]] std::uint64_t slots() const { return n + hop_range; }
  [[nodiscard]] bool interleaved() const { return opt.layout == slot_layout::interleaved; }
  [[nodiscard]] hopscotch_view view() const {
    return {keys, values, meta, n, opt.probe_limit, opt.find == find_mode::bitmap, opt.precheck,
            interleaved() ? 2u : 1u};
  }
  void allocate(std::uint64_t buckets) {
    const std::uint64_t s = buckets + hop_range;
    detail::device_alloc(&slot_words, 2 * s, "hash table slots");
    detail::device_alloc(&meta, s, "hash table bucket words");
    n = buckets;
    keys = slot_words;
    values = interleaved() ? slot_words + 1 : slot_words + s;
    GPU500_CUDA_CHECK(cudaMemset(slot_words, 0xff, 2 * s * sizeof(std::uint64_t)));  // empty_key everywhere
    GPU500_CUDA_CHECK(cudaMemset(meta, 0, s * sizeof(std::uint64_t)));
  }
  void release() {
    cudaFree(slot_words);
    cudaFree(meta);
    slot_words = keys = values = meta = nullptr;
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
  dispatch_tile(P->opt.tile, [&]<int G>() {
    insert_kernel<G><<<P->grid<G>(n), P->policy.block, 0, stream>>>(P->view(), keys, values, n, status,
                                                                     P->counters);
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
    dispatch_tile(P->opt.tile, [&]<int G>() {
      retry_insert_kernel<G><<<P->grid<G>(n), P->policy.block>>>(P->view(), keys, values, n, status, P->counters);
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
  dispatch_tile(P->opt.tile, [&]<int G>() {
    erase_kernel<G><<<P->grid<G>(n), P->policy.block, 0, stream>>>(P->view(), keys, n, erased, P->counters);
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
  dispatch_tile(P->opt.tile, [&]<int G>() {
    find_kernel<G><<<P->grid<G>(n), P->policy.block, 0, stream>>>(P->view(), keys, n, values, found, P->counters);
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
  dispatch_tile(P->opt.tile, [&]<int G>() {
    mixed_kernel<G><<<P->grid<G>(n), P->policy.block, 0, stream>>>(P->view(), ops, n, results, P->counters);
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
    dispatch_tile(P->opt.tile, [&]<int G>() {
      retry_mixed_kernel<G><<<P->grid<G>(n), P->policy.block>>>(P->view(), ops, n, results, P->counters);
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
    dispatch_tile(P->opt.tile, [&]<int G>() {
      const auto slots = static_cast<index_t>(P->slots());
      rehash_kernel<G><<<P->grid<G>(slots), P->policy.block>>>(fresh.view(), P->view(), slots, P->counters);
      GPU500_CUDA_CHECK_LAUNCH();
    });
    if (P->read_counters(nullptr).second == 0) {
      P->release();
      P->slot_words = fresh.slot_words;
      P->keys = fresh.keys;
      P->values = fresh.values;
      P->meta = fresh.meta;
      P->n = fresh.n;
      return;
    }
    fresh.release();  // the new size did not hold every key: try twice as many buckets
    target *= 2;
  }
}

void hopscotch_map::clear() {
  auto* P = p_.get();
  GPU500_CUDA_CHECK(cudaMemset(P->slot_words, 0xff, 2 * P->slots() * sizeof(std::uint64_t)));
  GPU500_CUDA_CHECK(cudaMemset(P->meta, 0, P->slots() * sizeof(std::uint64_t)));
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
  GPU500_CUDA_CHECK(cudaMemcpy(s.meta.data(), P->meta, P->slots() * sizeof(std::uint64_t), cudaMemcpyDeviceToHost));
  return s;
}

}  // namespace gpu500::hash
