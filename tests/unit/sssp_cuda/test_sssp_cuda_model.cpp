// Host-side tests of the GPU SSSP's control logic (runs in CI, no GPU): the bucket state machine of
// src/sssp/cuda/control.hpp drives a serial model of the device phases (scan / light / heavy, rows
// cut into chunks, list entries taken in a shuffled order as the GPU's warps would), and the model's
// results are checked against the Dijkstra oracle of tests/support/sssp_check.hpp. The device kernels implement the same phases.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <tuple>

#include "control.hpp"
#include "gpu500/graph/csr.hpp"
#include "gpu500/graph/kronecker.hpp"
#include "../../support/graphs.hpp"
#include "../../support/sssp_check.hpp"

using namespace gpu500;
using namespace gpu500::sssp::cuda::detail;

namespace {

struct model_config {
  float delta = 0.1f;
  bool adaptive = false;
  float delta_max = 0.1f;
  std::int64_t grow_below = 0;
  index_t big_row = 8;
  index_t chunk = 5;
  unsigned seed = 1;
  bool sorted = false;  ///< rows sorted by weight: a phase takes the light prefix / heavy suffix only
  bool filter = false;  ///< settled flags: heavy arcs into vertices with d < hi are skipped unread
  bool gallop = false;  ///< sorted rows: the cut by control.hpp's galloping search (else its binary search)
  /// The engine's lean variant: a scan skips vertices without arcs and (with filter) settled ones;
  /// every light improvement sets the settled flag.
  bool lean = false;
  /// Queue bitmaps instead of stamps (the engine's default with the settled bitmap): a push tests
  /// and sets the out queue's bit, R membership is the settled flag, a light phase clears the bits
  /// of the queue it reads.
  bool qbits = false;
  /// > 0 (sorted rows): a heavy phase with at least this many chunks is followed by the pull pass
  /// (control.hpp) instead of pushing the chunks.
  std::int64_t pull_min_chunks = 0;
  std::int64_t* pulls = nullptr;  ///< counts the pull passes run, when set
  /// > 0 (sorted rows, filter): a bucket whose light entries' heavy arcs sum to at least this many
  /// is pulled instead of pushing its heavy arcs (control::pull_first_arcs).
  std::int64_t pull_first_arcs = 0;
};

struct model_result {
  std::vector<std::int64_t> parent;
  std::vector<float> dist;
  control last{};
};

/// The engine's weight-sorted copy of the rows (its own sort: std::sort of (weight, column) pairs).
template <class V>
graph::csr<V> sort_rows(const graph::csr<V>& g) {
  graph::csr<V> r = g;
  std::vector<std::pair<float, V>> row;
  for (index_t u = 0; u < g.num_vertices; ++u) {
    row.clear();
    for (index_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k) row.emplace_back(g.weights[k], g.columns[k]);
    std::sort(row.begin(), row.end());
    for (std::size_t i = 0; i < row.size(); ++i) {
      r.weights[g.offsets[u] + static_cast<index_t>(i)] = row[i].first;
      r.columns[g.offsets[u] + static_cast<index_t>(i)] = row[i].second;
    }
  }
  return r;
}

template <class V>
model_result model_search(const graph::csr<V>& g_in, index_t root, const model_config& cfg) {
  const graph::csr<V> g = cfg.sorted ? sort_rows(g_in) : g_in;
  const index_t n = g.num_vertices;
  std::vector<unsigned long long> dp(n, ~0ull);
  std::vector<std::uint32_t> stamp(n, 0);
  std::vector<char> settled(n, 0);
  std::vector<char> qbit[2] = {std::vector<char>(n, 0), std::vector<char>(n, 0)};
  std::vector<std::uint32_t> lists[3] = {std::vector<std::uint32_t>(n), std::vector<std::uint32_t>(n),
                                         std::vector<std::uint32_t>(n)};
  std::vector<std::tuple<std::uint32_t, index_t, index_t>> chunks;
  std::mt19937 rng(cfg.seed);
  dp[root] = static_cast<unsigned long long>(root);
  control s = initial_control(cfg.delta, cfg.adaptive, cfg.delta_max, cfg.grow_below);
  s.pull_min_chunks = cfg.pull_min_chunks;
  s.pull_first_arcs = cfg.pull_first_arcs;
  counters c{};
  std::int64_t guard = 0;
  const auto visit = [&](bool light, index_t a, std::uint32_t u, float du) {
    const float nd = du + g.weights[a];
    if (light ? !(nd < s.hi) : (nd < s.hi)) return;
    const auto v = static_cast<std::uint32_t>(g.columns[a]);
    if (!light && cfg.filter && settled[v]) return;
    const std::uint32_t nb = float_bits(nd);
    if (!(nb < static_cast<std::uint32_t>(dp[v] >> 32))) return;
    dp[v] = (static_cast<unsigned long long>(nb) << 32) | u;
    if (!light) return;
    if (cfg.qbits) {
      char& in_q = qbit[s.out_list == list_q0 ? 0 : 1][v];
      if (!in_q) lists[s.out_list][s.out_size + static_cast<index_t>(c.out++)] = v;
      in_q = 1;
      if (!settled[v]) lists[list_r][s.r_size + static_cast<index_t>(c.r_append++)] = v;
      settled[v] = 1;
      return;
    }
    if (cfg.lean) settled[v] = 1;
    const std::uint32_t old = stamp[v];
    stamp[v] = s.epoch;
    if (old != s.epoch) lists[s.out_list][s.out_size + static_cast<index_t>(c.out++)] = v;
    if (old < s.scan_epoch) {
      lists[list_r][s.r_size + static_cast<index_t>(c.r_append++)] = v;
      settled[v] = 1;
    }
  };
  while (s.phase != phase_done) {
    if (++guard > 10'000'000) throw std::runtime_error("model does not terminate");
    reset(c);
    const bool light = s.phase == phase_light || s.phase == phase_light_big;
    if (s.phase == phase_scan) {
      const std::uint32_t lo = float_bits(s.lo), hi = float_bits(s.hi);
      for (index_t v = 0; v < n; ++v) {
        if (cfg.lean && ((cfg.filter && settled[v]) || g.degree(v) == 0)) continue;
        const auto b = static_cast<std::uint32_t>(dp[v] >> 32);
        if (b >= lo && b < hi) {
          lists[list_r][c.out++] = static_cast<std::uint32_t>(v);
          stamp[v] = s.scan_epoch;
          settled[v] = 1;
        } else if (b >= hi && b != inf_bits) {
          c.min_next = std::min<unsigned>(c.min_next, b);
        }
      }
    } else if (s.phase == phase_light || s.phase == phase_heavy) {
      chunks.clear();
      // The device takes entries in any order; so does the model.
      std::vector<std::uint32_t> order(lists[s.in_list].begin(), lists[s.in_list].begin() + s.in_size);
      std::shuffle(order.begin(), order.end(), rng);
      if (cfg.qbits && light && s.in_list != list_r)  // taken off the queue: its bit is cleared
        for (const std::uint32_t u : order) qbit[s.in_list == list_q0 ? 0 : 1][u] = 0;
      for (const std::uint32_t u : order) {
        const float du = bits_float(static_cast<std::uint32_t>(dp[u] >> 32));
        index_t b = g.offsets[u], e = g.offsets[u + 1];
        if (cfg.sorted) {  // light arcs are a prefix of the sorted row, heavy ones the rest
          const index_t cut = cfg.gallop ? light_cut_gallop(g.weights.data(), b, e, du, s.hi)
                                         : light_cut_binary(g.weights.data(), b, e, du, s.hi);
          if (light && cfg.pull_first_arcs > 0) c.heavy_est += static_cast<unsigned long long>(e - cut);
          if (light) e = cut;
          else b = cut;
        }
        if (e - b > cfg.big_row) {
          for (index_t x = b; x < e; x += cfg.chunk) chunks.emplace_back(u, x, std::min(e, x + cfg.chunk));
          c.chunks += static_cast<unsigned long long>((e - b + cfg.chunk - 1) / cfg.chunk);
          continue;
        }
        for (index_t a = b; a < e; ++a) visit(light, a, u, du);
      }
    } else if (s.phase == phase_pull) {
      if (!cfg.sorted) throw std::runtime_error("the pull needs sorted rows");
      if (cfg.pulls) ++*cfg.pulls;
      // Every unsettled vertex takes its best settled neighbour, leaving its row once lo + w
      // reaches the best so far; the bucket's hub chunks are not pushed.
      for (index_t v = 0; v < n; ++v) {
        if (settled[v]) continue;
        unsigned long long best = dp[v];
        for (index_t a = g.offsets[v]; a < g.offsets[v + 1]; ++a) {
          const float wt = g.weights[a];
          if (float_bits(s.lo + wt) >= static_cast<std::uint32_t>(best >> 32)) break;
          const auto u = static_cast<std::uint32_t>(g.columns[a]);
          if (!settled[u]) continue;
          const std::uint32_t nb = float_bits(bits_float(static_cast<std::uint32_t>(dp[u] >> 32)) + wt);
          if (nb < static_cast<std::uint32_t>(best >> 32)) best = (static_cast<unsigned long long>(nb) << 32) | u;
        }
        dp[v] = best;
      }
    } else {
      std::shuffle(chunks.begin(), chunks.end(), rng);
      for (const auto& [u, b, e] : chunks) {
        const float du = bits_float(static_cast<std::uint32_t>(dp[u] >> 32));
        for (index_t a = b; a < e; ++a) visit(light, a, u, du);
      }
    }
    const int before = s.phase;
    decide(s, c);
    if (cfg.qbits && before != phase_scan && s.phase == phase_scan)  // a bucket ended: both queues are empty
      for (int b = 0; b < 2; ++b)
        if (std::count(qbit[b].begin(), qbit[b].end(), 1) != 0) throw std::runtime_error("queue bitmap not cleared");
  }
  model_result r{std::vector<std::int64_t>(n, -1), std::vector<float>(n, -1.0f), s};
  for (index_t v = 0; v < n; ++v) {
    if (static_cast<std::uint32_t>(dp[v] >> 32) == inf_bits) continue;
    r.parent[v] = v == root ? root : static_cast<std::int64_t>(dp[v] & 0xFFFFFFFFull);
    r.dist[v] = bits_float(static_cast<std::uint32_t>(dp[v] >> 32));
  }
  return r;
}

std::vector<model_config> configs() {
  std::vector<model_config> v;
  v.push_back({0.1f, false, 0.1f, 0, 8, 5, 1});
  v.push_back({0.01f, false, 0.01f, 0, 4, 3, 2});
  v.push_back({0.02f, true, 0.02f * 256, 8, 16, 7, 3});  // adaptive growth
  v.push_back({std::numeric_limits<float>::infinity(), false, std::numeric_limits<float>::infinity(), 0, 8, 5, 4});
  v.push_back({5.0f, false, 5.0f, 0, 1 << 20, 1, 5});  // no chunks
  const auto unsorted = v.size();
  for (std::size_t i = 0; i < unsorted; ++i) {  // the same with weight-sorted rows (the engine's default)
    v.push_back(v[i]);
    v.back().sorted = true;
    v.back().seed += 100;
    v.back().filter = (i % 2) == 0;
  }
  for (std::size_t i = 0; i < unsorted; ++i) {  // the engine's default now: gallop cut, lean scans
    v.push_back(v[i]);
    v.back().sorted = true;
    v.back().gallop = true;
    v.back().lean = true;
    v.back().seed += 200;
    v.back().filter = (i % 3) != 2;  // lean without the bitmap too (the engine's no-filter + lean)
    v.back().qbits = v.back().filter;  // queue bitmaps need the settled bitmap (as in the engine)
  }
  for (std::size_t i = 0; i < unsorted; ++i) {  // queue bitmaps without the lean scan
    v.push_back(v[i]);
    v.back().sorted = (i % 2) == 1;
    v.back().filter = true;
    v.back().qbits = true;
    v.back().seed += 300;
  }
  for (std::size_t i = 0; i < unsorted; ++i) {  // the pull pass for buckets with hub chunks
    v.push_back(v[i]);
    v.back().sorted = true;
    v.back().filter = true;
    v.back().lean = (i % 2) == 0;
    v.back().qbits = (i % 3) == 0;
    v.back().gallop = true;
    v.back().pull_min_chunks = 1 + static_cast<std::int64_t>(i % 2);
    v.back().seed += 400;
  }
  for (std::size_t i = 0; i < unsorted; ++i) {  // pull-first: buckets with many heavy arcs pull instead
    v.push_back(v[i]);
    v.back().sorted = true;
    v.back().filter = true;
    v.back().lean = (i % 2) == 1;
    v.back().gallop = true;
    v.back().pull_first_arcs = i % 2 == 0 ? 1 : 50;  // every bucket, or the big ones
    v.back().pull_min_chunks = (i % 3) == 0 ? 1 : 0;  // with and without the chunk-triggered pull
    v.back().seed += 500;
  }
  v[1].filter = true;
  v[2].lean = true;  // lean on unsorted rows
  return v;
}

}  // namespace

