// The defaults of `gpu500 hpl`: the per-device table, the sizing rule for N, the HPL.dat writer
// (read back by the reader) and the progress line.
#include <gtest/gtest.h>

#include <cstdio>
#include <sstream>
#include <string>

#include "gpu500/hpl/dat.hpp"
#include "gpu500/hpl/defaults.hpp"
#include "progress.hpp"

using namespace gpu500;
using namespace gpu500::hpl;

namespace {
constexpr std::int64_t gib = std::int64_t{1} << 30;
}

TEST(HplDefaults, DeviceClasses) {
  EXPECT_EQ(classify_device(backend::cuda, "NVIDIA H100 80GB HBM3", 80 * gib), device_class::h100_80gb);
  EXPECT_EQ(classify_device(backend::cuda, "NVIDIA H200", 141 * gib), device_class::h200_141gb);
  EXPECT_EQ(classify_device(backend::cuda, "NVIDIA H100 PCIe", 40 * gib), device_class::other_cuda);
  EXPECT_EQ(classify_device(backend::cuda, "NVIDIA A100", 80 * gib), device_class::other_cuda);
  EXPECT_EQ(classify_device(backend::cpu, "NVIDIA H100", 80 * gib), device_class::cpu);
}

TEST(HplDefaults, Table) {
  const auto h100 = defaults_for(device_class::h100_80gb, true);
  EXPECT_EQ(h100.nb, 1024);
  EXPECT_EQ(h100.tail_getrf.value_or(-1), 32768);
  EXPECT_EQ(h100.gpu_panel, every_panel);
  EXPECT_TRUE(h100.gpu_panel_first);
  EXPECT_EQ(h100.panel_gemm_gpu, 0);  // it applies to CPU panels only
  const auto h200 = defaults_for(device_class::h200_141gb, true);
  EXPECT_EQ(h200.nb, h100.nb);
  EXPECT_EQ(h200.gpu_panel, h100.gpu_panel);
  for (auto c : {device_class::h100_80gb, device_class::h200_141gb, device_class::other_cuda, device_class::cpu}) {
    const auto grid = defaults_for(c, false);  // only NB applies to a larger grid
    EXPECT_EQ(grid.gpu_panel, 0);
    EXPECT_FALSE(grid.gpu_panel_first);
    EXPECT_EQ(grid.panel_gemm_gpu, 0);
    EXPECT_GE(grid.nb, 1);
    EXPECT_NE(std::string(grid.measured), "");
  }
  // Grids: 1 x 1 is the 1 x 1 entry; any larger grid, 1 x Q included, every panel on the GPU.
  EXPECT_EQ(defaults_for_grid(device_class::h100_80gb, 1, 1).tail_getrf.value_or(-1), 32768);
  const auto row4 = defaults_for_grid(device_class::h100_80gb, 1, 4);
  EXPECT_EQ(row4.gpu_panel, every_panel);
  EXPECT_TRUE(row4.gpu_panel_first);
  EXPECT_EQ(row4.panel_gemm_gpu, 0);
  EXPECT_EQ(row4.nb, defaults_for(device_class::h100_80gb, false).nb);
  EXPECT_EQ(defaults_for_grid(device_class::h200_141gb, 1, 2).gpu_panel, every_panel);
  const auto square = defaults_for_grid(device_class::h100_80gb, 2, 2);
  EXPECT_EQ(square.gpu_panel, every_panel);
  EXPECT_TRUE(square.gpu_panel_first);
  EXPECT_EQ(square.tail_getrf.has_value(), false);
  EXPECT_EQ(defaults_for_grid(device_class::other_cuda, 1, 2).gpu_panel, 0);  // 1 x 1 has none there
  const auto other = defaults_for(device_class::other_cuda, true);
  EXPECT_EQ(other.nb, 192);
  EXPECT_FALSE(other.tail_getrf.has_value());  // N/3
  EXPECT_EQ(defaults_for(device_class::cpu, true).nb, 192);
}

