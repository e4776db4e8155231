// gpu500/hash/common.hpp — types shared by every hash table of the hash component (GLHT, the
// GPU baselines, the CPU hopscotch table) and by their host-side checker.
//
// Keys and values are 64-bit. Two key values are reserved and may not be inserted:
//   empty_key    (~0)     a slot that holds nothing
//   reserved_key (~0 - 1) a slot claimed by an insert as its "hole" (the paper's multiple_lock on
//                         an empty slot); never visible at quiescence
// The home bucket of a key is fastrange(fmix64(key), n): the murmur3 64-bit finaliser followed by
// a multiply-high reduction onto [0, n) (Lemire), so any bucket count n works (not a modulus).
#pragma once

#include <cstdint>
#include <vector>

#include "gpu500/core/types.hpp"

// cudaStream_t without the CUDA headers (this is exactly how cuda_runtime_api.h declares it), so
// that host-only translation units can name the async API.
struct CUstream_st;
typedef struct CUstream_st* cudaStream_t;

namespace gpu500::hash {

using key_type = std::uint64_t;
using value_type = std::uint64_t;

inline constexpr key_type empty_key = ~key_type{0};
inline constexpr key_type reserved_key = ~key_type{0} - 1;

/// True for keys a user may insert.
GPU500_HD GPU500_FORCEINLINE constexpr bool valid_key(key_type k) { return k < reserved_key; }

/// Neighbourhood: an item lives in one of the hop_range slots home, home+1, ..., home+H (H = 31).
inline constexpr int hop_range = 32;

/// murmur3 fmix64: a bijection on 64-bit words with full avalanche.
GPU500_HD GPU500_FORCEINLINE constexpr std::uint64_t fmix64(std::uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

/// High 64 bits of a 64x64 product (the fastrange reduction).
GPU500_HD GPU500_FORCEINLINE std::uint64_t mulhi64(std::uint64_t a, std::uint64_t b) {
#if defined(__CUDA_ARCH__)
  return __umul64hi(a, b);
#else
  return static_cast<std::uint64_t>((static_cast<unsigned __int128>(a) * b) >> 64);
#endif
}

/// Home bucket of key k in a table of n buckets.
GPU500_HD GPU500_FORCEINLINE std::uint64_t home_bucket(key_type k, std::uint64_t n) {
  return mulhi64(fmix64(k), n);
}

/// Overflow stash of a table: the members of bucket b that found no room in their neighbourhood
/// live in the stash_window pairs from stash_home(b, stash_slots) on (wrapping around).
inline constexpr int stash_window = 32;
GPU500_HD GPU500_FORCEINLINE std::uint64_t stash_home(std::uint64_t bucket, std::uint64_t stash_slots) {
  return home_bucket(bucket ^ 0x5bd1e9955bd1e995ULL, stash_slots);
}
/// Pairs of the stash of a table of n buckets: n / 64, at least 256 (a stash window per 2^11
/// buckets); at LF 0.95 a 2^26-bucket table puts about 140,000 keys there (13% of it).
GPU500_HD GPU500_FORCEINLINE constexpr std::uint64_t stash_pairs(std::uint64_t n_buckets) {
  return n_buckets / 64 > 256 ? n_buckets / 64 : 256;
}

/// What an insert did.
enum class insert_status : std::uint8_t {
  inserted = 0,  ///< the key was absent and is now present with the given value
  present = 1,   ///< the key was already present; its value was left unchanged
  no_room = 2,   ///< no empty slot could be brought into the key's neighbourhood, and the stash
                 ///< window of its home is full too
  invalid = 3,   ///< the key is one of the two reserved values
};

/// One operation of a mixed batch.
enum class op_kind : std::uint32_t { insert = 0, erase = 1, find = 2 };

struct op {
  key_type key;
  value_type value;  ///< the value to insert (ignored by erase and find)
  op_kind kind;
  std::uint32_t pad_ = 0;
};

/// Outcome of one operation of a mixed batch.
struct op_result {
  value_type value;    ///< find: the value found
  std::uint32_t code;  ///< insert: insert_status; erase: 1 erased / 0 absent; find: 1 found / 0 absent
  std::uint32_t pad_ = 0;
};

/// A copy of a table's slots for the host-side checker. Every table of this component that keeps
/// hop bitmaps exposes its state in this form.
///   keys[s], values[s]  for s in [0, n_buckets + hop_range)
///   meta[s]             bucket word of home s: bits 0..31 hop bitmap (bit d: slot s+d holds an
///                       item whose home is s), bit 32/33 lock flags, bit 34 overflow (members
///                       in the stash), bits 35..63 version
struct table_snapshot {
  std::uint64_t n_buckets = 0;
  std::vector<key_type> keys;
  std::vector<value_type> values;
  std::vector<std::uint64_t> meta;
  /// Tables with an occupancy array (hopscotch_options::occupancy): bit s % 64 of word s / 64 set
  /// iff slot s holds a key. Empty when the table has none.
  std::vector<std::uint64_t> occupancy;
  /// Tables with an overflow stash: its keys and values (stash_home); bit 34 of meta[b] says
  /// that b has members there, and bits 35..63 are then the version. Empty when there is none.
  std::vector<key_type> stash_keys;
  std::vector<value_type> stash_values;
};

}  // namespace gpu500::hash
