// Host side of the Graph500 Kronecker generator: skip tables, scramble constants, search keys,
// and the OpenMP edge generator (see gpu500/graph/kronecker.hpp for the algorithm).
#include <omp.h>

#include <immintrin.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "gpu500/core/error.hpp"
#include "gpu500/graph/kronecker.hpp"

namespace gpu500::graph {

static mrg_matrix multiply(const mrg_matrix& x, const mrg_matrix& y) {
  mrg_matrix r{};
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 5; ++j) {
      std::uint64_t acc = 0;
      for (int k = 0; k < 5; ++k) acc += mrg_mod(static_cast<std::uint64_t>(x.a[i][k]) * y.a[k][j]);
      r.a[i][j] = mrg_mod(acc);
    }
  return r;
}

static mrg_matrix identity() {
  mrg_matrix r{};
  for (int i = 0; i < 5; ++i) r.a[i][i] = 1;
  return r;
}

const mrg_skip_table& mrg_skip_table::get() {
  static const mrg_skip_table* table = [] {
    auto* t = new mrg_skip_table;
    // The companion matrix: z1' = x z1 + y z5, z(k+1)' = z(k).
    mrg_matrix a{};
    a.a[0][0] = static_cast<std::uint32_t>(mrg_x);
    a.a[0][4] = static_cast<std::uint32_t>(mrg_y);
    for (int i = 1; i < 5; ++i) a.a[i][i - 1] = 1;
    mrg_matrix base = a;  // A^(256^i)
    for (int i = 0; i < positions; ++i) {
      t->m[i][0] = identity();
      for (int j = 1; j < 256; ++j) t->m[i][j] = multiply(t->m[i][j - 1], base);
      base = multiply(t->m[i][255], base);  // A^(256^(i+1)) = A^(255*256^i) A^(256^i)
    }
    return t;
  }();
  return *table;
}