TEST(SsspCudaControl, EmptyScanFinishesOrJumps) {
  control s = initial_control(0.5f, false, 0.5f, 0);
  counters c{};
  reset(c);
  decide(s, c);  // nothing in [0, 0.5) and nothing beyond
  EXPECT_EQ(s.phase, phase_done);

  s = initial_control(0.5f, false, 0.5f, 0);
  reset(c);
  c.min_next = float_bits(2.25f);
  decide(s, c);  // jump over the empty buckets
  EXPECT_EQ(s.phase, phase_scan);
  EXPECT_EQ(s.lo, 2.25f);
  EXPECT_EQ(s.hi, 2.75f);
  EXPECT_GT(s.scan_epoch, 1u);
}

TEST(SsspCudaControl, PhaseSequence) {
  control s = initial_control(0.5f, false, 0.5f, 0);
  counters c{};
  reset(c);
  c.out = 3;  // scan found 3 vertices
  decide(s, c);
  EXPECT_EQ(s.phase, phase_light);
  EXPECT_EQ(s.in_list, list_r);
  EXPECT_EQ(s.in_size, 3);
  const auto e1 = s.epoch;
  EXPECT_GT(e1, s.scan_epoch);
  reset(c);
  c.out = 2;
  c.r_append = 1;
  c.chunks = 4;
  decide(s, c);  // light with long rows -> light_big, same epoch and output
  EXPECT_EQ(s.phase, phase_light_big);
  EXPECT_EQ(s.n_chunks, 4);
  EXPECT_EQ(s.epoch, e1);
  EXPECT_EQ(s.out_size, 2);
  EXPECT_EQ(s.r_size, 4);
  reset(c);
  c.out = 1;
  decide(s, c);  // next light iteration over 3 queued vertices
  EXPECT_EQ(s.phase, phase_light);
  EXPECT_EQ(s.in_size, 3);
  EXPECT_EQ(s.in_list, list_q0);
  EXPECT_EQ(s.out_list, list_q1);
  EXPECT_GT(s.epoch, e1);
  reset(c);
  decide(s, c);  // no improvement -> heavy pass over R
  EXPECT_EQ(s.phase, phase_heavy);
  EXPECT_EQ(s.in_list, list_r);
  EXPECT_EQ(s.in_size, 4);
  reset(c);
  decide(s, c);  // heavy without chunks -> next bucket
  EXPECT_EQ(s.phase, phase_scan);
  EXPECT_EQ(s.lo, 0.5f);
  EXPECT_EQ(s.hi, 1.0f);
  EXPECT_EQ(s.buckets, 1);
}

