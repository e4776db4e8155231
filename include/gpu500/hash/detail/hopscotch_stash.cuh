// gpu500/hash/detail/hopscotch_stash.cuh — GLHT's overflow stash (members of hopscotch_ref):
// where an insert puts its key when no hole can be brought within 31 slots of its home, instead
// of growing the whole table. The stash is an array of {key, value} pairs; the members of bucket
// b live in the stash_window = 32 pairs from stash_home(b) on (wrapping), and b's word carries the
// overflow flag while it has any, so finds of the other buckets never look there (a miss stays
// one bucket-word read plus the named slots). Every change to b's stash members is made under
// b's multiple_lock and follows the protocol of the slots: an arrival is published by the
// release store of b's word (flag set, version bumped by 2, so a precheck's unchanged word still
// proves absence), and its key is stored with release after its value, because a find that
// scans a flagged window takes any pair holding its key (there is no hop bit per pair); a departure makes the version odd before the pair is emptied, and clears the
// flag when b has no other member there. Pairs are claimed by CAS empty -> reserved (several
// homes share a window). Included by gpu500/hash/hopscotch_ref.cuh after the class.
#pragma once

namespace gpu500::hash {

/// Stash pair of k among bucket h's stash window, or -1 (the tile's lanes read pairs in parallel).
template <int G, int S, int OV, int PC>
__device__ std::int64_t hopscotch_ref<G, S, OV, PC>::stash_scan(const tile_type& t, std::uint64_t h, key_type k) const {
  const std::uint64_t ns = v_.stash_slots;
  const std::uint64_t first = stash_home(h, ns);
#pragma unroll 1
  for (int base = 0; base < stash_window; base += G) {
    const std::uint64_t i = stash_index(first, base + static_cast<int>(t.rank));
    // Acquire: a pair has no hop bit that publishes it, so a reader that sees the key must see
    // the value stored before it (stash_insert stores the key with release).
    const unsigned b = t.ballot(detail::ld_acquire(stash_key(i)) == k);
    if (b) return static_cast<std::int64_t>(stash_index(first, base + __ffs(b) - 1));
  }
  return -1;
}

/// Under h's lock (word m): put {k, v} into h's stash window and release the lock with the
/// overflow flag set. False (lock still held) when every pair of the window is taken.
template <int G, int S, int OV, int PC>
__device__ bool hopscotch_ref<G, S, OV, PC>::stash_insert(const tile_type& t, std::uint64_t h, std::uint64_t m,
                                                      key_type k, value_type val) const {
  int placed = 0;
  t.sync();
  if (t.leader() && v_.stash_slots) {
    const std::uint64_t first = stash_home(h, v_.stash_slots);
    for (int j = 0; j < stash_window && !placed; ++j) {
      const std::uint64_t i = stash_index(first, j);
      if (detail::ld_relaxed(stash_key(i)) != empty_key) continue;
      if (detail::cas(stash_key(i), empty_key, reserved_key) != empty_key) continue;
      detail::fence();  // the claim before the pair's stores, as in claim_thread
      detail::st_relaxed(stash_value(i), val);
      detail::jitter();
      detail::st_release(stash_key(i), k);  // the value before the key (stash_scan reads with acquire)
      detail::st_release(meta_ptr(h), ((m | layout::overflow) + 2 * layout::version_one) & ~layout::multiple_lock);
      placed = 1;
    }
  }
  t.sync();
  return t.shfl(placed, 0) != 0;
}

/// Under h's lock (word m): erase stash pair i (holding a member of h) and release the lock.
template <int G, int S, int OV, int PC>
__device__ void hopscotch_ref<G, S, OV, PC>::stash_erase(const tile_type& t, std::uint64_t h, std::uint64_t m,
                                                     std::uint64_t i) const {
  t.sync();
  if (t.leader()) {
    detail::st_relaxed(meta_ptr(h), m + layout::version_one);  // odd: readers re-read
    detail::fence();
    detail::st_relaxed(stash_key(i), empty_key);
    detail::jitter();
    // Does h keep other members there? They change only under h's lock, which this tile holds.
    bool more = false;
    const std::uint64_t first = stash_home(h, v_.stash_slots);
    for (int j = 0; j < stash_window && !more; ++j) {
      const key_type x = detail::ld_relaxed(stash_key(stash_index(first, j)));
      more = valid_key(x) && home(x) == h;
    }
    const std::uint64_t w = (more ? m : m & ~layout::overflow) & ~layout::multiple_lock;
    detail::st_release(meta_ptr(h), w + 2 * layout::version_one);
  }
  t.sync();
}

}  // namespace gpu500::hash
