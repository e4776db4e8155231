// gpu500/hash/hopscotch_ref.cuh — GLHT device-side API: insert, erase, find, contains on a
// hopscotch table, callable from user kernels in any concurrent mix. Each operation is executed
// by a tile of G lanes (tile.cuh); every lane of the tile passes the same key.
//
//   __global__ void k(gpu500::hash::hopscotch_view v, const uint64_t* keys, int n) {
//     gpu500::hash::tile<32> t;                      // one warp per operation (the paper)
//     gpu500::hash::hopscotch_ref<32> ref(v);
//     const auto i = gpu500::gpu::global_thread_id() / 32;
//     if (i < n) ref.insert(t, keys[i], 1);          // the whole warp takes the same branch
//   }
//
// This header holds the API and the operations' outline (insert, erase, find in their phases);
// the phases themselves live in detail/: hopscotch_find.cuh (lock-free look-up), hopscotch_lock.cuh
// (bucket lock, publish), hopscotch_claim.cuh (find_empty), hopscotch_displace.cuh
// (find_closer_empty), hopscotch_pair_cas.cuh (the lock-free pair-CAS insert), and the
// memory-model primitives in device_atomics.cuh.
//
// Algorithm (GLHT: Zhang & Sun, "GPU Lock-Free Hopscotch Hash Table", 2019, with the public
// code's flaws fixed; docs/hash.md):
//  * Writers exclude each other with two flags in the home bucket's word: multiple_lock, held by
//    an insert or erase on its own home, and swap_lock, held by an insert moving a member of
//    another bucket. Both are exclusive; a lock holder never waits for anything, so a tile that
//    spins for a lock holds nothing (no deadlock), and a mover only try-locks.
//  * multiple_lock is taken with one atomicOr that returns the whole word (one round trip, no
//    prior load). An OR that finds a flag already set has failed; if it set multiple_lock next to
//    a held swap_lock, that stray bit is wiped by the holder's next store (the holder writes whole
//    words computed from its own copy), so it never outlives the holder and never grants anything.
//  * insert: [find] lock-free look-up; lock home; [find] again under the lock (authoritative);
//    [find_empty] linear scan from home, CAS empty -> reserved claims the hole; [update] if the
//    hole is within H = 31 of home write value, key, set the hop bit and unlock; else unlock home,
//    [find_closer_empty] bring the hole back: swap_value_into_empty moves a member of a bucket
//    within 31 slots before the hole into it (temporary duplication: the copy is written, then the
//    source becomes the new hole), then lock home again, re-check, [update]. When no hole can be
//    brought within reach, the key goes to the overflow stash (detail/hopscotch_stash.cuh) under
//    home's lock; no_room only when the home's stash window is full too.
//  * pair-CAS insert (hopscotch_options::pair_cas, tile 1): no lock. A look-up under the home word
//    (unlocked, even); one 16-byte CAS {empty, v'} -> {k, v} claims and fills the first free slot of
//    the window (named by no hop bit, so nobody takes it); a CAS of the unchanged word publishes
//    its bit (release). A failed publish looks again and keeps the claim; a look-up that finds k
//    gives the claim back. No free slot in the window, or members in the stash: the locked insert.
//  * The hop bitmap lives in its own word per bucket, so no slot write can wipe it (the public
//    code's bug B1). A move sets the new hop bit before copying and clears the old one after.
//  * find is optimistic: it reads the home bucket's version (even = stable), the keys (whole
//    window, or only the slots named by the bitmap), the value, and the version again; a move or
//    erase of a member makes the version odd and then bumps it, so a mismatch means "re-read".
//    After optimistic_tries inconsistent reads it looks the key up under the home's lock (it
//    stores the word back unchanged): every find returns a value stored for its key by an insert
//    that was neither overwritten nor erased (docs/hash.md, "Linearisability").
#pragma once

#include <cstdint>

#include "gpu500/hash/common.hpp"
#include "gpu500/hash/detail/device_atomics.cuh"
#include "gpu500/hash/hopscotch_map.hpp"
#include "gpu500/hash/tile.cuh"

