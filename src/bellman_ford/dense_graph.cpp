// Dense graph storage, transpose and the seeded random generator (see dense_graph.hpp).
#include "gpu500/bellman_ford/dense_graph.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "gpu500/core/error.hpp"
#include "gpu500/core/splitmix.hpp"

namespace gpu500::bellman_ford {

namespace {
// splitmix64 (core/splitmix.hpp): a counter-based hash, so element (j, v) is a pure function of
// (seed, j, v).
constexpr std::uint64_t mix(std::uint64_t x) { return splitmix64(x); }
constexpr double unit(std::uint64_t h) { return unit_double(h); }
std::int64_t uniform_int(std::uint64_t h, std::int64_t lo, std::int64_t hi) {
  const auto span = static_cast<std::uint64_t>(hi - lo) + 1;
  return lo + static_cast<std::int64_t>(h % span);  // bias < span / 2^64: irrelevant here
}
}  // namespace

index_t padded_ld(index_t n) { return std::max<index_t>(32, (n + 31) / 32 * 32); }

dense_matrix dense_matrix::empty(index_t n, layout lay) {
  GPU500_EXPECTS(n >= 1, "dense graph: need at least one vertex");
  dense_matrix m;
  m.n = n;
  m.ld = padded_ld(n);
  m.lay = lay;
  m.w.assign(static_cast<std::size_t>(m.ld) * static_cast<std::size_t>(m.ld), inf);
  return m;
}

dense_matrix transpose(const dense_matrix& m) {
  dense_matrix t;
  t.n = m.n;
  t.ld = m.ld;
  t.lay = m.lay == layout::by_source ? layout::by_target : layout::by_source;
  t.w.resize(m.w.size());
  const index_t ld = m.ld, tile = 32;
#pragma omp parallel for schedule(static)
  for (index_t r0 = 0; r0 < ld; r0 += tile)
    for (index_t c0 = 0; c0 < ld; c0 += tile)
      for (index_t r = r0; r < r0 + tile; ++r)
        for (index_t c = c0; c < c0 + tile; ++c)
          t.w[static_cast<std::size_t>(c * ld + r)] = m.w[static_cast<std::size_t>(r * ld + c)];
  return t;
}

void check_params(const graph_params& p) {
  if (p.n < 1) throw usage_error("bellman-ford: --n must be at least 1");
  if (!(p.density >= 0 && p.density <= 1)) throw usage_error("bellman-ford: --density must lie in [0, 1]");
  if (p.wmin < 0 || p.wmin > p.wmax)
    throw usage_error("bellman-ford: weights need 0 <= wmin <= wmax (negative edges come from --negative)");
  // Every intermediate value is a sum of at most n weights of magnitude <= max|w|: keep it exact.
  const double maxw = p.negative ? 2.0 * p.wmax : p.wmax;
  if (static_cast<double>(p.n) * maxw >= 16777216.0) {
    char product[32];
    std::snprintf(product, sizeof product, "%.6g", static_cast<double>(p.n) * maxw);
    throw usage_error(std::string("bellman-ford: n * max|weight| = ") + product +
                      " must stay below 2^24 (16777216) for exact float32 sums; lower --wmax or --n");
  }
}

dense_matrix generate(const graph_params& p, std::vector<float>* potentials) {
  check_params(p);
  dense_matrix m = dense_matrix::empty(p.n, layout::by_source);
  const index_t n = p.n, ld = m.ld;
  std::vector<float> pot(static_cast<std::size_t>(n), 0.0f);
  if (p.negative)
    for (index_t v = 0; v < n; ++v)
      pot[static_cast<std::size_t>(v)] =
          static_cast<float>(uniform_int(mix(p.seed * 0x2545f4914f6cdd1dULL ^ mix(static_cast<std::uint64_t>(v) + 7)), 0, p.wmax));
  const std::uint64_t s = mix(p.seed);
#pragma omp parallel for schedule(static)
  for (index_t j = 0; j < n; ++j) {
    const std::uint64_t row = mix(s ^ mix(static_cast<std::uint64_t>(j)));
    for (index_t v = 0; v < n; ++v) {
      if (v == j) continue;
      const std::uint64_t h1 = mix(row + static_cast<std::uint64_t>(v));
      if (unit(h1) >= p.density) continue;
      float w = static_cast<float>(uniform_int(mix(h1), p.wmin, p.wmax));
      if (p.negative) w = w + pot[static_cast<std::size_t>(j)] - pot[static_cast<std::size_t>(v)];
      m.w[static_cast<std::size_t>(j * ld + v)] = w;
    }
  }
  if (potentials) *potentials = std::move(pot);
  return m;
}

}  // namespace gpu500::bellman_ford
