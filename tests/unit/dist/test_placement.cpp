// The placement of a rank (gpu500/dist/placement.hpp): the GPU of a node rank and the ranks
// sharing it, CPU lists, the core slices of a host's ranks and the cores of a lone process.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpu500/dist/placement.hpp"

namespace gpu500::dist {
namespace {

TEST(Placement, GpuOfANodeRankIsRoundRobin) {
  static_assert(gpu_of_node_rank(0, 1) == 0);
  EXPECT_EQ(gpu_of_node_rank(3, 2), 1);
  EXPECT_EQ(gpu_of_node_rank(5, 8), 5);
  EXPECT_EQ(gpu_of_node_rank(2, 0), 0);
}

// Rank k of a node takes GPU k mod gpus: 3 ranks on 2 GPUs put 2 on GPU 0 and 1 on GPU 1; a rank
// alone on its GPU counts itself; no GPU counts as one.
TEST(Placement, RanksOnAGpuFollowTheRoundRobinPlacement) {
  static_assert(ranks_on_gpu_of(0, 1, 1) == 1);
  EXPECT_EQ(ranks_on_gpu_of(0, 3, 2), 2);
  EXPECT_EQ(ranks_on_gpu_of(2, 3, 2), 2);
  EXPECT_EQ(ranks_on_gpu_of(1, 3, 2), 1);
  EXPECT_EQ(ranks_on_gpu_of(3, 4, 4), 1);
  EXPECT_EQ(ranks_on_gpu_of(5, 8, 1), 8);
  EXPECT_EQ(ranks_on_gpu_of(1, 2, 0), 2);
  for (int gpus = 1; gpus <= 4; ++gpus)
    for (int ranks = 1; ranks <= 9; ++ranks) {
      int total = 0;
      for (int g = 0; g < gpus && g < ranks; ++g) total += ranks_on_gpu_of(g, ranks, gpus);
      EXPECT_EQ(total, ranks) << ranks << " ranks on " << gpus << " GPUs";
    }
}

TEST(Placement, CpuLists) {
  EXPECT_EQ(parse_cpu_list("0-3,8,10-11"), (std::vector<int>{0, 1, 2, 3, 8, 10, 11}));
  EXPECT_EQ(parse_cpu_list(""), std::vector<int>{});
  EXPECT_EQ(parse_cpu_list("5,x,2-1,3"), (std::vector<int>{3, 5}));
  EXPECT_EQ(format_cpu_list({0, 1, 2, 3, 8, 10, 11}), "0-3,8,10-11");
}

TEST(Placement, CoreSlices) {
  std::vector<int> node(16);
  for (int i = 0; i < 16; ++i) node[i] = i;
  const std::vector<std::vector<int>> unknown(2);
  EXPECT_EQ(format_cpu_list(core_slice(node, unknown, 0)), "0-7");
  EXPECT_EQ(format_cpu_list(core_slice(node, unknown, 1)), "8-15");
  const std::vector<std::vector<int>> three(3);
  EXPECT_EQ(format_cpu_list(core_slice(node, three, 0)), "0-4");
  EXPECT_EQ(format_cpu_list(core_slice(node, three, 1)), "5-9");
  EXPECT_EQ(format_cpu_list(core_slice(node, three, 2)), "10-15");
  // GPUs 0, 1 near CPUs 8-15, GPUs 2, 3 near 0-7: each pair splits its own half.
  const auto lo = parse_cpu_list("0-7"), hi = parse_cpu_list("8-15");
  const std::vector<std::vector<int>> near = {hi, hi, lo, lo};
  EXPECT_EQ(format_cpu_list(core_slice(node, near, 0)), "8-11");
  EXPECT_EQ(format_cpu_list(core_slice(node, near, 1)), "12-15");
  EXPECT_EQ(format_cpu_list(core_slice(node, near, 2)), "0-3");
  EXPECT_EQ(format_cpu_list(core_slice(node, near, 3)), "4-7");
  // A list outside the node's cores counts as unknown.
  const std::vector<std::vector<int>> outside = {parse_cpu_list("100-101"), {}};
  EXPECT_EQ(format_cpu_list(core_slice(node, outside, 0)), "0-7");
  // More ranks than cores: one core each, round-robin.
  const std::vector<int> two = {0, 1};
  const std::vector<std::vector<int>> four(4);
  EXPECT_EQ(core_slice(two, four, 3), std::vector<int>{1});
  EXPECT_TRUE(core_slice(node, unknown, 2).empty());
}

TEST(Placement, LoneProcessStaysOnItsGpusSocket) {
  const auto all = parse_cpu_list("0-31");
  // Two sockets: bound to the GPU's one.
  EXPECT_EQ(format_cpu_list(lone_process_cores(all, parse_cpu_list("16-31"))), "16-31");
  // One socket (the GPU is near every allowed core), or the list is unknown: left as it is.
  EXPECT_TRUE(lone_process_cores(all, all).empty());
  EXPECT_TRUE(lone_process_cores(all, {}).empty());
  // Already restricted (taskset) to cores the GPU is near: left as it is; partly: narrowed.
  EXPECT_TRUE(lone_process_cores(parse_cpu_list("16-23"), parse_cpu_list("16-31")).empty());
  EXPECT_EQ(format_cpu_list(lone_process_cores(parse_cpu_list("8-23"), parse_cpu_list("16-31"))), "16-23");
}

}  // namespace
}  // namespace gpu500::dist
