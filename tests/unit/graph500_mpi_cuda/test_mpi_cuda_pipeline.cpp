// The CUDA backend of the Graph500 pipeline over MPI ranks, on however many ranks mpiexec gives
// (1 to 4, sharing the node's GPUs), against the host backend on the same ranks: valid BFS and
// SSSP at small scales (some ranks owning no vertex), the same search keys, arcs and nedge, the
// same levels and distances (and the oracles'), the SSSP's for every bucket width; both exchange
// modes of shared GPUs (device buffers where MPI takes them, host staging) and, with a GPU per
// rank, NCCL and MPI; the options and the per-level trace; the GPU and host validators rejecting
// broken results alike on every rank; the GPU-count and memory checks. Skipped without a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

#include "gpu500/core/device.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/dist/nccl.hpp"
#include "gpu500/graph500/harness.hpp"
#include "gpu500/graph500/mpi_pipeline.hpp"
#include "levels.hpp"
#include "support/bfs_oracle.hpp"

namespace gpu500::graph500 {
namespace {

graph::kronecker_params params(int scale) {
  graph::kronecker_params p;
  p.scale = scale;
  return p;
}

mpi_options shared(mpi_options o = {}) {
  o.share_gpus = true;
  return o;
}

class Graph500MpiCuda : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  }
  const dist::communicator c = dist::communicator::world();
};

TEST_F(Graph500MpiCuda, HarnessMatchesHostBackend) {
  for (int scale : {2, 6, 10}) {
    for (bool staging : {false, true}) {
      SCOPED_TRACE("SCALE " + std::to_string(scale) + (staging ? ", host staging" : ""));
      run_config cfg;
      cfg.graph = params(scale);
      cfg.num_roots = 8;
      cfg.progress = false;
      cfg.num_processes = c.size();
      mpi_options o = shared();
      o.host_staging = staging;
      auto dp = make_mpi_cuda_pipeline(c, cfg.graph, o);
      EXPECT_NE(dp->description().find("mpi cuda"), std::string::npos);
      const run_result rd = run(*dp, cfg);
      EXPECT_TRUE(rd.valid) << rd.failure;
      auto hp = make_cpu_pipeline(c, cfg.graph);
      const run_result rh = run(*hp, cfg);
      ASSERT_TRUE(rh.valid) << rh.failure;
      EXPECT_EQ(rd.roots, rh.roots);
      EXPECT_EQ(rd.bfs.nedge, rh.bfs.nedge);
      EXPECT_EQ(rd.sssp.nedge, rh.sssp.nedge);
      EXPECT_EQ(dp->local_arcs(), hp->local_arcs());
    }
  }
}

// One rank per GPU (where the node has a GPU for each of its ranks): NCCL between the GPUs (the
// default), then device buffers through MPI; valid and equal to the host backend.
TEST_F(Graph500MpiCuda, OneGpuPerRankNcclAndMpiMatchHostBackend) {
  if (c.size() < 2 || static_cast<int>(cuda_devices().size()) < c.node_size())
    GTEST_SKIP() << "needs 2+ ranks and a GPU for each rank of the node";
  for (bool no_nccl : {false, true}) {
    SCOPED_TRACE(no_nccl ? "MPI" : "NCCL");
    run_config cfg;
    cfg.graph = params(11);
    cfg.num_roots = 8;
    cfg.progress = false;
    cfg.num_processes = c.size();
    mpi_options o;
    o.no_nccl = no_nccl;
    auto dp = make_mpi_cuda_pipeline(c, cfg.graph, o);
    EXPECT_EQ(dp->description().find("NCCL") != std::string::npos, !no_nccl && dist::nccl_available())
        << dp->description();
    const run_result rd = run(*dp, cfg);
    EXPECT_TRUE(rd.valid) << rd.failure;
    auto hp = make_cpu_pipeline(c, cfg.graph);
    const run_result rh = run(*hp, cfg);
    ASSERT_TRUE(rh.valid) << rh.failure;
    EXPECT_EQ(rd.roots, rh.roots);
    EXPECT_EQ(rd.bfs.nedge, rh.bfs.nedge);
    EXPECT_EQ(rd.sssp.nedge, rh.sssp.nedge);
  }
}

