// gpu500/graph/arc_sort.hpp — a parallel, stable counting sort of arcs by key (host, OpenMP): the
// engine of kernel 1 on the host (build_csr, and the CPU SSSP engine's own rows).
//
// Per-vertex atomic cursors contend on the hubs of skewed graphs and send every arc to a random
// cache line. Instead, two levels: keys are cut into blocks of consecutive keys holding about
// 2^15 arcs each, few enough (hundreds to thousands) that one thread's write cursors for all
// blocks stay in cache.
//  1. count: each thread counts the arcs its slice of items emits, per group of 2^f keys; groups
//     are joined into blocks balanced by arcs (a degree order's hubs do not make one huge block);
//  2. scatter: each thread appends its arcs (head, key within the block, weight) to the blocks'
//     buckets at its own exclusive positions: streaming writes, no atomics;
//  3. per block (dynamic over threads): optionally put the bucket in head order (LSD radix,
//     cache-resident), count the keys in a cache-resident array, write their offsets, and hand
//     every arc of the bucket to `place` at its final position; all positions fall in the
//     block's own slice of the output, which fits in cache.
// Stable: within one key, arcs keep the order in which items 0, 1, 2, ... emitted them, whatever
// the thread count, so the result is deterministic.
#pragma once

#include <omp.h>

#include <algorithm>
#include <cstdlib>
#include <new>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "gpu500/core/types.hpp"


namespace gpu500::graph {

/// An uninitialised array (std::vector would zero it first: a serial pass over hundreds of MB).
/// Transparent huge pages (madvise) were tried for these buffers and made them slower (2 cores,
/// 2026-11-22): left out.
template <class T>
struct raw_array {
  struct release {
    void operator()(T* p) const { std::free(p); }
  };
  std::unique_ptr<T[], release> ptr;

  raw_array() = default;
  explicit raw_array(std::size_t count) { allocate(count); }
  void allocate(std::size_t count) {
    constexpr std::size_t align = 64;
    const std::size_t bytes = (std::max<std::size_t>(count * sizeof(T), 1) + align - 1) / align * align;
    void* p = std::aligned_alloc(align, bytes);
    if (!p) throw std::bad_alloc();
    ptr.reset(static_cast<T*>(p));
  }
  void reset() { ptr.reset(); }
  T* get() const { return ptr.get(); }
  T& operator[](std::size_t i) const { return ptr[i]; }
};

/// Memory for sort_arcs_by_key's buckets, kept across sorts (kernel 1 runs two of about the same
/// size): first-touch page faults of fresh buffers are a large part of kernel 1 otherwise.
class arc_sort_scratch {
 public:
  /// At least `bytes` bytes, 64-byte aligned; reallocated only when larger than before.
  void* get(std::size_t bytes) {
    if (bytes > bytes_) {
      buf_.reset();
      buf_.allocate(bytes);
      bytes_ = bytes;
    }
    return buf_.get();
  }
  void release() {
    buf_.reset();
    bytes_ = 0;
  }

