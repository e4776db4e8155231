// Tests of the run-time loading of cuBLAS, cuBLASLt and cuSOLVER (gpu500/core/cuda/dynload.hpp),
// none of which needs a GPU: every entry point of the three lists resolves in the toolkit's
// libraries, calls go through to them (cublasGetStatusString, a cuBLASLt layout), a library off
// the search path loads from the folder given, and one that cannot be found is one error naming
// it, its soname, the folder tried and dlerror()'s reason.
#include <gtest/gtest.h>

#include <dlfcn.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "gpu500/core/cuda/dynload.hpp"
#include "gpu500/core/error.hpp"

namespace {

namespace dynload = gpu500::gpu::dynload;

template <class Api>
void expect_every_entry_point() {
  Api api = Api::loaded();
  int n = 0;
  api.for_each([&](auto& fn, const char* name) {
    EXPECT_NE(fn, nullptr) << name;
    ++n;
  });
  EXPECT_GT(n, 0);
}

TEST(CudaDynload, EveryEntryPointResolves) {
  expect_every_entry_point<dynload::cublas_api>();
  expect_every_entry_point<dynload::cublaslt_api>();
  expect_every_entry_point<dynload::cusolver_api>();
}

TEST(CudaDynload, CallsGoThroughToTheLibrary) {
  // The library's own description of a status (its wording varies between releases).
  const std::string ok = dynload::cublasGetStatusString(CUBLAS_STATUS_SUCCESS);
  EXPECT_FALSE(ok.empty());
  EXPECT_NE(ok, dynload::cublasGetStatusString(CUBLAS_STATUS_NOT_INITIALIZED));
  // A cuBLASLt matrix layout is host state: created and destroyed without a GPU.
  cublasLtMatrixLayout_t layout = nullptr;
  ASSERT_EQ(dynload::cublasLtMatrixLayoutCreate(&layout, CUDA_R_32F, 48, 16, 64), CUBLAS_STATUS_SUCCESS);
  EXPECT_NE(layout, nullptr);
  EXPECT_EQ(dynload::cublasLtMatrixLayoutDestroy(layout), CUBLAS_STATUS_SUCCESS);
}

// A soname not on the search path loads from the folder given (the toolkit's library folder, for a
// caller with no run path to it): here a link, in a folder of the test's own, to cuBLAS's file.
TEST(CudaDynload, TheFolderIsTriedAfterTheSoname) {
  Dl_info info{};
  ASSERT_NE(dladdr(reinterpret_cast<void*>(dynload::cublas_api::loaded().cublasCreate_v2), &info), 0);
  const auto folder = std::filesystem::temp_directory_path() / ("gpu500-dynload-" + std::to_string(getpid()));
  std::filesystem::create_directories(folder);
  std::filesystem::create_symlink(info.dli_fname, folder / "libgpu500-cublas-link.so");
  EXPECT_NE(dynload::detail::open_library("cuBLAS", "libgpu500-cublas-link.so", folder.string()), nullptr);
  std::filesystem::remove_all(folder);
}

TEST(CudaDynload, AMissingLibraryIsOneClearError) {
  try {
    dynload::detail::open_library("cuNothing", "libgpu500-no-such-library.so.1", "/no/such/folder");
    FAIL() << "a missing library loaded";
  } catch (const gpu500::error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("cannot load cuNothing (libgpu500-no-such-library.so.1)"), std::string::npos) << what;
    EXPECT_NE(what.find("cannot open shared object file"), std::string::npos) << what;
    EXPECT_NE(what.find("/no/such/folder"), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
}

}  // namespace
