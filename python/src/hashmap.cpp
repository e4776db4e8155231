// python/src/hashmap.cpp — the hash component's tables from Python: 64-bit keys and values in
// bulk, on the GPU (GLHT, hash::hopscotch_map: the lock-free hopscotch table of Zhang & Sun) or
// on the CPU (hash::cpu_hopscotch_map: the lock-based concurrent hopscotch table of Herlihy,
// Shavit and Tzafrir on OpenMP threads). Each call is one concurrent batch of the library's bulk
// API; inserts keep the value already present (the table's semantics) and grow the table when it
// is full. The GIL is released while the table works; a lock serialises the calls on one table
// (growth is not concurrent with operations).
#include <algorithm>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "core.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/hash/common.hpp"
#include "gpu500/hash/cpu_hopscotch.hpp"
#include "gpu500/hash/hopscotch_map.hpp"

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

class hash_map {
 public:
  hash_map(std::int64_t capacity, const std::string& backend) : backend_(resolve_backend(backend)) {
    if (capacity < 1) throw usage_error("hash map: capacity must be >= 1, got " + std::to_string(capacity));
    nb::gil_scoped_release unlocked;
    if (backend_ == "cuda")
      gpu_ = std::make_unique<hash::hopscotch_map>(std::max<std::int64_t>(capacity, hash::hop_range));
    else
      cpu_ = std::make_unique<hash::cpu_hopscotch_map>(capacity);
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
      .def("erase", &hash_map::erase, nb::arg("keys"), "Erases the keys; returns how many were present")
      .def("items", &hash_map::items, "(keys, values) of every pair")
      .def("size", &hash_map::size)
      .def("clear", &hash_map::clear)
      .def_prop_ro("capacity", &hash_map::capacity)
      .def_prop_ro("grow_count", &hash_map::grow_count)
      .def_prop_ro("backend", &hash_map::backend);
}

}  // namespace gpu500::python
