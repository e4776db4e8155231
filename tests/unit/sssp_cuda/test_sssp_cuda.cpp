// GPU SSSP engine tests (skip without a GPU): Kronecker graphs SCALE 8-16 from several roots and the
// awkward graphs of tests/support/graphs.hpp, both vertex id types, every variant (adaptive / fixed / tiny / huge
// width, Bellman-Ford, persistent and host loops, the near-far device loop on and off), against the
// Dijkstra oracle of tests/support/sssp_check.hpp: distances exact, parents valid and acyclic, nedge;
// the device loop's own paths (a mesh finished in it, its cluster launch in use where the GPU has
// clusters; a hub in one block's step and in a cluster's, a full near queue and a full far pile
// handing the search to the bucket loop, with the next search clean; a random graph's searches
// passing between one block's steps and one cluster's); plus the engine's input checks.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <limits>
#include <vector>

#include "gpu500/core/device.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/graph/csr.hpp"
#include "gpu500/graph/kronecker.hpp"
#include "gpu500/sssp/cuda.hpp"
#include "../../support/graphs.hpp"
#include "../../support/sssp_check.hpp"

using namespace gpu500;
namespace sc = gpu500::sssp::cuda;

namespace {

/// The unoptimised baseline (binary cut, one arc per lane, 2048-arc chunks, full scans).
sc::options baseline() { return sc::baseline_options(); }

/// The bucket loop's variants (each without the device loop, which would finish most small graphs
/// before the bucket loop starts), then the device loop's.
std::vector<sc::options> variants() {
  std::vector<sc::options> v;
  v.push_back({});  // adaptive, persistent (with the pull pass)
  sc::options o;
  o.pull_above = 0;  // no pull: every heavy arc pushed
  v.push_back(o);
  o = {};
  o.loop = sc::loop_kind::host;
  v.push_back(o);
  o = {};
  o.delta = 0.05f;
  v.push_back(o);
  o = {};
  o.delta = 0.001f;  // many buckets
  v.push_back(o);
  o = {};
  o.delta = 100.0f;  // one bucket with light/heavy split
  v.push_back(o);
  o = {};
  o.algo = sc::algorithm::bellman_ford;
  v.push_back(o);
  o = {};
  o.unsorted_rows = true;  // the caller's rows, arcs filtered one by one
  v.push_back(o);
  o.no_settled_filter = true;
  v.push_back(o);
  o.unsorted_rows = false;
  v.push_back(o);
  o = {};
  o.unsorted_rows = true;
  o.delta = 0.05f;
  v.push_back(o);
  o = {};
  o.blocks_per_sm = 6;  // the register-capped persistent kernel
  v.push_back(o);
  o = {};
  o.blocks_per_sm = 1;  // few blocks: every warp loops
  o.grow_below = 4;
  v.push_back(o);
  v.push_back(baseline());
  o = baseline();
  o.loop = sc::loop_kind::host;
  v.push_back(o);
  o = {};
  o.arcs_per_lane = 2;
  o.chunk = 32;  // tiny chunks: rows over big_row become many
  v.push_back(o);
  o = {};
  o.arcs_per_lane = 1;
  o.cut = sc::cut_search::binary;
  o.delta = 0.001f;
  v.push_back(o);
  o = {};
  o.no_settled_filter = true;  // lean scan without the settled bitmap
  o.chunk = 100;
  v.push_back(o);
  o = {};
  o.unsorted_rows = true;  // lean on the caller's rows
  o.arcs_per_lane = 2;
  v.push_back(o);
  o = {};
  o.no_lean = true;
  o.blocks_per_sm = 6;
  v.push_back(o);
  o = {};
  o.vertices_per_lane = 2;
  o.arcs_per_lane = 1;
  o.chunk = 512;
  o.trace = true;
  v.push_back(o);
  o = {};
  o.vertices_per_lane = 1;  // wide arcs, narrow vertex steps
  o.no_lean = true;
  o.loop = sc::loop_kind::host;
  v.push_back(o);
  o = {};
  o.queue_bitmaps = true;  // the default with queue bitmaps
  v.push_back(o);
  o = {};
  o.no_row_records = true;
  v.push_back(o);
  o = {};
  o.pull_above = 1e-9;  // pull whenever a heavy pass has hub chunks
  v.push_back(o);
  o.queue_bitmaps = true;
  o.vertices_per_lane = 1;
  o.no_row_records = true;
  o.chunk = 32;
  v.push_back(o);
  o = {};
  o.pull_above = 1e-9;
  o.loop = sc::loop_kind::host;
  o.delta = 0.001f;
  v.push_back(o);
  o = {};
  o.no_lean = true;  // queue bitmaps without the lean scan, tiny buckets
  o.queue_bitmaps = true;
  o.delta = 0.001f;
  v.push_back(o);
  o = {};
  o.blocks_per_sm = 2;  // the 128-register kernel
  o.delta = 100.0f;
  o.queue_bitmaps = true;
  v.push_back(o);
  o = {};
  o.light_row = 32;  // light ranges over 32 arcs in 32-arc chunks, one group per warp batch
  o.chunk = 32;
  o.grab = 1;
  v.push_back(o);
  o = {};
  o.interleave = 0;  // contiguous batches
  v.push_back(o);
  o.interleave = 8;  // strided runs of 8 entries
  o.grab = 3;  // rounded up to 4 groups (vpl 2)
  o.vertices_per_lane = 2;
  o.light_row = 100;
  o.loop = sc::loop_kind::host;
  v.push_back(o);
  o = {};
  o.interleave = 32;
  o.grab = 8;  // large strided batches with single-group steps
  o.vertices_per_lane = 1;
  o.delta_scale = 0.25f;
  v.push_back(o);
  o = {};
  o.grab = 5;  // vpl 4: rounded up to 8 groups
  o.delta_scale = 4.0f;
  v.push_back(o);
  o = {};
  o.pull_first = 1e-9;  // every bucket with heavy arcs pulls them
  v.push_back(o);
  o.pull_first = 0.05;  // the big buckets only, without the chunk trigger
  o.pull_above = 0;
  o.loop = sc::loop_kind::host;
  v.push_back(o);
  o = {};
  o.pull_first = 0.01;
  o.no_lean = true;
  o.queue_bitmaps = true;
  v.push_back(o);
  for (auto& x : v) x.no_device_loop = true;
  // The device loop first (the bucket loop where it hands over): adaptive, many thresholds, one
  // infinite threshold (no far pile), the caller's rows.
  v.push_back({});
  o = {};
  o.delta = 0.001f;
  v.push_back(o);
  o = {};
  o.algo = sc::algorithm::bellman_ford;
  v.push_back(o);
  o = {};
  o.unsorted_rows = true;
  o.no_row_records = true;
  v.push_back(o);
  return v;
}

std::string label(const sc::options& o) {
  return std::string(sc::algorithm_name(o.algo)) + "/" + sc::loop_name(o.loop) + "/delta=" + std::to_string(o.delta) +
         "/blocks=" + std::to_string(o.blocks_per_sm) + (o.unsorted_rows ? "/unsorted" : "/sorted") +
         (o.no_settled_filter ? "/nofilter" : "/filter") + "/" + sc::cut_name(o.cut) + "/ilp=" +
         std::to_string(o.arcs_per_lane) + "/vpl=" + std::to_string(o.vertices_per_lane) + "/chunk=" + std::to_string(o.chunk) + "/lrow=" + std::to_string(o.light_row) + "/grab=" + std::to_string(o.grab) + ("/inter=" + std::to_string(o.interleave)) + "/dscale=" + std::to_string(o.delta_scale)  + (o.no_lean ? "/nolean" : "/lean") + (o.queue_bitmaps ? "/qbits" : "/stamps") + (o.no_row_records ? "/norows" : "/rows") + (o.no_device_loop ? "/nodevloop" : "/devloop") + "/pull=" + std::to_string(o.pull_above) + "/pf=" + std::to_string(o.pull_first);
}

/// A Graph500 Kronecker graph of one SCALE on the host and on the device, with its search keys.
template <class V>
struct kron_graph {
  graph::kronecker_params p;
  graph::csr<V> g;
  sc::device_csr<V> dg;
  static graph::kronecker_params params(int scale) {
    graph::kronecker_params k;
    k.scale = scale;
    return k;
  }
  explicit kron_graph(int scale) : p(params(scale)), g(graph::build_csr<V>(graph::generate_kronecker(p))), dg(g) {}
  [[nodiscard]] std::vector<std::int64_t> keys(int k) const {
    return graph::pick_search_keys(p, k, [&](std::int64_t v) { return g.degree(v) > 0; });
  }
};

/// The engine's last search (from root) against the Dijkstra oracle.
template <class V>
void expect_oracle(const sc::engine<V>& eng, const graph::csr<V>& g, index_t root) {
  std::vector<std::int64_t> parent(static_cast<std::size_t>(g.num_vertices));
  std::vector<float> dist(static_cast<std::size_t>(g.num_vertices));
  eng.copy_parents(parent);
  eng.copy_distances(dist);
  EXPECT_EQ(test::check_sssp(g, root, test::dijkstra(g, root), parent, dist), "") << "root " << root;
}

template <class V>
void check_all(const graph::csr<V>& g, const std::vector<index_t>& roots, const std::string& what,
               const std::vector<sc::options>& vars) {
  const sc::device_csr<V> dg(g);
  const index_t n = g.num_vertices;
  for (const auto& opt : vars) {
    sc::engine<V> eng(dg.view(), opt);
    for (const index_t root : roots) {
      const auto oracle = test::dijkstra(g, root);
      eng.run(root);
      std::vector<std::int64_t> parent(n);
      std::vector<float> dist(n);
      eng.copy_parents(parent);
      eng.copy_distances(dist);
      ASSERT_EQ(test::check_sssp(g, root, oracle, parent, dist), "")
          << what << " root " << root << " " << label(opt) << " (" << eng.description() << ")";
      EXPECT_EQ(eng.traversed_edges(), test::csr_nedge(g, oracle)) << what << " root " << root << " " << label(opt);
      EXPECT_GT(eng.last_stats().steps, 0);
    }
  }
}

}  // namespace