/// Inconsistent lock-free look-ups before a find takes the bucket lock (the stress harness,
/// tests/unit/hash/glht_stress.cu, lowers it to reach the fallback more often).
#ifndef GPU500_HASH_OPTIMISTIC_TRIES
#define GPU500_HASH_OPTIMISTIC_TRIES 8
#endif

namespace gpu500::hash {

/// Result of one lock-free look-up attempt.
enum class probe_result { hit, miss, retry };

/// G: lanes per operation. S: slot stride in 64-bit words known at compile time (1: split
/// arrays, 2: interleaved slots, 4: 32-byte records holding the bucket word too), or 0 to read
/// strides from the view at run time (the device API's default, valid for every layout). The host
/// API launches S = 1, 2 or 4 to match its layout. OV: the overlapped claim of tile-1 inserts
/// (hopscotch_options::overlap_claim) taken from the view at run time (-1, the default), or
/// compiled in (1) or out (0), so that a kernel without it does not pay its registers. PC: the
/// pair-CAS insert (hopscotch_options::pair_cas, tile 1 on interleaved or record slots), taken from
/// the view at run time (-1), or compiled in (1) or out (0), for the same reason.
template <int G, int S = 0, int OV = -1, int PC = -1>
class hopscotch_ref {
 public:
  using tile_type = tile<G>;
  static constexpr int optimistic_tries = GPU500_HASH_OPTIMISTIC_TRIES;
  static_assert(S == 0 || S == 1 || S == 2 || S == 4, "slot stride: 0 (run time), 1, 2 or 4");
  static_assert(OV == -1 || OV == 0 || OV == 1, "overlapped claim: -1 (run time), 0 or 1");
  static_assert(PC == -1 || PC == 0 || PC == 1, "pair-CAS insert: -1 (run time), 0 or 1");

  __host__ __device__ explicit hopscotch_ref(hopscotch_view v) : v_(v) {}

  [[nodiscard]] __device__ std::uint64_t home(key_type k) const { return home_bucket(k, v_.n_buckets); }

  // ---------------------------------------------------------------- find / contains
  __device__ bool find(const tile_type& t, key_type k, value_type& out) const {
    if (!valid_key(k)) return false;
    const std::uint64_t h = home(k);
    for (int attempt = 0; attempt < optimistic_tries; ++attempt) {
      const probe_result r = probe(t, h, k, out, v_.bitmap_find);
      if (r != probe_result::retry) return r == probe_result::hit;
      detail::backoff(attempt);
    }
    return find_locked(t, h, k, out);
  }
  __device__ bool contains(const tile_type& t, key_type k) const {
    value_type v;
    return find(t, k, v);
  }

