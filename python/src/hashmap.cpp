// python/src/hashmap.cpp — the hash component's tables from Python: 64-bit keys and values in
// bulk, on the GPU (GLHT, hash::hopscotch_map: the lock-free hopscotch table of Zhang & Sun) or
// on the CPU (hash::cpu_hopscotch_map: the lock-based concurrent hopscotch table of Herlihy,
// Shavit and Tzafrir on OpenMP threads). Each call is one concurrent batch of the library's bulk
// API; inserts keep the value already present (the table's semantics) and grow the table when it
// is full. Keys and values may also be CUDA arrays (DLPack: PyTorch, CuPy): GLHT then works on
// them in place and answers in new device arrays, with no host copy; the CPU table copies them to
// the host. The GIL is released while the table works; a lock serialises the calls on one table
// (growth is not concurrent with operations).
#include <algorithm>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "core.hpp"
#include "gpu500/config.hpp"
#include "gpu500/core/device.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/hash/common.hpp"
#include "gpu500/hash/cpu_hopscotch.hpp"
#include "gpu500/hash/hopscotch_map.hpp"
#if GPU500_HAVE_CUDA
#include <cuda_runtime.h>

#include "gpu500/core/cuda/memory.hpp"
#endif

namespace gpu500::python {
namespace {

using hash::key_type;
using hash::value_type;

/// Throws usage_error naming the first of the two reserved keys (empty, reserved) in keys.
void check_keys(const key_type* keys, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    if (!hash::valid_key(keys[i]))
      throw usage_error("hash map: key " + std::to_string(i) + " is " + std::to_string(keys[i]) +
                        ", one of the two reserved keys 2^64 - 1 and 2^64 - 2 (-1 and -2 as int64)");
}

/// 64-bit words on a GPU (int64 or uint64: the dtype is checked by words_of).
using device_words = nb::ndarray<nb::ndim<1>, nb::c_contig, nb::device::cuda>;

/// The words of a device array of int64 or uint64 (usage_error for another dtype).
const std::uint64_t* words_of(const device_words& a, const char* name) {
  if (a.dtype() != nb::dtype<std::int64_t>() && a.dtype() != nb::dtype<std::uint64_t>())
    throw usage_error(std::string("hash map: ") + name + " on a GPU must be int64 or uint64");
  return static_cast<const std::uint64_t*>(a.data());
}

#if GPU500_HAVE_CUDA
/// A one-dimensional device array of n words of `dtype` (int64 or uint64) or bytes that owns
/// `b`: Python reads it through DLPack, and the buffer is freed with the last reference.
template <class T>
nb::ndarray<nb::device::cuda, nb::ndim<1>> device_result(gpu::device_buffer<T>&& b, nb::dlpack::dtype dtype, int device) {
  auto* heap = new gpu::device_buffer<T>(std::move(b));
  nb::capsule owner(heap, [](void* p) noexcept { delete static_cast<gpu::device_buffer<T>*>(p); });
  const std::size_t shape[1] = {heap->size()};
  return nb::ndarray<nb::device::cuda, nb::ndim<1>>(heap->data(), 1, shape, owner, nullptr, dtype,
                                                     nb::device::cuda::value, device);
}
#endif

class hash_map {
 public:
  hash_map(std::int64_t capacity, const std::string& backend) : backend_(resolve_backend(backend)) {
    if (capacity < 1) throw usage_error("hash map: capacity must be >= 1, got " + std::to_string(capacity));
    nb::gil_scoped_release unlocked;
    if (backend_ == "cuda") {
#if GPU500_HAVE_CUDA
      GPU500_EXPECTS(cudaGetDevice(&device_) == cudaSuccess, "hash map: no current CUDA device");
#endif
      gpu_ = std::make_unique<hash::hopscotch_map>(std::max<std::int64_t>(capacity, hash::hop_range));
    } else {  // a table that cannot fit is refused before any allocation (MemoryError, naming the bytes)
      check_host_memory(hash::cpu_hopscotch_map::bytes_for(capacity),
                        "hash map: a table of " + std::to_string(capacity) + " slots");
      cpu_ = std::make_unique<hash::cpu_hopscotch_map>(capacity);
    }
  }

  // ---- keys and values on a GPU ------------------------------------------------------------
  // GLHT works on them in place. A reserved key is reported after the batch ran (the device
  // arrays are not read on the host): the batch's other keys have taken effect.