template <class V>
class SsspCuda : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!gpu500::cuda_available()) GTEST_SKIP() << "no CUDA device";
  }
};
using VertexTypes = ::testing::Types<std::uint32_t, std::int64_t>;
TYPED_TEST_SUITE(SsspCuda, VertexTypes);

TYPED_TEST(SsspCuda, AwkwardGraphs) {
  for (const auto& ng : test::awkward_graphs())
    check_all(graph::build_csr<TypeParam>(ng.edges), ng.roots, ng.name, variants());
}

// Small enough for compute-sanitizer's memcheck and synccheck (scripts/gpu-check.d/sanitize.sh):
// the awkward graphs but the long path and the hub ring (thousands of steps), from their first
// root, and a SCALE 8 Kronecker graph, every variant.
TYPED_TEST(SsspCuda, SmallGraphs) {
  for (const auto& ng : test::awkward_graphs())
    if (ng.name != "path" && ng.name != "hub-ring")
      check_all(graph::build_csr<TypeParam>(ng.edges), {ng.roots.front()}, ng.name, variants());
  graph::kronecker_params p;
  p.scale = 8;
  const auto g = graph::build_csr<TypeParam>(graph::generate_kronecker(p));
  const auto roots = graph::pick_search_keys(p, 2, [&](std::int64_t v) { return g.degree(v) > 0; });
  check_all(g, std::vector<index_t>(roots.begin(), roots.end()), "SCALE 8", variants());
}

