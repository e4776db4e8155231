// gpu500/hash/detail/hopscotch_find.cuh — GLHT's look-up phases (members of hopscotch_ref):
// probe (one optimistic, version-checked read of a bucket's members), find_locked (the fallback
// under the bucket lock), scan_window (the paper's whole-window read) and scan_named (the slots a hop
// bitmap names). Included by gpu500/hash/hopscotch_ref.cuh after the class; not for direct use.
#pragma once

namespace gpu500::hash {

/// One lock-free look-up: hit / miss when the home's version was even and unchanged across the
/// reads of every lane, retry otherwise. On hit / miss, *slot_out (if given) is k's slot or -1,
/// and *word_out (if given) the home word when every lane saw that same word without lock
/// flags before and after its reads, else no_word.
template <int G, int S, int OV, int PC>
__device__ probe_result hopscotch_ref<G, S, OV, PC>::probe(const tile_type& t, std::uint64_t h, key_type k,
                                                       value_type& out, bool by_bitmap, bool want_value,
                                                       std::int64_t* slot_out,
                                                       std::uint64_t* word_out) const {
  const std::uint64_t m1 = detail::ld_acquire(meta_ptr(h));
  // A word that names no member and no stash, with an even version, says k is absent at the
  // moment it was read: that one atomic read is the look-up's linearisation point, and no second
  // read is needed (a member arrives only with its hop bit, a stashed one with the overflow
  // flag). About half the buckets are empty at load factor 0.8, so most misses stop here.
  if (t.ballot(detail::bitmap(m1) != 0 || (m1 & layout::overflow) != 0 || detail::version_odd(m1)) == 0) {
    if (slot_out) *slot_out = -1;
    if (word_out) {
      const std::uint64_t w0 = t.shfl(static_cast<unsigned long long>(m1), 0);
      *word_out = t.ballot(m1 != w0 || (m1 & layout::lock_mask) != 0) == 0 ? w0 : no_word;
    }
    return probe_result::miss;
  }
  // Control flow must stay uniform across the tile: use the leader's bitmap; every lane's own
  // version is checked below.
  const unsigned bm = t.shfl(detail::bitmap(m1), 0);
  const bool overflow = t.shfl((m1 & layout::overflow) != 0, 0);
  std::int64_t s = -1;
  value_type x = 0;
  // acquire_find: every key and value is loaded with acquire, which orders the second read of
  // the word after them without the fence below (a fence also waits for every earlier store of
  // the thread, such as the outputs of its previous look-ups).
  const bool acq = v_.acquire_find;
  const bool pairs = S >= 2 || (S == 0 && v_.stride >= 2);  // key and value adjacent, 16-byte aligned
  if (G == 1 && by_bitmap && want_value) {
    // One thread per lookup: each named slot's key and value in one 16-byte load where they are
    // adjacent (one dependent round trip fewer on a hit, and one L2 request instead of two; the
    // version check below covers the value as well). One slot at a time: the L2's request rate,
    // not latency, bounds these look-ups, so a second slot read on speculation costs more than
    // it saves.
    for (unsigned b = bm; b; b &= b - 1) {
      const std::uint64_t slot = h + static_cast<std::uint64_t>(__ffs(b) - 1);
      key_type kk;
      value_type vv;
      if (pairs) {
        detail::ld_pair(key_ptr(slot), kk, vv, acq);
      } else {
        kk = detail::ld_maybe_acquire(key_ptr(slot), acq);
        detail::jitter();
        vv = detail::ld_maybe_acquire(value_ptr(slot), acq);
      }
      if (kk == k) {
        s = static_cast<std::int64_t>(slot);
        x = vv;
        break;
      }
    }
  } else {
    s = by_bitmap ? scan_named(t, h, bm, k, acq) : scan_window(t, h, bm, k, acq);
    detail::jitter();
    if (s >= 0 && want_value) x = detail::ld_maybe_acquire(value_ptr(s), acq);
  }
  if (s < 0 && overflow) {  // members in the stash (the version check covers them too)
    const std::int64_t i = stash_scan(t, h, k);
    detail::jitter();
    if (i >= 0) {
      if (want_value) x = detail::ld_maybe_acquire(stash_value(static_cast<std::uint64_t>(i)), acq);
      s = stash_slot(i);
    }
  }
  if (!acq) detail::fence();
  const std::uint64_t m2 = detail::ld_relaxed(meta_ptr(h));
  const std::uint64_t v0 = t.shfl(static_cast<unsigned long long>(detail::version(m1)), 0);
  const bool ok =
      !detail::version_odd(m1) && detail::version(m1) == detail::version(m2) && detail::version(m1) == v0;
  if (t.ballot(!ok) != 0) return probe_result::retry;
  out = x;
  if (slot_out) *slot_out = s;  // a slot, stash_slot(pair), or -1
  if (word_out) {
    const std::uint64_t w0 = t.shfl(static_cast<unsigned long long>(m1), 0);
    const bool same = m1 == m2 && m1 == w0 && !(m1 & layout::lock_mask);
    *word_out = t.ballot(!same) == 0 ? w0 : no_word;
  }
  return s != -1 ? probe_result::hit : probe_result::miss;
}

/// Fallback after optimistic_tries inconsistent attempts: the look-up under h's multiple_lock.
/// While it is held no member of h can arrive, leave or move (inserts and erases of h take that
/// lock, a move of h's member needs a swap_lock CAS on an unlocked word), so the named slots and
/// their values are stable. The word is stored back unchanged (no version bump): concurrent
/// optimistic readers are not disturbed. A lock holder never waits, so the wait is bounded by
/// the writers' critical sections. (The earlier lock-free ordered scan of the window returned a
/// value never stored for k under an ABA on the slot: docs/hash.md, "Linearisability".)
template <int G, int S, int OV, int PC>
__device__ bool hopscotch_ref<G, S, OV, PC>::find_locked(const tile_type& t, std::uint64_t h, key_type k,
                                                     value_type& out) const {
  if (t.leader()) detail::count_fallback();
  const std::uint64_t m = lock(t, h);
  const std::int64_t s = scan_named(t, h, detail::bitmap(m), k);
  const std::int64_t i = s < 0 && (m & layout::overflow) ? stash_scan(t, h, k) : -1;
  value_type x = 0;
  detail::jitter();
  if (s >= 0) x = detail::ld_relaxed(value_ptr(static_cast<std::uint64_t>(s)));
  if (i >= 0) x = detail::ld_relaxed(stash_value(static_cast<std::uint64_t>(i)));
  unlock(t, h, m, layout::multiple_lock);
  out = x;
  return s >= 0 || i >= 0;
}

/// Slot of k among the 32 slots of h's window, or -1 (one coalesced read when G = 32). A match
/// counts only at a slot that bm names: a key whose hop bit is not yet set may still lack its
/// value (publish orders value and key before the bit, not the value before the key).
template <int G, int S, int OV, int PC>
__device__ std::int64_t hopscotch_ref<G, S, OV, PC>::scan_window(const tile_type& t, std::uint64_t h, unsigned bm,
                                                             key_type k, bool acq) const {
#pragma unroll
  for (int base = 0; base < hop_range; base += G) {
    const key_type x = detail::ld_maybe_acquire(key_ptr(h + base + t.rank), acq);
    const unsigned b = t.ballot(x == k && ((bm >> (base + t.rank)) & 1u));
    if (b) return static_cast<std::int64_t>(h + base + __ffs(b) - 1);
  }
  return -1;
}

/// Slot of k among the slots that hop bitmap bm names, or -1.
template <int G, int S, int OV, int PC>
__device__ std::int64_t hopscotch_ref<G, S, OV, PC>::scan_named(const tile_type& t, std::uint64_t h, unsigned bm,
                                                            key_type k, bool acq) const {
  if constexpr (G == 1) {
    while (bm) {
      const int d = __ffs(bm) - 1;
      if (detail::ld_maybe_acquire(key_ptr(h + d), acq) == k) return static_cast<std::int64_t>(h + d);
      bm &= bm - 1;
    }
    return -1;
  } else {
#pragma unroll
    for (int base = 0; base < hop_range; base += G) {
      const unsigned chunk = (bm >> base) & tile_type::low;
      if (!chunk) continue;
      const bool named = (chunk >> t.rank) & 1u;
      const key_type x = named ? detail::ld_maybe_acquire(key_ptr(h + base + t.rank), acq) : empty_key;
      const unsigned b = t.ballot(named && x == k);
      if (b) return static_cast<std::int64_t>(h + base + __ffs(b) - 1);
    }
    return -1;
  }
}

}  // namespace gpu500::hash
