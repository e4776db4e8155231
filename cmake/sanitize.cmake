# Sanitizer and fuzzing builds (CPU code only). Included by the top CMakeLists.txt before
# options.cmake, so that it can turn the GPU backends off before they are looked for.
#
#   -DGPU500_SANITIZE=address,undefined   (or ON) AddressSanitizer + UndefinedBehaviorSanitizer
#                                         over every library, test and the program; a UB report
#                                         aborts (no recovery), so a finding fails its test
#   -DGPU500_SANITIZE=thread              ThreadSanitizer; only tests/sanitize/ (std::thread
#                                         drivers) means anything under it: OpenMP code runs on an
#                                         uninstrumented libgomp, whose barriers TSan cannot see,
#                                         so every OpenMP region would report false races
#   -DGPU500_FUZZ=ON                      (clang) the libFuzzer targets of fuzz/, with ASan+UBSan
#
# Device code is not instrumented by these sanitizers (nvcc does not take -fsanitize), and a
# CUDA/OpenCL runtime under ASan reports its own allocations: such builds force GPU500_CUDA and
# GPU500_OPENCL OFF, with a message. Run the tests with the environment of docs/reliability.md
# (LSAN_OPTIONS=suppressions=tests/sanitize/lsan.supp ...), as .ci/run does.
set(GPU500_SANITIZE "" CACHE STRING "Sanitizers for a CPU-only build: address,undefined | thread | ON (= address,undefined) | empty")
option(GPU500_FUZZ "Build the libFuzzer targets of fuzz/ (clang only; implies ASan+UBSan)" OFF)

if(GPU500_SANITIZE STREQUAL "ON")
  set(_gpu500_san "address,undefined")
else()
  set(_gpu500_san "${GPU500_SANITIZE}")
endif()
if(GPU500_FUZZ AND NOT _gpu500_san)
  set(_gpu500_san "address,undefined")
endif()

if(_gpu500_san)
  if(NOT _gpu500_san MATCHES "^(address|undefined|thread|leak)(,(address|undefined|thread|leak))*$")
    message(FATAL_ERROR "GPU500_SANITIZE='${GPU500_SANITIZE}': use address,undefined, thread or ON")
  endif()
  foreach(_backend GPU500_CUDA GPU500_OPENCL)
    if(NOT "${${_backend}}" STREQUAL "OFF")
      message(STATUS "gpu500: sanitizers (${_gpu500_san}) instrument host code only: ${_backend} forced OFF")
    endif()
    set(${_backend} OFF CACHE STRING "forced OFF by GPU500_SANITIZE / GPU500_FUZZ" FORCE)
  endforeach()
  add_compile_options(-fsanitize=${_gpu500_san} -fno-omit-frame-pointer -g)
  add_link_options(-fsanitize=${_gpu500_san})
  # The sanitized test builds (not Debug, not the fuzz targets) compile at -O1 with line tables
  # only (-g1), overriding the build type's -O2 -g: -O1 is the level the sanitizers' manuals
  # recommend, and a report's frames keep function, file and line (what -g1 still records is all
  # a report prints). Against -O2 -g this takes 41 % less compile time (the address,undefined
  # build: 885 -> 523 CPU seconds) and the suite runs as fast (16 jobs: 95 s at -O2 -g, 91 s).
  # The fuzz targets keep the build type's level: their runs are timed, and -O2 executes more
  # inputs in that time.
  if(NOT GPU500_FUZZ)
    add_compile_options("$<$<NOT:$<CONFIG:Debug>>:-O1;-g1>")
  endif()
  if(_gpu500_san MATCHES "undefined")
    add_compile_options(-fno-sanitize-recover=undefined)
  endif()
endif()

if(GPU500_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "GPU500_FUZZ=ON needs clang (libFuzzer): configure with -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link)  # coverage feedback from every library
endif()

# Included at the end of the top directory (a deferred call may not add a subdirectory), after
# every component, whose libraries they link: tests/sanitize/ (std::thread drivers: plain tests
# in every build, the TSan suite under GPU500_SANITIZE=thread) and fuzz/ (the fuzz targets under
# GPU500_FUZZ; their seed and found inputs replayed as tests in every build).
cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR} CALL include ${CMAKE_SOURCE_DIR}/tests/sanitize/tests.cmake)
cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR} CALL include ${CMAKE_SOURCE_DIR}/fuzz/targets.cmake)