// Small enough for racecheck, which slows every shared-memory access hundreds of times: a star
// whose hub row is cut into chunks, from its hub, on the host loop, in five variants that between
// them run every phase kernel (scan, light and heavy rows and chunks, pull; Bellman-Ford; the
// caller's unsorted rows). The persistent kernel runs the same phases (run_phase) between grid
// barriers; racecheck ran every variant over this star and a SCALE 6 graph for over 240 s on an
// H200 without finishing, the persistent ones too.
TYPED_TEST(SsspCuda, StarFiveVariants) {
  std::vector<sc::options> five(5);
  five[1].pull_above = 0;
  five[2].delta = 100.0f;
  five[3].algo = sc::algorithm::bellman_ford;
  five[4].unsorted_rows = true;
  for (auto& o : five) o.loop = sc::loop_kind::host;
  for (const auto& ng : test::awkward_graphs())
    if (ng.name == "star") check_all(graph::build_csr<TypeParam>(ng.edges), {ng.roots.front()}, ng.name, five);
}

TYPED_TEST(SsspCuda, KroneckerSmall) {
  for (int scale : {8, 10, 12}) {
    graph::kronecker_params p;
    p.scale = scale;
    const auto g = graph::build_csr<TypeParam>(graph::generate_kronecker(p));
    const auto roots = graph::pick_search_keys(p, 4, [&](std::int64_t v) { return g.degree(v) > 0; });
    check_all(g, std::vector<index_t>(roots.begin(), roots.end()), "SCALE " + std::to_string(scale), variants());
  }
}

TYPED_TEST(SsspCuda, KroneckerLarger) {
  for (int scale : {14, 16}) {
    graph::kronecker_params p;
    p.scale = scale;
    const auto g = graph::build_csr<TypeParam>(graph::generate_kronecker(p));
    const auto roots = graph::pick_search_keys(p, 6, [&](std::int64_t v) { return g.degree(v) > 0; });
    std::vector<sc::options> vars(1);
    sc::options h;
    h.loop = sc::loop_kind::host;
    vars.push_back(h);
    sc::options d;
    d.delta = 0.1f;
    vars.push_back(d);
    sc::options u;
    u.unsorted_rows = true;
    vars.push_back(u);
    vars.push_back(baseline());
    sc::options c;
    c.arcs_per_lane = 2;
    c.vertices_per_lane = 2;
    c.chunk = 64;
    vars.push_back(c);
    sc::options st;
    st.queue_bitmaps = true;
    st.blocks_per_sm = 3;
    vars.push_back(st);
    sc::options pl;
    pl.pull_above = 1e-9;
    vars.push_back(pl);
    sc::options sb;  // the weight sort in many batches, some holding one row longer than a batch
    sb.sort_batch = 64;
    vars.push_back(sb);
    sc::options nl;  // the bucket loop from the root
    nl.no_device_loop = true;
    vars.push_back(nl);
    check_all(g, std::vector<index_t>(roots.begin(), roots.end()), "SCALE " + std::to_string(scale), vars);
  }
}

