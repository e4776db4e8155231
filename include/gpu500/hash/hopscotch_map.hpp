// gpu500/hash/hopscotch_map.hpp — GLHT: the lock-free hopscotch hash table on the GPU
// (Zhang & Sun, "GPU Lock-Free Hopscotch Hash Table", 2019), host bulk API.
//
// The table: n buckets, n + 32 slots (the tail is padding so that a neighbourhood never wraps),
// 64-bit words per slot / bucket (slot_layout: split arrays, interleaved {key, value} pairs, or
// 32-byte records that also hold the bucket word):
//   key of s    the key in slot s, or empty_key, or reserved_key (a hole owned by an insert)
//   value of s  the value of the key in slot s
//   meta of b   the bucket word of home bucket b (layout below)
// Every item lives within hop_range = 32 slots of its home (H = 31), or, when no hole can be
// brought that close, in the overflow stash: {key, value} pairs, the members of bucket b within
// 32 pairs after stash_home(b), probed only when b's word has its overflow flag. See docs/hash.md.
//
// The device-side API (hopscotch_ref, in hopscotch_ref.cuh) runs any concurrent mix of insert,
// erase, find and contains from user kernels; the bulk API here is a grid-stride kernel over it.
// Sync calls grow the table (rehash into one twice as large) when an insert finds no room even in
// the stash (a truly full table); growth runs between kernels (quiescent). Async calls take the
// stream last, never synchronise, never grow, and report no_room per key.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "gpu500/hash/common.hpp"

