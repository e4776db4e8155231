// The host Graph500 pipeline over MPI ranks, on however many ranks mpiexec gives (1 to 4), against
// the same pipeline on one process and the test oracles: the same edge count, search keys and nedge;
// valid BFS and SSSP at several small scales (some ranks owning no vertex or no edge); the same
// levels and distances as one rank and as the oracles; the validator rejecting a corrupted parent
// on any rank; the per-level trace; the memory check.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <regex>
#include <string>

#include "gpu500/core/error.hpp"
#include "gpu500/graph500/cpu_pipeline.hpp"
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

run_config config(int scale, int roots) {
  run_config cfg;
  cfg.graph = params(scale);
  cfg.num_roots = roots;
  cfg.progress = false;
  return cfg;
}

TEST(Graph500Mpi, HarnessMatchesOneProcess) {
  const auto c = dist::communicator::world();
  for (int scale : {2, 4, 7, 10}) {
    SCOPED_TRACE("SCALE " + std::to_string(scale) + ", " + std::to_string(c.size()) + " ranks");
    run_config cfg = config(scale, 8);
    cfg.num_processes = c.size();
    cpu_pipeline_options o;
    o.validator_asks_owners = scale == 7;  // the validator's other way to learn the arcs' far ends
    auto dp = make_cpu_pipeline(c, cfg.graph, o);
    const run_result rd = run(*dp, cfg);
    // Every rank has the same verdict, so all stop here together; a failed run has no figures
    // to compare below.
    ASSERT_TRUE(rd.valid) << rd.failure;
    auto cp = make_cpu_pipeline(cfg.graph, cpu_pipeline_options{});
    const run_result rc = run(*cp, config(scale, 8));
    ASSERT_TRUE(rc.valid) << rc.failure;
    EXPECT_EQ(rd.roots, rc.roots);
    EXPECT_EQ(rd.bfs.nedge, rc.bfs.nedge);
    EXPECT_EQ(rd.sssp.nedge, rc.sssp.nedge);
    // The same times on every rank (the slowest rank's).
    const double t = rd.bfs.seconds.front();
    EXPECT_EQ(c.allreduce(t, dist::reduce_op::max), c.allreduce(t, dist::reduce_op::min));
  }
}

TEST(Graph500Mpi, EdgeCountAndHasEdgesMatchOneProcess) {
  const auto c = dist::communicator::world();
  for (int scale : {3, 6}) {
    const auto p = params(scale);
    auto dp = make_cpu_pipeline(c, p);
    dp->generate();
    dp->construct();
    auto cp = make_cpu_pipeline(p, cpu_pipeline_options{});
    cp->generate();
    cp->construct();
    const graph::edge_list el = graph::generate_kronecker(p);
    index_t loops = 0;
    for (index_t i = 0; i < el.size(); ++i) loops += el.src[i] == el.dst[i];
    // Every edge but the self-loops is stored twice, once at each endpoint's owner.
    EXPECT_EQ(c.allreduce(dp->local_arcs(), dist::reduce_op::sum), 2 * (el.size() - loops));
    for (index_t v = 0; v < p.num_vertices(); ++v) EXPECT_EQ(dp->has_edges(v), cp->has_edges(v)) << "vertex " << v;
    EXPECT_GT(el.size() - loops, 0);
  }
}

TEST(Graph500Mpi, SameLevelsAndDistancesAsOneRankAndOracle) {
  const auto c = dist::communicator::world();
  const dist::communicator one;  // the same pipeline on one rank, in every process
  // The SSSP's heavy steps pushed (share above 1), pulled where a bucket holds a tenth of the arcs
  // (the default) and pulled in every bucket (share 0); the one-rank pipeline keeps the default.
  for (const double pull_share : {2.0, 0.1, 0.0})
    for (int scale : {5, 9}) {
      SCOPED_TRACE("SCALE " + std::to_string(scale) + ", pull share " + std::to_string(pull_share));
      const auto p = params(scale);
      cpu_pipeline_options o;
      o.bfs.wide_columns = scale == 9;  // the BFS's rows in 64 bits (32 where the ids fit)
      o.sssp.pull_share = pull_share;
      // Kernel 1's rows and both engines on 32-bit ids once per scale (64 by default).
      o.vertex_bits = pull_share == 0.1 ? 32 : 64;
      auto dp = make_cpu_pipeline(c, p, o);
      EXPECT_EQ(dp->vertex_bits(), pull_share == 0.1 ? 32 : 64);
      auto sp = make_cpu_pipeline(one, p);
      for (auto* x : {dp.get(), sp.get()}) {
        x->generate();
        x->construct();
      }
      const graph::edge_list el = graph::generate_kronecker(p);
      const auto roots = graph::pick_search_keys(p, 3, [&](std::int64_t v) { return dp->has_edges(v); });
      for (std::int64_t root : roots) {
        dp->bfs(root);
        sp->bfs(root);
        const auto pd = test::gather<std::int64_t>(c, dp->local_parents(false));
        const auto ps = std::vector<std::int64_t>(sp->local_parents(false).begin(), sp->local_parents(false).end());
        const auto ld = test::levels_of(pd, root);
        EXPECT_EQ(ld, test::levels_of(ps, root));
        EXPECT_EQ(ld, test::host_bfs(el, root).level);
        EXPECT_TRUE(dp->validate_bfs(root).ok);

        dp->sssp(root);
        sp->sssp(root);
        const auto dd = test::gather<float>(c, dp->local_distances());
        const auto ds = std::vector<float>(sp->local_distances().begin(), sp->local_distances().end());
        std::vector<std::int64_t> op;
        std::vector<float> od;
        test::host_sssp(el, root, op, od);
        for (std::size_t v = 0; v < dd.size(); ++v) {
          const float a = dd[v] == std::numeric_limits<float>::infinity() ? -1.f : dd[v];
          const float b = ds[v] == std::numeric_limits<float>::infinity() ? -1.f : ds[v];
          EXPECT_EQ(a, b) << "vertex " << v;
          EXPECT_EQ(a, od[v]) << "vertex " << v;
        }
        EXPECT_TRUE(dp->validate_sssp(root).ok);
        // The trace says which heavy steps pulled: none, or every one, as the share asks.
        const std::string t = dp->trace().dump(-1);
        const std::string sssp = t.substr(t.find("\"sssp\""));
        const bool pulled = sssp.find("\"direction\":\"pull\"") != std::string::npos;
        const bool pushed = sssp.find("\"direction\":\"heavy\"") != std::string::npos;
        if (pull_share > 1) {
          EXPECT_FALSE(pulled) << sssp;
        }
        if (pull_share == 0) {
          EXPECT_FALSE(pushed) << sssp;
        }
        EXPECT_TRUE(pulled || pushed) << sssp;
      }
    }
}

