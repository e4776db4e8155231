// The long GLHT GPU tests (ctest label `long`, skip without a GPU): heavy contention at key range
// 100 over 200 batches and growth of 200,000 keys from a 64-bucket table, for every variant.
#include <gtest/gtest.h>

#include "gpu500/core/device.hpp"
#include "glht_checks.hpp"
#include "glht_variants.hpp"

using namespace gpu500::hash;
using namespace gpu500::hash::testing;

class GlhtLong : public ::testing::TestWithParam<variant> {};

TEST_P(GlhtLong, StressKeyRange100) {
  if (!gpu500::cuda_available()) GTEST_SKIP() << "no CUDA device";
  if (!runs_on(GetParam(), gpu500::cuda_devices().front().sm_major)) GTEST_SKIP() << "needs compute capability 9.0";
  stress_key_range_100(options_of(GetParam()), 200);
}

TEST_P(GlhtLong, GrowsInsteadOfLosingKeys) {
  if (!gpu500::cuda_available()) GTEST_SKIP() << "no CUDA device";
  if (!runs_on(GetParam(), gpu500::cuda_devices().front().sm_major)) GTEST_SKIP() << "needs compute capability 9.0";
  grows_instead_of_losing_keys(options_of(GetParam()), 200000, 100000, 50000);
}

INSTANTIATE_TEST_SUITE_P(Variants, GlhtLong, ::testing::ValuesIn(all_variants()),
                         [](const auto& info) { return name_of(info.param); });
