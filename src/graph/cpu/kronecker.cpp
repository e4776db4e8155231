// Host side of the Graph500 Kronecker generator: skip tables, scramble constants, search keys,
// and the OpenMP edge generator (see gpu500/graph/kronecker.hpp for the algorithm).
#include <omp.h>

#include <mutex>

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

void kronecker_params::check() const {
  if (scale < 1 || scale > 42) throw usage_error("SCALE must be in 1..42, got " + std::to_string(scale));
  if (edgefactor < 1 || edgefactor > 1024)
    throw usage_error("edgefactor must be in 1..1024, got " + std::to_string(edgefactor));
  if (a < 0 || b < 0 || c < 0 || a + b + c > 10000)
    throw usage_error("initiator a, b, c must be >= 0 with a + b + c <= 10000 (parts of 10000)");
}

scramble_key make_scramble_key(std::uint64_t seed1, std::uint64_t seed2) {
  mrg_state s = mrg_skip_table::get().skip(mrg_seed(seed1, seed2), 50, 7, 0);
  const std::uint64_t u1 = s.next(), u2 = s.next(), u3 = s.next(), u4 = s.next();
  return {u1 * 0xFFFFFFFFull + u2, u3 * 0xFFFFFFFFull + u4};
}

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
  constexpr index_t chunk = 4096;
#pragma omp parallel for schedule(dynamic, 1)
  for (index_t c0 = 0; c0 < count; c0 += chunk) {
    const index_t c1 = std::min(count, c0 + chunk);
    mrg_state s = table.skip(seed, 0, static_cast<std::uint64_t>(first + c0), 0);
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