TEST(Graph500Mpi, ValidatorRejectsACorruptedParentOnAnyRank) {
  const auto c = dist::communicator::world();
  const auto p = params(8);
  for (bool asks : {false, true}) {  // far ends all-gathered, then asked of their owners
    cpu_pipeline_options o;
    o.validator_asks_owners = asks;
    auto dp = make_cpu_pipeline(c, p, o);
    dp->generate();
    dp->construct();
    const auto root = graph::pick_search_keys(p, 1, [&](std::int64_t v) { return dp->has_edges(v); }).front();
    for (bool sssp : {false, true})
      for (int bad = 0; bad < c.size(); ++bad) {
        SCOPED_TRACE(std::string(sssp ? "SSSP" : "BFS") + ", corrupted on rank " + std::to_string(bad) +
                     (asks ? ", far ends asked" : ", far ends gathered"));
        sssp ? dp->sssp(root) : dp->bfs(root);
        ASSERT_TRUE(sssp ? dp->validate_sssp(root).ok : dp->validate_bfs(root).ok);
        // Rank `bad` points a reached vertex (not the root) at another vertex than its parent.
        int done = 0;
        if (c.rank() == bad) {
          auto par = dp->local_parents(sssp);
          for (std::size_t l = 0; l < par.size() && !done; ++l) {
            const std::int64_t v = dp->owned().first + static_cast<std::int64_t>(l);
            if (par[l] >= 0 && v != root) {
              par[l] = (par[l] + 1) % p.num_vertices() == v ? (par[l] + 2) % p.num_vertices() : (par[l] + 1) % p.num_vertices();
              done = 1;
            }
          }
        }
        if (c.bcast(done, bad) == 0) continue;  // that rank reached nothing
        const validation v = sssp ? dp->validate_sssp(root) : dp->validate_bfs(root);
        EXPECT_FALSE(v.ok);
        EXPECT_FALSE(v.message.empty());
        // The same verdict and message on every rank.
        EXPECT_EQ(c.bcast(std::string(v.message), 0), v.message);
      }
  }
}

// Parents that form a cycle never reach the root, so its vertices get no level: a reached vertex
// made its own parent, and the parent of the last reached vertex made a child of that vertex (a
// two-cycle when both are reached), on the last rank that reached anything.
TEST(Graph500Mpi, ValidatorRejectsAParentCycle) {
  const auto c = dist::communicator::world();
  const auto p = params(9);
  auto dp = make_cpu_pipeline(c, p);
  dp->generate();
  dp->construct();
  const auto root = graph::pick_search_keys(p, 1, [&](std::int64_t v) { return dp->has_edges(v); }).front();
  for (bool two_cycle : {false, true}) {
    SCOPED_TRACE(two_cycle ? "two-cycle" : "self-parent");
    dp->bfs(root);
    ASSERT_TRUE(dp->validate_bfs(root).ok);
    auto par = dp->local_parents(false);
    std::int64_t mine = -1;  // the last reached owned vertex that is not the root
    for (std::size_t l = 0; l < par.size(); ++l) {
      const std::int64_t v = dp->owned().first + static_cast<std::int64_t>(l);
      if (par[l] >= 0 && v != root) mine = static_cast<std::int64_t>(l);
    }
    const int who = c.allreduce(mine >= 0 ? c.rank() : -1, dist::reduce_op::max);
    ASSERT_GE(who, 0);
    if (c.rank() == who) {
      const std::int64_t v = dp->owned().first + mine;
      if (!two_cycle) {
        par[static_cast<std::size_t>(mine)] = v;
      } else {
        // Another reached owned vertex u (not the root): u -> v and v -> u.
        for (std::size_t l = 0; l < par.size(); ++l) {
          const std::int64_t u = dp->owned().first + static_cast<std::int64_t>(l);
          if (par[l] >= 0 && u != root && u != v) {
            par[l] = v;
            par[static_cast<std::size_t>(mine)] = u;
            break;
          }
        }
      }
    }
    const validation r = dp->validate_bfs(root);
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.message.find("not confirmed"), std::string::npos) << r.message;
  }
}