// SCALE 13 has rows of up to 7172 arcs (14 of more than 1024): rows cut into many top-down chunks
// and long bottom-up warp scans run, beside the short rows of SCALE 5 and 9. Kernel 1 runs in one
// round and in rounds of 97 edges (the last one short, some ranks with empty rounds; one rank
// makes its rows straight from its slice, with either setting); the BFS
// walks its degree-ordered rows with 32-bit columns and, as past 2^32 vertices, 64-bit ones, with
// every technique (the default), with none (the baseline's status-array scans: the bitmap stays on
// over ranks), or without degree classes and hub cache and with a low gamma (bottom-up early);
// the SSSP (the engine of one process, over the ranks) pulls the heavy arcs of its large buckets
// (the default), of every bucket that has any, or of none, and runs its baseline's kernels, on its
// rows relabelled with the BFS's ids or (as where that copy does not fit) on kernel 1's in place.
TEST_F(Graph500MpiCuda, SameLevelsAndDistancesAsHostBackend) {
  struct setup {
    index_t round_edges;
    bool wide_columns;
    sssp::cuda::options sssp;
    bfs::cuda::options bfs;
    bool sssp_in_place;
  };
  bfs::cuda::options baseline, early;
  baseline.baseline();
  early.no_wb = early.no_hub_cache = true;
  early.gamma = 0.01;
  sssp::cuda::options pull_all, no_pull;
  pull_all.pull_first = 1e-9;  // a bucket with one heavy arc pulls
  no_pull.pull_above = no_pull.pull_first = 0;
  for (int scale : {5, 9, 13})
    for (const setup& s : {setup{0, false, {}, {}, false}, setup{97, false, pull_all, baseline, true},
                          setup{0, true, sssp::cuda::baseline_options(no_pull), early, false}}) {
      SCOPED_TRACE("SCALE " + std::to_string(scale) + ", kernel 1 rounds of " + std::to_string(s.round_edges) +
                   (s.wide_columns ? ", 64-bit BFS columns" : "") + ", pull first " + std::to_string(s.sssp.pull_first) +
                   ", BFS " + bfs::cuda::describe(s.bfs) + (s.sssp_in_place ? ", SSSP on kernel 1's rows" : ""));
      const auto p = params(scale);
      mpi_options o = shared();
      o.kernel1_round_edges = s.round_edges;
      o.vertex_bits = s.wide_columns ? 64 : 0;  // --vertex-bits 64: the BFS walks 64-bit columns
      o.cuda_sssp = s.sssp;
      o.cuda_bfs = s.bfs;
      o.sssp_in_place = s.sssp_in_place;
      auto dp = make_mpi_cuda_pipeline(c, p, o);
      EXPECT_EQ(dp->vertex_bits(), s.wide_columns ? 64 : 32);
      EXPECT_EQ(dp->description().find("SSSP on kernel 1's rows") != std::string::npos, s.sssp_in_place);
      cpu_pipeline_options host;
      host.vertex_bits = s.wide_columns ? 32 : 64;  // the host rows of 32-bit ids once per scale
      auto hp = make_cpu_pipeline(c, p, host);
      for (auto* x : {dp.get(), hp.get()}) {
        x->generate();
        x->construct();
      }
      for (std::int64_t v = 0; v < p.num_vertices(); ++v) ASSERT_EQ(dp->has_edges(v), hp->has_edges(v)) << v;
      EXPECT_EQ(dp->local_arcs(), hp->local_arcs());
      const graph::edge_list el = graph::generate_kronecker(p);
      const auto roots = graph::pick_search_keys(p, 3, [&](std::int64_t v) { return dp->has_edges(v); });
      for (std::int64_t root : roots) {
        dp->bfs(root);
        hp->bfs(root);
        const auto ld = test::levels_of(test::gather<std::int64_t>(c, dp->local_parents(false)), root);
        EXPECT_EQ(ld, test::levels_of(test::gather<std::int64_t>(c, hp->local_parents(false)), root));
        EXPECT_EQ(ld, test::host_bfs(el, root).level);
        EXPECT_EQ(dp->bfs_nedge(), hp->bfs_nedge());
        EXPECT_TRUE(dp->validate_bfs(root).ok);

        dp->sssp(root);
        hp->sssp(root);
        const auto dd = test::gather<float>(c, dp->local_distances());
        const auto dh = test::gather<float>(c, hp->local_distances());
        ASSERT_EQ(dd.size(), dh.size());
        for (std::size_t v = 0; v < dd.size(); ++v) EXPECT_EQ(dd[v], dh[v]) << "vertex " << v;
        EXPECT_EQ(dp->sssp_nedge(), hp->sssp_nedge());
        EXPECT_TRUE(dp->validate_sssp(root).ok);
      }
    }
}

