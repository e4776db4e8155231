# Build options and third-party dependencies.
#   GPU500_CUDA / GPU500_MPI / GPU500_OPENCL: AUTO (use when found), ON (required), OFF.
include(CheckLanguage)

set(GPU500_CUDA AUTO CACHE STRING "CUDA backend: AUTO|ON|OFF")
set(GPU500_MPI AUTO CACHE STRING "MPI support: AUTO|ON|OFF")
set(GPU500_OPENCL AUTO CACHE STRING "OpenCL backend: AUTO|ON|OFF")
set_property(CACHE GPU500_CUDA PROPERTY STRINGS AUTO ON OFF)
set_property(CACHE GPU500_MPI PROPERTY STRINGS AUTO ON OFF)
set_property(CACHE GPU500_OPENCL PROPERTY STRINGS AUTO ON OFF)

# --- warnings -----------------------------------------------------------------
add_library(gpu500_warnings INTERFACE)
target_compile_options(gpu500_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wno-unused-parameter>)

# --- OpenMP (required: every CPU backend is OpenMP) -----------------------------
find_package(OpenMP REQUIRED COMPONENTS CXX)

# --- CUDA ---------------------------------------------------------------------
set(GPU500_HAVE_CUDA OFF)
if(NOT GPU500_CUDA STREQUAL "OFF")
  if(NOT DEFINED CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX})
    find_program(_gpu500_nvcc nvcc HINTS /usr/local/cuda/bin ENV CUDA_HOME PATH_SUFFIXES bin)
    if(_gpu500_nvcc)
      set(CMAKE_CUDA_COMPILER ${_gpu500_nvcc} CACHE FILEPATH "CUDA compiler")
    endif()
  endif()
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      set(CMAKE_CUDA_ARCHITECTURES 90 CACHE STRING "CUDA architectures (sm_90 = Hopper)")
    endif()
    enable_language(CUDA)
    # C++20 for device code too. CMake < 3.26 does not know the flag for nvcc: teach it.
    if(NOT CMAKE_CUDA20_STANDARD_COMPILE_OPTION)
      set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
      set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
    endif()
    set(CMAKE_CUDA_STANDARD 20)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    find_package(CUDAToolkit REQUIRED)
    set(GPU500_HAVE_CUDA ON)
    # Debug builds synchronise after every launch (see core/cuda/check.cuh).
    add_compile_options($<$<AND:$<COMPILE_LANGUAGE:CUDA>,$<CONFIG:Debug>>:-DGPU500_SYNC_AFTER_LAUNCH>)
    add_compile_options($<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr>)
    add_compile_options($<$<COMPILE_LANGUAGE:CUDA>:--extended-lambda>)
  elseif(GPU500_CUDA STREQUAL "ON")
    message(FATAL_ERROR "GPU500_CUDA=ON but no CUDA compiler was found")
  endif()
endif()

# --- MPI ----------------------------------------------------------------------
set(GPU500_HAVE_MPI OFF)
if(NOT GPU500_MPI STREQUAL "OFF")
  find_package(MPI COMPONENTS C CXX)
  if(MPI_CXX_FOUND)
    set(GPU500_HAVE_MPI ON)
  elseif(GPU500_MPI STREQUAL "ON")
    message(FATAL_ERROR "GPU500_MPI=ON but MPI was not found")
  endif()
endif()

# --- NCCL (with CUDA and MPI: the GPUs' transport between ranks) -----------------
set(GPU500_HAVE_NCCL OFF)
if(GPU500_HAVE_CUDA AND GPU500_HAVE_MPI)
  find_path(GPU500_NCCL_INCLUDE_DIR NAMES nccl.h HINTS ${CUDAToolkit_INCLUDE_DIRS})
  find_library(GPU500_NCCL_LIBRARY NAMES nccl HINTS ${CUDAToolkit_LIBRARY_DIR} ${CUDAToolkit_LIBRARY_ROOT}/lib)
  if(GPU500_NCCL_INCLUDE_DIR AND GPU500_NCCL_LIBRARY)
    set(GPU500_HAVE_NCCL ON)
  endif()