TYPED_TEST(SsspCuda, OutputBeforeAnyRunAndRepeatedRuns) {
  graph::kronecker_params p;
  p.scale = 10;
  const auto g = graph::build_csr<TypeParam>(graph::generate_kronecker(p));
  const sc::device_csr<TypeParam> dg(g);
  sc::engine<TypeParam> eng(dg.view());
  EXPECT_NE(eng.parents_device(), nullptr);
  EXPECT_NE(eng.distances_device(), nullptr);
  const auto roots = graph::pick_search_keys(p, 2, [&](std::int64_t v) { return g.degree(v) > 0; });
  std::vector<float> first(g.num_vertices), again(g.num_vertices), other(g.num_vertices);
  eng.run(roots[0]);
  eng.copy_distances(first);
  eng.run(roots[1]);
  eng.copy_distances(other);
  eng.run(roots[0]);
  eng.copy_distances(again);
  EXPECT_EQ(first, again);  // no state leaks from one search into the next
  EXPECT_NE(first, other);
  // prepare() (the untimed reset the pipeline calls) is optional and idempotent.
  eng.prepare();
  eng.prepare();
  eng.run(roots[1]);
  eng.copy_distances(again);
  EXPECT_EQ(other, again);
  eng.prepare();
  eng.run(roots[0]);
  eng.run(roots[1]);  // not prepared: run() resets
  eng.copy_distances(again);
  EXPECT_EQ(other, again);
}

