// Edge lists handed over in the caller's device memory (graph::cuda::device_edge_arrays, the
// entry of DLPack CUDA arrays): copy_edge_list gives the list upload_edge_list gives for the same
// host edges (32- and 64-bit ids, weighted, unit weights), refuses ends outside [0, n) and lists of
// self-loops only as the host checks do, device_vertex_count finds the largest end, and a pipeline
// over device arrays validates its BFS and SSSP with the host pipeline's edge counts. Skipped
// without a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "../../support/graphs.hpp"
#include "gpu500/core/cuda/memory.hpp"
#include "gpu500/core/device.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/graph/cuda.hpp"
#include "gpu500/graph500/cuda_pipeline.hpp"

using namespace gpu500;
namespace gc = gpu500::graph::cuda;

namespace {

class DeviceEdgesCuda : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  }
};

/// A host edge list's arrays copied to the device, as a caller's CUDA arrays would be.
struct device_arrays {
  gpu::device_buffer<std::int64_t> src, dst;
  gpu::device_buffer<float> weight;
  explicit device_arrays(const graph::edge_list& el)
      : src(gpu::to_device(std::span<const std::int64_t>(el.src))), dst(gpu::to_device(std::span<const std::int64_t>(el.dst))) {
    if (el.weighted()) weight = gpu::to_device(std::span<const float>(el.weight));
  }
  [[nodiscard]] gc::device_edge_arrays view(index_t n, bool weights = true) const {
    gc::device_edge_arrays a;
    a.num_vertices = n;
    a.num_edges = static_cast<index_t>(src.size());
    a.src = src.data();
    a.dst = dst.data();
    a.weight = weights && weight.size() ? weight.data() : nullptr;
    return a;
  }
};

template <class V>
void expect_same_list(const graph::edge_list& el) {
  const device_arrays d(el);
  const graph::edge_list got = gc::download_edge_list(gc::copy_edge_list<V>(d.view(el.num_vertices)));
  const graph::edge_list want = gc::download_edge_list(gc::upload_edge_list<V>(el));
  EXPECT_EQ(got.num_vertices, want.num_vertices);
  EXPECT_EQ(got.src, want.src);
  EXPECT_EQ(got.dst, want.dst);
  EXPECT_EQ(got.weight, want.weight);
}

TEST_F(DeviceEdgesCuda, CopyEqualsUpload) {
  for (const auto& c : test::awkward_cases()) {
    if (c.edges.size() == 0 || std::equal(c.edges.src.begin(), c.edges.src.end(), c.edges.dst.begin())) continue;
    SCOPED_TRACE(c.name);
    expect_same_list<std::uint32_t>(c.edges);
    expect_same_list<std::int64_t>(c.edges);
  }
}

TEST_F(DeviceEdgesCuda, UnitWeightsAndVertexCount) {
  const graph::edge_list el = test::awkward_cases().front().edges;
  const device_arrays d(el);
  gc::device_edge_arrays a = d.view(el.num_vertices, false);
  a.unit_weights = true;
  const graph::edge_list got = gc::download_edge_list(gc::copy_edge_list<std::uint32_t>(a));
  EXPECT_EQ(std::vector<float>(got.weight.begin(), got.weight.end()), std::vector<float>(el.size(), 1.0f));
  const std::int64_t largest = std::max(*std::max_element(el.src.begin(), el.src.end()),
                                        *std::max_element(el.dst.begin(), el.dst.end()));
  EXPECT_EQ(gc::device_vertex_count(a), largest + 1);
}

TEST_F(DeviceEdgesCuda, BadListsAreRefused) {
  graph::edge_list el;
  el.num_vertices = 4;
  el.src = {0, 1, 2};
  el.dst = {1, 2, 3};
  {
    const device_arrays d(el);
    EXPECT_THROW(gc::copy_edge_list<std::uint32_t>(d.view(3)), usage_error);  // end 3 outside [0, 3)
    EXPECT_NO_THROW(gc::copy_edge_list<std::uint32_t>(d.view(4)));
  }
  el.dst[1] = -5;
  {
    const device_arrays d(el);
    EXPECT_THROW(gc::copy_edge_list<std::int64_t>(d.view(4)), usage_error);
    EXPECT_THROW(gc::device_vertex_count(d.view(4)), usage_error);
  }
  el.dst = el.src;  // self-loops only
  {
    const device_arrays d(el);
    EXPECT_THROW(gc::copy_edge_list<std::uint32_t>(d.view(4)), usage_error);
  }
}

TEST_F(DeviceEdgesCuda, PipelineOverDeviceArraysValidates) {
  const graph::edge_list el = test::awkward_cases().front().edges;  // weighted, two components
  const std::vector<std::int64_t> roots = test::awkward_cases().front().roots;
  const device_arrays d(el);
  auto host = graph500::make_cuda_pipeline(graph::edge_list(el), graph500::cuda_options{});
  host->generate();
  host->construct();
  for (bool unit : {false, true}) {
    gc::device_edge_arrays a = d.view(el.num_vertices, !unit);
    a.unit_weights = unit;
    auto p = graph500::make_cuda_pipeline(a, graph500::cuda_options{});
    p->generate();
    p->construct();
    for (std::int64_t r : roots) {
      SCOPED_TRACE("root " + std::to_string(r) + (unit ? " unit weights" : ""));
      p->bfs(r);
      host->bfs(r);
      const auto vb = p->validate_bfs(r);
      EXPECT_TRUE(vb.ok) << vb.message;
      EXPECT_EQ(p->bfs_nedge(), host->bfs_nedge());
      p->sssp(r);
      const auto vs = p->validate_sssp(r);
      EXPECT_TRUE(vs.ok) << vs.message;
      if (!unit) {
        host->sssp(r);
        EXPECT_EQ(p->sssp_tree().distance, host->sssp_tree().distance);
      }
    }
  }
}

}  // namespace