 private:
  raw_array<unsigned char> buf_;
  std::size_t bytes_ = 0;
};

namespace detail {

template <class Head>
struct bucket_arc {
  Head head;
  std::uint32_t key;  ///< within its block
  float w;
};

}  // namespace detail

/// Temporary bytes of sort_arcs_by_key per arc with heads of type Head.
template <class Head>
inline constexpr std::size_t arc_sort_bytes_per_arc = sizeof(detail::bucket_arc<Head>);

/// Sort the arcs emitted by items [0, slices.back()) by key, stably (about arcs_hint of them: it
/// only sizes the blocks). Thread t of slices.size() - 1 handles items [slices[t], slices[t+1])
/// (give heavy items their own slices). emit(i, out) calls out(key, head, weight) for each arc of
/// item i, keys in [0, keys); count(i, add) calls add(key, k) for every key of item i with the
/// number k of arcs emit(i) gives it (the same arcs: count may skip reading them). Fills
/// offsets[0..keys] (arcs of key k: [offsets[k], offsets[k+1])) and calls place(position, head,
/// weight) once per arc, after the last call of emit (so emit may read the array that place
/// writes). With head_limit > 0 (every head below it) the arcs of each key are placed by
/// increasing head, equal heads in emission order: each block's bucket is first put in head order
/// by a cache-resident LSD radix sort (one to three passes of up to 11 bits). Returns the number
/// of arcs. The buckets live in `scratch` when one is given (else in a buffer
/// of the call's own).
template <class Head, class Count, class Emit, class Place>
index_t sort_arcs_by_key(index_t keys, index_t arcs_hint, std::span<const index_t> slices, Count&& count, Emit&& emit,
                         index_t* offsets, Place&& place, std::uint64_t head_limit, arc_sort_scratch* scratch = nullptr) {
  const int T = static_cast<int>(slices.size()) - 1;
  if (keys <= 0 || T <= 0) {
    if (keys >= 0) std::fill(offsets, offsets + keys + 1, index_t{0});
    return 0;
  }
  // Keys are counted in groups of 2^f consecutive keys (at most 2^16 groups; 2^18 with the head
  // order, whose radix passes want blocks that stay in cache even among the hubs), and groups are
  // joined into blocks of about `target` arcs (fewer when there are few arcs: at least about 8
  // blocks per thread) and at most 2^22 keys: balanced blocks even where a few keys (the hubs of a
  // degree order) hold a large share of the arcs. SCALE 22, SSSP rows: 2^16 groups left 42% of
  // the arcs in blocks of more than 2^16 arcs, 2^18 groups 19% (placement 1.5 -> 1.25 s).
  int f = 0;
  const int group_bits = head_limit > 0 ? 18 : 16;
  while (((keys - 1) >> f) >= (index_t{1} << group_bits)) ++f;
  const index_t G = ((keys - 1) >> f) + 1;
  const auto GS = static_cast<std::size_t>(G);

  // 1. Arcs per (thread slice, key group).
  std::vector<index_t> cnt(static_cast<std::size_t>(T) * GS, 0);
#pragma omp parallel num_threads(T)
  for (int t = omp_get_thread_num(); t < T; t += omp_get_num_threads()) {
    index_t* c = cnt.data() + static_cast<std::size_t>(t) * GS;
    for (index_t i = slices[t]; i < slices[t + 1]; ++i) count(i, [c, f](index_t key, index_t k) { c[key >> f] += k; });
  }
  const index_t target =
      std::clamp<index_t>(std::max<index_t>(arcs_hint, 1) / (8 * index_t{T}), index_t{1}, index_t{1} << 15);
  const index_t key_cap = std::max<index_t>(index_t{1} << 22, index_t{1} << f);
  std::vector<std::uint32_t> group_block(GS);
  std::vector<index_t> block_key;  // first key of each block, then keys
  {
    index_t acc = 0;
    for (std::size_t g = 0; g < GS; ++g) {
      index_t tot = 0;
      for (int t = 0; t < T; ++t) tot += cnt[static_cast<std::size_t>(t) * GS + g];
      const index_t k = static_cast<index_t>(g) << f;
      if (block_key.empty() || (acc > 0 && acc + tot > target) || k + (index_t{1} << f) - block_key.back() > key_cap) {
        block_key.push_back(k);
        acc = 0;
      }
      group_block[g] = static_cast<std::uint32_t>(block_key.size() - 1);
      acc += tot;
    }
    block_key.push_back(keys);
  }
  const auto B = block_key.size() - 1;
  const auto blocks = static_cast<index_t>(B);
  // Bucket layout block-major, slice-minor; block_begin[b] is also where block b's keys start.
  std::vector<index_t> cur_of(static_cast<std::size_t>(T) * B, 0);  // slice t's cursor in bucket b
  for (int t = 0; t < T; ++t)
    for (std::size_t g = 0; g < GS; ++g)
      cur_of[static_cast<std::size_t>(t) * B + group_block[g]] += cnt[static_cast<std::size_t>(t) * GS + g];
  std::vector<index_t> block_begin(B + 1, 0);
  index_t at = 0;
  index_t max_keys = 1;
  for (std::size_t b = 0; b < B; ++b) {
    block_begin[b] = at;
    max_keys = std::max(max_keys, block_key[b + 1] - block_key[b]);
    for (int t = 0; t < T; ++t) {
      index_t& c = cur_of[static_cast<std::size_t>(t) * B + b];
      const index_t k = c;
      c = at;
      at += k;
    }
  }
  block_begin[B] = at;
  const index_t arcs = at;

  // 2. Scatter into the buckets.
  arc_sort_scratch own;
  if (!scratch) scratch = &own;
  auto* out = static_cast<detail::bucket_arc<Head>*>(
      scratch->get(static_cast<std::size_t>(arcs) * sizeof(detail::bucket_arc<Head>)));
#pragma omp parallel num_threads(T)
  for (int t = omp_get_thread_num(); t < T; t += omp_get_num_threads()) {
    index_t* c = cur_of.data() + static_cast<std::size_t>(t) * B;
    const std::uint32_t* gb = group_block.data();
    const index_t* bk = block_key.data();
    for (index_t i = slices[t]; i < slices[t + 1]; ++i)
      emit(i, [c, f, gb, bk, out](index_t key, Head h, float w) {
        const std::uint32_t b = gb[key >> f];
        out[c[b]++] = {h, static_cast<std::uint32_t>(key - bk[b]), w};
      });
  }

  // Radix digits for the head order: passes of r bits (none without head_limit).
  int head_bits = 0;
  while (head_limit > 1 && (std::uint64_t{1} << head_bits) < head_limit) ++head_bits;
  const int passes = (head_bits + 10) / 11, r = passes ? (head_bits + passes - 1) / passes : 0;

  // 3. Per block: head order, key counts, offsets, placement.
#pragma omp parallel num_threads(T)
  {
    std::vector<index_t> cur(static_cast<std::size_t>(max_keys));
    std::vector<index_t> digit(static_cast<std::size_t>(passes) << r);
    raw_array<detail::bucket_arc<Head>> tmp[2];
    index_t tmp_size = 0;
#pragma omp for schedule(dynamic, 1)
    for (index_t b = 0; b < blocks; ++b) {
      const index_t k0 = block_key[static_cast<std::size_t>(b)], nk = block_key[static_cast<std::size_t>(b) + 1] - k0;
      const detail::bucket_arc<Head>* a = out + block_begin[b];
      const index_t na = block_begin[b + 1] - block_begin[b];
      std::fill(cur.begin(), cur.begin() + nk, index_t{0});
      if (passes > 0 && na > 1) {
        if (na > tmp_size) {
          tmp_size = std::max(na, 2 * tmp_size);
          for (auto& t : tmp) t.allocate(static_cast<std::size_t>(tmp_size));
        }
        std::fill(digit.begin(), digit.end(), index_t{0});
        const auto dmask = (std::uint64_t{1} << r) - 1;
        for (index_t k = 0; k < na; ++k) {
          ++cur[a[k].key];
          const auto h = static_cast<std::uint64_t>(a[k].head);
          for (int p = 0; p < passes; ++p) ++digit[(static_cast<std::size_t>(p) << r) + ((h >> (p * r)) & dmask)];
        }
        for (int p = 0; p < passes; ++p) {
          index_t* d = digit.data() + (static_cast<std::size_t>(p) << r);
          index_t sum = 0;
          for (std::size_t x = 0; x <= dmask; ++x) {
            const index_t c = d[x];
            d[x] = sum;
            sum += c;
          }
          detail::bucket_arc<Head>* dst = tmp[p & 1].get();
          for (index_t k = 0; k < na; ++k) dst[d[(static_cast<std::uint64_t>(a[k].head) >> (p * r)) & dmask]++] = a[k];
          a = dst;
        }
      } else {
        for (index_t k = 0; k < na; ++k) ++cur[a[k].key];
      }
      index_t pos = block_begin[b];
      for (index_t x = 0; x < nk; ++x) {
        offsets[k0 + x] = pos;
        const index_t d = cur[x];
        cur[x] = pos;
        pos += d;
      }
      for (index_t k = 0; k < na; ++k) place(cur[a[k].key]++, a[k].head, a[k].w);
    }
  }
  offsets[keys] = arcs;
  index_t mxb = 0; for (std::size_t b = 0; b < B; ++b) mxb = std::max(mxb, block_begin[b+1]-block_begin[b]);
  return arcs;
}

/// The same sort, counting by emitting (count(i) = emit(i) without the writes), arcs of a key
/// in emission order.
template <class Head, class Emit, class Place>
index_t sort_arcs_by_key(index_t keys, index_t arcs_hint, std::span<const index_t> slices, Emit&& emit, index_t* offsets,
                         Place&& place, arc_sort_scratch* scratch = nullptr) {
  return sort_arcs_by_key<Head>(
      keys, arcs_hint, slices,
      [&emit](index_t i, auto&& add) { emit(i, [&add](index_t key, Head, float) { add(key, index_t{1}); }); }, emit,
      offsets, place, 0, scratch);
}

/// Slice boundaries for `threads` threads over items whose costs have the prefix sums `prefix`
/// (prefix[i] = cost of items [0, i), n + 1 entries): about equal cost per slice.
inline std::vector<index_t> balanced_slices(std::span<const index_t> prefix, int threads) {
  const index_t n = static_cast<index_t>(prefix.size()) - 1, total = prefix.back();
  std::vector<index_t> s(static_cast<std::size_t>(threads) + 1, n);
  s[0] = 0;
  for (int t = 1; t < threads; ++t)
    s[static_cast<std::size_t>(t)] = std::lower_bound(prefix.begin(), prefix.end(), total * t / threads) - prefix.begin();
  return s;
}

/// Slices of equal item counts.
inline std::vector<index_t> even_slices(index_t n, int threads) {
  std::vector<index_t> s(static_cast<std::size_t>(threads) + 1);
  for (int t = 0; t <= threads; ++t) s[static_cast<std::size_t>(t)] = n * t / threads;
  return s;
}

}  // namespace gpu500::graph
