// gpu500/hash/cpu_hopscotch.hpp — the CPU baseline of the GLHT paper (Zhang & Sun): a lock-based concurrent
// hopscotch hash table in the manner of Herlihy, Shavit and Tzafrir ("Hopscotch Hashing",
// DISC 2008), on OpenMP threads.
//
// Buckets are grouped in segments of `segment_size` buckets; each segment has a lock and a
// timestamp (version). add/remove lock the home bucket's segment; a displacement try-locks the
// segment of the bucket whose member it moves and bumps that segment's timestamp (odd while the
// item is duplicated); contains is lock-free and re-reads when the timestamp changed, falling back
// to locking the segment after a few attempts (as the original does). Hop bitmaps live in their
// own array. Same neighbourhood (H = 31), hash, key reservation and semantics as GLHT, so the
// same snapshot checker applies.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "gpu500/hash/common.hpp"

namespace gpu500::hash {

class cpu_hopscotch_map {
 public:
  static constexpr int segment_size = 16;

  explicit cpu_hopscotch_map(index_t capacity, int probe_limit = 4096);
  /// The host bytes a table made with `capacity` holds, every one written when it is made (keys,
  /// values and hop words: 20 bytes a slot; the segments): what to check before making one.
  [[nodiscard]] static double bytes_for(index_t capacity);
  ~cpu_hopscotch_map();
  cpu_hopscotch_map(cpu_hopscotch_map&&) noexcept;
  cpu_hopscotch_map& operator=(cpu_hopscotch_map&&) noexcept;

  // Single operations: thread-safe, any concurrent mix.
  insert_status insert(key_type k, value_type v);
  bool erase(key_type k);
  bool find(key_type k, value_type& v) const;
  bool contains(key_type k) const {
    value_type v;
    return find(k, v);
  }

  // Bulk operations over OpenMP threads (each is one concurrent batch). insert and mixed grow the
  // table after the parallel loop and retry inserts that found no room.
  std::vector<insert_status> insert(const std::vector<key_type>& keys, const std::vector<value_type>& values);
  std::vector<std::uint8_t> erase(const std::vector<key_type>& keys);
  std::vector<std::uint8_t> find(const std::vector<key_type>& keys, std::vector<value_type>& values) const;
  std::vector<op_result> mixed(const std::vector<op>& ops);

  // Bulk operations into caller storage: nothing is allocated or zeroed inside (what the benchmark
  // times, as GLHT's bulk API over device arrays). A thread prefetches the home lines of the
  // operation `prefetch_ahead` places ahead of the one it runs (a hint only: same semantics).
  /// No growth (as GLHT's insert_async): a key that finds no room gets no_room. Returns how many did.
  index_t insert_no_grow(const key_type* keys, const value_type* values, index_t n, insert_status* status);
  /// found[i] = 1 when keys[i] is present, and then values[i] = its value; a miss leaves values[i]
  /// alone. values may be null (misses: only the flags are written).
  void find(const key_type* keys, index_t n, value_type* values, std::uint8_t* found) const;
  /// As mixed(ops): grows the table and retries inserts that found no room.
  void mixed(const op* ops, index_t n, op_result* results);
  static constexpr index_t prefetch_ahead = 16;

  [[nodiscard]] index_t size() const;
  [[nodiscard]] index_t capacity() const { return static_cast<index_t>(n_); }
  [[nodiscard]] double load_factor() const { return static_cast<double>(size()) / static_cast<double>(n_); }
  void rehash(index_t new_capacity);
  void clear();
  [[nodiscard]] int grow_count() const { return grows_; }
  /// Copy for the checker (meta = the hop bitmap; lock flags and versions are per segment).
  [[nodiscard]] table_snapshot snapshot() const;

 private:
  struct segment;
  void allocate(std::uint64_t n);
  [[nodiscard]] std::uint64_t home(key_type k) const { return home_bucket(k, n_); }
  [[nodiscard]] segment& seg(std::uint64_t b) const;
  std::int64_t named_slot(std::uint64_t h, key_type k) const;
  std::int64_t find_empty(std::uint64_t h);
  int displace(std::uint64_t h, std::int64_t& e);
  void publish(std::uint64_t h, std::int64_t e, key_type k, value_type v);
  template <int rw>
  void prefetch_home(key_type k) const;

  std::uint64_t n_ = 0;
  int probe_limit_ = 4096;
  int grows_ = 0;
  std::unique_ptr<std::atomic<key_type>[]> keys_;
  std::unique_ptr<std::atomic<value_type>[]> values_;
  std::unique_ptr<std::atomic<std::uint32_t>[]> hop_;
  std::unique_ptr<segment[]> segs_;
};

}  // namespace gpu500::hash