TEST(SsspCudaControl, InfiniteBucketEndsAfterOneBucket) {
  const float inf = std::numeric_limits<float>::infinity();
  control s = initial_control(inf, false, inf, 0);
  EXPECT_EQ(s.hi, inf);
  counters c{};
  reset(c);
  c.out = 1;
  decide(s, c);
  reset(c);
  decide(s, c);  // light: nothing improved
  reset(c);
  decide(s, c);  // heavy: nothing (no arc reaches >= inf)
  EXPECT_EQ(s.phase, phase_done);
}

TEST(SsspCudaControl, AdaptiveWidthGrowsOnlyAfterThePeak) {
  control s = initial_control(0.1f, true, 1.6f, 100);
  s.r_all = 5;  // the bucket's rows (of every rank)
  end_bucket(s);  // small bucket before any big one: no growth
  EXPECT_EQ(s.delta, 0.1f);
  s.r_all = 1000;
  end_bucket(s);
  EXPECT_EQ(s.delta, 0.1f);
  for (int i = 0; i < 10; ++i) {
    s.r_all = 5;
    end_bucket(s);
  }
  EXPECT_EQ(s.delta, 1.6f);  // capped
}

// Over ranks every rank decides from its own counters (its lists' sizes) and their sums (every
// branch): two ranks, one of which found nothing, walk the same phases with their own list sizes.
TEST(SsspCudaControl, RanksTakeTheSameBranchesWithTheirOwnListSizes) {
  control a = initial_control(0.5f, false, 0.5f, 0), b = a;
  counters ca{}, cb{}, all{};
  const auto sum = [&] {
    reset(all);
    all.out = ca.out + cb.out;
    all.r_append = ca.r_append + cb.r_append;
    all.chunks = ca.chunks + cb.chunks;
    all.heavy_est = ca.heavy_est + cb.heavy_est;
    all.min_next = std::min(ca.min_next, cb.min_next);
  };
  const auto step = [&] {
    sum();
    decide(a, ca, all);
    decide(b, cb, all);
    EXPECT_EQ(a.phase, b.phase);
    EXPECT_EQ(a.lo, b.lo);
    EXPECT_EQ(a.hi, b.hi);
    reset(ca);
    reset(cb);
  };
  reset(ca);
  reset(cb);
  cb.out = 1;  // the scan: the root is rank b's
  step();
  EXPECT_EQ(a.phase, phase_light);
  EXPECT_EQ(a.in_size, 0);
  EXPECT_EQ(b.in_size, 1);
  cb.out = 3;  // light: b lowered 3 rows below hi, a none (and no chunks anywhere)
  cb.r_append = 3;
  step();
  EXPECT_EQ(a.phase, phase_light);
  EXPECT_EQ(a.in_size, 0);
  EXPECT_EQ(b.in_size, 3);
  ca.chunks = 2;  // light: a cut a hub row into chunks: both run the chunk phase, b with none
  step();
  EXPECT_EQ(b.phase, phase_light_big);
  EXPECT_EQ(a.n_chunks, 2);
  EXPECT_EQ(b.n_chunks, 0);
  step();  // nothing more below hi: the heavy phase over each rank's own R
  EXPECT_EQ(a.phase, phase_heavy);
  EXPECT_EQ(a.in_size, 0);
  EXPECT_EQ(b.in_size, 4);
  EXPECT_EQ(a.r_all, 4);
  ca.min_next = float_bits(2.25f);  // a's rows were lowered beyond the bucket
  step();  // heavy without chunks ends the bucket
  EXPECT_EQ(a.phase, phase_scan);
  ca.min_next = float_bits(2.25f);
  step();  // the scans find nothing in [0.5, 1): both skip to the bucket of 2.25
  EXPECT_EQ(a.phase, phase_scan);
  EXPECT_EQ(b.lo, 2.25f);
  step();  // and nothing anywhere: done
  EXPECT_EQ(b.phase, phase_done);
}

