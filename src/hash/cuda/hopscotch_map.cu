// src/hash/cuda/hopscotch_map.cu — GLHT host bulk API (gpu500/hash/hopscotch_map.hpp): the
// table's device arrays (gpu::device_buffer), the public functions that check input, launch the
// kernels of hopscotch_kernels.cuh and grow the table when a sync insert finds no room, the
// host-vector conveniences, rehash, clear and the snapshot for the host-side checker.
#include <cuda_runtime.h>

#include <algorithm>
#include <string>
#include <utility>

#include "gpu500/core/cuda/check.cuh"
#include "gpu500/core/cuda/memory.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/hash/hopscotch_map.hpp"
#include "hopscotch_kernels.cuh"
#include "launch.cuh"

namespace gpu500::hash {

using detail::count_kernel;
using detail::dispatch_tile;
using detail::erase_kernel;
using detail::find_kernel;
using detail::op_kernels;
using detail::rehash_kernel;
using detail::retry_insert_kernel;
using detail::retry_mixed_kernel;
using detail::stride_of;
// ------------------------------------------------------------------ state

struct hopscotch_map::impl {
  hopscotch_options opt;
  std::uint64_t n = 0;
  // Owners: split: keys then values; interleaved: {key, value} pairs; records: {key, value, bucket
  // word, unused}. Bucket words apart except in records; occupancy bits (opt.occupancy), one word
  // per 64 slots. The raw pointers below point into them.
  gpu::device_buffer<std::uint64_t> slot_words, meta_words, occ_words_buf, stash_words;  // stash: {key, value}
  gpu::device_buffer<unsigned long long> counter_words;  // owned by the map, shared with a rehash's fresh table
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
  [[nodiscard]] std::uint64_t stash_slots() const { return stash_pairs(n); }
  [[nodiscard]] unsigned meta_stride() const { return records() ? 4u : 1u; }
  /// 64-bit words of the slot array (records hold the bucket words too).
  [[nodiscard]] std::uint64_t slot_array_words() const { return (records() ? 4 : 2) * slots(); }
  [[nodiscard]] hopscotch_view view() const {
    return {keys,          values,           meta,        n, opt.probe_limit, opt.find == find_mode::bitmap,
            opt.precheck,  stride_of(opt.layout), meta_stride(), opt.home_first,
            opt.home_claim, opt.pair_store, opt.fenced_atomics, occ,
            opt.overlap_claim, opt.converge,  opt.acquire_find, stash_words.data(), stash_slots(),
            opt.pair_cas};
  }
  void allocate(std::uint64_t buckets) {
    n = buckets;
    const std::uint64_t s = slots();
    slot_words = gpu::device_buffer<std::uint64_t>(slot_array_words());
    if (!records()) meta_words = gpu::device_buffer<std::uint64_t>(s);
    if (opt.occupancy) occ_words_buf = gpu::device_buffer<std::uint64_t>(occ_words());
    stash_words = gpu::device_buffer<std::uint64_t>(2 * stash_slots());
    keys = slot_words.data();
    values = opt.layout == slot_layout::split ? slot_words.data() + s : slot_words.data() + 1;
    meta = records() ? slot_words.data() + 2 : meta_words.data();
    occ = occ_words_buf.data();
    fill_empty();
  }
  /// empty_key in every slot, every bucket word 0.
  void fill_empty() const {
    GPU500_CUDA_CHECK(cudaMemset(slot_words.data(), 0xff, slot_array_words() * sizeof(std::uint64_t)));
    const std::size_t pitch = meta_stride() * sizeof(std::uint64_t);
    GPU500_CUDA_CHECK(cudaMemset2D(meta, pitch, 0, sizeof(std::uint64_t), slots()));
    if (occ) GPU500_CUDA_CHECK(cudaMemset(occ, 0, occ_words() * sizeof(std::uint64_t)));
    GPU500_CUDA_CHECK(cudaMemset(stash_words.data(), 0xff, stash_words.bytes()));
  }
  void release() {
    slot_words.reset();
    meta_words.reset();
    occ_words_buf.reset();
    stash_words.reset();
    keys = values = meta = occ = nullptr;
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
  if (opt.pair_cas) {
    if (opt.tile != 1 || opt.layout == slot_layout::split || opt.occupancy)
      throw usage_error(
          "hash: the pair-CAS insert runs one thread per operation on interleaved or record slots, without "
          "occupancy bits (its 16-byte CAS claims a key and its value together; split slots keep them in two "
          "arrays)");
    int dev = 0, major = 0;
    GPU500_CUDA_CHECK(cudaGetDevice(&dev));
    GPU500_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
    if (major < 9)
      throw usage_error("hash: the pair-CAS insert needs a device of compute capability 9.0 or later (16-byte CAS)");
  }
  p_->opt = opt;
  p_->policy = detail::launch_policy::for_device();
  p_->counter_words = gpu::device_buffer<unsigned long long>(2);
  p_->counters = p_->counter_words.data();
  p_->allocate(std::max<std::uint64_t>(static_cast<std::uint64_t>(capacity), hop_range));
}

hopscotch_map::~hopscotch_map() = default;
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
  gpu::device_buffer<insert_status> own;
  if (!status) status = own.reserve(static_cast<std::size_t>(n));
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
  gpu::device_buffer<op_result> own;
  if (!results) results = own.reserve(static_cast<std::size_t>(n));
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
  const auto dk = gpu::to_device(keys);
  const auto dv = gpu::to_device(values);
  gpu::device_buffer<insert_status> ds(out.size());
  insert(dk.data(), dv.data(), n, ds.data());
  return gpu::to_host(ds);
}

std::vector<std::uint8_t> hopscotch_map::erase(const std::vector<key_type>& keys) {
  const index_t n = static_cast<index_t>(keys.size());
  std::vector<std::uint8_t> out(keys.size());
  if (n == 0) return out;
  const auto dk = gpu::to_device(keys);
  gpu::device_buffer<std::uint8_t> de(out.size());
  erase(dk.data(), n, de.data());
  return gpu::to_host(de);
}

std::vector<std::uint8_t> hopscotch_map::find(const std::vector<key_type>& keys, std::vector<value_type>& values) {
  const index_t n = static_cast<index_t>(keys.size());
  std::vector<std::uint8_t> out(keys.size());
  values.assign(keys.size(), 0);
  if (n == 0) return out;
  const auto dk = gpu::to_device(keys);
  gpu::device_buffer<value_type> dv(out.size());
  gpu::device_buffer<std::uint8_t> df(out.size());
  find(dk.data(), n, dv.data(), df.data());
  values = gpu::to_host(dv);
  return gpu::to_host(df);
}

std::vector<op_result> hopscotch_map::mixed(const std::vector<op>& ops) {
  const index_t n = static_cast<index_t>(ops.size());
  std::vector<op_result> out(ops.size());
  if (n == 0) return out;
  const auto dops = gpu::to_device(ops);
  gpu::device_buffer<op_result> dres(out.size());
  mixed(dops.data(), n, dres.data());
  return gpu::to_host(dres);
}

// ------------------------------------------------------------------ size, growth, state

index_t hopscotch_map::size() const {
  auto* P = p_.get();
  P->reset_counters(nullptr);
  const auto items = static_cast<index_t>(P->slots() + P->stash_slots());
  count_kernel<<<P->policy.grid(items), P->policy.block>>>(P->view(), static_cast<index_t>(P->slots()), items,
                                                           P->counters);
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
      const auto slots = static_cast<index_t>(P->slots()), items = slots + static_cast<index_t>(P->stash_slots());
      rehash_kernel<G, S><<<P->grid<G>(items), P->policy.block>>>(fresh.view(), P->view(), slots, items,
                                                                  P->counters);
      GPU500_CUDA_CHECK_LAUNCH();
    });
    if (P->read_counters(nullptr).second == 0) {
      P->release();
      P->slot_words = std::move(fresh.slot_words);
      P->meta_words = std::move(fresh.meta_words);
      P->occ_words_buf = std::move(fresh.occ_words_buf);
      P->stash_words = std::move(fresh.stash_words);
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
  const auto pairs = gpu::to_host(P->stash_words);
  s.stash_keys.resize(P->stash_slots());
  s.stash_values.resize(P->stash_slots());
  for (std::size_t i = 0; i < s.stash_keys.size(); ++i) s.stash_keys[i] = pairs[2 * i], s.stash_values[i] = pairs[2 * i + 1];
  return s;
}

}  // namespace gpu500::hash