TYPED_TEST(SsspCuda, InputWeightsFreeAfterSortedCopy) {
  // The Graph500 pipeline frees its CSR weights once the engine holds its sorted copy. Here the
  // callback overwrites the input's columns and weights with garbage (all bits set: NaN weights,
  // columns out of range); the searches must still match the oracle, and graph_view() must hold
  // every row's arcs in weight order.
  using V = TypeParam;
  graph::kronecker_params p;
  p.scale = 12;
  const auto g = graph::build_csr<V>(graph::generate_kronecker(p));
  const sc::device_csr<V> dg(g);
  const auto in = dg.view();
  const auto arcs = static_cast<std::size_t>(g.offsets.back());
  int calls = 0;
  sc::engine<V> eng(in, {}, [&] {
    ++calls;
    ASSERT_EQ(cudaMemset(const_cast<float*>(in.weights), 0xFF, arcs * sizeof(float)), cudaSuccess);
    ASSERT_EQ(cudaMemset(const_cast<V*>(in.columns), 0xFF, arcs * sizeof(V)), cudaSuccess);
  });
  EXPECT_EQ(calls, 1);
  ASSERT_TRUE(eng.rows_sorted());
  const auto roots = graph::pick_search_keys(p, 3, [&](std::int64_t v) { return g.degree(v) > 0; });
  for (const auto root : roots) {
    const auto oracle = test::dijkstra(g, root);
    eng.run(root);
    std::vector<std::int64_t> parent(g.num_vertices);
    std::vector<float> dist(g.num_vertices);
    eng.copy_parents(parent);
    eng.copy_distances(dist);
    ASSERT_EQ(test::check_sssp(g, root, oracle, parent, dist), "") << "root " << root;
  }
  const auto v = eng.graph_view();
  EXPECT_EQ(v.offsets, in.offsets);
  std::vector<V> cols(arcs);
  std::vector<float> wts(arcs);
  ASSERT_EQ(cudaMemcpy(cols.data(), v.columns, arcs * sizeof(V), cudaMemcpyDeviceToHost), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(wts.data(), v.weights, arcs * sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);
  for (index_t u = 0; u < g.num_vertices; ++u) {
    const auto b = static_cast<std::size_t>(g.offsets[u]), e = static_cast<std::size_t>(g.offsets[u + 1]);
    std::vector<std::pair<V, float>> want, got;
    for (std::size_t k = b; k < e; ++k) {
      want.emplace_back(g.columns[k], g.weights[k]);
      got.emplace_back(cols[k], wts[k]);
      if (k > b) {
        ASSERT_LE(wts[k - 1], wts[k]) << "row " << u;
      }
    }
    std::sort(want.begin(), want.end());
    std::sort(got.begin(), got.end());
    ASSERT_EQ(want, got) << "row " << u;
  }
  // Unsorted rows: no copy, no call, and graph_view() is the input.
  const sc::device_csr<V> dg2(g);
  sc::options u;
  u.unsorted_rows = true;
  int calls2 = 0;
  sc::engine<V> plain(dg2.view(), u, [&] { ++calls2; });
  EXPECT_EQ(calls2, 0);
  EXPECT_FALSE(plain.rows_sorted());
  EXPECT_EQ(plain.graph_view().weights, dg2.view().weights);
}

TYPED_TEST(SsspCuda, PhaseTrace) {
  const kron_graph<TypeParam> kg(12);
  const auto& g = kg.g;
  const auto& dg = kg.dg;
  sc::options o;
  o.trace = true;
  sc::engine<TypeParam> eng(dg.view(), o);
  EXPECT_TRUE(eng.last_trace().empty());  // no search yet
  const auto roots = kg.keys(1);
  eng.run(roots[0]);
  const auto t = eng.last_trace();
  ASSERT_EQ(static_cast<std::int64_t>(t.size()), eng.last_stats().steps);
  EXPECT_EQ(t.front().phase, 0);               // a search starts with a scan of all vertices
  EXPECT_EQ(t.front().size, g.num_vertices);
  int light = 0;
  std::int64_t improved = 0, light_arcs = 0;
  for (const auto& r : t) {
    EXPECT_GE(r.phase, 0);
    EXPECT_LE(r.phase, 5);
    EXPECT_GE(r.us, 0.0);
    light += r.phase == 1;
    // counts: improvements <= candidates <= arcs, and only list and chunk phases visit arcs
    EXPECT_LE(r.improved, r.candidates);
    EXPECT_LE(r.candidates, r.arcs);
    if (r.phase == 0 || r.phase == 5) {
      EXPECT_EQ(r.arcs, 0);
      EXPECT_EQ(r.max_step_arcs, 0);
    } else {  // the busiest warp step: some arcs when any were visited, at most all of them
      EXPECT_LE(r.max_step_arcs, r.arcs);
      EXPECT_EQ(r.max_step_arcs > 0, r.arcs > 0);
    }
    if (r.phase == 2 || r.phase == 4) {  // a chunk phase's step is one chunk
      EXPECT_LE(r.max_step_arcs, o.chunk);
    }
    improved += r.improved;
    light_arcs += r.phase == 1 || r.phase == 2 ? r.arcs : 0;
  }
  EXPECT_EQ(light, eng.last_stats().light_steps);  // every light iteration has one light phase
  EXPECT_GT(light_arcs, 0);
  // Without a pull pass (which writes words without pushing arcs), every reached vertex but the
  // root was lowered at least once by a pushed arc.
  std::vector<float> d(static_cast<std::size_t>(g.num_vertices));
  eng.copy_distances(d);
  const auto reached = static_cast<std::int64_t>(std::count_if(d.begin(), d.end(), [](float x) { return x >= 0; }));
  const bool pulled = std::any_of(t.begin(), t.end(), [](const sc::phase_record& r) { return r.phase == 5; });
  if (!pulled) {
    EXPECT_GE(improved, reached - 1);
  }
  // A second search starts from zeroed counts (kept counts would about double the sum).
  eng.run(roots[0]);
  std::int64_t improved2 = 0;
  for (const auto& r : eng.last_trace()) improved2 += r.improved;
  EXPECT_GT(improved2, 0);
  EXPECT_LT(improved2, improved + improved / 2);
  sc::engine<TypeParam> plain(dg.view());
  plain.run(roots[0]);
  EXPECT_TRUE(plain.last_trace().empty());
  // Short light rows: the light chunks hold at most light_row arcs, a list step at most
  // 32 x vpl rows of light_row arcs each, and the result still matches the oracle.
  sc::options shortrows;
  shortrows.trace = true;
  shortrows.light_row = 32;
  sc::engine<TypeParam> sr(dg.view(), shortrows);
  sr.run(roots[0]);
  int light_chunk_phases = 0;
  for (const auto& r : sr.last_trace()) {
    if (r.phase == 2) {
      ++light_chunk_phases;
      EXPECT_LE(r.max_step_arcs, 32);
    }
    if (r.phase == 1) {
      EXPECT_LE(r.max_step_arcs, 32 * shortrows.vertices_per_lane * 32);
    }
  }
  EXPECT_GT(light_chunk_phases, 0);
  expect_oracle(sr, g, roots[0]);
}

TYPED_TEST(SsspCuda, PullPassRuns) {
  // The pull variant must actually pull on a Kronecker graph (else the oracle checks of the pull
  // variants prove nothing), and its results match the oracle.
  const kron_graph<TypeParam> kg(14);
  const auto& g = kg.g;
  sc::options o;
  o.pull_above = 1e-9;
  o.trace = true;
  sc::engine<TypeParam> eng(kg.dg.view(), o);
  const auto roots = kg.keys(3);
  std::int64_t pulls = 0;
  for (const auto root : roots) {
    eng.run(root);
    pulls += eng.last_stats().pulls;
    std::int64_t traced = 0;
    for (const auto& r : eng.last_trace()) traced += r.phase == 5;
    EXPECT_EQ(traced, eng.last_stats().pulls);
    expect_oracle(eng, g, root);
  }
  EXPECT_GT(pulls, 0);
}

TYPED_TEST(SsspCuda, PullFirstReplacesHeavyPasses) {
  // With pull-first on every bucket, each bucket's light phases end in a pull; a heavy phase runs
  // only where the estimate was 0, and then has no arcs (the estimate bounds the heavy pass's arcs:
  // every vertex of R was a light entry, and its final cut leaves no more heavy arcs than any
  // earlier one).
  const kron_graph<TypeParam> kg(13);
  const auto& g = kg.g;
  sc::options o;
  o.pull_first = 1e-9;
  o.pull_above = 0;
  o.trace = true;
  sc::engine<TypeParam> eng(kg.dg.view(), o);
  const auto roots = kg.keys(2);
  for (const auto root : roots) {
    eng.run(root);
    const auto t = eng.last_trace();
    std::int64_t pulls = 0;
    for (std::size_t k = 0; k < t.size(); ++k) {
      if (t[k].phase == 3) {
        EXPECT_EQ(t[k].arcs, 0) << "a heavy phase with arcs ran at step " << k;
      }
      if (t[k].phase == 5) {
        ++pulls;
        ASSERT_GT(k, 0u);
        EXPECT_TRUE(t[k - 1].phase == 1 || t[k - 1].phase == 2) << "a pull follows the light phases";
      }
    }
    EXPECT_GT(pulls, 0);
    EXPECT_EQ(pulls, eng.last_stats().pulls);
    expect_oracle(eng, g, root);
  }
}

/// A tree: the root, `a` children, `b` grandchildren under each child and `c` leaves under each
/// grandchild (vertex 0 the root), every edge of weight `w` (0: random in [0, 1)).
graph::edge_list three_level_tree(int a, int b, int c, float w) {
  graph::edge_list el;
  std::uint64_t s = 7;
  const auto weight = [&] { return w > 0 ? w : test::test_weight(s, false); };
  std::int64_t next = 1;
  for (int i = 0; i < a; ++i) {
    const std::int64_t child = next++;
    test::add_edge(el, 0, child, weight());
    for (int j = 0; j < b; ++j) {
      const std::int64_t grandchild = next++;
      test::add_edge(el, child, grandchild, weight());
      for (int k = 0; k < c; ++k) test::add_edge(el, grandchild, next++, weight());
    }
  }
  el.num_vertices = next;
  return el;
}

/// A rows x cols grid with random weights in [0, 1).
graph::edge_list grid_graph(int rows, int cols) {
  graph::edge_list el;
  std::uint64_t s = 11;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      const std::int64_t v = static_cast<std::int64_t>(r) * cols + c;
      if (c + 1 < cols) test::add_edge(el, v, v + 1, test::test_weight(s, true));
      if (r + 1 < rows) test::add_edge(el, v, v + cols, test::test_weight(s, false));
    }
  el.num_vertices = static_cast<index_t>(rows) * cols;
  return el;
}

