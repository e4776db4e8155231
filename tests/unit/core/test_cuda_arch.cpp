// Unit tests of the CUDA architecture rule (core/cuda_arch.hpp): which GPUs a build's CUDA code
// runs on, decided on host numbers alone (no GPU needed), and the line that names both sides.
#include <gtest/gtest.h>

#include <string>

#include "gpu500/core/cuda_arch.hpp"

using namespace gpu500;

TEST(CudaArch, SassRunsOnItsOwnMajorAndPtxOnNewerGpus) {
  EXPECT_EQ(cuda_arch_fit("90", 9, 0), cuda_fit::sass);
  EXPECT_EQ(cuda_arch_fit("90", 10, 0), cuda_fit::ptx);    // a newer GPU compiles the PTX
  EXPECT_EQ(cuda_arch_fit("90", 12, 0), cuda_fit::ptx);
  EXPECT_EQ(cuda_arch_fit("90", 8, 0), cuda_fit::none);    // an older one cannot
  EXPECT_EQ(cuda_arch_fit("90", 8, 9), cuda_fit::none);
  EXPECT_EQ(cuda_arch_fit("80", 8, 6), cuda_fit::sass);    // same major, newer minor
  EXPECT_EQ(cuda_arch_fit("86", 8, 0), cuda_fit::none);    // same major, older minor
  EXPECT_EQ(cuda_arch_fit("80;90", 7, 5), cuda_fit::none);
  EXPECT_EQ(cuda_arch_fit("80 90", 9, 0), cuda_fit::sass);
  EXPECT_EQ(cuda_arch_fit("80 90", 8, 9), cuda_fit::sass);
}

TEST(CudaArch, RealVirtualAndArchSpecificEntries) {
  EXPECT_EQ(cuda_arch_fit("90-real", 10, 0), cuda_fit::none);  // SASS only: no PTX for newer GPUs
  EXPECT_EQ(cuda_arch_fit("90-real", 9, 0), cuda_fit::sass);
  EXPECT_EQ(cuda_arch_fit("80-virtual", 9, 0), cuda_fit::ptx);
  EXPECT_EQ(cuda_arch_fit("80-virtual", 7, 0), cuda_fit::none);
  EXPECT_EQ(cuda_arch_fit("90a", 9, 0), cuda_fit::sass);
  EXPECT_EQ(cuda_arch_fit("90a", 10, 0), cuda_fit::none);      // arch-specific: 9.0 only
  EXPECT_EQ(cuda_arch_fit("90a-real;90-virtual", 10, 0), cuda_fit::ptx);
}

TEST(CudaArch, KeywordsAreAssumedToFit) {
  EXPECT_EQ(cuda_arch_fit("native", 7, 5), cuda_fit::unknown);
  EXPECT_EQ(cuda_arch_fit("all-major", 7, 5), cuda_fit::unknown);
  bool unknown = false;
  EXPECT_EQ(parse_cuda_architectures("75;native", &unknown).size(), 1u);
  EXPECT_TRUE(unknown);
  EXPECT_EQ(cuda_arch_fit("", 9, 0), cuda_fit::none);  // a build with no CUDA code runs nothing
}

TEST(CudaArch, TheMismatchLineNamesBothArchitectures) {
  EXPECT_EQ(cuda_architectures_text("80;90"), "sm_80, sm_90");
  const std::string m = cuda_arch_mismatch(1, "Tesla T4", 7, 5, "90");
  EXPECT_NE(m.find("CUDA device 1 (Tesla T4) is sm_75"), std::string::npos) << m;
  EXPECT_NE(m.find("built for sm_90"), std::string::npos) << m;
  EXPECT_NE(m.find("-DCMAKE_CUDA_ARCHITECTURES=75"), std::string::npos) << m;
  EXPECT_EQ(m.find('\n'), std::string::npos);
}