  // ---------------------------------------------------------------- insert
  __device__ insert_status insert(const tile_type& t, key_type k, value_type val) const {
    if (!valid_key(k)) return insert_status::invalid;
    const std::uint64_t h = home(k);
    bool precheck = v_.precheck;
    if (pair_cas()) {  // no lock (detail/hopscotch_pair_cas.cuh); no_room: the locked insert below
      const insert_status r = insert_pair_cas(h, k, val);
      if (r != insert_status::no_room) return r;
      precheck = false;  // its look-up just missed; the lock's check below is authoritative
    }
    std::uint64_t seen = no_word;
    if (precheck) {  // phase find, lock-free: a consistent hit means "already present"
      value_type ignored;
      std::int64_t slot;
      if (probe(t, h, k, ignored, true, false, &slot, &seen) == probe_result::hit) return insert_status::present;
    }
    bool home_held = false;  // home_claim: the home slot is our hole already
    // overlap_claim: the home's occupancy word is read before the lock's acquire RMW, so both
    // round trips are in flight at once (the word is only a hint; the claim's atomicOr decides).
    const bool overlapped = overlap_claim() && v_.occ;
    const std::uint64_t hint = overlapped ? detail::ld_relaxed(occ_word(h)) : 0;
    std::uint64_t m = G == 1 && v_.home_claim ? lock(t, h, &home_held) : lock(t, h);
    // The precheck's miss still holds when the word is the one it saw unchanged on both sides of
    // its reads (members only leave with a version bump and only arrive with a new hop bit).
    const bool absent_known = (m & ~layout::multiple_lock) == seen;
    if (!absent_known && (m & layout::overflow) && stash_scan(t, h, k) >= 0) {  // a member in the stash
      if (home_held) release_hole(t, static_cast<std::int64_t>(h));
      unlock(t, h, m, layout::multiple_lock);
      return insert_status::present;
    }
    std::int64_t e;
    if constexpr (G == 1) {
      // phases find (under the lock) and find_empty together: one batch of slot reads serves both.
      bool present = false;
      if (home_held) {  // the nearest hole there is; only the find phase is left
        present = !absent_known && detail::bitmap(m) != 0 && scan_named(t, h, detail::bitmap(m), k) >= 0;
        if (present) release_hole(t, static_cast<std::int64_t>(h));
        e = static_cast<std::int64_t>(h);
      } else if (overlapped) {
        e = claim_overlapped(h, detail::bitmap(m), k, !absent_known, hint, present);
        if (present && e >= 0) release_hole(t, e);
      } else {
        e = claim_thread(h, detail::bitmap(m), k, !absent_known, present);
      }
      if (present) {
        unlock(t, h, m, layout::multiple_lock);
        return insert_status::present;
      }
    } else {
      if (!absent_known && scan_named(t, h, detail::bitmap(m), k) >= 0) {
        unlock(t, h, m, layout::multiple_lock);
        return insert_status::present;
      }
      e = v_.occ ? claim_occupancy_tile(t, h) : find_empty(t, h);  // phase find_empty: e is now our hole
    }
    if (e < 0) {  // no hole within probe_limit: the stash
      if (stash_insert(t, h, m, k, val)) return insert_status::inserted;
      unlock(t, h, m, layout::multiple_lock);
      return insert_status::no_room;
    }
    if (static_cast<std::uint64_t>(e) - h < static_cast<std::uint64_t>(hop_range)) {
      publish(t, h, m, e, k, val);  // phase update
      return insert_status::inserted;
    }
    unlock(t, h, m, layout::multiple_lock);
    // phase find_closer_empty: hop the hole back toward home.
    for (int round = 0;; ++round) {
      const int r = displace(t, h, e);
      if (r == 0) break;
      if (r < 0) {  // no member of any bucket before the hole can move into it: the stash
        release_hole(t, e);
        m = lock(t, h);
        if (member(t, h, m, k)) {
          unlock(t, h, m, layout::multiple_lock);
          return insert_status::present;
        }
        if (stash_insert(t, h, m, k, val)) return insert_status::inserted;
        unlock(t, h, m, layout::multiple_lock);
        return insert_status::no_room;
      }
      detail::backoff(round);  // r > 0: every candidate was locked; their holders never wait
    }
    m = lock(t, h);
    if (member(t, h, m, k)) {  // inserted by someone else meanwhile
      release_hole(t, e);
      unlock(t, h, m, layout::multiple_lock);
      return insert_status::present;
    }
    publish(t, h, m, e, k, val);
    return insert_status::inserted;
  }

  // ---------------------------------------------------------------- erase
  __device__ bool erase(const tile_type& t, key_type k) const {
    if (!valid_key(k)) return false;
    const std::uint64_t h = home(k);
    std::uint64_t seen = no_word;
    std::int64_t seen_slot = -1;
    if (v_.precheck) {  // a consistent miss linearises the erase as a no-op
      value_type ignored;
      if (probe(t, h, k, ignored, true, false, &seen_slot, &seen) == probe_result::miss) return false;
    }
    const std::uint64_t m = lock(t, h);
    // A hit on the word now locked, unchanged since before the precheck's reads: k is still there.
    std::int64_t s = (m & ~layout::multiple_lock) == seen ? seen_slot : scan_named(t, h, detail::bitmap(m), k);
    if (s == -1 && (m & layout::overflow)) {
      const std::int64_t i = stash_scan(t, h, k);
      if (i >= 0) s = stash_slot(i);
    }
    if (s < -1) {  // a member in the stash
      stash_erase(t, h, m, static_cast<std::uint64_t>(stash_slot(s)));
      return true;
    }
    if (s < 0) {
      unlock(t, h, m, layout::multiple_lock);
      return false;
    }
    if (t.leader()) {
      const unsigned d = static_cast<unsigned>(s - static_cast<std::int64_t>(h));
      detail::st_relaxed(meta_ptr(h), m + layout::version_one);  // odd: readers re-read
      detail::fence();
      detail::jitter();
      // pair_cas: one 16-byte access empties key and value, the location the claims CAS.
      if (pair_cas()) detail::st_relaxed_b128(key_ptr(s), empty_key, empty_key);
      else detail::st_relaxed(key_ptr(s), empty_key);
      detail::jitter();
      const std::uint64_t cleared = (m & ~(1ULL << d)) & ~layout::multiple_lock;
      detail::st_release(meta_ptr(h), cleared + 2 * layout::version_one);
      if (v_.occ) release_bit(static_cast<std::uint64_t>(s));
    }
    t.sync();
    return true;
  }

