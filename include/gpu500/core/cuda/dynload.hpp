// The entry points of cuBLAS, cuBLASLt and cuSOLVER that the CUDA backends of HPL and HPL-MxP
// call, loaded with dlopen on first use. No library of gpu500 links the three, so a run that
// solves nothing on a GPU (--help, info, Graph500, the smoke tests) starts without them: loaded at
// start they cost about 0.2 s and 260 MB of resident memory per process.
//
// Call gpu::dynload::cublasDgemm(...) where cuBLAS would be called directly: the same name (the
// headers' _v2 macros apply to it too), the same parameters, checked by the compiler against the
// library's own header. The first call of any entry point of a library opens that library (by its
// soname: LD_LIBRARY_PATH, the caller's run path and the system's cache; then in the toolkit's
// library folder the project was configured with) and looks up every entry point of its list; a
// library that cannot be loaded, or lacks one of them, throws gpu500::error naming the library and
// dlerror()'s reason. A new entry point goes into its library's list below.
#pragma once

#include <cublasLt.h>
#include <cublas_v2.h>
#include <cusolverDn.h>

#include <string>

// The exported names (cuBLAS's _v2 ones, as its header's macros spell the calls), each list
// applying X(A, name) to every name of its library.
#define GPU500_CUBLAS_ENTRY_POINTS(X, A)                                                                 \
  X(A, cublasCreate_v2) X(A, cublasDestroy_v2) X(A, cublasSetStream_v2) X(A, cublasGetStatusString)      \
  X(A, cublasDgemm_v2) X(A, cublasDtrsm_v2) X(A, cublasDgemv_v2) X(A, cublasDtrsv_v2)                    \
  X(A, cublasDscal_v2) X(A, cublasDnrm2_v2) X(A, cublasSgemm_v2) X(A, cublasStrsm_v2)                    \
  X(A, cublasSgemv_v2) X(A, cublasStrsv_v2) X(A, cublasGemmEx)
#define GPU500_CUBLASLT_ENTRY_POINTS(X, A)                                                               \
  X(A, cublasLtCreate) X(A, cublasLtDestroy) X(A, cublasLtMatmulDescCreate)                              \
  X(A, cublasLtMatmulDescDestroy) X(A, cublasLtMatmulDescSetAttribute)                                   \
  X(A, cublasLtMatrixLayoutCreate) X(A, cublasLtMatrixLayoutDestroy)                                     \
  X(A, cublasLtMatmulPreferenceCreate) X(A, cublasLtMatmulPreferenceDestroy)                             \
  X(A, cublasLtMatmulPreferenceSetAttribute) X(A, cublasLtMatmulAlgoGetHeuristic) X(A, cublasLtMatmul)
#define GPU500_CUSOLVER_ENTRY_POINTS(X, A)                                                               \
  X(A, cusolverDnCreate) X(A, cusolverDnDestroy) X(A, cusolverDnSetStream)                               \
  X(A, cusolverDnDgetrf_bufferSize) X(A, cusolverDnDgetrf) X(A, cusolverDnDgetrs)

namespace gpu500::gpu::dynload {

namespace detail {

/// The type of an entry point: that of its declaration, or for a name the headers overload in
/// C++, that of the library's own function (an overload of exported below picks it).
template <class F>
F exported(F);
/// cublas_api.h adds to cublasGemmEx an inline C++ overload taking the compute type as a
/// cudaDataType; the library's own takes a cublasComputeType_t.
using cublas_gemm_ex = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int,
                                          int, const void*, const void*, cudaDataType, int, const void*,
                                          cudaDataType, int, const void*, void*, cudaDataType, int,
                                          cublasComputeType_t, cublasGemmAlgo_t);
cublas_gemm_ex exported(cublas_gemm_ex);

/// dlopen(soname), else dlopen(folder/soname) when folder is not empty; throws gpu500::error
/// "cannot load <title> (<soname>) ...: <dlerror()>" when neither loads.
void* open_library(const char* title, const std::string& soname, const std::string& folder);

/// One entry point called through its library's table: the parameters of the library's own
/// declaration, the library loaded on the first call.
template <auto Member>
struct entry;
template <class Api, class R, class... P, R (*Api::*Member)(P...)>
struct entry<Member> {
  R operator()(P... p) const { return (Api::loaded().*Member)(p...); }
};

}  // namespace detail

// A library's table API: a pointer per entry point; API::loaded() opens the library and looks
// them all up on its first call (thread-safe; a failure throws and the next call tries again);
// for_each(visit) calls visit(pointer, "name") for every entry point. Then one callable per entry
// point, named as it (dynload::cublasDgemm_v2), calling through the loaded table.
#define GPU500_DYNLOAD_MEMBER(api, name) decltype(detail::exported(&::name)) name = nullptr;
#define GPU500_DYNLOAD_VISIT(api, name) visit(name, #name);
#define GPU500_DYNLOAD_ENTRY(api, name) inline constexpr detail::entry<&api::name> name{};
#define GPU500_DYNLOAD_LIBRARY(api, LIST)      \
  struct api {                                 \
    LIST(GPU500_DYNLOAD_MEMBER, api)           \
    static const api& loaded();                \
    template <class F>                         \
    void for_each(F&& visit) {                 \
      LIST(GPU500_DYNLOAD_VISIT, api)          \
    }                                          \
  };                                           \
  LIST(GPU500_DYNLOAD_ENTRY, api)

GPU500_DYNLOAD_LIBRARY(cublas_api, GPU500_CUBLAS_ENTRY_POINTS)
GPU500_DYNLOAD_LIBRARY(cublaslt_api, GPU500_CUBLASLT_ENTRY_POINTS)
GPU500_DYNLOAD_LIBRARY(cusolver_api, GPU500_CUSOLVER_ENTRY_POINTS)

#undef GPU500_DYNLOAD_LIBRARY
#undef GPU500_DYNLOAD_MEMBER
#undef GPU500_DYNLOAD_VISIT
#undef GPU500_DYNLOAD_ENTRY

}  // namespace gpu500::gpu::dynload
