// gpu500/hash/detail/hopscotch_claim.cuh — GLHT's find_empty phase (members of hopscotch_ref):
// claiming a hole by CAS empty -> reserved on slot keys (find_empty for tiles, claim_thread for
// one thread per operation) or by atomicOr on occupancy bits (claim_occupancy, its tile form and
// the overlapped claim), and giving an occupancy bit back (release_bit).
// Included by gpu500/hash/hopscotch_ref.cuh after the class; not for direct use.
#pragma once

namespace gpu500::hash {

/// One lane: claim slot s; true when this call set its bit.
template <int G, int S, int OV, int PC>
__device__ bool hopscotch_ref<G, S, OV, PC>::claim_bit(std::uint64_t s) const {
  const std::uint64_t bit = 1ULL << (s & 63);
  if (v_.fenced_atomics) return !(atomicOr(reinterpret_cast<unsigned long long*>(occ_word(s)), bit) & bit);
  return !(detail::fetch_or_acquire(occ_word(s), bit) & bit);  // acquire: as in claim_occupancy
}

/// One lane: slot s (its key already empty) is free again.
template <int G, int S, int OV, int PC>
__device__ void hopscotch_ref<G, S, OV, PC>::release_bit(std::uint64_t s) const {
  detail::fence();
  atomicAnd(reinterpret_cast<unsigned long long*>(occ_word(s)), ~(1ULL << (s & 63)));
}

/// One lane: claim the first slot at or after h (below slot_limit() and h + probe_limit) whose bit
/// is clear: 64 slots per word read, one atomicOr per attempt. Returns the slot, or -1.
/// `first`, when given, is a value of h's word read earlier (a hint: the atomicOr decides).
template <int G, int S, int OV, int PC>
__device__ std::int64_t hopscotch_ref<G, S, OV, PC>::claim_occupancy(std::uint64_t h,
                                                                 const std::uint64_t* first) const {
  std::uint64_t limit = h + static_cast<std::uint64_t>(v_.probe_limit);
  if (limit > slot_limit()) limit = slot_limit();
  for (std::uint64_t s = h; s < limit;) {
    const std::uint64_t w = s >> 6, next = (w + 1) << 6;
    auto* word = reinterpret_cast<unsigned long long*>(v_.occ + w);
    const std::uint64_t seen = first && s == h ? *first : detail::ld_relaxed(v_.occ + w);
    std::uint64_t busy = seen | ((1ULL << (s & 63)) - 1);  // and slots before s
    if (limit < next) busy |= ~0ULL << (limit & 63);       // and slots past the limit
    while (~busy) {
      const int b = __ffsll(static_cast<long long>(~busy)) - 1;
      // Acquire: the claim before the stores that fill the slot. It reads the bit cleared by
      // release_bit's fence + atomicAnd (a release pattern), so the emptying store of the slot
      // precedes this owner's stores.
      const std::uint64_t old =
          v_.fenced_atomics ? atomicOr(word, 1ULL << b) : detail::fetch_or_acquire(v_.occ + w, 1ULL << b);
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
template <int G, int S, int OV, int PC>
__device__ std::int64_t hopscotch_ref<G, S, OV, PC>::claim_overlapped(std::uint64_t h, unsigned bm, key_type k,
                                                                  bool check, std::uint64_t hint,
                                                                  bool& present) const {
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
template <int G, int S, int OV, int PC>
__device__ std::int64_t hopscotch_ref<G, S, OV, PC>::claim_occupancy_tile(const tile_type& t,
                                                                      std::uint64_t h) const {
  long long e = -1;
  if (t.leader()) e = claim_occupancy(h);
  return t.shfl(e, 0);
}

/// Phase find_empty: claim the nearest empty slot at or after h (CAS empty -> reserved).
template <int G, int S, int OV, int PC>
__device__ std::int64_t hopscotch_ref<G, S, OV, PC>::find_empty(const tile_type& t, std::uint64_t h) const {
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
template <int G, int S, int OV, int PC>
__device__ std::int64_t hopscotch_ref<G, S, OV, PC>::claim_thread(std::uint64_t h, unsigned bm, key_type k,
                                                              bool check, bool& present) const {
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
    for (int i = 0; i < B; ++i)
      w[i] = base + i < limit ? detail::ld_relaxed(key_ptr(base + i)) : reserved_key;
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

}  // namespace gpu500::hash
