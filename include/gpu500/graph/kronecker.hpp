// gpu500/graph/kronecker.hpp — the Graph500 3.0.1 Kronecker generator, bit-identical to the reference.
//
// Edge e (0 <= e < edgefactor * 2^SCALE) uses its own substream: the seed state skipped by e*2^64.
// Per bit of SCALE, most significant first: draw v, redraw while v < 3647 (0x7FFFFFFF mod 10000,
// an unbiased modulus), v %= 10000, pick the quadrant (< b: (0,1); < b+c: (1,0); < a+b+c: (0,0);
// else (1,1)); while the edge is still on the diagonal block, order the offsets so src <= tgt.
// The weight is the next draw d, float((double)(float)d * 4.65661287524579692e-10).
// Vertex labels are scrambled by a bijection on [0, 2^SCALE) whose constants come from the seed
// state skipped by 50*2^128 + 7*2^64. The output does not depend on the number of threads.
#pragma once

#include <string>
#include <cstdint>
#include <unordered_set>
#include <vector>

#include "gpu500/core/types.hpp"
#include "gpu500/graph/edge_list.hpp"
#include "gpu500/graph/mrg.hpp"

namespace gpu500::graph {

struct kronecker_params {
  int scale = 16;
  int edgefactor = 16;
  std::uint64_t seed1 = 2, seed2 = 3;
  /// Initiator probabilities out of 10000: Graph500 (0.57, 0.19, 0.19, 0.05) by default; the
  /// R-MAT graph of the Enterprise paper is (4500, 1500, 1500).
  int a = 5700, b = 1900, c = 1900;
  bool weights = true;

  [[nodiscard]] index_t num_vertices() const { return index_t{1} << scale; }
  [[nodiscard]] index_t num_edges() const { return static_cast<index_t>(edgefactor) << scale; }
  /// Throws usage_error for SCALE outside 1..42, edgefactor < 1, or bad initiator values.
  void check() const;
  /// Sets a, b, c from the probabilities "A,B,C" (D = 1 - A - B - C), in parts of 10000;
  /// usage_error unless they are three numbers in [0, 1].
  void set_initiator(const std::string& abc);
};

/// The two scramble constants (val0, val1) for a seed pair.
struct scramble_key {
  std::uint64_t val0, val1;
};
scramble_key make_scramble_key(std::uint64_t seed1, std::uint64_t seed2);

GPU500_HD GPU500_FORCEINLINE std::uint64_t bitreverse64(std::uint64_t x) {
#if defined(__CUDA_ARCH__)
  return __brevll(x);
#else
  x = ((x >> 1) & 0x5555555555555555ull) | ((x & 0x5555555555555555ull) << 1);
  x = ((x >> 2) & 0x3333333333333333ull) | ((x & 0x3333333333333333ull) << 2);
  x = ((x >> 4) & 0x0F0F0F0F0F0F0F0Full) | ((x & 0x0F0F0F0F0F0F0F0Full) << 4);
  return __builtin_bswap64(x);
#endif
}

/// The reference's vertex scramble, a bijection on [0, 2^scale).
GPU500_HD GPU500_FORCEINLINE std::uint64_t scramble(std::uint64_t v, int scale, scramble_key k) {
  v += k.val0 + k.val1;
  v *= (k.val0 | 0x4519840211493211ull);
  v = bitreverse64(v) >> (64 - scale);
  v *= (k.val1 | 0x3050852102C843A5ull);
  v = bitreverse64(v) >> (64 - scale);
  return v;
}

struct kronecker_edge {
  std::uint64_t src, dst;
  float weight;
};

/// One edge from its substream state (the seed state skipped by e*2^64): host and device.
GPU500_HD inline kronecker_edge make_kronecker_edge(mrg_state s, int scale, int a, int b, int c,
                                                    scramble_key key) {
  std::uint64_t src = 0, tgt = 0, n = std::uint64_t{1} << scale;
  const std::uint32_t ab = static_cast<std::uint32_t>(b), abc = static_cast<std::uint32_t>(b + c),
                      all = static_cast<std::uint32_t>(a + b + c);
  for (int bit = 0; bit < scale; ++bit) {
    std::uint32_t v;
    do {
      v = s.next();
    } while (v < 3647u);
    v %= 10000u;
    // Quadrant (< b: (0,1); < b+c: (1,0); < a+b+c: (0,0); else (1,1)) and clip-and-flip, written
    // without branches: the quadrant is random, so branches would mispredict half the time.
    const bool hi = v >= all;
    std::uint64_t so = static_cast<std::uint64_t>((v >= ab && v < abc) || hi);
    std::uint64_t to = static_cast<std::uint64_t>(v < ab || hi);
    const std::uint64_t flip = static_cast<std::uint64_t>(src == tgt) & so & (to ^ 1u);  // (1,0) on the diagonal
    so ^= flip;
    to ^= flip;
    n >>= 1;
    src += n * so;
    tgt += n * to;
  }
  const std::uint32_t d = s.next();
  const float w = static_cast<float>(static_cast<double>(static_cast<float>(d)) * 4.65661287524579692e-10);
  return {scramble(src, scale, key), scramble(tgt, scale, key), w};
}

/// Generate edges [first, first + count) of the Kronecker graph on the host (OpenMP).
edge_list generate_kronecker(const kronecker_params& p, index_t first = 0, index_t count = -1);

/// What pick_search_keys does when a key's N candidates all fail: nothing (the reference keeps
/// the last candidate).
struct keep_last_candidate {
  void operator()() const {}
};

/// The reference's search keys: candidate k draws two doubles from the seed state skipped by
/// 2*2^128 + 4k; root = (int64)((d0 + d1) * N) mod N; duplicates and vertices for which
/// has_edges(v) is false are rejected; gives up after N candidates, calls on_exhausted() (which
/// may throw to stop the search) and keeps the last one.
template <class HasEdges, class OnExhausted = keep_last_candidate>
std::vector<std::int64_t> pick_search_keys(const kronecker_params& p, int num_roots, HasEdges&& has_edges,
                                           OnExhausted&& on_exhausted = {});

/// Candidate k of the search-key stream (exposed for the device pipeline and tests).
std::int64_t search_key_candidate(const kronecker_params& p, std::int64_t k);

template <class HasEdges, class OnExhausted>
std::vector<std::int64_t> pick_search_keys(const kronecker_params& p, int num_roots, HasEdges&& has_edges,
                                           OnExhausted&& on_exhausted) {
  const std::int64_t n = p.num_vertices();
  std::vector<std::int64_t> roots;
  std::unordered_set<std::int64_t> chosen;  // duplicates rejected in O(1): --roots may be large
  std::int64_t k = 0;
  for (int r = 0; r < num_roots; ++r) {
    std::int64_t root = -1;
    bool found = false;
    for (std::int64_t tries = 0; tries < n && !found; ++tries) {
      root = search_key_candidate(p, k++);
      found = chosen.count(root) == 0 && has_edges(root);
    }
    if (!found) on_exhausted();
    roots.push_back(root);
    chosen.insert(root);
  }
  return roots;
}

}  // namespace gpu500::graph