TEST(SsspCudaControl, InterleavedSlotsCoverEveryEntryOnce) {
  // The device's list phases walk slots [0, batches * per_batch) in batches and skip a step whose
  // first slot maps past n: every entry below n must come out exactly once, in increasing order
  // within a batch, and each batch must sample the list (its runs are `batches` runs apart).
  for (const unsigned long long per_batch : {32ull, 128ull, 256ull}) {
    for (const unsigned run : {0u, 1u, 2u, 8u, 32u}) {
      for (const unsigned long long n : {1ull, 31ull, 32ull, 33ull, 1000ull, 4096ull, 4097ull}) {
        const unsigned long long batches = (n + per_batch - 1) / per_batch;
        const int run_log = run == 0 ? -1 : __builtin_ctz(run);
        std::vector<int> seen(n, 0);
        for (unsigned long long b = 0; b < batches; ++b) {
          unsigned long long prev = 0;
          for (unsigned long long t = 0; t < per_batch; ++t) {
            const unsigned long long e = list_slot_entry(b, static_cast<unsigned>(t), per_batch, batches, run_log);
            if (t > 0) {
              EXPECT_GT(e, prev);  // increasing within a batch
            }
            prev = e;
            if (e < n) ++seen[e];
          }
          if (run != 0 && per_batch / run > 1 && batches > 1) {  // consecutive runs are `batches` runs apart
            const unsigned long long e0 = list_slot_entry(b, 0u, per_batch, batches, run_log);
            const unsigned long long e1 = list_slot_entry(b, run, per_batch, batches, run_log);
            EXPECT_EQ(e1 - e0, batches * run);
          }
        }
        for (unsigned long long e = 0; e < n; ++e)
          ASSERT_EQ(seen[e], 1) << "entry " << e << " n " << n << " per_batch " << per_batch << " run " << run;
      }
    }
  }
}