  std::int64_t insert_device(device_words keys, device_words values) {
    const std::size_t n = keys.shape(0);
    if (values.shape(0) != n) throw usage_error("hash map: keys and values must have the same length");
    const std::uint64_t* k = words_of(keys, "keys");
    const std::uint64_t* v = words_of(values, "values");
    same_device(keys), same_device(values);
#if GPU500_HAVE_CUDA
    nb::gil_scoped_release unlocked;
    const std::lock_guard<std::mutex> hold(lock_);
    if (!gpu_) {
      const auto hk = gpu::to_host(k, n), hv = gpu::to_host(v, n);
      check_keys(hk.data(), n);
      return insert_host(hk.data(), hv.data(), n);
    }
    gpu::device_buffer<hash::insert_status> st(n);
    const std::int64_t inserted = gpu_->insert(k, v, static_cast<index_t>(n), st.data());
    const auto statuses = gpu::to_host(st.data(), n);
    const auto bad = std::find(statuses.begin(), statuses.end(), hash::insert_status::invalid);
    if (bad != statuses.end())
      throw usage_error("hash map: key " + std::to_string(bad - statuses.begin()) +
                        " is one of the two reserved keys 2^64 - 1 and 2^64 - 2 (-1 and -2 as int64); the batch's "
                        "other keys were inserted");
    return inserted;
#else
    (void)k, (void)v;
    throw usage_error("device arrays need gpu500 built with CUDA");
#endif
  }

  /// (values, found) as device arrays on the keys' GPU (values int64 when signed_values, else
  /// uint64; found uint8); numpy arrays on the CPU backend.
  nb::tuple find_device(device_words keys, bool signed_values) {
    const std::size_t n = keys.shape(0);
    const std::uint64_t* k = words_of(keys, "keys");
    same_device(keys);
#if GPU500_HAVE_CUDA
    if (!gpu_) {
      std::vector<key_type> hk;
      {
        nb::gil_scoped_release unlocked;
        hk = gpu::to_host(k, n);
      }
      return find(input_array<key_type>(hk.data(), {n}));
    }
    gpu::device_buffer<value_type> values(n);
    gpu::device_buffer<std::uint8_t> found(n);
    {
      nb::gil_scoped_release unlocked;
      const std::lock_guard<std::mutex> hold(lock_);
      gpu_->find(k, static_cast<index_t>(n), values.data(), found.data());
    }
    const auto vt = signed_values ? nb::dtype<std::int64_t>() : nb::dtype<std::uint64_t>();
    return nb::make_tuple(device_result(std::move(values), vt, device_),
                          device_result(std::move(found), nb::dtype<std::uint8_t>(), device_));
#else
    (void)k, (void)signed_values;
    throw usage_error("device arrays need gpu500 built with CUDA");
#endif
  }

  std::int64_t erase_device(device_words keys) {
    const std::size_t n = keys.shape(0);
    const std::uint64_t* k = words_of(keys, "keys");
    same_device(keys);
#if GPU500_HAVE_CUDA
    nb::gil_scoped_release unlocked;
    const std::lock_guard<std::mutex> hold(lock_);
    if (!gpu_) {
      const std::vector<key_type> hk = gpu::to_host(k, n);
      check_keys(hk.data(), n);
      std::int64_t c = 0;
      for (const auto e : cpu_->erase(hk)) c += e != 0;
      return c;
    }
    return gpu_->erase(k, static_cast<index_t>(n));
#else
    (void)k;
    throw usage_error("device arrays need gpu500 built with CUDA");
#endif
  }

  /// Inserts the pairs (keys[i], values[i]) absent from the table; returns how many were inserted.
  std::int64_t insert(input_array<key_type> keys, input_array<value_type> values) {
    const std::size_t n = keys.shape(0);
    if (values.shape(0) != n) throw usage_error("hash map: keys and values must have the same length");
    const key_type* k = keys.data();
    const value_type* v = values.data();
    nb::gil_scoped_release unlocked;
    const std::lock_guard<std::mutex> hold(lock_);
    check_keys(k, n);
    return insert_host(k, v, n);
  }

 private:
  /// The host arrays' pairs into the table (the lock held); returns how many were inserted.
  std::int64_t insert_host(const key_type* k, const value_type* v, std::size_t n) {
    std::int64_t inserted = 0;
    if (gpu_) {
      const auto st = gpu_->insert(std::vector<key_type>(k, k + n), std::vector<value_type>(v, v + n));
      for (const auto s : st) inserted += s == hash::insert_status::inserted;
      return inserted;
    }
    // The bulk insert straight from the caller's arrays; the keys that found no room (a full
    // table) go through the growing insert.
    std::vector<hash::insert_status> st(n);
    if (cpu_->insert_no_grow(k, v, static_cast<index_t>(n), st.data()) > 0) {
      std::vector<key_type> rk;
      std::vector<value_type> rv;
      for (std::size_t i = 0; i < n; ++i)
        if (st[i] == hash::insert_status::no_room) rk.push_back(k[i]), rv.push_back(v[i]);
      for (const auto s : cpu_->insert(rk, rv)) inserted += s == hash::insert_status::inserted;
    }
    for (const auto s : st) inserted += s == hash::insert_status::inserted;
    return inserted;
  }

  /// Device arrays must be on the table's GPU (the CPU table takes any).
  void same_device(const device_words& a) const {
    if (gpu_ && a.device_id() != device_)
      throw usage_error("hash map: the table is on GPU " + std::to_string(device_) + ", the array on GPU " +
                        std::to_string(a.device_id()));
  }

