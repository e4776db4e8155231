// src/hash/cuda/baselines.cu — the GPU tables GLHT is measured against (gpu500/hash/baselines.hpp):
// linear / quadratic probing, CUDPP-style cuckoo hashing (bulk build, Alcantara et al.), lock-free
// chaining after Misra & Chaudhuri (2012).
#include <cuda_runtime.h>

#include <string>

#include "gpu500/core/cuda/check.cuh"
#include "gpu500/core/error.hpp"
#include "gpu500/hash/baselines.hpp"
#include "gpu500/core/cuda/launch.cuh"
#include "gpu500/core/cuda/memory.hpp"
#include "gpu500/hash/detail/device_atomics.cuh"  // ld_acquire / st_release / cas
#include "launch.cuh"

namespace gpu500::hash {

namespace {

using detail::cas;
using detail::ld_acquire;
using detail::ld_relaxed;
using detail::st_release;
using detail::st_relaxed;

// =================================================================== open addressing

struct probing_view {
  key_type* keys;      // key of slot s at keys[s * stride]
  value_type* values;  // value of slot s at values[s * stride]
  std::uint64_t cap;
  bool quadratic;
  std::uint32_t stride;  // 1: split arrays; 2: interleaved {key, value} slots
  bool pair_cas;         // interleaved: one 16-byte CAS claims and fills a slot (insert_pair_cas)

  __device__ key_type* key(std::uint64_t s) const { return keys + s * stride; }
  __device__ value_type* value(std::uint64_t s) const { return values + s * stride; }

  /// i-th slot of k's probe sequence (linear: h + i; quadratic: h + i(i+1)/2, both mod cap).
  struct cursor {
    std::uint64_t s, i = 0;
  };
  __device__ cursor start(key_type k) const { return {home_bucket(k, cap)}; }
  __device__ void next(cursor& c) const {
    ++c.i;
    c.s += quadratic ? c.i : 1;
    while (c.s >= cap) c.s -= cap;
  }

  __device__ insert_status insert(key_type k, value_type v) const {
    if (k >= tombstone_key) return insert_status::invalid;
    if (pair_cas) return insert_pair_cas(k, v);
    cursor c = start(k);
    for (; c.i < cap; next(c)) {
      key_type x = ld_acquire(key(c.s));
      for (;;) {
        while (x == reserved_key) x = ld_acquire(key(c.s));  // a writer is publishing this slot
        if (x == k) return insert_status::present;
        if (x != empty_key) break;
        const key_type old = cas(key(c.s), empty_key, reserved_key);
        if (old == empty_key) {
          st_relaxed(value(c.s), v);
          st_release(key(c.s), k);
          return insert_status::inserted;
        }
        x = old;  // lost the race: look at what is there now
      }
    }
    return insert_status::no_room;
  }
  /// The pair-CAS insert (sm_90's 16-byte atomicCAS): {empty, empty} -> {k, v} claims the slot and
  /// stores both words at once, one atomic and no publishing store, where insert() claims the key
  /// word, stores the value and publishes the key with a release store. Bulk phases only (the
  /// static benchmark: inserts, then finds): the claim is relaxed, so nothing orders a concurrent
  /// find's read of the value after the key it saw; the mixed benchmark does not offer it.
  __device__ insert_status insert_pair_cas(key_type k, value_type v) const {
#if __CUDA_ARCH__ >= 900
    struct alignas(16) pair {
      key_type key;
      value_type value;
    };
    for (cursor c = start(k); c.i < cap; next(c)) {
      key_type x = ld_relaxed(key(c.s));
      for (;;) {
        if (x == k) return insert_status::present;
        if (x != empty_key) break;
        const pair old = atomicCAS(reinterpret_cast<pair*>(key(c.s)), pair{empty_key, empty_key}, pair{k, v});
        if (old.key == empty_key && old.value == empty_key) return insert_status::inserted;
        x = old.key;  // lost the race (or a stray value word): look at the key there now
        if (x == empty_key) break;
      }
    }
    return insert_status::no_room;
#else
    (void)k;
    (void)v;
    __trap();  // the constructor refuses pair_cas below sm_90
    return insert_status::invalid;
#endif
  }
  __device__ bool find(key_type k, value_type& v) const {
    if (k >= tombstone_key) return false;
    cursor c = start(k);
    for (; c.i < cap; next(c)) {
      const key_type x = ld_acquire(key(c.s));
      if (x == k) {
        v = ld_relaxed(value(c.s));
        return true;
      }
      if (x == empty_key) return false;
    }
    return false;
  }
  __device__ bool erase(key_type k) const {
    if (k >= tombstone_key) return false;
    cursor c = start(k);
    for (; c.i < cap; next(c)) {
      const key_type x = ld_acquire(key(c.s));
      if (x == k) return cas(key(c.s), k, tombstone_key) == k;
      if (x == empty_key) return false;
    }
    return false;
  }
};

// =================================================================== chaining

struct chain_node {
  key_type key;
  value_type value;
  std::uint64_t next;  // node index + 1 (0 = end of list) | mark bit 63 (this node is deleted)
};

struct chained_view {
  std::uint64_t* heads;
  chain_node* pool;
  unsigned long long* pool_top;
  std::uint64_t buckets, pool_nodes;
  static constexpr std::uint64_t mark = 1ULL << 63;