TEST(SsspCudaControl, BucketEndAdvancesEvenWhenDeltaIsAbsorbed) {
  EXPECT_GT(bucket_end(1.0e6f, 1.0e-9f), 1.0e6f);
  EXPECT_EQ(bucket_end(1.0f, 0.5f), 1.5f);
}

TEST(SsspCudaControl, GallopCutEqualsBinaryCut) {
  // Sorted rows with ties, zeros and weights absorbed by large distances: both searches return
  // the first index whose du + w >= hi, as std::partition_point does.
  std::mt19937 rng(7);
  for (int trial = 0; trial < 4000; ++trial) {
    const int len = static_cast<int>(rng() % 70);
    std::vector<float> row(static_cast<std::size_t>(len) + 3, -1.0f);  // guard entries around the row
    for (int i = 0; i < len; ++i) {
      const auto kind = rng() % 4;
      row[1 + static_cast<std::size_t>(i)] =
          kind == 0 ? 0.0f : kind == 1 ? 0.5f : static_cast<float>(rng() % 1000) / 1000.0f;
    }
    std::sort(row.begin() + 1, row.begin() + 1 + len);
    const float du = trial % 5 == 0 ? 1.0e7f : static_cast<float>(rng() % 100) / 100.0f;
    const float hi = du + static_cast<float>(rng() % 120) / 100.0f;
    const auto expect = std::partition_point(row.begin() + 1, row.begin() + 1 + len, [&](float x) { return du + x < hi; }) -
                        row.begin();
    EXPECT_EQ(light_cut_gallop(row.data(), 1, 1 + len, du, hi), expect) << "trial " << trial;
    EXPECT_EQ(light_cut_binary(row.data(), 1, 1 + len, du, hi), expect) << "trial " << trial;
  }
}