  [[nodiscard]] __host__ __device__ const hopscotch_view& view() const { return v_; }

 private:
  hopscotch_view v_;
  [[nodiscard]] __device__ __forceinline__ bool overlap_claim() const {
    if constexpr (G != 1 || OV == 0) {
      return false;
    } else if constexpr (OV == 1) {
      return true;
    } else {
      return v_.overlap_claim;
    }
  }
  /// The pair-CAS insert: one thread per operation, key and value adjacent and 16-byte aligned
  /// (S = 2 or 4, or a run-time stride of 2 or 4), a 16-byte CAS (sm_90; the host build emulates it).
  [[nodiscard]] __device__ __forceinline__ bool pair_cas() const {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
    return false;  // no 16-byte CAS: hopscotch_map refuses the option on such a device
#else
    if constexpr (G != 1 || S == 1 || PC == 0) {
      return false;
    } else if constexpr (PC == 1) {
      return S != 0 || v_.stride >= 2;
    } else {
      return v_.pair_cas && (S != 0 || v_.stride >= 2);
    }
#endif
  }
  /// Never equal to a bucket word without lock flags: "no precheck result to reuse".
  static constexpr std::uint64_t no_word = ~std::uint64_t{0};

  [[nodiscard]] __device__ __forceinline__ key_type* key_ptr(std::uint64_t s) const {
    if constexpr (S == 0) {
      return v_.key_ptr(s);
    } else {
      return v_.keys + s * S;
    }
  }
  [[nodiscard]] __device__ __forceinline__ value_type* value_ptr(std::uint64_t s) const {
    if constexpr (S == 0) {
      return v_.value_ptr(s);
    } else {
      return v_.values + s * S;
    }
  }
  // The stash (detail/hopscotch_stash.cuh): pair i at stash[2i], stash[2i + 1]. A look-up reports
  // stash pair i as slot stash_slot(i) = -2 - i (and back), -1 meaning "not found".
  [[nodiscard]] __device__ __forceinline__ key_type* stash_key(std::uint64_t i) const { return v_.stash + 2 * i; }
  [[nodiscard]] __device__ __forceinline__ value_type* stash_value(std::uint64_t i) const {
    return v_.stash + 2 * i + 1;
  }
  [[nodiscard]] __device__ __forceinline__ std::uint64_t stash_index(std::uint64_t first, int j) const {
    const std::uint64_t i = first + static_cast<std::uint64_t>(j);
    return i >= v_.stash_slots ? i - v_.stash_slots : i;  // stash_slots >= 256 > stash_window
  }
  static __device__ __forceinline__ std::int64_t stash_slot(std::int64_t i) { return -2 - i; }
  /// Under h's lock (word m): is k a member of h, in its neighbourhood or in the stash?
  __device__ bool member(const tile_type& t, std::uint64_t h, std::uint64_t m, key_type k) const {
    return scan_named(t, h, detail::bitmap(m), k) >= 0 || ((m & layout::overflow) && stash_scan(t, h, k) >= 0);
  }
  [[nodiscard]] __device__ __forceinline__ std::uint64_t* meta_ptr(std::uint64_t b) const {
    if constexpr (S == 0) {
      return v_.meta_ptr(b);
    } else {
      return v_.meta + b * (S == 4 ? 4 : 1);
    }
  }

