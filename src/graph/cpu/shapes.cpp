// The high-diameter shapes (see gpu500/graph/shapes.hpp): the lattice, whose edges are numbered
// axis by axis so that thread t fills a fixed range, and the random geometric graph, whose points
// are sorted into cells of side >= r and joined by a count pass and a fill pass over the 3 x 3
// cells around each point (each pair once, from its smaller id). Both are parallel and give the
// same list on any thread count.
#include "gpu500/graph/shapes.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>

#include "gpu500/core/cli.hpp"
#include "gpu500/core/device.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/core/splitmix.hpp"

namespace gpu500::graph {

namespace {

constexpr index_t max_shape_vertices = index_t{1} << 40;

/// Value k of the SplitMix64 stream of seed s (core/splitmix.hpp).
constexpr std::uint64_t mix(std::uint64_t s, std::uint64_t k) { return splitmix64(s + k * splitmix_gamma); }

/// Streams of one seed: points and weights never share a counter.
constexpr std::uint64_t point_stream = 0x5eedull << 48, weight_stream = 0xa11ull << 48;

void fill_weights(edge_list& el, std::uint64_t seed) {
  const index_t m = el.size();
  el.weight.resize(static_cast<std::size_t>(m));
#pragma omp parallel for schedule(static)
  for (index_t k = 0; k < m; ++k) el.weight[k] = unit_float(mix(seed ^ weight_stream, static_cast<std::uint64_t>(k)));
}

void reserve_edges(edge_list& el, index_t m, bool weights, const std::string& what) {
  check_host_memory(static_cast<double>(m) * (16.0 + (weights ? 4.0 : 0.0)), what);
  el.src.resize(static_cast<std::size_t>(m));
  el.dst.resize(static_cast<std::size_t>(m));
}

edge_list make_grid(const shape_params& p) {
  const auto& e = p.extents;
  const int axes = static_cast<int>(e.size());
  edge_list el;
  el.num_vertices = p.num_vertices();
  // Axis a's edges: (e_a - 1) x the other extents; they start at first[a].
  std::vector<index_t> stride(static_cast<std::size_t>(axes)), count(static_cast<std::size_t>(axes)),
      first(static_cast<std::size_t>(axes) + 1, 0);
  for (int a = 0; a < axes; ++a) {
    stride[a] = a == 0 ? 1 : stride[a - 1] * e[a - 1];
    count[a] = (e[a] - 1) * (el.num_vertices / e[a]);
    first[a + 1] = first[a] + count[a];
  }
  reserve_edges(el, first[axes], p.weights, "generate: " + p.name());
  for (int a = 0; a < axes; ++a) {
    const index_t s = stride[a], span = e[a] - 1, base = first[a];
#pragma omp parallel for schedule(static)
    for (index_t j = 0; j < count[a]; ++j) {
      // j = low + s * (c + span * high): the vertex at coordinate c < e_a - 1 of axis a.
      const index_t low = j % s, rest = j / s, c = rest % span, high = rest / span;
      const index_t v = low + s * (c + e[a] * high);
      el.src[base + j] = v;
      el.dst[base + j] = v + s;
    }
  }
  if (p.weights) fill_weights(el, p.seed);
  return el;
}

/// Cells of side 1 / C >= r for n points: a point's neighbours lie in its cell and the 8 around it.
index_t cells_per_side(index_t n, double mean_degree) {
  return std::clamp<index_t>(static_cast<index_t>(std::floor(1.0 / geometric_radius(n, mean_degree))), 1,
                             index_t{1} << 20);
}

index_t cell_index(double t, index_t C) { return std::min(C - 1, static_cast<index_t>(t * static_cast<double>(C))); }

/// The points sorted by cell (stable: within a cell, generation order), and where each cell's
/// points start (C * C + 1 entries).
plane_points sorted_points(const shape_params& p, index_t C, std::vector<index_t>& cell_start) {
  const index_t n = p.num_vertices();
  std::vector<double> x(static_cast<std::size_t>(n)), y(static_cast<std::size_t>(n));
  std::vector<index_t> cell_of(static_cast<std::size_t>(n));
#pragma omp parallel for schedule(static)
  for (index_t i = 0; i < n; ++i) {
    const auto k = static_cast<std::uint64_t>(i);
    x[i] = unit_double(mix(p.seed ^ point_stream, 2 * k));
    y[i] = unit_double(mix(p.seed ^ point_stream, 2 * k + 1));
    cell_of[i] = cell_index(x[i], C) + C * cell_index(y[i], C);
  }
  cell_start.assign(static_cast<std::size_t>(C * C) + 1, 0);
  for (index_t i = 0; i < n; ++i) ++cell_start[cell_of[i] + 1];
  for (index_t c = 0; c < C * C; ++c) cell_start[c + 1] += cell_start[c];
  plane_points pts;
  pts.x.resize(static_cast<std::size_t>(n));
  pts.y.resize(static_cast<std::size_t>(n));
  std::vector<index_t> cursor(cell_start.begin(), cell_start.end() - 1);
  for (index_t i = 0; i < n; ++i) {
    const index_t id = cursor[cell_of[i]]++;
    pts.x[id] = x[i];
    pts.y[id] = y[i];
  }
  return pts;
}

edge_list make_geometric(const shape_params& p) {
  const index_t n = p.num_vertices();
  const double r = geometric_radius(n, p.mean_degree), r2 = r * r;
  const index_t C = cells_per_side(n, p.mean_degree);
  const double expected_edges = 0.5 * p.mean_degree * static_cast<double>(n);
  check_host_memory(static_cast<double>(n) * 48.0 + static_cast<double>(C * C) * 16.0 +
                        expected_edges * (16.0 + (p.weights ? 4.0 : 0.0)) * 1.05,
                    "generate: " + p.name());
  std::vector<index_t> cell_start;
  const plane_points pts = sorted_points(p, C, cell_start);
  const std::vector<double>&px = pts.x, &py = pts.y;
  // Each pair (u, v), u < v, closer than r: counted, then written at its place.
  const auto for_each_neighbour = [&](index_t u, auto&& f) {
    const index_t cx = cell_index(px[u], C), cy = cell_index(py[u], C);
    for (index_t yy = std::max<index_t>(cy - 1, 0); yy <= std::min(cy + 1, C - 1); ++yy)
      for (index_t xx = std::max<index_t>(cx - 1, 0); xx <= std::min(cx + 1, C - 1); ++xx) {
        const index_t c = xx + C * yy;
        for (index_t v = std::max(cell_start[c], u + 1); v < cell_start[c + 1]; ++v) {
          const double dx = px[u] - px[v], dy = py[u] - py[v];
          if (dx * dx + dy * dy < r2) f(v);
        }
      }
  };
  std::vector<index_t> offset(static_cast<std::size_t>(n) + 1, 0);
#pragma omp parallel for schedule(dynamic, 1024)
  for (index_t u = 0; u < n; ++u) {
    index_t k = 0;
    for_each_neighbour(u, [&k](index_t) { ++k; });
    offset[u + 1] = k;
  }
  for (index_t u = 0; u < n; ++u) offset[u + 1] += offset[u];
  edge_list el;
  el.num_vertices = n;
  reserve_edges(el, offset[n], p.weights, "generate: " + p.name());
#pragma omp parallel for schedule(dynamic, 1024)
  for (index_t u = 0; u < n; ++u) {
    index_t k = offset[u];
    for_each_neighbour(u, [&](index_t v) {
      el.src[k] = u;
      el.dst[k] = v;
      ++k;
    });
  }
  if (p.weights) fill_weights(el, p.seed);
  return el;
}

}  // namespace

plane_points geometric_points(const shape_params& p) {
  p.check();
  GPU500_EXPECTS(p.shape == shape_params::kind::geometric, "geometric_points of a geometric shape");
  std::vector<index_t> cell_start;
  return sorted_points(p, cells_per_side(p.num_vertices(), p.mean_degree), cell_start);
}

double geometric_radius(index_t n, double mean_degree) {
  return std::sqrt(mean_degree / (std::numbers::pi * static_cast<double>(n)));
}

shape_params shape_params::parse(const std::string& spec) {
  shape_params p;
  const auto colon = spec.find(':');
  const std::string kind = spec.substr(0, colon), rest = colon == std::string::npos ? "" : spec.substr(colon + 1);
  const std::string form = "(grid:AxB[xC] or geometric:N[:DEGREE])";
  if (rest.empty()) throw usage_error("--shape '" + spec + "': give the size " + form);
  if (kind == "grid") {
    p.shape = kind::grid;
    std::size_t at = 0;
    while (true) {
      const auto x = rest.find('x', at);
      p.extents.push_back(cli::parse_int(rest.substr(at, x == std::string::npos ? x : x - at), "--shape grid extent"));
      if (x == std::string::npos) break;
      at = x + 1;
    }
  } else if (kind == "geometric") {
    p.shape = kind::geometric;
    const auto c2 = rest.find(':');
    p.extents.push_back(cli::parse_int(rest.substr(0, c2), "--shape geometric vertex count"));
    if (c2 != std::string::npos) p.mean_degree = cli::parse_double(rest.substr(c2 + 1), "--shape geometric degree");
  } else {
    throw usage_error("--shape '" + spec + "': the shapes are grid and geometric " + form);
  }
  p.check();
  return p;
}

void shape_params::check() const {
  if (shape == kind::grid) {
    if (extents.empty() || extents.size() > 3) throw usage_error("--shape grid: 1 to 3 extents (AxB or AxBxC)");
    index_t n = 1;
    for (index_t e : extents) {
      if (e < 1) throw usage_error("--shape grid: every extent must be >= 1, got " + std::to_string(e));
      if (e > max_shape_vertices / n) throw usage_error("--shape grid: 2^40 vertices at most");
      n *= e;
    }
    if (n < 2) throw usage_error("--shape grid: 2 vertices at least");
  } else {
    if (extents.size() != 1 || extents[0] < 2 || extents[0] > max_shape_vertices)
      throw usage_error("--shape geometric: the vertex count must be in 2..2^40");
    if (!(mean_degree > 0 && mean_degree <= 1000))
      throw usage_error("--shape geometric: the mean degree must be in (0, 1000]");
  }
}

index_t shape_params::num_vertices() const {
  index_t n = 1;
  for (index_t e : extents) n *= e;
  return n;
}

std::string shape_params::name() const {
  std::string s = shape == kind::grid ? "grid:" : "geometric:";
  for (std::size_t i = 0; i < extents.size(); ++i) s += (i ? "x" : "") + std::to_string(extents[i]);
  if (shape == kind::geometric) {
    char d[32];
    std::snprintf(d, sizeof d, ":%g", mean_degree);
    s += d;
  }
  return s;
}

edge_list generate_shape(const shape_params& p) {
  p.check();
  return p.shape == shape_params::kind::grid ? make_grid(p) : make_geometric(p);
}

}  // namespace gpu500::graph