// The SSSP's fixed point does not depend on the bucket width: narrow buckets (many phases), wide
// ones (a bucket holds most of the graph, rows lowered many times), Bellman-Ford's one bucket and
// the adaptive default, all give the host backend's distances, whether the heavy arcs are pushed
// or pulled (every bucket, the default's large ones, none), on the weight-sorted rows or filtering
// every arc, with queue stamps or queue bitmaps, with or without the settled filter.
TEST_F(Graph500MpiCuda, SameDistancesForEveryBucketWidth) {
  const auto p = params(10);
  auto hp = make_cpu_pipeline(c, p);
  hp->generate();
  hp->construct();
  const auto roots = graph::pick_search_keys(p, 2, [&](std::int64_t v) { return hp->has_edges(v); });
  sssp::cuda::options pull_all, no_pull, unsorted, bitmaps, unfiltered;
  pull_all.pull_first = 1e-9;
  no_pull.pull_above = no_pull.pull_first = 0;
  unsorted.unsorted_rows = true;
  bitmaps.queue_bitmaps = true;
  unfiltered.no_settled_filter = true;
  for (const float delta : {0.f, 0.004f, 0.3f, 1000.f, -1.f}) {
    for (sssp::cuda::options e : {sssp::cuda::options{}, pull_all, no_pull, unsorted, bitmaps, unfiltered}) {
      if (delta < 0) e.algo = sssp::cuda::algorithm::bellman_ford;
      else e.delta = delta;
      SCOPED_TRACE((delta < 0 ? std::string("Bellman-Ford") : "delta " + std::to_string(delta)) + ", pull first " +
                   std::to_string(e.pull_first) + (e.unsorted_rows ? ", unsorted rows" : "") +
                   (e.queue_bitmaps ? ", queue bitmaps" : "") + (e.no_settled_filter ? ", no settled filter" : ""));
      mpi_options o = shared();
      o.cuda_sssp = e;
      auto dp = make_mpi_cuda_pipeline(c, p, o);
      dp->generate();
      dp->construct();
      for (std::int64_t root : roots) {
        dp->sssp(root);
        hp->sssp(root);
        const auto dd = test::gather<float>(c, dp->local_distances());
        const auto dh = test::gather<float>(c, hp->local_distances());
        ASSERT_EQ(dd.size(), dh.size());
        for (std::size_t v = 0; v < dd.size(); ++v)
          ASSERT_EQ(dd[v], dh[v]) << "vertex " << v << ", root " << root;
        EXPECT_EQ(dp->sssp_nedge(), hp->sssp_nedge());
        EXPECT_TRUE(dp->validate_sssp(root).ok);
      }
    }
  }
}