/// The engine's search from root matches the oracle and ended in the device loop or not, as said.
template <class V>
void expect_device_loop(sc::engine<V>& eng, const graph::csr<V>& g, index_t root, bool finished, const std::string& what) {
  eng.run(root);
  expect_oracle(eng, g, root);
  const auto st = eng.last_stats();
  EXPECT_GT(st.loop_steps, 0) << what;
  EXPECT_EQ(st.loop_finished, finished) << what << ": " << st.loop_steps << " device-loop steps";
  EXPECT_EQ(eng.traversed_edges(), test::csr_nedge(g, test::dijkstra(g, root))) << what;
}

/// Whether the current GPU runs thread-block clusters (Hopper and later).
bool device_has_clusters() {
  int device = 0, clusters = 0;
  return cudaGetDevice(&device) == cudaSuccess &&
         cudaDeviceGetAttribute(&clusters, cudaDevAttrClusterLaunch, device) == cudaSuccess && clusters != 0;
}

TYPED_TEST(SsspCuda, DeviceLoopFinishesMeshesAndHandsOverHubsAndFullLists) {
  using V = TypeParam;
  {  // a mesh: every frontier small, the whole search in the device loop, at every width; its
     // steps of more than one block's near vertices run in one cluster where the GPU has them
    const auto g = graph::build_csr<V>(grid_graph(61, 47));
    const sc::device_csr<V> dg(g);
    for (float delta : {0.0f, 0.01f, 5.0f}) {
      sc::options o;
      o.delta = delta;
      sc::engine<V> eng(dg.view(), o);
      for (index_t root : {index_t{0}, index_t{1433}, index_t{61 * 47 - 1}})
        expect_device_loop(eng, g, root, true, "grid, delta " + std::to_string(delta));
      if (device_has_clusters()) {  // still so after the searches: the cooperative cluster launch ran
        EXPECT_NE(eng.description().find("near-far device loop first (clusters of"), std::string::npos)
            << eng.description();
      }
      sc::options bf;
      bf.algo = sc::algorithm::bellman_ford;
      sc::engine<V> eng_bf(dg.view(), bf);
      expect_device_loop(eng_bf, g, 5, true, "grid, Bellman-Ford");
    }
    sc::options off;
    off.no_device_loop = true;
    sc::engine<V> eng(dg.view(), off);
    eng.run(0);
    expect_oracle(eng, g, 0);
    EXPECT_EQ(eng.last_stats().loop_steps, 0);
    EXPECT_FALSE(eng.last_stats().loop_finished);
  }
  {  // a hub of 300 arcs at the root: the device loop leaves at its first step
    const auto g = graph::build_csr<V>(three_level_tree(300, 1, 0, 0.0f));
    const sc::device_csr<V> dg(g);
    sc::engine<V> eng(dg.view());
    expect_device_loop(eng, g, 0, false, "hub root");
    EXPECT_EQ(eng.last_stats().loop_steps, 1);
    expect_device_loop(eng, g, 2, false, "a leaf two arcs from the hub");  // it meets the hub later
  }
  {  // a hub of 300 arcs among 400 near vertices (a step larger than one block: the cluster's,
     // where the GPU has clusters): the loop leaves from there, and the next search is clean
    graph::edge_list el = three_level_tree(200, 2, 0, 1.0f);
    const std::int64_t hub = 3;  // a grandchild (child 1's second)
    for (int i = 0; i < 300; ++i) test::add_edge(el, hub, el.num_vertices + i, 1.0f);
    el.num_vertices += 300;
    const auto g = graph::build_csr<V>(el);
    const sc::device_csr<V> dg(g);
    sc::options bf;
    bf.algo = sc::algorithm::bellman_ford;  // every improvement near: the grandchildren are one step
    sc::engine<V> eng(dg.view(), bf);
    expect_device_loop(eng, g, 0, false, "a hub in a step of 400 near vertices");
    EXPECT_EQ(eng.last_stats().loop_steps, 3);
    expect_device_loop(eng, g, 1, false, "from a child after it");
  }
  {  // 280,000 leaves at depth 3: past the near queue (Bellman-Ford: no far pile) and past the far
     // pile (unit weights, bucket width 0.03: the loop's thresholds 16 widths = 0.48 apart, so every
     // improvement lands in the pile); each search is then
     // finished by the bucket loop, and a search after it (from a leaf) finds every bit clear.
    const auto g = graph::build_csr<V>(three_level_tree(200, 200, 7, 1.0f));
    const sc::device_csr<V> dg(g);
    sc::options bf;
    bf.algo = sc::algorithm::bellman_ford;
    sc::engine<V> near_full(dg.view(), bf);
    expect_device_loop(near_full, g, 0, false, "full near queue");
    EXPECT_EQ(near_full.last_stats().loop_steps, 3);
    expect_device_loop(near_full, g, g.num_vertices - 1, false, "from a leaf after a full near queue");
    sc::options narrow;
    narrow.delta = 0.03f;
    sc::engine<V> far_full(dg.view(), narrow);
    expect_device_loop(far_full, g, 0, false, "full far pile");
    expect_device_loop(far_full, g, g.num_vertices - 1, false, "from a leaf after a full far pile");
    // Random weights, the smaller tree: finished in the loop, splits and all.
    const auto h = graph::build_csr<V>(three_level_tree(50, 30, 5, 0.0f));
    const sc::device_csr<V> dh(h);
    sc::engine<V> eng(dh.view(), narrow);
    expect_device_loop(eng, h, 0, true, "a tree of 9,051 vertices, bucket width 0.03");
    expect_device_loop(eng, h, 77, true, "the same from vertex 77");
  }
}