TEST(HplDefaults, SizingCuda) {
  const std::int64_t mem = 79 * gib;  // an H100's free memory
  const auto s = choose_n(backend::cuda, mem, 1, 1, 1024);
  EXPECT_EQ(s.n % 1024, 0);
  EXPECT_EQ(s.margin, mem * 6 / 100);
  EXPECT_LE(s.bytes_used + s.margin, mem);
  EXPECT_GE(s.bytes_used, 8 * s.n * s.n);
  EXPECT_GT(s.n, 90000);
  EXPECT_LT(s.n, 100000);
  // One more block does not fit (the matrix and the N x NB getrf workspace bound).
  const double next = 8.0 * (s.n + 1024) * (s.n + 1025) + 8.0 * (s.n + 1024) * 1024;
  EXPECT_GT(next + s.margin, static_cast<double>(mem));
  // Small devices keep 2 GiB free.
  const auto small = choose_n(backend::cuda, 8 * gib, 1, 1, 256);
  EXPECT_EQ(small.margin, 2 * gib);
  EXPECT_LE(small.bytes_used + small.margin, 8 * gib);
  // A 2 x 2 grid holds about twice the order.
  const auto g22 = choose_n(backend::cuda, mem, 2, 2, 384);
  EXPECT_GT(g22.n, 19 * s.n / 10);
  EXPECT_LT(g22.n, 2 * s.n + 2048);
  EXPECT_LE(g22.bytes_used + g22.margin, mem);
  EXPECT_EQ(choose_n(backend::cuda, gib, 1, 1, 256).n, 0);  // less than the margin
  EXPECT_EQ(choose_n(backend::cuda, 0, 1, 1, 256).n, 0);
}

TEST(HplDefaults, SizingCpu) {
  const std::int64_t mem = 16 * gib;
  const auto s = choose_n(backend::cpu, mem, 1, 1, 192);
  EXPECT_EQ(s.margin, mem / 2);
  EXPECT_EQ(s.n % 192, 0);
  EXPECT_LE(s.bytes_used, mem / 2);
  EXPECT_GT(8.0 * (s.n + 192) * (s.n + 192), static_cast<double>(mem / 2));
  const auto g12 = choose_n(backend::cpu, mem, 1, 2, 192);
  EXPECT_GT(g12.n, s.n);
}

TEST(HplDefaults, WrittenDatReadsBack) {
  params p;
  p.n = 12345;
  p.nb = 768;
  p.p = 2;
  p.q = 3;
  p.depth = 0;
  p.bc = bcast::blong;
  const std::string text = format_dat(single(p), "gpu500 hpl --tune: best NB 768");
  std::istringstream in(text);
  const auto d = parse_dat(in, "tuned");
  const auto tests = expand(d);
  ASSERT_EQ(tests.size(), 1u);
  EXPECT_EQ(tests[0].n, 12345);
  EXPECT_EQ(tests[0].nb, 768);
  EXPECT_EQ(tests[0].p, 2);
  EXPECT_EQ(tests[0].q, 3);
  EXPECT_EQ(tests[0].depth, 0);
  EXPECT_EQ(tests[0].bc, bcast::blong);
  EXPECT_EQ(tv_code(tests[0]), tv_code(p));
}

TEST(HplDefaults, ProgressLines) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  detail::progress_meter m(1000, 10, f, /*live=*/false);
  for (std::int64_t k = 10; k <= 1000; k += 10) m.update(k);
  m.finish();
  std::rewind(f);
  std::string all;
  char buf[256];
  int lines = 0;
  while (std::fgets(buf, sizeof buf, f)) {
    all += buf;
    ++lines;
  }
  std::fclose(f);
  EXPECT_GE(lines, 9);
  EXPECT_LE(lines, 11);
  EXPECT_NE(all.find("100.0% of the flops"), std::string::npos) << all;
  EXPECT_NE(all.find("TFLOP/s"), std::string::npos);
  EXPECT_EQ(all.find('\r'), std::string::npos);
}