// The options reach the engines and the trace names what ran: a BFS that never goes bottom-up
// (its direction rule's alpha so low and gamma so high that neither switches) with every heavy arc
// pushed, then every bucket with heavy arcs pulling, then a fixed bucket width with the default
// pulls. Over ranks the SSSP's trace lists its phases (the scans, light and heavy phases);
// on one rank the engine runs its persistent kernel and lists none.
TEST_F(Graph500MpiCuda, OptionsAndTrace) {
  struct setup {
    bool top_down_only;
    float delta;
    double pull_first;
  };
  for (const setup& x : {setup{true, 0.f, 0.0}, setup{false, 0.f, 1e-9}, setup{false, 0.25f, 0.05}}) {
    mpi_options o;
    if (x.top_down_only) {
      o.cuda_bfs.alpha = 1e-12;
      o.cuda_bfs.gamma = 1.0;
      o.cuda_sssp.pull_above = 0;
    }
    o.cuda_sssp.delta = x.delta;
    o.cuda_sssp.pull_first = x.pull_first;
    o.share_gpus = true;
    run_config cfg;
    cfg.graph = params(9);
    cfg.num_roots = 4;
    cfg.progress = false;
    cfg.num_processes = c.size();
    auto dp = make_mpi_cuda_pipeline(c, cfg.graph, o);
    const run_result r = run(*dp, cfg);
    EXPECT_TRUE(r.valid) << r.failure;
    if (x.delta > 0) {
      EXPECT_EQ(dp->sssp_delta(), x.delta);
    }
    const std::string t = dp->trace().dump(-1);
    EXPECT_NE(t.find("\"bfs\":[{\"level\":0"), std::string::npos) << t;
    EXPECT_NE(t.find("\"compute_seconds\""), std::string::npos) << t;
    EXPECT_EQ(test::per_rank_seconds_problem(t, c.size()), "") << t;
    EXPECT_NE(t.find("\"sssp_delta\":"), std::string::npos) << t;
    EXPECT_EQ(t.find("bottom-up") == std::string::npos, x.top_down_only) << t;
    if (c.size() == 1) continue;
    EXPECT_NE(t.find("\"sssp\":[{\"level\":0,\"direction\":\"scan\""), std::string::npos) << t;
    EXPECT_NE(t.find("\"light\""), std::string::npos) << t;
    if (x.top_down_only) {  // no pulls at all
      EXPECT_EQ(t.find("\"pull\""), std::string::npos) << t;
      EXPECT_NE(t.find("\"heavy\""), std::string::npos) << t;
    } else if (x.pull_first < 1e-6) {
      EXPECT_NE(t.find("\"pull\""), std::string::npos) << t;
    }
  }
}