void kronecker_params::set_initiator(const std::string& abc) {
  std::vector<double> v;
  std::stringstream in(abc);
  std::string part;
  while (std::getline(in, part, ',')) {
    std::size_t used = 0;
    double x = 0;
    try {
      x = std::stod(part, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != part.size()) throw usage_error("initiator: expected a number, got '" + part + "'");
    v.push_back(x);
  }
  if (v.size() != 3) throw usage_error("initiator: takes three probabilities A,B,C (D = 1 - A - B - C)");
  for (double x : v)
    if (x < 0 || x > 1) throw usage_error("initiator: probabilities must be in [0, 1]");
  if (v[0] + v[1] + v[2] > 1.00005) {
    char sum[32];
    std::snprintf(sum, sizeof sum, "%g", v[0] + v[1] + v[2]);
    throw usage_error(std::string("initiator: A + B + C = ") + sum +
                      " must be at most 1 (the fourth probability D is 1 - A - B - C)");
  }
  a = static_cast<int>(v[0] * 10000 + 0.5);
  b = static_cast<int>(v[1] * 10000 + 0.5);
  c = static_cast<int>(v[2] * 10000 + 0.5);
}

void kronecker_params::check() const {
  if (scale < 1 || scale > 42) throw usage_error("SCALE must be in 1..42, got " + std::to_string(scale));
  if (edgefactor < 1 || edgefactor > 1024)
    throw usage_error("edgefactor must be in 1..1024, got " + std::to_string(edgefactor));
  if (a < 0 || b < 0 || c < 0 || a + b + c > 10000)
    throw usage_error("initiator: the probabilities A, B, C must be >= 0 and add up to at most 1 "
                      "(the fourth probability D is 1 - A - B - C)");
}

scramble_key make_scramble_key(std::uint64_t seed1, std::uint64_t seed2) {
  mrg_state s = mrg_skip_table::get().skip(mrg_seed(seed1, seed2), 50, 7, 0);
  const std::uint64_t u1 = s.next(), u2 = s.next(), u3 = s.next(), u4 = s.next();
  return {u1 * 0xFFFFFFFFull + u2, u3 * 0xFFFFFFFFull + u4};
}


// ---- AVX-512 generator: 8 edges per vector, one 64-bit lane each ----------------------------
//
// The draws of one edge are a sequential chain (each needs the previous), but edges are
// independent: lane j of a group carries edge e + j through the same steps as
// make_kronecker_edge. Everything is exact integer arithmetic modulo p (any correct reduction
// gives the same residue) plus the same float/double conversions, so results are bit-identical.
// A draw below 3647 needs a redraw (probability 1.7e-6): the lanes then no longer step together,
// so a group in which any lane met one is recomputed by the scalar make_kronecker_edge.
#if defined(__x86_64__) && defined(__GNUC__)
#define GPU500_KRON_AVX512 1
// GCC 12 reports the intrinsics' internal undefined vectors as maybe-uninitialised here.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#define GPU500_AVX512 __attribute__((target("avx512f,avx512dq,avx512bw")))

namespace {

struct alignas(64) lanes {
  std::uint64_t v[8];
};

GPU500_AVX512 inline __m512i mod_p(__m512i t) {  // t < 2^63 -> t mod p
  const __m512i p = _mm512_set1_epi64(mrg_modulus);
  t = _mm512_add_epi64(_mm512_and_si512(t, p), _mm512_srli_epi64(t, 31));
  t = _mm512_add_epi64(_mm512_and_si512(t, p), _mm512_srli_epi64(t, 31));
  return _mm512_min_epu64(t, _mm512_sub_epi64(t, p));  // t - p wraps to a huge value when t < p
}

/// r = m z (mod p) for the five state vectors.
GPU500_AVX512 inline void apply(const mrg_matrix& m, __m512i z[5]) {
  const __m512i p = _mm512_set1_epi64(mrg_modulus);
  __m512i r[5];
  for (int i = 0; i < 5; ++i) {
    __m512i acc = _mm512_setzero_si512();
    for (int j = 0; j < 4; ++j) acc = _mm512_add_epi64(acc, _mm512_mul_epu32(_mm512_set1_epi64(m.a[i][j]), z[j]));
    acc = _mm512_add_epi64(_mm512_and_si512(acc, p), _mm512_srli_epi64(acc, 31));
    acc = _mm512_add_epi64(acc, _mm512_mul_epu32(_mm512_set1_epi64(m.a[i][4]), z[4]));
    r[i] = mod_p(acc);
  }
  for (int i = 0; i < 5; ++i) z[i] = r[i];
}

GPU500_AVX512 inline __m512i bitreverse(__m512i x) {
  const __m512i m1 = _mm512_set1_epi64(0x5555555555555555ll), m2 = _mm512_set1_epi64(0x3333333333333333ll),
                m4 = _mm512_set1_epi64(0x0F0F0F0F0F0F0F0Fll);
  x = _mm512_or_si512(_mm512_and_si512(_mm512_srli_epi64(x, 1), m1), _mm512_slli_epi64(_mm512_and_si512(x, m1), 1));
  x = _mm512_or_si512(_mm512_and_si512(_mm512_srli_epi64(x, 2), m2), _mm512_slli_epi64(_mm512_and_si512(x, m2), 2));
  x = _mm512_or_si512(_mm512_and_si512(_mm512_srli_epi64(x, 4), m4), _mm512_slli_epi64(_mm512_and_si512(x, m4), 4));
  const __m512i bswap = _mm512_set_epi8(
      56, 57, 58, 59, 60, 61, 62, 63, 48, 49, 50, 51, 52, 53, 54, 55, 40, 41, 42, 43, 44, 45, 46, 47, 32, 33, 34, 35,
      36, 37, 38, 39, 24, 25, 26, 27, 28, 29, 30, 31, 16, 17, 18, 19, 20, 21, 22, 23, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1,
      2, 3, 4, 5, 6, 7);
  return _mm512_shuffle_epi8(x, bswap);  // bytes reversed within each 64-bit lane (shuffle is per 128 bits)
}

GPU500_AVX512 inline __m512i scramble8(__m512i v, int scale, scramble_key k) {
  v = _mm512_add_epi64(v, _mm512_set1_epi64(static_cast<long long>(k.val0 + k.val1)));
  v = _mm512_mullo_epi64(v, _mm512_set1_epi64(static_cast<long long>(k.val0 | 0x4519840211493211ull)));
  v = _mm512_srli_epi64(bitreverse(v), static_cast<unsigned>(64 - scale));
  v = _mm512_mullo_epi64(v, _mm512_set1_epi64(static_cast<long long>(k.val1 | 0x3050852102C843A5ull)));
  return _mm512_srli_epi64(bitreverse(v), static_cast<unsigned>(64 - scale));
}

/// Edges [i0, i1) of el (edge i0 + j starts from state s0 advanced by j steps of `step`).
GPU500_AVX512 void generate_chunk_avx512(const kronecker_params& p, const mrg_matrix& step, const mrg_matrix& step8,
                                         scramble_key key, mrg_state s0, edge_list& el, index_t i0, index_t i1) {
  // Lane states of the first group.
  lanes z[5];
  mrg_state s = s0;
  for (int j = 0; j < 8; ++j) {
    z[0].v[j] = s.z1, z[1].v[j] = s.z2, z[2].v[j] = s.z3, z[3].v[j] = s.z4, z[4].v[j] = s.z5;
    s = step.apply(s);
  }
  __m512i Z[5];
  for (int i = 0; i < 5; ++i) Z[i] = _mm512_load_si512(z[i].v);
  const __m512i pm = _mm512_set1_epi64(mrg_modulus), X = _mm512_set1_epi64(mrg_x), Y = _mm512_set1_epi64(mrg_y);
  const __m512i reject = _mm512_set1_epi64(3647), magic = _mm512_set1_epi64(0xD1B71759u),
                ten4 = _mm512_set1_epi64(10000);
  const __m512i ab = _mm512_set1_epi64(p.b), abc = _mm512_set1_epi64(p.b + p.c), all = _mm512_set1_epi64(p.a + p.b + p.c);
  const bool weighted = p.weights;
  index_t i = i0;
  for (; i + 8 <= i1; i += 8) {
    __m512i z1 = Z[0], z2 = Z[1], z3 = Z[2], z4 = Z[3], z5 = Z[4];
    __m512i src = _mm512_setzero_si512(), tgt = _mm512_setzero_si512();
    __mmask8 rejected = 0;
    std::uint64_t n = std::uint64_t{1} << p.scale;
    auto draw = [&]() GPU500_AVX512 {
      __m512i t = _mm512_add_epi64(_mm512_mul_epu32(X, z1), _mm512_mul_epu32(Y, z5));
      t = _mm512_add_epi64(_mm512_and_si512(t, pm), _mm512_srli_epi64(t, 31));
      const __m512i v = _mm512_min_epu64(t, _mm512_sub_epi64(t, pm));
      z5 = z4, z4 = z3, z3 = z2, z2 = z1, z1 = v;
      return v;
    };
    for (int bit = 0; bit < p.scale; ++bit) {
      __m512i v = draw();
      rejected |= _mm512_cmplt_epu64_mask(v, reject);
      const __m512i q = _mm512_srli_epi64(_mm512_mul_epu32(v, magic), 45);  // v / 10000 (v < 2^32)
      v = _mm512_sub_epi64(v, _mm512_mul_epu32(q, ten4));
      const __mmask8 hi = _mm512_cmpge_epu64_mask(v, all);
      const __mmask8 lt_ab = _mm512_cmplt_epu64_mask(v, ab), lt_abc = _mm512_cmplt_epu64_mask(v, abc);
      __mmask8 so = static_cast<__mmask8>((~lt_ab & lt_abc) | hi);
      __mmask8 to = static_cast<__mmask8>(lt_ab | hi);
      const __mmask8 flip = static_cast<__mmask8>(_mm512_cmpeq_epu64_mask(src, tgt) & so & ~to);
      so = static_cast<__mmask8>(so ^ flip);
      to = static_cast<__mmask8>(to ^ flip);
      n >>= 1;
      const __m512i nv = _mm512_set1_epi64(static_cast<long long>(n));
      src = _mm512_mask_add_epi64(src, so, src, nv);
      tgt = _mm512_mask_add_epi64(tgt, to, tgt, nv);
    }
    const __m512i d = draw();
    _mm512_storeu_si512(el.src.data() + i, scramble8(src, p.scale, key));
    _mm512_storeu_si512(el.dst.data() + i, scramble8(tgt, p.scale, key));
    if (weighted) {
      const __m512d w = _mm512_mul_pd(_mm512_cvtps_pd(_mm512_cvtepi64_ps(d)), _mm512_set1_pd(4.65661287524579692e-10));
      _mm256_storeu_ps(el.weight.data() + i, _mm512_cvtpd_ps(w));
    }
    if (rejected) {  // a lane redrew: this group the scalar way
      for (int k = 0; k < 5; ++k) _mm512_store_si512(z[k].v, Z[k]);
      for (int j = 0; j < 8; ++j) {
        const mrg_state sj{static_cast<std::uint32_t>(z[0].v[j]), static_cast<std::uint32_t>(z[1].v[j]),
                           static_cast<std::uint32_t>(z[2].v[j]), static_cast<std::uint32_t>(z[3].v[j]),
                           static_cast<std::uint32_t>(z[4].v[j])};
        const kronecker_edge e = make_kronecker_edge(sj, p.scale, p.a, p.b, p.c, key);
        el.src[i + j] = static_cast<std::int64_t>(e.src);
        el.dst[i + j] = static_cast<std::int64_t>(e.dst);
        if (weighted) el.weight[i + j] = e.weight;
      }
    }
    apply(step8, Z);
  }
  // The last < 8 edges: scalar, from lane 0's state (edge i).
  for (int k = 0; k < 5; ++k) _mm512_store_si512(z[k].v, Z[k]);
  s = {static_cast<std::uint32_t>(z[0].v[0]), static_cast<std::uint32_t>(z[1].v[0]), static_cast<std::uint32_t>(z[2].v[0]),
       static_cast<std::uint32_t>(z[3].v[0]), static_cast<std::uint32_t>(z[4].v[0])};
  for (; i < i1; ++i) {
    const kronecker_edge e = make_kronecker_edge(s, p.scale, p.a, p.b, p.c, key);
    el.src[i] = static_cast<std::int64_t>(e.src);
    el.dst[i] = static_cast<std::int64_t>(e.dst);
    if (weighted) el.weight[i] = e.weight;
    s = step.apply(s);
  }
}

bool have_avx512() {
  static const bool ok = [] {
    if (const char* e = std::getenv("GPU500_NO_AVX512"); e && *e && *e != '0') return false;
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512bw");
  }();
  return ok;
}

}  // namespace
#pragma GCC diagnostic pop
#endif

edge_list generate_kronecker(const kronecker_params& p, index_t first, index_t count) {
  p.check();
  const index_t m = p.num_edges();
  if (count < 0) count = m - first;
  GPU500_EXPECTS(first >= 0 && first + count <= m, "edge range outside the graph");
  edge_list el;
  el.num_vertices = p.num_vertices();
  el.src.resize(static_cast<std::size_t>(count));
  el.dst.resize(static_cast<std::size_t>(count));
  if (p.weights) el.weight.resize(static_cast<std::size_t>(count));
  const auto& table = mrg_skip_table::get();
  const mrg_state seed = mrg_seed(p.seed1, p.seed2);
  const scramble_key key = make_scramble_key(p.seed1, p.seed2);
  // A^(2^64): one product moves a substream state to the next edge's.
  const mrg_matrix step = table.m[8][1];
#ifdef GPU500_KRON_AVX512
  const mrg_matrix step8 = table.m[8][8];  // A^(8 * 2^64): the next group of eight
  const bool simd = have_avx512();
#endif
  constexpr index_t chunk = 4096;
#pragma omp parallel for schedule(dynamic, 1)
  for (index_t c0 = 0; c0 < count; c0 += chunk) {
    const index_t c1 = std::min(count, c0 + chunk);
    mrg_state s = table.skip(seed, 0, static_cast<std::uint64_t>(first + c0), 0);
#ifdef GPU500_KRON_AVX512
    if (simd) {
      generate_chunk_avx512(p, step, step8, key, s, el, c0, c1);
      continue;
    }
#endif
    for (index_t i = c0; i < c1; ++i) {
      const kronecker_edge e = make_kronecker_edge(s, p.scale, p.a, p.b, p.c, key);
      el.src[i] = static_cast<std::int64_t>(e.src);
      el.dst[i] = static_cast<std::int64_t>(e.dst);
      if (p.weights) el.weight[i] = e.weight;
      s = step.apply(s);
    }
  }
  return el;
}

std::int64_t search_key_candidate(const kronecker_params& p, std::int64_t k) {
  mrg_state s = mrg_skip_table::get().skip(mrg_seed(p.seed1, p.seed2), 2, 0, static_cast<std::uint64_t>(4 * k));
  double d[2];
  for (double& x : d) {
    const double u1 = s.next(), u2 = s.next();
    x = u1 * 4.65661287524579692e-10 + u2 * 2.168404346990492787e-19;
  }
  const std::int64_t n = p.num_vertices();
  return static_cast<std::int64_t>((d[0] + d[1]) * static_cast<double>(n)) % n;
}

}  // namespace gpu500::graph