  __device__ std::uint64_t* next_of(std::uint64_t ref) const { return &pool[ref - 1].next; }

  /// Harris search: returns the link that points to the first unmarked node with key >= k (and
  /// that node, 0 if none), unlinking marked nodes on the way.
  __device__ std::uint64_t* search(key_type k, std::uint64_t& cur) const {
  retry:
    std::uint64_t* prev = &heads[home_bucket(k, buckets)];
    cur = ld_acquire(prev);
    for (;;) {
      if (cur == 0) return prev;
      const std::uint64_t nx = ld_acquire(next_of(cur));
      if (nx & mark) {
        if (cas(prev, cur, nx & ~mark) != cur) goto retry;
        cur = nx & ~mark;
        continue;
      }
      if (pool[cur - 1].key >= k) return prev;
      prev = next_of(cur);
      cur = nx;
    }
  }
  __device__ insert_status insert(key_type k, value_type v) const {
    if (!valid_key(k)) return insert_status::invalid;
    std::uint64_t node = 0;
    for (;;) {
      std::uint64_t cur;
      std::uint64_t* prev = search(k, cur);
      if (cur && pool[cur - 1].key == k) return insert_status::present;  // (an unused node is leaked)
      if (!node) {
        const unsigned long long idx = atomicAdd(pool_top, 1ULL);
        if (idx >= pool_nodes) return insert_status::no_room;
        node = idx + 1;
        pool[idx].key = k;
        pool[idx].value = v;
      }
      st_relaxed(next_of(node), cur);
      __threadfence();
      if (cas(prev, cur, node) == cur) return insert_status::inserted;
    }
  }
  __device__ bool erase(key_type k) const {
    for (;;) {
      std::uint64_t cur;
      std::uint64_t* prev = search(k, cur);
      if (!cur || pool[cur - 1].key != k) return false;
      const std::uint64_t nx = ld_acquire(next_of(cur));
      if (nx & mark) continue;
      if (cas(next_of(cur), nx, nx | mark) != nx) continue;  // logical delete
      cas(prev, cur, nx);                                     // physical, best effort
      return true;
    }
  }
  __device__ bool find(key_type k, value_type& v) const {
    std::uint64_t cur = ld_acquire(&heads[home_bucket(k, buckets)]);
    while (cur) {
      const chain_node* n = &pool[cur - 1];
      const std::uint64_t nx = ld_acquire(&n->next);
      const key_type nk = n->key;
      if (nk >= k) {
        if (nk == k && !(nx & mark)) {
          v = n->value;
          return true;
        }
        if (nk > k) return false;
      }
      cur = nx & ~mark;
    }
    return false;
  }
};

// =================================================================== shared thin kernels

template <class V>
__global__ void insert_kernel(V t, const key_type* keys, const value_type* values, index_t n, insert_status* st) {
  for (const index_t i : gpu::grid_stride(n)) {
    const auto r = t.insert(keys[i], values[i]);
    if (st) st[i] = r;
  }
}
template <class V>
__global__ void erase_kernel(V t, const key_type* keys, index_t n, std::uint8_t* erased) {
  for (const index_t i : gpu::grid_stride(n)) {
    const bool r = t.erase(keys[i]);
    if (erased) erased[i] = r;
  }
}
template <class V>
__global__ void find_kernel(V t, const key_type* keys, index_t n, value_type* values, std::uint8_t* found) {
  for (const index_t i : gpu::grid_stride(n)) {
    value_type v = 0;
    const bool r = t.find(keys[i], v);
    if (values) values[i] = r ? v : 0;
    if (found) found[i] = r;
  }
}
template <class V>
__global__ void mixed_kernel(V t, const op* ops, index_t n, op_result* results) {
  for (const index_t i : gpu::grid_stride(n)) {
    const op o = ops[i];
    op_result r{0, 0};
    if (o.kind == op_kind::insert) r.code = static_cast<std::uint32_t>(t.insert(o.key, o.value));
    else if (o.kind == op_kind::erase) r.code = t.erase(o.key);
    else r.code = t.find(o.key, r.value);
    if (results) results[i] = r;
  }
}

// =================================================================== cuckoo

constexpr int kCuckooFns = 4;

struct cuckoo_view {
  key_type* keys;
  value_type* values;
  std::uint64_t cap;
  std::uint64_t seeds[kCuckooFns];
  int max_iter;