// The validator over ranks, the GPU's (the default where it fits) and the host's, rejects each
// kind of broken result, every rank with the same message: a parent that is no neighbour, the root
// not its own parent, a reached vertex dropped (an edge then joins visited and unvisited), a
// two-cycle, a parent out of range; for SSSP also a distance one ulp off and the root's distance
// not 0. The vertex broken lies at BFS level >= 2 and the ranks that do not own it change nothing.
TEST_F(Graph500MpiCuda, ValidatorsRejectBrokenResultsOnEveryRank) {
  const auto p = params(8);
  for (bool host : {false, true}) {
    SCOPED_TRACE(host ? "host validator" : "GPU validator");
    mpi_options o = shared();
    o.host_validator = host;
    auto dp = make_mpi_cuda_pipeline(c, p, o);
    dp->generate();
    dp->construct();
    const auto root = graph::pick_search_keys(p, 1, [&](std::int64_t v) { return dp->has_edges(v); }).front();
    dp->bfs(root);
    ASSERT_TRUE(dp->validate_bfs(root).ok);
    const std::string trace = dp->trace().dump(-1);
    EXPECT_NE(trace.find(host ? "\"validator\":\"host\"" : "\"validator\":\"gpu\""), std::string::npos) << trace;
    const auto level = test::levels_of(test::gather<std::int64_t>(c, dp->local_parents(false)), root);
    std::int64_t deep = -1;
    for (std::size_t v = 0; v < level.size() && deep < 0; ++v)
      if (level[v] >= 2) deep = static_cast<std::int64_t>(v);
    ASSERT_GE(deep, 0);
    const index_t first = dp->owned().first;
    for (bool sssp : {false, true}) {
      SCOPED_TRACE(sssp ? "SSSP" : "BFS");
      sssp ? (void)dp->sssp(root) : (void)dp->bfs(root);
      const auto check = [&] { return sssp ? dp->validate_sssp(root) : dp->validate_bfs(root); };
      const auto good = check();
      ASSERT_TRUE(good.ok) << good.message;
      const auto whole = test::gather<std::int64_t>(c, dp->local_parents(sssp));
      const auto par = dp->local_parents(sssp);
      const std::vector<std::int64_t> kept(par.begin(), par.end());
      const auto owns = [&](std::int64_t v) { return v >= first && v < first + static_cast<std::int64_t>(par.size()); };
      const auto set = [&](std::int64_t v, std::int64_t parent) {  // on v's owner
        if (owns(v)) par[static_cast<std::size_t>(v - first)] = parent;
      };
      const auto rejected = [&](const char* what) {
        const auto r = check();
        EXPECT_FALSE(r.ok) << what;
        EXPECT_FALSE(r.message.empty()) << what;
        EXPECT_EQ(c.bcast(r.message, 0), r.message) << what << ": the ranks disagree";
        std::copy(kept.begin(), kept.end(), par.begin());
      };
      set(deep, root);
      rejected("a parent that is no neighbour");
      set(root, deep);
      rejected("the root not its own parent");
      set(deep, -1);
      rejected("a reached vertex dropped");
      set(whole[static_cast<std::size_t>(deep)], deep);
      rejected("a two-cycle");
      set(deep, p.num_vertices());
      rejected("a parent out of range");
      if (sssp) {
        auto d = dp->local_distances();
        const std::vector<float> kept_d(d.begin(), d.end());
        if (owns(deep)) {
          float& x = d[static_cast<std::size_t>(deep - first)];
          x = std::nextafter(x, 1e30f);
        }
        rejected("a distance one ulp off");
        std::copy(kept_d.begin(), kept_d.end(), d.begin());
        if (owns(root)) d[static_cast<std::size_t>(root - first)] = 0.25f;
        rejected("the root's distance not 0");
        std::copy(kept_d.begin(), kept_d.end(), d.begin());
      }
      EXPECT_TRUE(check().ok);  // restored
    }
  }
}

TEST_F(Graph500MpiCuda, GpuCountAndMemoryChecks) {
  EXPECT_THROW(make_mpi_cuda_pipeline(c, params(40), shared()), resource_error);
  mpi_options no_alpha = shared();
  no_alpha.cuda_bfs.alpha = 0;
  EXPECT_THROW(make_mpi_cuda_pipeline(c, params(4), no_alpha), usage_error);
  mpi_options bits = shared();  // a width other than 32 or 64, and 32 bits for more than 2^32 vertices
  bits.vertex_bits = 16;
  EXPECT_THROW(make_mpi_cuda_pipeline(c, params(4), bits), usage_error);
  bits.vertex_bits = 32;
  EXPECT_THROW(make_mpi_cuda_pipeline(c, params(33), bits), usage_error);
  const int gpus = static_cast<int>(cuda_devices().size());
  // Without share_gpus, more ranks on a node than GPUs is a usage error on every rank.
  if (c.allreduce(c.node_size() > gpus ? 1 : 0, dist::reduce_op::max) == 1) {
    EXPECT_THROW(make_mpi_cuda_pipeline(c, params(4)), usage_error);
  } else {
    EXPECT_NO_THROW(make_mpi_cuda_pipeline(c, params(4)));
  }
}

}  // namespace
}  // namespace gpu500::graph500
