// Tests of the GPU toolkit (gpu500/core/cuda): owning device and pinned buffers (moves, stream-
// ordered allocation, copies, zeroing), the launch-size arithmetic, the grid- and warp-stride
// ranges (every index visited exactly once, past 2^32 too), the launch check and the step timer
// (a kernel that spins for a known time shows in its step, names summed, unfinished marks
// dropped; a timer made off records nothing) and the chunked download to host memory (widening
// and plain copies). Skipped where no GPU is present, but for the timer made off, which calls no
// CUDA function.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "gpu500/core/cuda/check.cuh"
#include "gpu500/core/cuda/download.hpp"
#include "gpu500/core/cuda/launch.cuh"
#include "gpu500/core/cuda/memory.hpp"
#include "gpu500/core/cuda/step_timer.hpp"
#include "gpu500/core/device.hpp"
#include "gpu500/core/error.hpp"

namespace {

using gpu500::index_t;
namespace gpu = gpu500::gpu;

#define REQUIRE_GPU() \
  if (!gpu500::cuda_available()) GTEST_SKIP() << "no CUDA device"

__global__ void count_visits(unsigned* hits, index_t n) {
  for (index_t i : gpu::grid_stride(n)) atomicAdd(&hits[i], 1u);
}
__global__ void count_warp_visits(unsigned* hits, index_t n) {
  for (index_t i : gpu::warp_stride(n))
    if (gpu::lane_id() == 0) atomicAdd(&hits[i], 1u);
}
// Counts the indices a grid-stride range visits in [first, n) for an n past 2^32, without
// touching memory for them: visits of index i >= first are summed per thread.
__global__ void count_high_range(unsigned long long* total, index_t first, index_t n) {
  unsigned long long mine = 0;
  const index_t t = gpu::grid_threads();
  // Start each thread at its first index >= first, then use a plain stride range.
  const index_t start = first + ((gpu::global_thread_id() - first % t) % t + t) % t;
  for (index_t i : gpu::stride_range(start, n, t)) mine += (i >= first);
  atomicAdd(total, mine);
}

TEST(GridSize, CoversItemsAndClamps) {
  EXPECT_EQ(gpu::grid_blocks(0, 256), 1u);
  EXPECT_EQ(gpu::grid_blocks(1, 256), 1u);
  EXPECT_EQ(gpu::grid_blocks(256, 256), 1u);
  EXPECT_EQ(gpu::grid_blocks(257, 256), 2u);
  EXPECT_EQ(gpu::grid_blocks(1000, 128, 4), 2u);
  EXPECT_EQ(gpu::grid_blocks(index_t{1} << 40, 256), gpu::max_grid_stride_blocks);
  EXPECT_EQ(gpu::grid_blocks(index_t{1} << 40, 256, 1, 100), 100u);
  EXPECT_EQ(gpu::grid_blocks_warp_per_item(9, 256), 2u);  // 9 warps of 8 per block
  EXPECT_EQ(gpu::ceil_div(10, 3), 4);
}

TEST(DeviceBuffer, MovesOwnershipAndRoundTrips) {
  REQUIRE_GPU();
  std::vector<int> h(1000);
  std::iota(h.begin(), h.end(), -7);
  gpu::device_buffer<int> a = gpu::to_device(h);
  ASSERT_EQ(a.size(), h.size());
  int* p = a.data();
  gpu::device_buffer<int> b(std::move(a));
  EXPECT_EQ(a.data(), nullptr);
  EXPECT_EQ(a.size(), 0u);
  EXPECT_EQ(b.data(), p);
  EXPECT_EQ(gpu::to_host(b), h);
  gpu::device_buffer<int> c;
  c = std::move(b);
  EXPECT_EQ(c.data(), p);
  c.zero();
  EXPECT_EQ(gpu::to_host(c), std::vector<int>(h.size(), 0));
  EXPECT_EQ(c.reserve(10), p);  // holds enough: no reallocation
  c.reset();
  EXPECT_TRUE(c.empty());
}

TEST(DeviceBuffer, StreamOrderedAllocationAndPinnedCopies) {
  REQUIRE_GPU();
  cudaStream_t s = nullptr;
  GPU500_CUDA_CHECK(cudaStreamCreate(&s));
  {
    const std::size_t n = 1 << 20;
    gpu::pinned_buffer<float> up(n), down(n);
    for (std::size_t i = 0; i < n; ++i) up[i] = static_cast<float>(i) * 0.5f;
    gpu::device_buffer<float> d(n, s);
    EXPECT_EQ(d.stream(), s);
    gpu::copy_bytes_async(d.data(), up.data(), up.bytes(), s);
    gpu::copy_bytes_async(down.data(), d.data(), d.bytes(), s);
    gpu::synchronize(s);
    for (std::size_t i = 0; i < n; i += 4097) ASSERT_EQ(down[i], up[i]) << i;
  }  // freed on s, in order
  GPU500_CUDA_CHECK(cudaStreamSynchronize(s));
  GPU500_CUDA_CHECK(cudaStreamDestroy(s));
}

TEST(DeviceBuffer, FailedAllocationNamesTheSizes) {
  REQUIRE_GPU();
  const std::size_t too_big = std::size_t{1} << 50;  // 1 PiB
  try {
    gpu::device_buffer<char> b(too_big);
    FAIL() << "allocated 1 PiB";
  } catch (const gpu500::resource_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(gpu500::human_bytes(static_cast<double>(too_big))), std::string::npos) << what;  // "1.13 PB"
    EXPECT_NE(what.find("free"), std::string::npos) << what;
  }
  EXPECT_THROW(gpu::check_device_memory("the test", too_big), gpu500::resource_error);
}

