// gpu500/hash/detail/hopscotch_lock.cuh — GLHT's bucket lock and the writes made under it
// (members of hopscotch_ref): lock (multiple_lock by one atomicOr, optionally with the home-slot
// claim beside it), unlock, publish (the update phase: pair, hop bit, release) and release_hole.
// Included by gpu500/hash/hopscotch_ref.cuh after the class; not for direct use.
#pragma once

namespace gpu500::hash {

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
template <int G, int S, int OV, int PC>
__device__ std::uint64_t hopscotch_ref<G, S, OV, PC>::lock(const tile_type& t, std::uint64_t h,
                                                       bool* home_held) const {
  unsigned long long got = 0;
  if (t.leader()) {
    // Acquire on the atomicOr itself (the one that takes the lock is the last one issued) orders
    // every later access after the acquisition; the home claim beside it (a CAS or an occupancy
    // claim) is an acquire RMW too, which orders the stores that fill the hole after it. The
    // fenced A/B uses relaxed atomics and one fence instead.
    const auto take = [&] {
      return v_.fenced_atomics
                 ? static_cast<std::uint64_t>(
                       atomicOr(reinterpret_cast<unsigned long long*>(meta_ptr(h)), layout::multiple_lock))
                 : detail::fetch_or_acquire(meta_ptr(h), layout::multiple_lock);
    };
    std::uint64_t old = take();
    if (home_held)
      *home_held = v_.occ ? claim_bit(h)
                   : v_.fenced_atomics
                       ? detail::cas(key_ptr(h), empty_key, reserved_key) == empty_key
                       : detail::cas_acquire(key_ptr(h), empty_key, reserved_key) == empty_key;
    for (int round = 0; old & layout::lock_mask; ++round) {
      detail::backoff(round);
      if (!(detail::ld_relaxed(meta_ptr(h)) & layout::lock_mask)) old = take();
    }
    got = old | layout::multiple_lock;
    if (v_.fenced_atomics) detail::fence();
  }
  got = t.shfl(got, 0);
  if constexpr (G > 1) (void)detail::ld_acquire(meta_ptr(h));
  return got;
}

template <int G, int S, int OV, int PC>
__device__ void hopscotch_ref<G, S, OV, PC>::unlock(const tile_type& t, std::uint64_t h, std::uint64_t m,
                                                std::uint64_t flag) const {
  t.sync();
  if (t.leader()) detail::st_release(meta_ptr(h), m & ~flag);
  t.sync();
}

/// Write the pair into hole e (within reach of h), set its hop bit and release h's lock.
template <int G, int S, int OV, int PC>
__device__ void hopscotch_ref<G, S, OV, PC>::publish(const tile_type& t, std::uint64_t h, std::uint64_t m,
                                                 std::int64_t e, key_type k, value_type val) const {
  t.sync();
  if (t.leader()) {
    // One fence for both stores: no reader takes a key at a slot whose hop bit it has not seen
    // set (bitmap scans read only named slots, window scans check the bit), and
    // the bit is published after the value and the key (release).
    if (S >= 2 && v_.pair_store) {  // key and value adjacent and 16-byte aligned (slot_layout)
      detail::st_relaxed_pair(key_ptr(e), k, val);
    } else {
      detail::st_relaxed(value_ptr(e), val);
      detail::jitter();
      detail::st_relaxed(key_ptr(e), k);
    }
    detail::jitter();
    const unsigned d = static_cast<unsigned>(e - static_cast<std::int64_t>(h));
    detail::st_release(meta_ptr(h), (m | (1ULL << d)) & ~layout::multiple_lock);
  }
  t.sync();
}

template <int G, int S, int OV, int PC>
__device__ void hopscotch_ref<G, S, OV, PC>::release_hole(const tile_type& t, std::int64_t e) const {
  t.sync();
  if (t.leader()) {
    if (v_.occ) {
      detail::st_relaxed(key_ptr(e), empty_key);
      release_bit(static_cast<std::uint64_t>(e));
    } else if (pair_cas()) {  // a release pattern on the 16 bytes that claims CAS
      detail::fence();
      detail::st_relaxed_b128(key_ptr(e), empty_key, empty_key);
    } else {
      detail::st_release(key_ptr(e), empty_key);
    }
  }
  t.sync();
}

}  // namespace gpu500::hash