// A random graph of average degree 8: its near queue grows past one block's step and shrinks
// again, so a search passes from steps of one block to steps of one cluster (and on a GPU with
// clusters never needs a grid step), and every search ends in the device loop. Many searches, each
// against the oracle: the states such tiers leave for the grid must not be overwritten while a
// block has yet to read them (with one slot for them, a search could split the grid's decisions
// and never end, and the suite would stop at its time limit).
TYPED_TEST(SsspCuda, DeviceLoopPassesBetweenBlockAndClusterFromManyRoots) {
  using V = TypeParam;
  graph::edge_list el;
  el.num_vertices = 3001;  // odd
  std::uint64_t s = 5;
  for (int i = 0; i < 12000; ++i) {
    const auto u = static_cast<std::int64_t>(test::test_rand(s) % 3001);
    const auto v = static_cast<std::int64_t>(test::test_rand(s) % 3001);
    test::add_edge(el, u, v, test::test_weight(s, true));
  }
  const auto g = graph::build_csr<V>(el);
  const sc::device_csr<V> dg(g);
  sc::engine<V> eng(dg.view());
  for (index_t root = 0; root < 3001; root += 23)
    if (g.offsets[root + 1] > g.offsets[root])
      expect_device_loop(eng, g, root, true, "random graph, root " + std::to_string(root));
}

