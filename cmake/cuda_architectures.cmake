# The CUDA architectures gpu500 is built for (included before options.cmake enables CUDA).
#
#   -DCMAKE_CUDA_ARCHITECTURES=... (or the CUDAARCHS environment variable) given: kept as given.
#   Otherwise: the architectures of the GPUs this machine has at configure time (what CMake's
#   `native` means), found by the CUDA toolkit's own device query (__nvcc_device_query, which
#   `nvcc -arch=native` runs) or else nvidia-smi, and written as numbers (e.g. 90), not as the word
#   native: a number makes CMake embed both the GPU's machine code (SASS) and PTX, so that a newer
#   GPU can still compile the PTX when the program loads, and the program can name what it was
#   built for when it meets a GPU it cannot run on (`gpu500 info`, core/cuda_arch.hpp).
#   No GPU found (a build host without one): 90 (Hopper), with a message saying how to choose.
#
# The value lands in the cache; configure again in a fresh build folder to pick up another GPU.
if(DEFINED CMAKE_CUDA_ARCHITECTURES OR DEFINED ENV{CUDAARCHS})
  return()
endif()
if(DEFINED GPU500_CUDA AND GPU500_CUDA STREQUAL "OFF")
  return()
endif()

# Only where a CUDA compiler can be found (the same search as options.cmake); no noise otherwise.
if(DEFINED CMAKE_CUDA_COMPILER)
  set(_gpu500_nvcc_arch "${CMAKE_CUDA_COMPILER}")
elseif(DEFINED ENV{CUDACXX})
  set(_gpu500_nvcc_arch "$ENV{CUDACXX}")
else()
  find_program(_gpu500_nvcc_arch nvcc HINTS /usr/local/cuda/bin ENV CUDA_HOME PATH_SUFFIXES bin)
endif()
if(NOT _gpu500_nvcc_arch)
  return()
endif()

# One "XY" per GPU found, from the toolkit's query ("90" or "80;90") or nvidia-smi ("9.0" lines).
set(_gpu500_found "")
get_filename_component(_gpu500_cuda_bin "${_gpu500_nvcc_arch}" DIRECTORY)
find_program(_gpu500_device_query __nvcc_device_query HINTS "${_gpu500_cuda_bin}" NO_DEFAULT_PATH)
if(_gpu500_device_query)
  execute_process(COMMAND "${_gpu500_device_query}" OUTPUT_VARIABLE _out ERROR_QUIET RESULT_VARIABLE _rc
                  OUTPUT_STRIP_TRAILING_WHITESPACE TIMEOUT 30)
  if(_rc EQUAL 0 AND _out MATCHES "^[0-9]+[a-z]?([;, ][0-9]+[a-z]?)*$")
    string(REGEX REPLACE "[, ]" ";" _gpu500_found "${_out}")
  endif()
endif()
if(NOT _gpu500_found)
  find_program(_gpu500_nvidia_smi nvidia-smi)
  if(_gpu500_nvidia_smi)
    execute_process(COMMAND "${_gpu500_nvidia_smi}" --query-gpu=compute_cap --format=csv,noheader
                    OUTPUT_VARIABLE _out ERROR_QUIET RESULT_VARIABLE _rc OUTPUT_STRIP_TRAILING_WHITESPACE TIMEOUT 30)
    if(_rc EQUAL 0)
      string(REGEX MATCHALL "[0-9]+\\.[0-9]+" _caps "${_out}")
      foreach(_cap IN LISTS _caps)
        string(REPLACE "." "" _cap "${_cap}")
        list(APPEND _gpu500_found "${_cap}")
      endforeach()
    endif()
  endif()
endif()
list(REMOVE_DUPLICATES _gpu500_found)

if(_gpu500_found)
  list(TRANSFORM _gpu500_found PREPEND "sm_" OUTPUT_VARIABLE _text)
  list(JOIN _text ", " _text)
  set(CMAKE_CUDA_ARCHITECTURES "${_gpu500_found}" CACHE STRING
      "CUDA architectures (default: the GPUs found when first configured)")
  message(STATUS "gpu500: CUDA code for the GPUs of this machine: ${_text} "
                 "(others: -DCMAKE_CUDA_ARCHITECTURES=\"80;90\", say, in a fresh build folder)")
else()
  set(CMAKE_CUDA_ARCHITECTURES 90 CACHE STRING "CUDA architectures (sm_90 = Hopper; no GPU found when first configured)")
  message(STATUS "gpu500: no GPU found at configure time: CUDA code for sm_90 (Hopper) only, which newer GPUs run "
                 "through its PTX and older ones cannot run. For other GPUs configure with "
                 "-DCMAKE_CUDA_ARCHITECTURES=\"80;90\" (the compute capabilities without the dot), or with "
                 "-DCMAKE_CUDA_ARCHITECTURES=native on the machine that has the GPU.")
endif()
unset(_gpu500_found)
unset(_out)
unset(_rc)
