// gpu500/hash/hopscotch_ref.cuh — GLHT device-side API: insert, erase, find, contains on a
// hopscotch table, callable from user kernels in any concurrent mix. Each operation is executed
// by a tile of G lanes (tile.cuh); every lane of the tile passes the same key.
//
//   __global__ void k(gpu500::hash::hopscotch_view v, const uint64_t* keys, int n) {
//     gpu500::hash::tile<32> t;                      // one warp per operation (the paper)
//     gpu500::hash::hopscotch_ref<32> ref(v);
//     int i = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
//     if (i < n) ref.insert(t, keys[i], 1);          // the whole warp takes the same branch
//   }
//
// Algorithm (Zhang & Sun 2019, with the public code's flaws fixed; docs/hash.md):
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
//    source becomes the new hole), then lock home again, re-check, [update].
//  * The hop bitmap lives in its own word per bucket, so no slot write can wipe it (the public
//    code's bug B1). A move sets the new hop bit before copying and clears the old one after.
//  * find never writes and never waits for a lock: it reads the home bucket's version (even =
//    stable), the keys (whole window, or only the slots named by the bitmap), the value, and the
//    version again; a move or erase of a member makes the version odd and then bumps it, so a
//    mismatch means "re-read". After a few re-reads it falls back to a scan of the window in
//    ascending slot order with acquire loads: items only ever move to higher slots and the copy
//    is visible before the source is cleared, so that scan cannot miss a key present throughout.
//    Finds are therefore wait-free (bounded steps) and never miss a present key.
#pragma once

#include <cuda/atomic>

#include <cstdint>

#include "gpu500/hash/common.hpp"
#include "gpu500/hash/hopscotch_map.hpp"
#include "gpu500/hash/tile.cuh"

namespace gpu500::hash {

namespace detail {

template <class T>
__device__ __forceinline__ T ld_relaxed(const T* p) {
  return cuda::atomic_ref<T, cuda::thread_scope_device>(*const_cast<T*>(p)).load(cuda::std::memory_order_relaxed);
}
template <class T>
__device__ __forceinline__ T ld_acquire(const T* p) {
  return cuda::atomic_ref<T, cuda::thread_scope_device>(*const_cast<T*>(p)).load(cuda::std::memory_order_acquire);
}
template <class T, class U>
__device__ __forceinline__ void st_relaxed(T* p, U v) {
  cuda::atomic_ref<T, cuda::thread_scope_device>(*p).store(static_cast<T>(v), cuda::std::memory_order_relaxed);
}
template <class T, class U>
__device__ __forceinline__ void st_release(T* p, U v) {
  cuda::atomic_ref<T, cuda::thread_scope_device>(*p).store(static_cast<T>(v), cuda::std::memory_order_release);
}
/// {a, b} into p[0], p[1] (16-byte aligned) with one 16-byte relaxed store (two relaxed 8-byte
/// accesses in the memory model, unordered with each other).
__device__ __forceinline__ void st_relaxed_pair(std::uint64_t* p, std::uint64_t a, std::uint64_t b) {
  asm volatile("st.relaxed.gpu.global.v2.u64 [%0], {%1, %2};" ::"l"(p), "l"(a), "l"(b) : "memory");
}
/// atomicOr with acquire semantics (atom.or.acquire.gpu): no later load or store of this thread
/// is performed before it. A lock acquisition or a slot claim needs exactly that, and it costs no
/// memory barrier (fence.acq_rel waits for every earlier store of the thread to complete).
__device__ __forceinline__ std::uint64_t fetch_or_acquire(std::uint64_t* p, std::uint64_t v) {
  return cuda::atomic_ref<std::uint64_t, cuda::thread_scope_device>(*p).fetch_or(v, cuda::std::memory_order_acquire);
}
/// CAS with acquire semantics; returns the value read (as atomicCAS does).
__device__ __forceinline__ std::uint64_t cas_acquire(std::uint64_t* p, std::uint64_t expect, std::uint64_t desired) {
  cuda::atomic_ref<std::uint64_t, cuda::thread_scope_device>(*p).compare_exchange_strong(
      expect, desired, cuda::std::memory_order_acquire, cuda::std::memory_order_relaxed);
  return expect;
}
__device__ __forceinline__ std::uint64_t cas(std::uint64_t* p, std::uint64_t expect, std::uint64_t desired) {
  return atomicCAS(reinterpret_cast<unsigned long long*>(p), expect, desired);
}
/// fence.acq_rel.gpu: orders loads and stores across it (every ordering this table needs is
/// load->load, store->store or RMW->load; none needs the sequentially consistent __threadfence).
__device__ __forceinline__ void fence() {
  cuda::atomic_thread_fence(cuda::std::memory_order_acq_rel, cuda::thread_scope_device);
}
__device__ __forceinline__ void backoff(int round) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  __nanosleep(16u << (round < 4 ? round : 4));
#endif
}
__device__ __forceinline__ bool version_odd(std::uint64_t m) { return (m >> layout::version_shift) & 1u; }
__device__ __forceinline__ std::uint64_t version(std::uint64_t m) { return m >> layout::version_shift; }
__device__ __forceinline__ unsigned bitmap(std::uint64_t m) { return static_cast<unsigned>(m & layout::bitmap_mask); }

}  // namespace detail