namespace gpu500::hash {

/// Bit layout of a bucket word meta[b]. All changes to it are made by the holder of one of its
/// two lock flags (plain stores), except lock acquisition itself (atomicOr for multiple_lock, CAS
/// for swap_lock; hopscotch_ref.cuh explains why a failed atomicOr leaves nothing behind).
namespace layout {
inline constexpr std::uint64_t bitmap_mask = 0xffffffffULL;  ///< bit d: slot b+d holds a key homed at b
inline constexpr std::uint64_t multiple_lock = 1ULL << 32;   ///< held by an insert/erase whose home is b
inline constexpr std::uint64_t swap_lock = 1ULL << 33;       ///< held by an insert moving a member of b
inline constexpr std::uint64_t lock_mask = multiple_lock | swap_lock;
inline constexpr std::uint64_t overflow = 1ULL << 34;        ///< b has members in the stash
inline constexpr int version_shift = 35;  ///< bits 35..63: version; odd while a member is moved or erased
inline constexpr std::uint64_t version_one = 1ULL << version_shift;
}  // namespace layout

/// How find/contains/erase look for a key in its neighbourhood.
enum class find_mode {
  window,  ///< the paper: the whole 32-slot window is read (256 bytes of keys) and keys compared
  bitmap,  ///< read the home bucket word first, then only the slots its hop bitmap names
};

/// Where a slot's key and value live.
enum class slot_layout {
  split,        ///< keys[] and values[] arrays: a 32-slot window is 256 bytes of keys (the paper's read)
  interleaved,  ///< {key, value} pairs (16-byte slots): a hit reads one sector for key and value
  record,       ///< 32-byte records {key, value, bucket word, unused}: bucket b's word shares one sector
                ///< with slot b, so an insert or a find whose key sits at its home touches one sector
};

struct hopscotch_options {
  int tile = 32;                        ///< threads per operation: 32 (the paper: one warp), 8, 4 or 1
  slot_layout layout = slot_layout::split;
  find_mode find = find_mode::window;   ///< lookups: window (paper) or bitmap-first
  int probe_limit = 4096;               ///< how far past home find_empty looks for an empty slot
  bool precheck = true;                 ///< insert/erase start with a lock-free find (the paper's phase find)
  bool static_stride = true;            ///< host API kernels know the slot stride at compile time (false:
                                        ///< read from the view at run time; tiles 1 and 32; kept for the A/B)
  bool home_first = false;              ///< tile 1 inserts: read and try the home slot alone before reading
                                        ///< batches of slots (A/B; in records the lock fetched its sector)
  int min_blocks = 0;                   ///< tile 1, insert and mixed kernels: 0 = ptxas's register choice;
                                        ///< 6 or 8 = launch bounds for that many 256-thread blocks per SM (A/B)
  bool home_claim = false;              ///< tile 1 inserts: CAS the home slot empty -> reserved right beside
                                        ///< the lock's atomicOr (both in flight at once; A/B)
  bool pair_store = false;              ///< interleaved and record slots: publish writes key and value with
                                        ///< one 16-byte store instead of two 8-byte stores (A/B)
  bool occupancy = false;               ///< tile 1: one bit per slot (n/8 bytes, L2-resident) says which slots
                                        ///< hold a key; inserts find and claim holes there (atomicOr) instead
                                        ///< of reading and CASing slot keys
  bool fenced_atomics = false;          ///< A/B: a full fence (fence.acq_rel) after the lock's atomicOr and
                                        ///< after an occupancy claim; default:
                                        ///< those atomics carry acquire semantics and no fence follows
  bool overlap_claim = false;           ///< tile 1 with occupancy bits: the insert reads the home's occupancy
                                        ///< word beside the lock's atomicOr and claims its hole while the
                                        ///< named members' keys are read (one round trip for each pair)
  bool acquire_find = false;            ///< A/B: lock-free look-ups load keys and values with acquire
                                        ///< and skip the fence before re-reading the bucket word (no
                                        ///< wait for the thread's earlier stores, e.g. a find's outputs)
  bool converge = true;                 ///< tile 1 host-API kernels: the warp re-converges before each
                                        ///< operation (__syncwarp), so its lanes share every instruction and
                                        ///< every memory barrier instead of drifting apart (false: the A/B,
                                        ///< lanes drift). Tiles of 4-32 lanes synchronise in
                                        ///< every operation already; for them it changes nothing
  bool pair_cas = false;                ///< tile 1 on interleaved or record slots, compute capability 9.0:
                                        ///< the pair-CAS insert (no lock: a look-up under the home word,
                                        ///< one 16-byte CAS claims and fills a slot, a CAS of the unchanged
                                        ///< word publishes its hop bit; the locked insert when the window
                                        ///< has no free slot or the home has stash members). Excludes
                                        ///< occupancy bits. docs/hash.md, "The pair-CAS insert"
};

/// The trivially copyable device view of a table (what hopscotch_ref wraps).
struct hopscotch_view {
  key_type* keys = nullptr;      ///< key of slot s at keys[s * stride]
  value_type* values = nullptr;  ///< value of slot s at values[s * stride]
  std::uint64_t* meta = nullptr;
  std::uint64_t n_buckets = 0;
  int probe_limit = 4096;
  bool bitmap_find = false;
  bool precheck = true;
  std::uint32_t stride = 1;      ///< 1: split arrays; 2: interleaved {key, value} slots; 4: records
  std::uint32_t meta_stride = 1;  ///< bucket word of b at meta[b * meta_stride] (4 in records, else 1)
  bool home_first = false;        ///< tile 1 inserts read and try the home slot alone before batches
  bool home_claim = false;        ///< tile 1 inserts claim the home slot beside the lock (options)
  bool pair_store = false;        ///< one 16-byte store of {key, value} on publish (strides 2 and 4)
  bool fenced_atomics = false;    ///< options::fenced_atomics
  std::uint64_t* occ = nullptr;   ///< occupancy bits (options::occupancy) or null: bit s % 64 of occ[s / 64]
                                  ///< is set before slot s gets a key and cleared after it is emptied
  bool overlap_claim = false;     ///< options::overlap_claim
  bool converge = true;           ///< options::converge (read by the host API's kernels)
  bool acquire_find = false;      ///< options::acquire_find
  std::uint64_t* stash = nullptr;  ///< the overflow stash: {key, value} pairs, stash[2i] and stash[2i+1]
  std::uint64_t stash_slots = 0;   ///< its number of pairs (0: no stash)
  bool pair_cas = false;           ///< options::pair_cas (slots are emptied by 16-byte stores then)

