// Unit tests of the `gpu500 hpl` run's settings (gpu500/hpl/program.hpp) on the host: every CUDA
// technique is refused with another backend, the 1 x 1 techniques on a larger grid, the
// CUDA-aware broadcast switch without a grid of Q > 1, negative values; and the short form's
// variant names and codes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpu500/core/error.hpp"
#include "gpu500/hpl/dat.hpp"
#include "gpu500/hpl/program.hpp"

using namespace gpu500;
using namespace gpu500::hpl;

namespace {
std::vector<params> grids(std::initializer_list<std::pair<int, int>> pq) {
  std::vector<params> t;
  for (auto [p, q] : pq) {
    params x;
    x.n = 100;
    x.p = p;
    x.q = q;
    t.push_back(x);
  }
  return t;
}
// The message of the usage_error check_settings throws ("" when it accepts).
std::string refusal(const program_settings& s, const std::vector<params>& tests) {
  try {
    check_settings(s, tests);
  } catch (const usage_error& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(HplProgram, CudaTechniquesNeedTheCudaBackendAndTheirGrid) {
  const auto one = grids({{1, 1}}), wide = grids({{1, 1}, {1, 2}}), tall = grids({{2, 1}});
  program_settings base;
  base.be = backend::cuda;
  EXPECT_EQ(refusal(base, wide), "");
  for (int i = 0; i < 5; ++i) {
    program_settings s = base;
    const char* flag = "";
    switch (i) {
      case 0: s.no_swap_stream = true, flag = "--no-swap-stream"; break;
      case 1: s.tail_getrf = 0, flag = "--tail-getrf"; break;
      case 2: s.gpu_panel = 100, flag = "--gpu-panel"; break;
      case 3: s.gpu_panel_first = true, flag = "--gpu-panel-first"; break;
      default: s.panel_gemm_gpu = 8, flag = "--panel-gemm-gpu"; break;
    }
    EXPECT_EQ(refusal(s, one), "") << flag;
    if (i == 2 || i == 3) {  // the GPU panel: every grid
      EXPECT_EQ(refusal(s, wide), "") << flag;
      EXPECT_EQ(refusal(s, tall), "") << flag;
    } else if (i == 0) {  // the swap pipeline: every grid of one process row
      EXPECT_EQ(refusal(s, wide), "") << flag;
      EXPECT_EQ(refusal(s, tall), std::string("hpl: ") + flag + " applies to grids with P = 1 only (the swap pipeline; grid 2 x 1)");
    } else {
      EXPECT_EQ(refusal(s, wide), std::string("hpl: ") + flag + " applies to a 1 x 1 grid only (grid 1 x 2)");
      EXPECT_NE(refusal(s, tall).find("(grid 2 x 1)"), std::string::npos) << flag;
    }
    s.be = backend::cpu;
    EXPECT_EQ(refusal(s, one), std::string("hpl: ") + flag + " applies to the CUDA backend only (backend: cpu)");
  }
  program_settings host = base;
  host.no_cuda_aware_mpi = true;
  EXPECT_EQ(refusal(host, wide), "");
  EXPECT_NE(refusal(host, tall).find("Q > 1"), std::string::npos);
  host.be = backend::cpu;
  EXPECT_NE(refusal(host, wide).find("CUDA backend only"), std::string::npos);
  program_settings mpi = base;
  mpi.no_nccl = true;
  EXPECT_EQ(refusal(mpi, wide), "");
  EXPECT_EQ(refusal(mpi, tall), "");
  EXPECT_EQ(refusal(mpi, one), "hpl: --no-nccl applies to grids larger than 1 x 1 only (exchanges between GPUs)");
  mpi.be = backend::cpu;
  EXPECT_EQ(refusal(mpi, tall), "hpl: --no-nccl applies to the CUDA backend only (backend: cpu)");
}

TEST(HplProgram, NegativeValuesAreRefused) {
  const auto one = grids({{1, 1}});
  program_settings s;
  s.be = backend::cuda;
  s.tail_getrf = -1;
  EXPECT_NE(refusal(s, one), "");
  s.tail_getrf.reset();
  s.gpu_panel = -5;
  EXPECT_NE(refusal(s, one), "");
  s.gpu_panel.reset();
  s.panel_gemm_gpu = -1;
  EXPECT_NE(refusal(s, one), "");
}

TEST(HplProgram, VariantsByNameOrCode) {
  const std::vector<std::string> names = {"left", "crout", "right"};
  EXPECT_EQ(variant_code("crout", "--pfact", names), 1);
  EXPECT_EQ(variant_code("2", "--pfact", names), 2);
  EXPECT_EQ(variant_code("0", "--pfact", names), 0);
  // A flag takes no fallback: a code outside the names is refused (HPL.dat's fallbacks are netlib's).
  for (const char* bad : {"-7", "3", "9", "-1", "99999999999999999999"}) EXPECT_THROW(variant_code(bad, "--pfact", names), usage_error) << bad;
  EXPECT_EQ(fact_from_code(-7), fact::right);
  try {
    variant_code("sideways", "--pfact", names);
    ADD_FAILURE() << "accepted";
  } catch (const usage_error& e) {
    EXPECT_EQ(std::string(e.what()), "--pfact: expected left|crout|right or a code 0..2, got 'sideways'");
  }
  EXPECT_THROW(variant_code("", "--swap", names), usage_error);
  EXPECT_THROW(variant_code("1x", "--swap", names), usage_error);
}