TEST(StrideRanges, VisitEveryIndexOnce) {
  REQUIRE_GPU();
  for (const index_t n : {index_t{0}, index_t{1}, index_t{31}, index_t{1000}, index_t{1} << 20}) {
    gpu::device_buffer<unsigned> hits(n + 1);
    hits.zero();
    gpu::launch(count_visits, 7, 96, 0, nullptr, hits.data(), n);  // far fewer threads than items
    gpu::synchronize();
    auto h = gpu::to_host(hits);
    for (index_t i = 0; i < n; ++i) ASSERT_EQ(h[i], 1u) << "grid stride, n " << n << " index " << i;
    EXPECT_EQ(h[n], 0u);
    hits.zero();
    gpu::launch(count_warp_visits, 3, 64, 0, nullptr, hits.data(), n);
    gpu::synchronize();
    h = gpu::to_host(hits);
    for (index_t i = 0; i < n; ++i) ASSERT_EQ(h[i], 1u) << "warp stride, n " << n << " index " << i;
  }
}

TEST(StrideRanges, SixtyFourBitIndices) {
  REQUIRE_GPU();
  const index_t first = (index_t{1} << 32) + 5, n = first + 100003;
  gpu::device_buffer<unsigned long long> total(1);
  total.zero();
  gpu::launch(count_high_range, 64, 128, 0, nullptr, total.data(), first, n);
  gpu::synchronize();
  EXPECT_EQ(gpu::to_host(total)[0], static_cast<unsigned long long>(n - first));
}

// Spins one thread for `ns` nanoseconds of the GPU's global timer.
__device__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
__global__ void spin(unsigned long long ns) {
  const unsigned long long start = global_ns();
  while (global_ns() - start < ns) __nanosleep(1000);
}