endif()

# --- OpenCL -------------------------------------------------------------------
set(GPU500_HAVE_OPENCL OFF)
if(NOT GPU500_OPENCL STREQUAL "OFF")
  find_package(OpenCL)
  if(OpenCL_FOUND)
    set(GPU500_HAVE_OPENCL ON)
  elseif(GPU500_OPENCL STREQUAL "ON")
    message(FATAL_ERROR "GPU500_OPENCL=ON but OpenCL was not found")
  endif()
endif()

# --- BLAS / LAPACK: an optimised one (OpenBLAS, then BLIS, then MKL) -----------------
# The reference BLAS (netlib's libblas) is accepted only with a warning: the CPU backends of HPL
# and HPL-MxP run 10-20 times slower on it. GPU500_BLAS names what was found (gpu500 info).
set(GPU500_BLAS "")
foreach(_vendor OpenBLAS FLAME Intel10_64lp)
  set(BLA_VENDOR ${_vendor})
  find_package(BLAS QUIET)
  if(BLAS_FOUND)
    find_package(LAPACK QUIET)  # the same vendor's (BLIS: libflame)
    if(LAPACK_FOUND)
      set(GPU500_BLAS ${_vendor})
      break()
    endif()
  endif()
  unset(BLAS_FOUND)
endforeach()
if(NOT GPU500_BLAS)
  unset(BLA_VENDOR)
  find_package(BLAS REQUIRED)
  find_package(LAPACK REQUIRED)
  list(GET BLAS_LIBRARIES 0 _blas_first)
  get_filename_component(GPU500_BLAS "${_blas_first}" NAME)
endif()
if(GPU500_BLAS MATCHES "^libblas\\.")
  set(GPU500_BLAS "reference")
  message(WARNING "gpu500: no optimised BLAS found (OpenBLAS, BLIS or MKL); using ${BLAS_LIBRARIES}, the "
                  "reference BLAS, on which the CPU backends of hpl and hpl-mxp run 10-20 times slower. "
                  "Install OpenBLAS (Debian: apt-get install libopenblas-dev, or bash scripts/deps.sh) and "
                  "configure again.")
endif()
if(GPU500_BLAS STREQUAL "FLAME")
  set(GPU500_BLAS "BLIS")
elseif(GPU500_BLAS STREQUAL "Intel10_64lp")
  set(GPU500_BLAS "MKL")
endif()
find_path(GPU500_CBLAS_INCLUDE_DIR NAMES cblas.h PATH_SUFFIXES openblas openblas-pthread openblas-openmp)
find_path(GPU500_LAPACKE_INCLUDE_DIR NAMES lapacke.h PATH_SUFFIXES openblas openblas-pthread)
find_library(GPU500_LAPACKE_LIBRARY NAMES lapacke)

# --- GoogleTest -----------------------------------------------------------------
find_package(GTest)
find_package(Threads REQUIRED)

message(STATUS "gpu500: CUDA=${GPU500_HAVE_CUDA} MPI=${GPU500_HAVE_MPI} NCCL=${GPU500_HAVE_NCCL} OpenCL=${GPU500_HAVE_OPENCL} "
               "BLAS=${GPU500_BLAS} (${BLAS_LIBRARIES}) GTest=${GTest_FOUND}")

if(GPU500_HAVE_CUDA)
  string(REPLACE ";" " " GPU500_CUDA_ARCHITECTURES_TEXT "${CMAKE_CUDA_ARCHITECTURES}")
else()
  set(GPU500_CUDA_ARCHITECTURES_TEXT "")
endif()
configure_file(${CMAKE_CURRENT_LIST_DIR}/config.hpp.in
               ${PROJECT_BINARY_DIR}/generated/gpu500/config.hpp @ONLY)