  [[nodiscard]] GPU500_HD GPU500_FORCEINLINE key_type* key_ptr(std::uint64_t s) const { return keys + s * stride; }
  [[nodiscard]] GPU500_HD GPU500_FORCEINLINE value_type* value_ptr(std::uint64_t s) const {
    return values + s * stride;
  }
  [[nodiscard]] GPU500_HD GPU500_FORCEINLINE std::uint64_t* meta_ptr(std::uint64_t b) const {
    return meta + b * meta_stride;
  }
};

class hopscotch_map {
 public:
  /// A table with at least `capacity` buckets (>= 32). Throws resource_error when it does not fit.
  explicit hopscotch_map(index_t capacity, hopscotch_options opt = {});
  ~hopscotch_map();
  hopscotch_map(hopscotch_map&&) noexcept;
  hopscotch_map& operator=(hopscotch_map&&) noexcept;
  hopscotch_map(const hopscotch_map&) = delete;
  hopscotch_map& operator=(const hopscotch_map&) = delete;

  // ---- bulk API over device arrays (all pointers are device pointers; outputs may be null) ----
  /// Inserts n pairs; grows the table until every valid key is in. Returns the number inserted.
  index_t insert(const key_type* keys, const value_type* values, index_t n, insert_status* status = nullptr);
  void insert_async(const key_type* keys, const value_type* values, index_t n, insert_status* status,
                    cudaStream_t stream);
  /// Erases n keys; erased[i] = 1 when key i was present. Returns the number erased.
  index_t erase(const key_type* keys, index_t n, std::uint8_t* erased = nullptr);
  void erase_async(const key_type* keys, index_t n, std::uint8_t* erased, cudaStream_t stream);
  /// Looks up n keys. Returns the number found.
  index_t find(const key_type* keys, index_t n, value_type* values, std::uint8_t* found);
  void find_async(const key_type* keys, index_t n, value_type* values, std::uint8_t* found, cudaStream_t stream);
  index_t contains(const key_type* keys, index_t n, std::uint8_t* found);
  void contains_async(const key_type* keys, index_t n, std::uint8_t* found, cudaStream_t stream);
  /// Runs a mixed batch, every operation concurrently with every other. The sync call grows the
  /// table and retries inserts that found no room (they then take effect after the batch).
  void mixed(const op* ops, index_t n, op_result* results);
  void mixed_async(const op* ops, index_t n, op_result* results, cudaStream_t stream);

  // ---- host-vector conveniences (copy in, sync call, copy out) ----
  std::vector<insert_status> insert(const std::vector<key_type>& keys, const std::vector<value_type>& values);
  std::vector<std::uint8_t> erase(const std::vector<key_type>& keys);
  std::vector<std::uint8_t> find(const std::vector<key_type>& keys, std::vector<value_type>& values);
  std::vector<op_result> mixed(const std::vector<op>& ops);

  /// Number of keys (counts the slots; exact when no operation is in flight). Synchronises.
  [[nodiscard]] index_t size() const;
  /// Number of buckets.
  [[nodiscard]] index_t capacity() const;
  [[nodiscard]] double load_factor() const;
  /// Rehash into a table of new_capacity buckets (must hold every key). Synchronises.
  void rehash(index_t new_capacity);
  /// Remove every key. Synchronises.
  void clear();
  /// How many times a sync call grew the table.
  [[nodiscard]] int grow_count() const;

  [[nodiscard]] hopscotch_view view() const;
  [[nodiscard]] const hopscotch_options& options() const;
  /// Copy of the slots for the host-side checker. Synchronises.
  [[nodiscard]] table_snapshot snapshot() const;

 private:
  struct impl;
  std::unique_ptr<impl> p_;
};

}  // namespace gpu500::hash