TEST(StepTimer, TimesEachStepInOrderAndSumsRepeatedNames) {
  REQUIRE_GPU();
  gpu::step_timer t(true);
  for (int round = 0; round < 2; ++round) {  // the events are reused
    t.mark("idle");
    t.mark("spin");
    gpu::launch(spin, 1, 1, 0, nullptr, 2000000ull);  // 2 ms
    t.mark("idle");  // summed into the first "idle"
    t.end();
    const auto steps = t.take();
    ASSERT_EQ(steps.size(), 2u);
    EXPECT_EQ(steps[0].first, "idle");
    EXPECT_EQ(steps[1].first, "spin");
    EXPECT_GE(steps[0].second, 0.0);
    EXPECT_GT(steps[1].second, 1.5e-3);  // the kernel's two milliseconds, not the idle marks'
    EXPECT_LT(steps[1].second, 1.0);
    EXPECT_LT(steps[0].second, steps[1].second);
  }
  t.mark("left");  // a level that ended without end(): dropped, and the next one starts clean
  t.drop();
  t.mark("next");
  t.end();
  const auto steps = t.take();
  ASSERT_EQ(steps.size(), 1u);
  EXPECT_EQ(steps[0].first, "next");
  EXPECT_THROW(t.take(), gpu500::error);  // take() needs end()
}

TEST(StepTimer, OffRecordsNothing) {  // no CUDA call: runs without a GPU too
  gpu::step_timer t(false);
  EXPECT_FALSE(t.on());
  t.mark("reduce");
  t.mark("expand");
  t.end();
  EXPECT_TRUE(t.take().empty());
  EXPECT_TRUE(t.take().empty());  // nothing to end, nothing to refuse
  t.drop();
}

TEST(Launch, ABadLaunchThrows) {
  REQUIRE_GPU();
  gpu::device_buffer<unsigned> hits(1);
  // 4096 threads per block is over every device's limit: the launch itself fails.
  EXPECT_THROW(gpu::launch(count_visits, 1, 4096, 0, nullptr, hits.data(), index_t{1}), gpu500::error);
}

}  // namespace

// host_download over many small chunks (the double buffering's every turn, a last partial
// chunk, an array inside one chunk, none at all): unsigned ids of all ones widen to -1, signed
// values keep their sign, plain copies are exact.
TEST(HostDownload, WidensAndCopiesOverManyChunks) {
  REQUIRE_GPU();
  gpu::host_download down(4096);
  for (std::size_t n : {std::size_t{0}, std::size_t{7}, std::size_t{10003}}) {
    SCOPED_TRACE("n " + std::to_string(n));
    std::vector<std::uint32_t> ids(n);
    std::vector<std::int32_t> levels(n);
    std::vector<float> values(n);
    for (std::size_t i = 0; i < n; ++i) {
      ids[i] = i % 5 == 3 ? ~std::uint32_t{0} : static_cast<std::uint32_t>(3000000000u + i);
      levels[i] = i % 7 == 2 ? -1 : static_cast<std::int32_t>(i);
      values[i] = 0.5f * static_cast<float>(i);
    }
    gpu::device_buffer<std::uint32_t> d_ids(n);
    gpu::device_buffer<std::int32_t> d_levels(n);
    gpu::device_buffer<float> d_values(n);
    gpu::copy_bytes(d_ids.data(), ids.data(), n * sizeof(std::uint32_t));
    gpu::copy_bytes(d_levels.data(), levels.data(), n * sizeof(std::int32_t));
    gpu::copy_bytes(d_values.data(), values.data(), n * sizeof(float));
    std::vector<std::int64_t> wide(n, 42), wide_levels(n, 42);
    std::vector<float> back(n, 42.0f);
    down.widen(d_ids.data(), n, wide.data());
    down.widen(d_levels.data(), n, wide_levels.data());
    down.copy(d_values.data(), n, back.data());
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_EQ(wide[i], i % 5 == 3 ? -1 : static_cast<std::int64_t>(3000000000u + i)) << i;
      ASSERT_EQ(wide_levels[i], levels[i]) << i;
      ASSERT_EQ(back[i], values[i]) << i;
    }
  }
  gpu::host_download odd(100);  // not a multiple of 64 bytes: refused at the first download
  const gpu::device_buffer<std::int32_t> one(1);
  std::int64_t x = 0;
  EXPECT_THROW(odd.widen(one.data(), 1, &x), gpu500::error);
}