  __device__ std::uint64_t slot(key_type k, int j) const { return home_bucket(k ^ seeds[j], cap); }
  __device__ bool find(key_type k, value_type& v) const {
#pragma unroll
    for (int j = 0; j < kCuckooFns; ++j) {
      const std::uint64_t s = slot(k, j);
      if (keys[s] == k) {
        v = values[s];
        return true;
      }
    }
    return false;
  }
};

__global__ void cuckoo_build_kernel(cuckoo_view t, const key_type* keys, index_t n, int* failed) {
  for (const index_t i : gpu::grid_stride(n)) {
    key_type k = keys[i];
    std::uint64_t loc = t.slot(k, 0);
    bool placed = false;
    for (int it = 0; it < t.max_iter; ++it) {
      const key_type old = atomicExch(reinterpret_cast<unsigned long long*>(&t.keys[loc]), k);
      if (old == empty_key) {
        placed = true;
        break;
      }
      // The evicted key moves to the location of its next hash function.
      k = old;
      int j = 0;
      while (j < kCuckooFns - 1 && t.slot(k, j) != loc) ++j;
      loc = t.slot(k, (j + 1) % kCuckooFns);
    }
    if (!placed) atomicExch(failed, 1);
  }
}

/// After a successful build (quiescent), put each value next to its key.
__global__ void cuckoo_values_kernel(cuckoo_view t, const key_type* keys, const value_type* values, index_t n,
                                     int* failed) {
  for (const index_t i : gpu::grid_stride(n)) {
    const key_type k = keys[i];
    bool ok = false;
    for (int j = 0; j < kCuckooFns && !ok; ++j) {
      const std::uint64_t s = t.slot(k, j);
      if (t.keys[s] == k) {
        t.values[s] = values[i];
        ok = true;
      }
    }
    if (!ok) atomicExch(failed, 1);
  }
}

__global__ void chained_pool_init(chain_node* pool, std::uint64_t n) {
  for (const index_t i : gpu::grid_stride(static_cast<index_t>(n))) pool[i] = {empty_key, 0, 0};
}

}  // namespace

// =================================================================== probing_map

struct probing_map::impl {
  probing_view v{};
  gpu::device_buffer<std::uint64_t> words;  // 2 * cap words: keys then values, or {key, value} pairs
  detail::launch_policy policy;
};

probing_map::probing_map(index_t capacity, probing scheme, bool interleaved, bool pair_cas)
    : p_(std::make_unique<impl>()) {
  GPU500_EXPECTS(capacity >= 1, "hash: capacity must be positive");
  GPU500_EXPECTS(!pair_cas || interleaved, "hash: the pair-CAS insert needs interleaved {key, value} slots");
  if (pair_cas) {
    int dev = 0, major = 0;
    GPU500_CUDA_CHECK(cudaGetDevice(&dev));
    GPU500_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
    if (major < 9) throw usage_error("hash: the pair-CAS insert needs a device of compute capability 9.0 or later");
  }
  p_->policy = detail::launch_policy::for_device();
  p_->v.cap = static_cast<std::uint64_t>(capacity);
  p_->v.quadratic = scheme == probing::quadratic;
  p_->v.stride = interleaved ? 2 : 1;
  p_->v.pair_cas = pair_cas;
  p_->words = gpu::device_buffer<std::uint64_t>(2 * p_->v.cap);
  p_->v.keys = p_->words.data();
  p_->v.values = interleaved ? p_->words.data() + 1 : p_->words.data() + p_->v.cap;
  clear();
}
probing_map::~probing_map() = default;
void probing_map::clear() {
  // empty_key in every key word (and every value word, which is harmless)
  GPU500_CUDA_CHECK(cudaMemset(p_->words.data(), 0xff, 2 * p_->v.cap * sizeof(std::uint64_t)));
  GPU500_CUDA_CHECK(cudaDeviceSynchronize());
}
index_t probing_map::capacity() const { return static_cast<index_t>(p_->v.cap); }
void probing_map::insert_async(const key_type* keys, const value_type* values, index_t n, insert_status* status,
                               cudaStream_t stream) {
  if (n <= 0) return;
  insert_kernel<<<p_->policy.grid(n), p_->policy.block, 0, stream>>>(p_->v, keys, values, n, status);
  GPU500_CUDA_CHECK_LAUNCH();
}
void probing_map::erase_async(const key_type* keys, index_t n, std::uint8_t* erased, cudaStream_t stream) {
  if (n <= 0) return;
  erase_kernel<<<p_->policy.grid(n), p_->policy.block, 0, stream>>>(p_->v, keys, n, erased);
  GPU500_CUDA_CHECK_LAUNCH();
}
void probing_map::find_async(const key_type* keys, index_t n, value_type* values, std::uint8_t* found,
                             cudaStream_t stream) {
  if (n <= 0) return;
  find_kernel<<<p_->policy.grid(n), p_->policy.block, 0, stream>>>(p_->v, keys, n, values, found);
  GPU500_CUDA_CHECK_LAUNCH();
}
void probing_map::mixed_async(const op* ops, index_t n, op_result* results, cudaStream_t stream) {
  GPU500_EXPECTS(!p_->v.pair_cas, "hash: the pair-CAS table has no mixed operations (inserts, then finds only)");
  if (n <= 0) return;
  mixed_kernel<<<p_->policy.grid(n), p_->policy.block, 0, stream>>>(p_->v, ops, n, results);
  GPU500_CUDA_CHECK_LAUNCH();
}

// =================================================================== cuckoo_map

struct cuckoo_map::impl {
  cuckoo_view v{};
  detail::launch_policy policy;
  gpu::device_buffer<key_type> keys;
  gpu::device_buffer<value_type> values;
  gpu::device_buffer<int> failed{1};
};

cuckoo_map::cuckoo_map(index_t capacity) : p_(std::make_unique<impl>()) {
  GPU500_EXPECTS(capacity >= 1, "hash: capacity must be positive");
  p_->policy = detail::launch_policy::for_device();
  p_->v.cap = static_cast<std::uint64_t>(capacity);
  p_->keys = gpu::device_buffer<key_type>(p_->v.cap);
  p_->values = gpu::device_buffer<value_type>(p_->v.cap);
  p_->v.keys = p_->keys.data();
  p_->v.values = p_->values.data();
}
cuckoo_map::~cuckoo_map() = default;
index_t cuckoo_map::capacity() const { return static_cast<index_t>(p_->v.cap); }

int cuckoo_map::build(const key_type* keys, const value_type* values, index_t n) {
  GPU500_EXPECTS(n <= static_cast<index_t>(p_->v.cap), "hash: more keys than cuckoo slots");
  auto& v = p_->v;
  // CUDPP's bound on an eviction chain: about 7 log2(n).
  int lg = 1;
  while ((index_t{1} << lg) < n) ++lg;
  v.max_iter = 7 * lg;
  std::uint64_t seed = 0x9e3779b97f4a7c15ULL;
  for (int attempt = 1; attempt <= 16; ++attempt) {
    for (auto& s : v.seeds) s = fmix64(seed += 0x9e3779b97f4a7c15ULL);
    GPU500_CUDA_CHECK(cudaMemset(v.keys, 0xff, v.cap * sizeof(key_type)));
    GPU500_CUDA_CHECK(cudaMemset(p_->failed.data(), 0, sizeof(int)));
    cuckoo_build_kernel<<<p_->policy.grid(n), p_->policy.block>>>(v, keys, n, p_->failed.data());
    GPU500_CUDA_CHECK_LAUNCH();
    cuckoo_values_kernel<<<p_->policy.grid(n), p_->policy.block>>>(v, keys, values, n, p_->failed.data());
    GPU500_CUDA_CHECK_LAUNCH();
    int failed = 0;
    GPU500_CUDA_CHECK(cudaMemcpy(&failed, p_->failed.data(), sizeof failed, cudaMemcpyDeviceToHost));
    if (!failed) return attempt;
  }
  throw error("hash: cuckoo build failed with 16 seed sets (load factor too high?)");
}

void cuckoo_map::find_async(const key_type* keys, index_t n, value_type* values, std::uint8_t* found,
                            cudaStream_t stream) {
  if (n <= 0) return;
  find_kernel<<<p_->policy.grid(n), p_->policy.block, 0, stream>>>(p_->v, keys, n, values, found);
  GPU500_CUDA_CHECK_LAUNCH();
}

// =================================================================== chained_map

struct chained_map::impl {
  chained_view v{};
  detail::launch_policy policy;
  gpu::device_buffer<std::uint64_t> heads;
  gpu::device_buffer<chain_node> pool;
  gpu::device_buffer<unsigned long long> pool_top{1};
};

chained_map::chained_map(index_t buckets, index_t pool_nodes, bool allocate) : p_(std::make_unique<impl>()) {
  GPU500_EXPECTS(buckets >= 1 && pool_nodes >= 1, "hash: chained table needs buckets and nodes");
  p_->policy = detail::launch_policy::for_device();
  p_->v.buckets = static_cast<std::uint64_t>(buckets);
  p_->v.pool_nodes = static_cast<std::uint64_t>(pool_nodes);
  p_->heads = gpu::device_buffer<std::uint64_t>(p_->v.buckets);
  p_->v.heads = p_->heads.data();
  p_->v.pool_top = p_->pool_top.data();
  GPU500_CUDA_CHECK(cudaMemset(p_->v.heads, 0, p_->v.buckets * sizeof(std::uint64_t)));
  GPU500_CUDA_CHECK(cudaMemset(p_->v.pool_top, 0, sizeof(unsigned long long)));
  if (allocate) allocate_pool();
}
chained_map::~chained_map() = default;
void chained_map::allocate_pool() {
  p_->pool.reset();
  p_->v.pool = nullptr;
  p_->pool = gpu::device_buffer<chain_node>(p_->v.pool_nodes);
  p_->v.pool = p_->pool.data();
  chained_pool_init<<<p_->policy.grid(static_cast<index_t>(p_->v.pool_nodes)), p_->policy.block>>>(
      p_->v.pool, p_->v.pool_nodes);
  GPU500_CUDA_CHECK_LAUNCH();
  GPU500_CUDA_CHECK(cudaMemset(p_->v.pool_top, 0, sizeof(unsigned long long)));
  GPU500_CUDA_CHECK(cudaDeviceSynchronize());
}
void chained_map::clear() {
  GPU500_CUDA_CHECK(cudaMemset(p_->v.heads, 0, p_->v.buckets * sizeof(std::uint64_t)));
  GPU500_CUDA_CHECK(cudaMemset(p_->v.pool_top, 0, sizeof(unsigned long long)));
  GPU500_CUDA_CHECK(cudaDeviceSynchronize());
}
index_t chained_map::capacity() const { return static_cast<index_t>(p_->v.pool_nodes); }
void chained_map::insert_async(const key_type* keys, const value_type* values, index_t n, insert_status* status,
                               cudaStream_t stream) {
  GPU500_EXPECTS(p_->v.pool, "hash: chained table used before its pool was allocated");
  if (n <= 0) return;
  insert_kernel<<<p_->policy.grid(n), p_->policy.block, 0, stream>>>(p_->v, keys, values, n, status);
  GPU500_CUDA_CHECK_LAUNCH();
}
void chained_map::erase_async(const key_type* keys, index_t n, std::uint8_t* erased, cudaStream_t stream) {
  if (n <= 0) return;
  erase_kernel<<<p_->policy.grid(n), p_->policy.block, 0, stream>>>(p_->v, keys, n, erased);
  GPU500_CUDA_CHECK_LAUNCH();
}
void chained_map::find_async(const key_type* keys, index_t n, value_type* values, std::uint8_t* found,
                             cudaStream_t stream) {
  if (n <= 0) return;
  find_kernel<<<p_->policy.grid(n), p_->policy.block, 0, stream>>>(p_->v, keys, n, values, found);
  GPU500_CUDA_CHECK_LAUNCH();
}
void chained_map::mixed_async(const op* ops, index_t n, op_result* results, cudaStream_t stream) {
  GPU500_EXPECTS(p_->v.pool, "hash: chained table used before its pool was allocated");
  if (n <= 0) return;
  mixed_kernel<<<p_->policy.grid(n), p_->policy.block, 0, stream>>>(p_->v, ops, n, results);
  GPU500_CUDA_CHECK_LAUNCH();
}

}  // namespace gpu500::hash