  // ---------------------------------------------------------------- phases (detail/*.cuh)
  // find (detail/hopscotch_find.cuh)
  __device__ probe_result probe(const tile_type& t, std::uint64_t h, key_type k, value_type& out, bool by_bitmap,
                                bool want_value = true, std::int64_t* slot_out = nullptr,
                                std::uint64_t* word_out = nullptr) const;
  __device__ bool find_locked(const tile_type& t, std::uint64_t h, key_type k, value_type& out) const;
  /// acq: load the keys with acquire (a lock-free look-up with hopscotch_options::acquire_find).
  __device__ std::int64_t scan_window(const tile_type& t, std::uint64_t h, unsigned bm, key_type k,
                                      bool acq = false) const;
  __device__ std::int64_t scan_named(const tile_type& t, std::uint64_t h, unsigned bm, key_type k,
                                     bool acq = false) const;

  // lock and update (detail/hopscotch_lock.cuh)
  __device__ std::uint64_t lock(const tile_type& t, std::uint64_t h, bool* home_held = nullptr) const;
  __device__ void unlock(const tile_type& t, std::uint64_t h, std::uint64_t m, std::uint64_t flag) const;
  __device__ void publish(const tile_type& t, std::uint64_t h, std::uint64_t m, std::int64_t e, key_type k,
                          value_type val) const;
  __device__ void release_hole(const tile_type& t, std::int64_t e) const;

  // find_empty (detail/hopscotch_claim.cuh); occupancy bits: bit s % 64 of occ[s / 64]
  [[nodiscard]] __device__ std::uint64_t* occ_word(std::uint64_t s) const { return v_.occ + (s >> 6); }
  /// Last slot that can hold an item (+1): homes are < n, items within 31 of home.
  [[nodiscard]] __device__ std::uint64_t slot_limit() const { return v_.n_buckets + hop_range - 1; }
  __device__ bool claim_bit(std::uint64_t s) const;
  __device__ void release_bit(std::uint64_t s) const;
  __device__ std::int64_t claim_occupancy(std::uint64_t h, const std::uint64_t* first = nullptr) const;
  __device__ std::int64_t claim_overlapped(std::uint64_t h, unsigned bm, key_type k, bool check, std::uint64_t hint,
                                           bool& present) const;
  __device__ std::int64_t claim_occupancy_tile(const tile_type& t, std::uint64_t h) const;
  __device__ std::int64_t find_empty(const tile_type& t, std::uint64_t h) const;
  __device__ std::int64_t claim_thread(std::uint64_t h, unsigned bm, key_type k, bool check, bool& present) const;

  // overflow stash (detail/hopscotch_stash.cuh)
  __device__ std::int64_t stash_scan(const tile_type& t, std::uint64_t h, key_type k) const;
  __device__ bool stash_insert(const tile_type& t, std::uint64_t h, std::uint64_t m, key_type k,
                               value_type val) const;
  __device__ void stash_erase(const tile_type& t, std::uint64_t h, std::uint64_t m, std::uint64_t i) const;

  // the pair-CAS insert (detail/hopscotch_pair_cas.cuh)
  __device__ insert_status insert_pair_cas(std::uint64_t h, key_type k, value_type val) const;
  __device__ void give_back(std::uint64_t s) const;

  // find_closer_empty (detail/hopscotch_displace.cuh)
  __device__ int displace(const tile_type& t, std::uint64_t h, std::int64_t& e) const;
  __device__ long long swap_value_into_empty(std::uint64_t b, std::uint64_t m, std::int64_t e) const;
};

}  // namespace gpu500::hash

// The phases' definitions (templates: they must be visible wherever the ref is instantiated).
#include "gpu500/hash/detail/hopscotch_claim.cuh"
#include "gpu500/hash/detail/hopscotch_displace.cuh"
#include "gpu500/hash/detail/hopscotch_find.cuh"
#include "gpu500/hash/detail/hopscotch_lock.cuh"
#include "gpu500/hash/detail/hopscotch_pair_cas.cuh"
#include "gpu500/hash/detail/hopscotch_stash.cuh"