 public:
  /// (values, found): found[i] when keys[i] is present, values[i] its value (0 where absent).
  nb::tuple find(input_array<key_type> keys) {
    const std::size_t n = keys.shape(0);
    const key_type* k = keys.data();
    std::vector<value_type> values(n, 0);
    std::vector<std::uint8_t> found(n, 0);
    {
      nb::gil_scoped_release unlocked;
      const std::lock_guard<std::mutex> hold(lock_);
      check_keys(k, n);
      if (gpu_) {
        found = gpu_->find(std::vector<key_type>(k, k + n), values);
      } else {
        cpu_->find(k, static_cast<index_t>(n), values.data(), found.data());
      }
    }
    return nb::make_tuple(to_numpy<value_type>(std::move(values)), to_numpy<std::uint8_t>(std::move(found)));
  }

  /// Erases the keys present; returns how many were.
  std::int64_t erase(input_array<key_type> keys) {
    const std::size_t n = keys.shape(0);
    const key_type* k = keys.data();
    nb::gil_scoped_release unlocked;
    const std::lock_guard<std::mutex> hold(lock_);
    check_keys(k, n);
    const std::vector<key_type> kv(k, k + n);
    const auto erased = gpu_ ? gpu_->erase(kv) : cpu_->erase(kv);
    std::int64_t c = 0;
    for (const auto e : erased) c += e != 0;
    return c;
  }

  /// (keys, values) of every pair in the table, in slot order.
  nb::tuple items() {
    std::vector<key_type> keys;
    std::vector<value_type> values;
    {
      nb::gil_scoped_release unlocked;
      const std::lock_guard<std::mutex> hold(lock_);
      const hash::table_snapshot s = gpu_ ? gpu_->snapshot() : cpu_->snapshot();
      for (std::size_t i = 0; i < s.keys.size(); ++i)
        if (hash::valid_key(s.keys[i])) keys.push_back(s.keys[i]), values.push_back(s.values[i]);
      for (std::size_t i = 0; i < s.stash_keys.size(); ++i)
        if (hash::valid_key(s.stash_keys[i])) keys.push_back(s.stash_keys[i]), values.push_back(s.stash_values[i]);
    }
    return nb::make_tuple(to_numpy<key_type>(std::move(keys)), to_numpy<value_type>(std::move(values)));
  }

  std::int64_t size() {
    nb::gil_scoped_release unlocked;
    const std::lock_guard<std::mutex> hold(lock_);
    return gpu_ ? gpu_->size() : cpu_->size();
  }
  std::int64_t capacity() {
    const std::lock_guard<std::mutex> hold(lock_);
    return gpu_ ? gpu_->capacity() : cpu_->capacity();
  }
  int grow_count() {
    const std::lock_guard<std::mutex> hold(lock_);
    return gpu_ ? gpu_->grow_count() : cpu_->grow_count();
  }
  void clear() {
    nb::gil_scoped_release unlocked;
    const std::lock_guard<std::mutex> hold(lock_);
    if (gpu_) gpu_->clear();
    else cpu_->clear();
  }
  [[nodiscard]] const std::string& backend() const { return backend_; }

 private:
  std::string backend_;
  int device_ = 0;  ///< the GPU of GLHT's table
  std::unique_ptr<hash::hopscotch_map> gpu_;
  std::unique_ptr<hash::cpu_hopscotch_map> cpu_;
  std::mutex lock_;
};

}  // namespace

void bind_hashmap(nb::module_& m) {
  nb::class_<hash_map>(m, "HashMapCore", "A hopscotch hash table of 64-bit keys and values (GLHT on cuda)")
      .def(nb::init<std::int64_t, const std::string&>(), nb::arg("capacity"), nb::arg("backend") = "auto")
      .def("insert", &hash_map::insert, nb::arg("keys"), nb::arg("values"),
           "Inserts the absent keys (a present key keeps its value); returns how many were inserted")
      .def("find", &hash_map::find, nb::arg("keys"), "(values, found) of the keys")
      .def("insert_device", &hash_map::insert_device, nb::arg("keys"), nb::arg("values"),
           "insert with CUDA arrays (int64 or uint64), worked on in place")
      .def("find_device", &hash_map::find_device, nb::arg("keys"), nb::arg("signed_values"),
           "(values, found) of CUDA keys, as CUDA arrays (numpy on the CPU backend)")
      .def("erase_device", &hash_map::erase_device, nb::arg("keys"), "erase with CUDA keys")
      .def("erase", &hash_map::erase, nb::arg("keys"), "Erases the keys; returns how many were present")
      .def("items", &hash_map::items, "(keys, values) of every pair")
      .def("size", &hash_map::size)
      .def("clear", &hash_map::clear)
      .def_prop_ro("capacity", &hash_map::capacity)
      .def_prop_ro("grow_count", &hash_map::grow_count)
      .def_prop_ro("backend", &hash_map::backend);
}

}  // namespace gpu500::python
