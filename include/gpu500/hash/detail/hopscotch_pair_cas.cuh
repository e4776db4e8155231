// gpu500/hash/detail/hopscotch_pair_cas.cuh — GLHT's pair-CAS insert (members of hopscotch_ref;
// hopscotch_options::pair_cas: one thread per operation on interleaved or record slots, compute
// capability 9.0). No bucket lock: a look-up under the home word, one 16-byte CAS that claims and
// fills a free slot of the window, and a CAS of the unchanged word that publishes the slot's hop
// bit. The protocol is the one the slot-protocol model checks exhaustively
// (insert_protocol::pair_cas, tests/unit/hash/slot_protocol_pair_cas.hpp); docs/hash.md, "The
// pair-CAS insert", gives the argument and the memory orders. Included by
// gpu500/hash/hopscotch_ref.cuh after the class; not for direct use.
#pragma once

namespace gpu500::hash {

/// Gives claimed slot s back: a relaxed store of the key (the pair was never named by a hop bit,
/// so no look-up took it and no move moved it).
template <int G, int S, int OV, int PC>
__device__ void hopscotch_ref<G, S, OV, PC>::give_back(std::uint64_t s) const {
  detail::jitter();
  detail::st_relaxed(key_ptr(s), empty_key);
}

/// The pair-CAS insert of k into home h (one thread). Returns `inserted` (its publishing CAS is
/// the linearisation point), `present` (a member holds k under a word whose version was the same
/// before and after the read, as a find validates), or `no_room`, which here means "run the
/// locked insert": the window h .. h+31 has no free slot (displacement), or h's word has the
/// overflow flag (the locked insert also looks in the stash). It holds no claim when it returns.
///   1. look-up: w = h's word (acquire), waiting while it is locked or its version odd; the
///      members w names, and with them the first B slots from home (two 32-byte sectors), which
///      also serve the claim;
///   2. claim: on the first slot of the window whose key is empty, one 16-byte CAS
///      {empty, v'} -> {k, v}, v' the value word read with the key (erases and given-back claims
///      do not reset it); a slot holding k means another insert of k is publishing: back to 1;
///   3. publish: CAS(h's word, w, w | bit), release on success, acquire on failure. A word equal
///      to w has the same members (members leave only with a version bump and arrive only with a
///      new bit), so success certifies the look-up's miss. On failure, back to 1 with the claim
///      kept and the word the CAS read: a look-up that finds k gives the claim back and looks
///      again (-> present), otherwise it publishes under the new word.
template <int G, int S, int OV, int PC>
__device__ insert_status hopscotch_ref<G, S, OV, PC>::insert_pair_cas(std::uint64_t h, key_type k,
                                                                      value_type val) const {
  constexpr int B = S == 2 ? 4 : 2;  // two 32-byte sectors: 4 interleaved slots or 2 records
  static_assert(hop_range % B == 0, "the window is read in whole batches");
  // acquire_find: the keys are loaded with acquire, which orders the word's second read after
  // them without a fence (as in probe).
  const bool acq = v_.acquire_find;
  std::int64_t claim = -1;  // our claimed, unpublished slot
  std::uint64_t w = detail::ld_acquire(meta_ptr(h));
  for (int round = 0;; ++round) {
    for (int spin = 0; (w & layout::lock_mask) || detail::version_odd(w); ++spin) {
      detail::backoff(spin);  // a lock holder never waits, and a move ends with an even version
      w = detail::ld_acquire(meta_ptr(h));
    }
    if (w & layout::overflow) {  // members in the stash: the locked insert looks there too
      if (claim >= 0) give_back(static_cast<std::uint64_t>(claim));
      return insert_status::no_room;
    }
    const unsigned bm = detail::bitmap(w);
    key_type bk[B];
    value_type bv[B];
    bool hit = false;
    const bool batch = claim < 0;  // with a claim held, only the named members are read
    if (batch) {
#pragma unroll
      for (int i = 0; i < B; ++i) detail::ld_pair(key_ptr(h + i), bk[i], bv[i], acq);
#pragma unroll
      for (int i = 0; i < B; ++i) hit |= ((bm >> i) & 1u) && bk[i] == k;
    }
    for (unsigned far = batch ? bm & ~((1u << B) - 1u) : bm; far && !hit; far &= far - 1)
      hit = detail::ld_maybe_acquire(key_ptr(h + __ffs(far) - 1), acq) == k;
    detail::jitter();
    if (hit) {
      if (claim >= 0) {  // another insert of k published first: ours goes back, then look again
        give_back(static_cast<std::uint64_t>(claim));
        claim = -1;
      } else {
        if (!acq) detail::fence();
        if (detail::version(detail::ld_relaxed(meta_ptr(h))) == detail::version(w)) return insert_status::present;
      }
      w = detail::ld_acquire(meta_ptr(h));
      continue;
    }
    if (claim < 0) {  // phase claim: the first slot of the window whose key is empty
      int r = 0;      // 0: pass on; 1: claimed; 2: k is there, unnamed (another insert publishing it)
      for (int base = 0; base < hop_range && r == 0; base += B) {
        if (base > 0) {
#pragma unroll
          for (int i = 0; i < B; ++i) detail::ld_pair(key_ptr(h + base + i), bk[i], bv[i], false);
        }
#pragma unroll
        for (int i = 0; i < B; ++i) {
          key_type x = bk[i];
          value_type y = bv[i];
          while (r == 0 && x == empty_key) {
            detail::jitter();
            // On failure {x, y} is the pair there now: another claim, or the same empty key with
            // a value word written since it was read (the CAS is tried again then).
            if (detail::cas_pair(key_ptr(h + base + i), x, y, k, val)) {
              r = 1;
              claim = static_cast<std::int64_t>(h) + base + i;
            }
          }
          if (r == 0 && x == k) r = 2;
          if (r != 0) break;
        }
      }
      if (r == 0) return insert_status::no_room;  // no free slot in the window: the locked insert
      if (r == 2) {
        detail::backoff(round);
        w = detail::ld_acquire(meta_ptr(h));
        continue;
      }
    }
    detail::jitter();
    // Publish: only an unchanged, unlocked word takes the bit, so a lock holder's whole-word
    // store never wipes it and the second of two inserts of k fails here.
    const std::uint64_t bit = 1ULL << static_cast<unsigned>(claim - static_cast<std::int64_t>(h));
    const std::uint64_t seen = detail::cas_release(meta_ptr(h), w, w | bit);
    if (seen == w) return insert_status::inserted;
    w = seen;
  }
}

}  // namespace gpu500::hash
