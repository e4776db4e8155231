// Opening cuBLAS, cuBLASLt and cuSOLVER on first use and looking up their entry points (see
// gpu500/core/cuda/dynload.hpp). The sonames are those of the headers compiled against (cuBLASLt
// ships with cuBLAS and shares its major version); GPU500_CUDA_LIBRARY_DIR is the toolkit's
// library folder found when the project was configured, tried when the soname alone is not found.
// The libraries stay open until the process ends.
#include "gpu500/core/cuda/dynload.hpp"

#include <dlfcn.h>

#include <string>
#include <type_traits>

#include "gpu500/core/error.hpp"

#ifndef GPU500_CUDA_LIBRARY_DIR
#define GPU500_CUDA_LIBRARY_DIR ""
#endif

namespace gpu500::gpu::dynload {

namespace detail {

void* open_library(const char* title, const std::string& soname, const std::string& folder) {
  if (void* lib = dlopen(soname.c_str(), RTLD_NOW | RTLD_LOCAL)) return lib;
  const char* first = dlerror();
  std::string why = first != nullptr ? first : "not found";
  if (!folder.empty()) {
    if (void* lib = dlopen((folder + "/" + soname).c_str(), RTLD_NOW | RTLD_LOCAL)) return lib;
    why += " (nor in " + folder + ")";
  }
  throw error(std::string("cannot load ") + title + " (" + soname +
              "), which the CUDA backends of HPL and HPL-MxP call: " + why);
}

}  // namespace detail

namespace {

template <class Api>
Api load(const char* title, const std::string& soname) {
  void* lib = detail::open_library(title, soname, GPU500_CUDA_LIBRARY_DIR);
  Api api;
  api.for_each([&](auto& fn, const char* name) {
    dlerror();
    void* p = dlsym(lib, name);
    if (p == nullptr) {
      const char* why = dlerror();
      throw error(std::string(title) + " (" + soname + ") lacks the entry point " + name + ": " +
                  (why != nullptr ? why : "null"));
    }
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(p);
  });
  return api;
}

}  // namespace

const cublas_api& cublas_api::loaded() {
  static const cublas_api api =
      load<cublas_api>("cuBLAS", "libcublas.so." + std::to_string(CUBLAS_VER_MAJOR));
  return api;
}

const cublaslt_api& cublaslt_api::loaded() {
  static const cublaslt_api api =
      load<cublaslt_api>("cuBLASLt", "libcublasLt.so." + std::to_string(CUBLAS_VER_MAJOR));
  return api;
}

const cusolver_api& cusolver_api::loaded() {
  static const cusolver_api api =
      load<cusolver_api>("cuSOLVER", "libcusolver.so." + std::to_string(CUSOLVER_VER_MAJOR));
  return api;
}

}  // namespace gpu500::gpu::dynload