/// Result of one lock-free look-up attempt.
enum class probe_result { hit, miss, retry };

/// G: lanes per operation. S: slot stride in 64-bit words known at compile time (1: split
/// arrays, 2: interleaved slots, 4: 32-byte records holding the bucket word too), or 0 to read
/// strides from the view at run time (the device API's default, valid for every layout). The host
/// API launches S = 1, 2 or 4 to match its layout. OV: the overlapped claim of tile-1 inserts
/// (hopscotch_options::overlap_claim) taken from the view at run time (-1, the default), or
/// compiled in (1) or out (0), so that a kernel without it does not pay its registers.
template <int G, int S = 0, int OV = -1>
class hopscotch_ref {
 public:
  using tile_type = tile<G>;
  static constexpr int optimistic_tries = 8;
  static_assert(S == 0 || S == 1 || S == 2 || S == 4, "slot stride: 0 (run time), 1, 2 or 4");
  static_assert(OV == -1 || OV == 0 || OV == 1, "overlapped claim: -1 (run time), 0 or 1");

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
    return find_ordered(t, h, k, out);
  }
  __device__ bool contains(const tile_type& t, key_type k) const {
    value_type v;
    return find(t, k, v);
  }

  // ---------------------------------------------------------------- insert
  __device__ insert_status insert(const tile_type& t, key_type k, value_type val) const {
    if (!valid_key(k)) return insert_status::invalid;
    const std::uint64_t h = home(k);
    std::uint64_t seen = no_word;
    if (v_.precheck) {  // phase find, lock-free: a consistent hit means "already present"
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
    if (e < 0) {
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
      if (r < 0) {  // no member of any bucket before the hole can move into it
        release_hole(t, e);
        return insert_status::no_room;
      }
      detail::backoff(round);  // r > 0: every candidate was locked; their holders never wait
    }
    m = lock(t, h);
    if (scan_named(t, h, detail::bitmap(m), k) >= 0) {  // inserted by someone else meanwhile
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
    const std::int64_t s =
        (m & ~layout::multiple_lock) == seen ? seen_slot : scan_named(t, h, detail::bitmap(m), k);
    if (s < 0) {
      unlock(t, h, m, layout::multiple_lock);
      return false;
    }
    if (t.leader()) {
      const unsigned d = static_cast<unsigned>(s - static_cast<std::int64_t>(h));
      detail::st_relaxed(meta_ptr(h), m + layout::version_one);  // odd: readers re-read
      detail::fence();
      detail::st_relaxed(key_ptr(s), empty_key);
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
  [[nodiscard]] __device__ __forceinline__ std::uint64_t* meta_ptr(std::uint64_t b) const {
    if constexpr (S == 0) {
      return v_.meta_ptr(b);
    } else {
      return v_.meta + b * (S == 4 ? 4 : 1);
    }
  }

  /// One lock-free look-up: hit / miss when the home's version was even and unchanged across the
  /// reads of every lane, retry otherwise. On hit / miss, *slot_out (if given) is k's slot or -1,
  /// and *word_out (if given) the home word when every lane saw that same word without lock
  /// flags before and after its reads, else no_word.
  __device__ probe_result probe(const tile_type& t, std::uint64_t h, key_type k, value_type& out,
                                bool by_bitmap, bool want_value = true, std::int64_t* slot_out = nullptr,
                                std::uint64_t* word_out = nullptr) const {
    const std::uint64_t m1 = detail::ld_acquire(meta_ptr(h));
    // Control flow must stay uniform across the tile: use the leader's bitmap; every lane's own
    // version is checked below.
    const unsigned bm = t.shfl(detail::bitmap(m1), 0);
    std::int64_t s = -1;
    value_type x = 0;
    if (G == 1 && by_bitmap && want_value) {
      // One thread per lookup: load each named slot's key and value together (one dependent
      // round trip fewer on a hit; the version check below covers the value as well).
      for (unsigned b = bm; b; b &= b - 1) {
        const int d = __ffs(b) - 1;
        const key_type kk = detail::ld_relaxed(key_ptr(h + d));
        const value_type vv = detail::ld_relaxed(value_ptr(h + d));
        if (kk == k) {
          s = static_cast<std::int64_t>(h + d);
          x = vv;
          break;
        }
      }
    } else {
      s = by_bitmap ? scan_named(t, h, bm, k) : scan_window(t, h, bm, k);
      if (s >= 0 && want_value) x = detail::ld_relaxed(value_ptr(s));
    }
    detail::fence();
    const std::uint64_t m2 = detail::ld_relaxed(meta_ptr(h));
    const std::uint64_t v0 = t.shfl(static_cast<unsigned long long>(detail::version(m1)), 0);
    const bool ok = !detail::version_odd(m1) && detail::version(m1) == detail::version(m2) &&
                    detail::version(m1) == v0;
    if (t.ballot(!ok) != 0) return probe_result::retry;
    out = x;
    if (slot_out) *slot_out = s;
    if (word_out) {
      const std::uint64_t w0 = t.shfl(static_cast<unsigned long long>(m1), 0);
      const bool same = m1 == m2 && m1 == w0 && !(m1 & layout::lock_mask);
      *word_out = t.ballot(!same) == 0 ? w0 : no_word;
    }
    return s >= 0 ? probe_result::hit : probe_result::miss;
  }

  /// Wait-free fallback: one lane scans the window in ascending order with acquire loads.
  __device__ bool find_ordered(const tile_type& t, std::uint64_t h, key_type k, value_type& out) const {
    int found = 0;
    value_type x = 0;
    if (t.leader()) {
      for (int d = 0; d < hop_range; ++d) {
        if (detail::ld_acquire(key_ptr(h + d)) != k) continue;
        // Only a published member counts (its bit set after the key was read, so its value is
        // visible). A clear bit means not yet inserted, erased, or moved on to a higher slot.
        if (!((detail::ld_acquire(meta_ptr(h)) >> d) & 1u)) continue;
        x = detail::ld_relaxed(value_ptr(h + d));
        detail::fence();
        if (detail::ld_relaxed(key_ptr(h + d)) == k) {
          found = 1;
          break;
        }
        // it moved on (always to a higher slot): keep scanning
      }
    }
    found = t.shfl(found, 0);
    out = t.shfl(static_cast<unsigned long long>(x), 0);
    return found != 0;
  }

  /// Slot of k among the 32 slots of h's window, or -1 (one coalesced read when G = 32). A match
  /// counts only at a slot that bm names: a key whose hop bit is not yet set may still lack its
  /// value (publish orders value and key before the bit, not the value before the key).
  __device__ std::int64_t scan_window(const tile_type& t, std::uint64_t h, unsigned bm, key_type k) const {
#pragma unroll
    for (int base = 0; base < hop_range; base += G) {
      const key_type x = detail::ld_relaxed(key_ptr(h + base + t.rank));
      const unsigned b = t.ballot(x == k && ((bm >> (base + t.rank)) & 1u));
      if (b) return static_cast<std::int64_t>(h + base + __ffs(b) - 1);
    }
    return -1;
  }

  /// Slot of k among the slots that hop bitmap bm names, or -1.
  __device__ std::int64_t scan_named(const tile_type& t, std::uint64_t h, unsigned bm, key_type k) const {
    if constexpr (G == 1) {
      while (bm) {
        const int d = __ffs(bm) - 1;
        if (detail::ld_relaxed(key_ptr(h + d)) == k) return static_cast<std::int64_t>(h + d);
        bm &= bm - 1;
      }
      return -1;
    } else {
#pragma unroll
      for (int base = 0; base < hop_range; base += G) {
        const unsigned chunk = (bm >> base) & tile_type::low;
        if (!chunk) continue;
        const bool named = (chunk >> t.rank) & 1u;
        const key_type x = named ? detail::ld_relaxed(key_ptr(h + base + t.rank)) : empty_key;
        const unsigned b = t.ballot(named && x == k);
        if (b) return static_cast<std::int64_t>(h + base + __ffs(b) - 1);
      }
      return -1;
    }
  }

  /// Acquire multiple_lock on bucket h (spins; the tile holds nothing while it spins): one
  /// atomicOr returns the word, so an uncontended lock is one round trip. Returns the word as
  /// locked. Every lane re-reads the word with acquire so that its later loads are ordered.
  ///
  /// With `home_held` (tile 1, hopscotch_options::home_claim) a CAS empty -> reserved on the home
  /// slot (with occupancy bits: an atomicOr on its bit) goes out right behind the first atomicOr,
  /// so both round trips overlap; *home_held tells whether it claimed the slot. Claiming a hole needs no
  /// lock (every find_empty claims slots of other homes the same way), and holding one while
  /// spinning for the lock is what the displacement path does already: nobody waits on a hole.
  /// The claim is an acquire RMW: it is ordered before the stores that fill the hole.
  __device__ std::uint64_t lock(const tile_type& t, std::uint64_t h, bool* home_held = nullptr) const {
    unsigned long long got = 0;
    if (t.leader()) {
      // Acquire on the atomicOr itself (the one that takes the lock is the last one issued) orders
      // every later access after the acquisition; the home claim beside it (a CAS or an occupancy
      // claim) is an acquire RMW too, which orders the stores that fill the hole after it. The
      // fenced A/B uses relaxed atomics and one fence instead.
      const auto take = [&] {
        return v_.fenced_atomics ? static_cast<std::uint64_t>(atomicOr(
                                       reinterpret_cast<unsigned long long*>(meta_ptr(h)), layout::multiple_lock))
                                 : detail::fetch_or_acquire(meta_ptr(h), layout::multiple_lock);
      };
      std::uint64_t old = take();
      if (home_held)
        *home_held = v_.occ ? claim_bit(h)
                 : v_.fenced_atomics ? detail::cas(key_ptr(h), empty_key, reserved_key) == empty_key
                                     : detail::cas_acquire(key_ptr(h), empty_key, reserved_key) == empty_key;
      for (int round = 0; old & layout::lock_mask; ++round) {
        detail::backoff(round);
        if (!(detail::ld_relaxed(meta_ptr(h)) & layout::lock_mask))
          old = take();
      }
      got = old | layout::multiple_lock;
      if (v_.fenced_atomics) detail::fence();
    }
    got = t.shfl(got, 0);
    if constexpr (G > 1) (void)detail::ld_acquire(meta_ptr(h));
    return got;
  }
  __device__ void unlock(const tile_type& t, std::uint64_t h, std::uint64_t m, std::uint64_t flag) const {
    t.sync();
    if (t.leader()) detail::st_release(meta_ptr(h), m & ~flag);
    t.sync();
  }

  /// Write the pair into hole e (within reach of h), set its hop bit and release h's lock.
  __device__ void publish(const tile_type& t, std::uint64_t h, std::uint64_t m, std::int64_t e, key_type k,
                          value_type val) const {
    t.sync();
    if (t.leader()) {
      // One fence for both stores: no reader takes a key at a slot whose hop bit it has not seen
      // set (bitmap scans read only named slots, window scans and find_ordered check the bit), and
      // the bit is published after the value and the key (release).
      if (S >= 2 && v_.pair_store) {  // key and value adjacent and 16-byte aligned (slot_layout)
        detail::st_relaxed_pair(key_ptr(e), k, val);
      } else {
        detail::st_relaxed(value_ptr(e), val);
        detail::st_relaxed(key_ptr(e), k);
      }
      const unsigned d = static_cast<unsigned>(e - static_cast<std::int64_t>(h));
      detail::st_release(meta_ptr(h), (m | (1ULL << d)) & ~layout::multiple_lock);
    }
    t.sync();
  }

  __device__ void release_hole(const tile_type& t, std::int64_t e) const {
    t.sync();
    if (t.leader()) {
      if (v_.occ) {
        detail::st_relaxed(key_ptr(e), empty_key);
        release_bit(static_cast<std::uint64_t>(e));
      } else {
        detail::st_release(key_ptr(e), empty_key);
      }
    }
    t.sync();
  }

  // ---------------------------------------------------------------- occupancy bits (v_.occ)
  // Bit s % 64 of occ[s / 64] is set before slot s gets a key (the claim) and cleared after it is
  // emptied (erase, a released hole), so a clear bit means an empty slot nobody owns. A claim is
  // one atomicOr that finds the bit clear; the caller fences before filling the slot, and the
  // fence in release_bit orders the emptying store before the clear. Keys are then only ever
  // written by their slot's owner (no CAS on keys).
  [[nodiscard]] __device__ std::uint64_t* occ_word(std::uint64_t s) const { return v_.occ + (s >> 6); }
  /// One lane: claim slot s; true when this call set its bit.
  __device__ bool claim_bit(std::uint64_t s) const {
    const std::uint64_t bit = 1ULL << (s & 63);
    if (v_.fenced_atomics) return !(atomicOr(reinterpret_cast<unsigned long long*>(occ_word(s)), bit) & bit);
    return !(detail::fetch_or_acquire(occ_word(s), bit) & bit);  // acquire: as in claim_occupancy
  }
  /// One lane: slot s (its key already empty) is free again.
  __device__ void release_bit(std::uint64_t s) const {
    detail::fence();
    atomicAnd(reinterpret_cast<unsigned long long*>(occ_word(s)), ~(1ULL << (s & 63)));
  }
  /// One lane: claim the first slot at or after h (below slot_limit() and h + probe_limit) whose bit
  /// is clear: 64 slots per word read, one atomicOr per attempt. Returns the slot, or -1.
  /// `first`, when given, is a value of h's word read earlier (a hint: the atomicOr decides).
  __device__ std::int64_t claim_occupancy(std::uint64_t h, const std::uint64_t* first = nullptr) const {
    std::uint64_t limit = h + static_cast<std::uint64_t>(v_.probe_limit);
    if (limit > slot_limit()) limit = slot_limit();
    for (std::uint64_t s = h; s < limit;) {
      const std::uint64_t w = s >> 6, next = (w + 1) << 6;
      auto* word = reinterpret_cast<unsigned long long*>(v_.occ + w);
      const std::uint64_t seen = first && s == h ? *first : detail::ld_relaxed(v_.occ + w);
      std::uint64_t busy = seen | ((1ULL << (s & 63)) - 1);  // and slots before s
      if (limit < next) busy |= ~0ULL << (limit & 63);                                     // and slots past the limit
      while (~busy) {
        const int b = __ffsll(static_cast<long long>(~busy)) - 1;
        // Acquire: the claim before the stores that fill the slot. It reads the bit cleared by
        // release_bit's fence + atomicAnd (a release pattern), so the emptying store of the slot
        // precedes this owner's stores.
        const std::uint64_t old = v_.fenced_atomics ? atomicOr(word, 1ULL << b)
                                                    : detail::fetch_or_acquire(v_.occ + w, 1ULL << b);
        if (!((old >> b) & 1u)) {
          if (v_.fenced_atomics) detail::fence();
          return static_cast<std::int64_t>((w << 6) + static_cast<std::uint64_t>(b));
        }
        busy |= old;
      }
      s = next;
    }
    return -1;
  }
  /// G = 1 with occupancy bits, under h's lock (hopscotch_options::overlap_claim): the find phase
  /// and the claim in one round trip. The keys of the first P members that bm names are loaded
  /// (independent loads), then the claim's atomicOr goes out on the occupancy word read before
  /// the lock, and only then are the keys compared. Returns the hole (or -1 when none lies within
  /// probe_limit); `present` when k is a member (the caller releases the hole then). The loads
  /// precede the acquire RMW in program order, so nothing holds them back behind it.
  __device__ std::int64_t claim_overlapped(std::uint64_t h, unsigned bm, key_type k, bool check,
                                           std::uint64_t hint, bool& present) const {
    constexpr int P = 2;  // the mean bucket holds the load factor's worth of members
    key_type mk[P];
    unsigned b = check ? bm : 0u;
#pragma unroll
    for (int j = 0; j < P; ++j) {
      mk[j] = empty_key;  // never equal to a valid k
      if (b) {
        mk[j] = detail::ld_relaxed(key_ptr(h + __ffs(b) - 1));
        b &= b - 1;
      }
    }
    const std::int64_t e = claim_occupancy(h, &hint);
    bool hit = false;
#pragma unroll
    for (int j = 0; j < P; ++j) hit |= mk[j] == k;
    for (; b && !hit; b &= b - 1) hit = detail::ld_relaxed(key_ptr(h + __ffs(b) - 1)) == k;
    present = hit;
    return e;
  }

  /// Phase find_empty of a tile on an occupancy table: the leader claims, every lane learns e.
  __device__ std::int64_t claim_occupancy_tile(const tile_type& t, std::uint64_t h) const {
    long long e = -1;
    if (t.leader()) e = claim_occupancy(h);
    return t.shfl(e, 0);
  }

  /// Last slot that can hold an item (+1): homes are < n, items within 31 of home.
  [[nodiscard]] __device__ std::uint64_t slot_limit() const { return v_.n_buckets + hop_range - 1; }

  /// Phase find_empty: claim the nearest empty slot at or after h (CAS empty -> reserved).
  __device__ std::int64_t find_empty(const tile_type& t, std::uint64_t h) const {
    std::uint64_t limit = h + static_cast<std::uint64_t>(v_.probe_limit);
    if (limit > slot_limit()) limit = slot_limit();
    for (std::uint64_t base = h; base < limit; base += G) {
      const std::uint64_t s = base + t.rank;
      const key_type x = s < limit ? detail::ld_relaxed(key_ptr(s)) : reserved_key;
      unsigned b = t.ballot(x == empty_key);
      while (b) {
        const int l = __ffs(b) - 1;
        bool ok = false;
        if (static_cast<int>(t.rank) == l) ok = detail::cas(key_ptr(s), empty_key, reserved_key) == empty_key;
        if (t.ballot(ok)) {
          if (t.leader()) detail::fence();
          return static_cast<std::int64_t>(base + l);
        }
        b &= b - 1;
      }
    }
    return -1;
  }

  /// G = 1, under h's lock: the find phase and find_empty in one pass. Reads B slots from home at a
  /// time (independent loads); the first batch also answers whether k is among the members the
  /// bitmap bm names (stable while the lock is held) when `check`; then claims the first slot read
  /// empty (CAS empty -> reserved; a failed CAS moves on). Returns the hole, or -1 when none lies
  /// within probe_limit (`present` set instead when k was found). With view().home_first the home
  /// slot is read and tried alone first (in records it shares the sector the lock just fetched).
  __device__ std::int64_t claim_thread(std::uint64_t h, unsigned bm, key_type k, bool check,
                                       bool& present) const {
    constexpr int B = S == 1 ? 8 : S == 4 ? 2 : 4;  // two 32-byte sectors of keys per batch
    if (v_.occ) {  // the named members are read for the find phase only; holes come from the bits
      for (unsigned b = check ? bm : 0u; b; b &= b - 1)
        if (detail::ld_relaxed(key_ptr(h + __ffs(b) - 1)) == k) {
          present = true;
          return -1;
        }
      return claim_occupancy(h);
    }
    std::uint64_t limit = h + static_cast<std::uint64_t>(v_.probe_limit);
    if (limit > slot_limit()) limit = slot_limit();
    std::uint64_t base = h;
    if (v_.home_first) {
      const key_type w0 = detail::ld_relaxed(key_ptr(h));
      if (check) {
        bool hit = (bm & 1u) && w0 == k;
        for (unsigned far = bm & ~1u; far && !hit; far &= far - 1)
          hit = detail::ld_relaxed(key_ptr(h + __ffs(far) - 1)) == k;
        if (hit) {
          present = true;
          return -1;
        }
        check = false;
      }
      if (w0 == empty_key && detail::cas(key_ptr(h), empty_key, reserved_key) == empty_key) {
        detail::fence();
        return static_cast<std::int64_t>(h);
      }
      base = h + 1;
    }
    for (; base < limit; base += B) {
      key_type w[B];
#pragma unroll
      for (int i = 0; i < B; ++i) w[i] = base + i < limit ? detail::ld_relaxed(key_ptr(base + i)) : reserved_key;
      if (base == h && check) {
        bool hit = false;
#pragma unroll
        for (int i = 0; i < B; ++i) hit |= ((bm >> i) & 1u) && w[i] == k;
        for (unsigned far = bm & ~((1u << B) - 1u); far && !hit; far &= far - 1)
          hit = detail::ld_relaxed(key_ptr(h + __ffs(far) - 1)) == k;
        if (hit) {
          present = true;
          return -1;
        }
      }
#pragma unroll
      for (int i = 0; i < B; ++i) {
        if (w[i] == empty_key && detail::cas(key_ptr(base + i), empty_key, reserved_key) == empty_key) {
          detail::fence();
          return static_cast<std::int64_t>(base + i);
        }
      }
    }
    return -1;
  }

  /// One step of find_closer_empty over the swap heads b = e-31 .. e-1 (farthest first): returns
  /// 0 with e moved closer when a member moved, -1 when no bucket has a member before the hole,
  /// +1 when candidates exist but were all locked.
  __device__ int displace(const tile_type& t, std::uint64_t h, std::int64_t& e) const {
    while (static_cast<std::uint64_t>(e) - h >= static_cast<std::uint64_t>(hop_range)) {
      bool moved = false, contended = false;
      for (int base = 0; base < hop_range - 1 && !moved; base += G) {
        const int i = base + static_cast<int>(t.rank);
        const std::int64_t b = e - (hop_range - 1) + i;
        const bool valid = i < hop_range - 1 && b >= 0;
        const std::uint64_t m = valid ? detail::ld_relaxed(meta_ptr(b)) : 0;
        const unsigned reach = valid ? (1u << static_cast<unsigned>(e - b)) - 1u : 0u;
        const bool cand = (detail::bitmap(m) & reach) != 0;
        const bool busy = cand && (m & layout::lock_mask);
        contended |= t.any(busy);
        unsigned bal = t.ballot(cand && !busy);
        while (bal) {
          const int l = __ffs(bal) - 1;
          long long x = -1;
          if (static_cast<int>(t.rank) == l) x = swap_value_into_empty(static_cast<std::uint64_t>(b), m, e);
          x = t.shfl(x, l);
          if (x >= 0) {
            e = x;
            moved = true;
            break;
          }
          contended = true;
          bal &= bal - 1;
        }
      }
      if (!moved) return contended ? 1 : -1;
    }
    return 0;
  }

  /// swap_value_into_empty (one lane): swap_lock bucket b if its word is still m, move its first
  /// member below hole e into e, and return the member's old slot (the new hole), or -1.
  __device__ long long swap_value_into_empty(std::uint64_t b, std::uint64_t m, std::int64_t e) const {
    if (detail::cas(meta_ptr(b), m, m | layout::swap_lock) != m) return -1;
    detail::fence();
    const unsigned de = static_cast<unsigned>(e - static_cast<std::int64_t>(b));
    const unsigned d = static_cast<unsigned>(__ffs(detail::bitmap(m) & ((1u << de) - 1u)) - 1);
    const std::uint64_t x = b + d;
    // Temporary duplication: both hop bits set and the version odd while two copies exist.
    const std::uint64_t dup = (m | layout::swap_lock | (1ULL << de)) + layout::version_one;
    detail::st_relaxed(meta_ptr(b), dup);
    detail::fence();  // the odd version is visible before either copy changes
    const key_type kx = detail::ld_relaxed(key_ptr(x));
    const value_type vx = detail::ld_relaxed(value_ptr(x));
    detail::st_relaxed(value_ptr(e), vx);
    detail::st_release(key_ptr(e), kx);             // the copy, value first
    detail::st_release(key_ptr(x), reserved_key);   // then the source becomes the new hole
    detail::st_release(meta_ptr(b), ((dup & ~(1ULL << d)) & ~layout::swap_lock) + layout::version_one);
    return static_cast<long long>(x);
  }
};

}  // namespace gpu500::hash
