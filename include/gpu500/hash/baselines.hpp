// gpu500/hash/baselines.hpp — the GPU tables GLHT is measured against (the GLHT paper's baselines),
// driven by the same benchmark (gpu500 hash static|mixed). 64-bit keys and values throughout,
// one thread per operation.
//
//   probing_map  open addressing with linear or quadratic (triangular) probing; an insert claims a
//                slot with CAS empty -> busy, writes the value, then publishes the key; erase leaves
//                a tombstone that is never reused (so values never tear); concurrent mixes allowed;
//                keys[] and values[] apart, or (interleaved) 16-byte {key, value} slots;
//                with pair_cas (interleaved, compute capability 9.0) an insert claims and fills a
//                slot with one 16-byte CAS instead, for bulk phases (inserts, then finds) only:
//                mixed_async refuses such a table
//   cuckoo_map   CUDPP-style cuckoo hashing (Alcantara et al.): four hash functions, bulk build by
//                atomicExch eviction chains over the key words, rebuilt with new seeds when a chain
//                gets too long, then a pass that places the values; static (build, then query)
//   chained_map  lock-free chaining in the manner of Misra & Chaudhuri (2012): one sorted Harris
//                list per bucket, logical delete by marking the next pointer, nodes from a pool
//                that is allocated in advance (the benchmark times it with and without that
//                allocation); nodes are never reused, so there is no ABA
//
// Besides empty_key and reserved_key (used as "busy"), the probing tables reserve ~0 - 2 as their
// tombstone; benchmark keys are below 2^63.
#pragma once

#include <cstdint>
#include <memory>

#include "gpu500/hash/common.hpp"

namespace gpu500::hash {

inline constexpr key_type tombstone_key = ~key_type{0} - 2;

enum class probing { linear, quadratic };

class probing_map {
 public:
  probing_map(index_t capacity, probing scheme, bool interleaved = false, bool pair_cas = false);
  ~probing_map();
  probing_map(const probing_map&) = delete;
  probing_map& operator=(const probing_map&) = delete;
  void insert_async(const key_type* keys, const value_type* values, index_t n, insert_status* status,
                    cudaStream_t stream);
  void erase_async(const key_type* keys, index_t n, std::uint8_t* erased, cudaStream_t stream);
  void find_async(const key_type* keys, index_t n, value_type* values, std::uint8_t* found, cudaStream_t stream);
  void mixed_async(const op* ops, index_t n, op_result* results, cudaStream_t stream);
  void clear();
  [[nodiscard]] index_t capacity() const;

 private:
  struct impl;
  std::unique_ptr<impl> p_;
};

class cuckoo_map {
 public:
  explicit cuckoo_map(index_t capacity);
  ~cuckoo_map();
  cuckoo_map(const cuckoo_map&) = delete;
  cuckoo_map& operator=(const cuckoo_map&) = delete;
  /// Bulk build from n distinct keys (clears first). Returns the number of attempts (1 = first
  /// seeds worked); throws when 16 seed sets all fail. Synchronises.
  int build(const key_type* keys, const value_type* values, index_t n);
  void find_async(const key_type* keys, index_t n, value_type* values, std::uint8_t* found, cudaStream_t stream);
  [[nodiscard]] index_t capacity() const;

 private:
  struct impl;
  std::unique_ptr<impl> p_;
};

class chained_map {
 public:
  /// `buckets` list heads; `pool_nodes` nodes. With allocate_pool = false the pool is allocated by
  /// allocate_pool() later (so that a benchmark can time the allocation).
  chained_map(index_t buckets, index_t pool_nodes, bool allocate_pool = true);
  ~chained_map();
  chained_map(const chained_map&) = delete;
  chained_map& operator=(const chained_map&) = delete;
  /// cudaMalloc and initialise the node pool (the "pre-allocation" of Misra & Chaudhuri).
  void allocate_pool();
  void insert_async(const key_type* keys, const value_type* values, index_t n, insert_status* status,
                    cudaStream_t stream);
  void erase_async(const key_type* keys, index_t n, std::uint8_t* erased, cudaStream_t stream);
  void find_async(const key_type* keys, index_t n, value_type* values, std::uint8_t* found, cudaStream_t stream);
  void mixed_async(const op* ops, index_t n, op_result* results, cudaStream_t stream);
  void clear();
  [[nodiscard]] index_t capacity() const;

 private:
  struct impl;
  std::unique_ptr<impl> p_;
};

}  // namespace gpu500::hash