TEST(SsspCudaControl, AutoDelta) {
  // Graph500-like: mean weight 0.5, mean degree 32 -> C * 0.5 / 32.
  EXPECT_FLOAT_EQ(auto_delta(0.5 * 3200, 3200, 100), search_policy::auto_delta_warps * 0.5f / 32.0f);
  // No arcs: the rule of every engine (sssp/delta.hpp) is 1, times this engine's factor.
  EXPECT_EQ(auto_delta(0.0, 0, 0), search_policy::auto_delta_warps * 1.0f);
  EXPECT_GT(auto_delta(0.0, 10, 5), 0.0f);  // all-zero weights: still a positive width
}

template <class V>
class SsspCudaModel : public ::testing::Test {};
using VertexTypes = ::testing::Types<std::uint32_t, std::int64_t>;
TYPED_TEST_SUITE(SsspCudaModel, VertexTypes);

TYPED_TEST(SsspCudaModel, AwkwardGraphs) {
  for (const auto& ng : test::awkward_graphs()) {
    const auto g = graph::build_csr<TypeParam>(ng.edges);
    for (const index_t root : ng.roots) {
      const auto oracle = test::dijkstra(g, root);
      for (const auto& cfg : configs()) {
        const auto r = model_search(g, root, cfg);
        EXPECT_EQ(test::check_sssp(g, root, oracle, r.parent, r.dist), "")
            << ng.name << " root " << root << " delta " << cfg.delta << " sorted " << cfg.sorted << " lean " << cfg.lean;
      }
    }
  }
}