TYPED_TEST(SsspCuda, RejectsBadInput) {
  graph::edge_list el;
  el.num_vertices = 3;
  test::add_edge(el, 0, 1, 0.5f);
  test::add_edge(el, 1, 2, -0.25f);
  const auto g = graph::build_csr<TypeParam>(el);
  const sc::device_csr<TypeParam> dg(g);
  EXPECT_THROW(sc::engine<TypeParam>(dg.view()), usage_error);
  auto unweighted = dg.view();
  unweighted.weights = nullptr;
  EXPECT_THROW(sc::engine<TypeParam>(unweighted, {}), gpu500::error);
  graph::edge_list ok;
  ok.num_vertices = 3;
  test::add_edge(ok, 0, 1, 0.5f);
  const auto g2 = graph::build_csr<TypeParam>(ok);
  const sc::device_csr<TypeParam> dg2(g2);
  sc::engine<TypeParam> eng(dg2.view());
  EXPECT_THROW(eng.run(3), gpu500::error);
  EXPECT_THROW(eng.run(-1), gpu500::error);
  sc::options nobatch;
  nobatch.sort_batch = 0;
  EXPECT_THROW(sc::engine<TypeParam>(dg2.view(), nobatch), usage_error);
}

// Runs everywhere: the vertex limit is checked before the device is touched.
TEST(SsspCudaLimits, TooManyVertices) {
  graph::csr_view<std::int64_t> v;
  v.num_vertices = v.local_vertices = index_t{1} << 33;
  static const index_t fake_offsets[1] = {0};
  static const std::int64_t fake_cols[1] = {0};
  static const float fake_w[1] = {0};
  v.offsets = fake_offsets;
  v.columns = fake_cols;
  v.weights = fake_w;
  EXPECT_THROW(sc::engine<std::int64_t>(v, {}), usage_error);
}

TEST(SsspCudaOptions, BaselineKeepsTheRest) {
  sc::options base;
  base.trace = true;
  base.delta = 0.5f;
  const sc::options f = sc::baseline_options(base);
  EXPECT_TRUE(f.trace);  // fields the baseline does not name are kept
  EXPECT_EQ(f.delta, 0.5f);
  EXPECT_EQ(f.cut, sc::cut_search::binary);
  EXPECT_EQ(f.arcs_per_lane, 1);
  EXPECT_EQ(f.vertices_per_lane, 1);
  EXPECT_EQ(f.chunk, 2048);
  EXPECT_TRUE(f.no_lean);
  EXPECT_TRUE(f.no_row_records);
  EXPECT_TRUE(f.no_device_loop);
  EXPECT_EQ(f.pull_above, 0.0);
  EXPECT_EQ(f.interleave, 0);
  EXPECT_EQ(f.pull_first, 0.0);
  EXPECT_EQ(f.delta_scale, 1.0f);
}

// The tuning knobs are not on the command line: their defaults are the engine's policy.
TEST(SsspCudaOptions, DefaultsAreThePolicy) {
  const sc::options o;
  EXPECT_EQ(o.algo, sc::algorithm::delta_stepping);
  EXPECT_LE(o.delta, 0.0f);
  EXPECT_EQ(o.loop, sc::loop_kind::persistent);
  EXPECT_FALSE(o.unsorted_rows);
  EXPECT_EQ(o.pull_above, 0.02);
  EXPECT_EQ(o.pull_first, 0.05);
  EXPECT_EQ(o.grow_below, 16384);
  EXPECT_EQ(o.blocks_per_sm, 0);
  EXPECT_FALSE(o.profile);
  EXPECT_FALSE(o.no_settled_filter);
  EXPECT_EQ(o.cut, sc::cut_search::gallop);
  EXPECT_EQ(o.arcs_per_lane, 4);
  EXPECT_EQ(o.vertices_per_lane, 4);
  EXPECT_EQ(o.chunk, 256);
  EXPECT_EQ(o.light_row, 512);
  EXPECT_EQ(o.grab, 4);
  EXPECT_EQ(o.interleave, 1);
  EXPECT_EQ(o.delta_scale, 0.7f);
  EXPECT_FALSE(o.no_lean);
  EXPECT_FALSE(o.queue_bitmaps);
  EXPECT_FALSE(o.no_row_records);
  EXPECT_FALSE(o.trace);
  EXPECT_FALSE(o.no_device_loop);
  EXPECT_STREQ(sc::algorithm_name(sc::algorithm::bellman_ford), "bellman-ford");
  EXPECT_STREQ(sc::loop_name(sc::loop_kind::host), "host");
  EXPECT_STREQ(sc::cut_name(sc::cut_search::binary), "binary");
}
