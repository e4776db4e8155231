// gpu500/hash/detail/hopscotch_displace.cuh — GLHT's find_closer_empty phase (members of
// hopscotch_ref): displace walks the swap heads before a hole that is out of reach, and
// swap_value_into_empty moves one member of a bucket into the hole under that bucket's swap_lock
// (temporary duplication: the copy is written before the source becomes the new hole).
// Included by gpu500/hash/hopscotch_ref.cuh after the class; not for direct use.
#pragma once

namespace gpu500::hash {

/// One step of find_closer_empty over the swap heads b = e-31 .. e-1 (farthest first): returns
/// 0 with e moved closer when a member moved, -1 when no bucket has a member before the hole,
/// +1 when candidates exist but were all locked.
template <int G, int S, int OV, int PC>
__device__ int hopscotch_ref<G, S, OV, PC>::displace(const tile_type& t, std::uint64_t h, std::int64_t& e) const {
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
template <int G, int S, int OV, int PC>
__device__ long long hopscotch_ref<G, S, OV, PC>::swap_value_into_empty(std::uint64_t b, std::uint64_t m,
                                                                    std::int64_t e) const {
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
  detail::st_release(key_ptr(e), kx);            // the copy, value first
  detail::jitter();
  detail::st_release(key_ptr(x), reserved_key);  // then the source becomes the new hole
  detail::st_release(meta_ptr(b), ((dup & ~(1ULL << d)) & ~layout::swap_lock) + layout::version_one);
  return static_cast<long long>(x);
}

}  // namespace gpu500::hash