TEST(Graph500Mpi, ValidatorRejectsABrokenRoot) {
  const auto c = dist::communicator::world();
  const auto p = params(6);
  auto dp = make_cpu_pipeline(c, p);
  dp->generate();
  dp->construct();
  const auto root = graph::pick_search_keys(p, 1, [&](std::int64_t v) { return dp->has_edges(v); }).front();
  dp->bfs(root);
  ASSERT_TRUE(dp->validate_bfs(root).ok);
  // The root is someone else's child: its owner breaks it.
  if (dp->owned().contains(root)) dp->local_parents(false)[root - dp->owned().first] = -1;
  const validation v = dp->validate_bfs(root);
  EXPECT_FALSE(v.ok);
}

TEST(Graph500Mpi, OptionsAndTrace) {
  const auto c = dist::communicator::world();
  // {top-down only, alpha, beta, delta, no light/heavy split, teams of the BFS and the SSSP}
  const auto options = [](bool top_down, double alpha, double beta, float delta, bool no_light_heavy, int bfs_threads,
                          int sssp_threads) {
    cpu_pipeline_options o;
    o.bfs = bfs::cpu_options{bfs_threads, top_down, alpha, beta};
    o.sssp = sssp::cpu_options{sssp_threads, delta, no_light_heavy};
    return o;
  };
  for (const cpu_pipeline_options& o :
       {options(true, 15.0, 18.0, 0.f, false, 0, 0), options(false, 2.0, 50.0, 0.25f, true, 0, 0),
        options(false, 15.0, 18.0, 0.1f, false, 0, 0), options(false, 15.0, 18.0, 2.f, false, 0, 0),  // 2: every arc light
        options(false, 15.0, 18.0, 0.f, false, 1, 3)}) {
    run_config cfg = config(9, 4);
    auto dp = make_cpu_pipeline(c, cfg.graph, o);
    const run_result r = run(*dp, cfg);
    EXPECT_TRUE(r.valid) << r.failure;
    if (o.sssp.delta > 0) {
      EXPECT_EQ(dp->sssp_delta(), o.sssp.delta);
    } else {
      EXPECT_GT(dp->sssp_delta(), 0.f);
    }
    const std::string t = dp->trace().dump(-1);
    EXPECT_NE(t.find("\"bfs\":[{\"level\":0"), std::string::npos) << t;
    EXPECT_NE(t.find("\"sssp\":[{\"level\":0"), std::string::npos) << t;
    EXPECT_EQ(test::per_rank_seconds_problem(t, c.size()), "") << t;
    if (o.bfs.top_down_only) {
      EXPECT_EQ(t.find("bottom-up"), std::string::npos);
    }
    if (o.bfs.alpha == 2.0) {
      EXPECT_NE(t.find("bottom-up"), std::string::npos);
    }
    if (o.sssp.no_light_heavy) {
      EXPECT_EQ(t.find("heavy"), std::string::npos);
    } else {
      EXPECT_NE(t.find("heavy"), std::string::npos);
    }
    if (c.size() > 1) {
      EXPECT_TRUE(std::regex_search(t, std::regex("\"bytes\":[1-9]"))) << t;
    }
    // Counts are sums over the ranks, the same on every rank: the SSSP's first phase lists the
    // root alone, whichever rank owns it.
    EXPECT_TRUE(std::regex_search(t, std::regex("\"sssp\":\\[\\{\"level\":0,\"direction\":\"[a-z]+\",\"frontier\":1,")))
        << t;
  }
}

TEST(Graph500Mpi, MemoryCheckThrowsOnEveryRank) {
  const auto c = dist::communicator::world();
  EXPECT_THROW(make_cpu_pipeline(c, params(40)), resource_error);
  auto bad = params(4);
  bad.edgefactor = 0;
  EXPECT_THROW(make_cpu_pipeline(c, bad), usage_error);
  cpu_pipeline_options no_alpha;
  no_alpha.bfs.alpha = 0;
  EXPECT_THROW(make_cpu_pipeline(c, params(4), no_alpha), usage_error);
  cpu_pipeline_options bits;  // a width other than 32 or 64, and 32 bits for more than 2^32 vertices
  bits.vertex_bits = 16;
  EXPECT_THROW(make_cpu_pipeline(c, params(4), bits), usage_error);
  bits.vertex_bits = 32;
  EXPECT_THROW(make_cpu_pipeline(c, params(33), bits), usage_error);
}

}  // namespace
}  // namespace gpu500::graph500