TEST(SsspCudaModelPull, PullRunsOnKronecker) {
  // The pull configurations above must actually pull (else the oracle checks prove nothing).
  graph::kronecker_params p;
  p.scale = 12;
  const auto g = graph::build_csr<std::uint32_t>(graph::generate_kronecker(p));
  const auto roots = graph::pick_search_keys(p, 2, [&](std::int64_t v) { return g.degree(v) > 0; });
  std::int64_t total = 0;
  model_config cfg{0.05f, false, 0.05f, 0, 8, 5, 9};
  cfg.sorted = cfg.filter = cfg.gallop = true;
  cfg.pull_min_chunks = 1;
  for (const auto root : roots) {
    std::int64_t pulls = 0;
    cfg.pulls = &pulls;
    const auto r = model_search(g, root, cfg);
    EXPECT_EQ(test::check_sssp(g, root, test::dijkstra(g, root), r.parent, r.dist), "");
    EXPECT_EQ(r.last.pulls, pulls) << "the state counts the pulls";
    total += pulls;
  }
  EXPECT_GT(total, 0);
}

TEST(SsspCudaModelPull, PullFirstRunsOnKronecker) {
  // Without the chunk trigger, every pull comes from the light phases' heavy-arc estimate; with a
  // threshold above every bucket's estimate nothing is pulled.
  graph::kronecker_params p;
  p.scale = 12;
  const auto g = graph::build_csr<std::uint32_t>(graph::generate_kronecker(p));
  const auto roots = graph::pick_search_keys(p, 2, [&](std::int64_t v) { return g.degree(v) > 0; });
  for (const std::int64_t threshold : {std::int64_t{1}, std::int64_t{2000}, g.num_arcs() * 4}) {
    std::int64_t total = 0;
    model_config cfg{0.05f, false, 0.05f, 0, 8, 5, 11};
    cfg.sorted = cfg.filter = cfg.gallop = cfg.lean = true;
    cfg.pull_first_arcs = threshold;
    for (const auto root : roots) {
      std::int64_t pulls = 0;
      cfg.pulls = &pulls;
      const auto r = model_search(g, root, cfg);
      EXPECT_EQ(test::check_sssp(g, root, test::dijkstra(g, root), r.parent, r.dist), "") << threshold;
      total += pulls;
      if (threshold == 1) {
        EXPECT_EQ(pulls, r.last.buckets) << "every non-empty bucket has heavy arcs here";
      }
    }
    if (threshold < g.num_arcs()) {
      EXPECT_GT(total, 0) << threshold;
    } else {
      EXPECT_EQ(total, 0);
    }
  }
}

TYPED_TEST(SsspCudaModel, Kronecker) {
  for (int scale : {8, 10, 12}) {
    graph::kronecker_params p;
    p.scale = scale;
    const auto g = graph::build_csr<TypeParam>(graph::generate_kronecker(p));
    const auto roots = graph::pick_search_keys(p, 3, [&](std::int64_t v) { return g.degree(v) > 0; });
    for (const auto root : roots) {
      const auto oracle = test::dijkstra(g, root);
      for (const auto& cfg : configs()) {
        const auto r = model_search(g, root, cfg);
        EXPECT_EQ(test::check_sssp(g, root, oracle, r.parent, r.dist), "")
            << "SCALE " << scale << " root " << root << " delta " << cfg.delta << " sorted " << cfg.sorted
            << " lean " << cfg.lean;
        EXPECT_GT(r.last.buckets, 0);
      }
    }
  }
}

TEST(SsspCudaOracle, CheckerCatchesErrors) {
  graph::edge_list el;
  el.num_vertices = 4;
  test::add_edge(el, 0, 1, 0.5f);
  test::add_edge(el, 1, 2, 0.0f);
  test::add_edge(el, 2, 1, 0.0f);
  const auto g = graph::build_csr<std::uint32_t>(el);
  const auto oracle = test::dijkstra(g, 0);
  std::vector<std::int64_t> parent = {0, 0, 1, -1};
  std::vector<float> dist = {0.0f, 0.5f, 0.5f, -1.0f};
  EXPECT_EQ(test::check_sssp(g, 0, oracle, parent, dist), "");
  auto p2 = parent;
  p2[1] = 2;  // 1 <-> 2 cycle over 0-weight arcs: locally consistent, globally wrong
  EXPECT_NE(test::check_sssp(g, 0, oracle, p2, dist), "");
  auto d2 = dist;
  d2[2] = 0.25f;
  EXPECT_NE(test::check_sssp(g, 0, oracle, parent, d2), "");
  auto p3 = parent;
  p3[3] = 0;  // an unreached vertex with a parent
  EXPECT_NE(test::check_sssp(g, 0, oracle, p3, dist), "");
}
