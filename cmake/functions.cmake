# Helpers shared by every component's CMakeLists.

# gpu500_add_library(<name> SOURCES ... [CUDA_SOURCES ...] [DEPS ...])
#   Builds library gpu500_<name> from SOURCES, plus CUDA_SOURCES when the CUDA backend is on.
#   Every component library is linked into the gpu500 program.
function(gpu500_add_library name)
  cmake_parse_arguments(A "" "" "SOURCES;CUDA_SOURCES;DEPS" ${ARGN})
  set(srcs ${A_SOURCES})
  if(GPU500_HAVE_CUDA)
    list(APPEND srcs ${A_CUDA_SOURCES})
  endif()
  add_library(gpu500_${name} STATIC ${srcs})
  target_include_directories(gpu500_${name} PUBLIC
    ${PROJECT_SOURCE_DIR}/include ${PROJECT_BINARY_DIR}/generated)
  target_link_libraries(gpu500_${name} PUBLIC ${A_DEPS} OpenMP::OpenMP_CXX PRIVATE gpu500_warnings)
  if(GPU500_HAVE_CUDA)
    set_target_properties(gpu500_${name} PROPERTIES CUDA_SEPARABLE_COMPILATION OFF)
    target_link_libraries(gpu500_${name} PUBLIC CUDA::cudart)
  endif()
  set_property(GLOBAL APPEND PROPERTY GPU500_LIBRARIES gpu500_${name})
endfunction()

# Reference vectors of the official programs, kept in the repository (tests/data/README.md).
set(GPU500_TESTDATA_DIR ${PROJECT_SOURCE_DIR}/tests/data)

# gpu500_mpi_session_env(<var> <test>): sets <var> to the environment entry that gives one test
# an Open MPI session directory of its own. Open MPI keeps one directory per host and user under
# /tmp, made by the first process that starts and removed by the last that ends; a process
# starting as another ends can find it gone between its mkdir and its stat and fail with "File
# exists" (seen under ctest -j, where tests start MPI side by side). The base is short (Open MPI
# puts sockets there, whose paths are limited to 108 bytes) and named from the build folder, so
# two builds' tests never share one either.
function(gpu500_mpi_session_env out test)
  string(MD5 _hash "${PROJECT_BINARY_DIR}")
  string(SUBSTRING "${_hash}" 0 8 _hash)
  set(${out} "OMPI_MCA_orte_tmpdir_base=/tmp/gpu500-tests-${_hash}/${test}" PARENT_SCOPE)
endfunction()

# The definitions every test suite is compiled with (and the precompiled header below).
function(_gpu500_test_definitions target)
  target_compile_definitions(${target} PRIVATE
    GPU500_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
    GPU500_TESTDATA_DIR="${GPU500_TESTDATA_DIR}")
endfunction()

# gpu500_gtest_pch: a stand-in program whose only job is to precompile <gtest/gtest.h>, which
# every suite then reuses (REUSE_FROM) instead of parsing it again in each of its sources
# (about 1-1.3 s each at -O3). It is an executable compiled with the suites' definitions and options
# (-fPIE, OpenMP, the sanitizers), as a reused header needs; were they ever to differ, GCC would
# parse the plain header instead (a warning under -Winvalid-pch), only slower.
function(_gpu500_gtest_pch)
  if(TARGET gpu500_gtest_pch)
    return()
  endif()
  add_executable(gpu500_gtest_pch EXCLUDE_FROM_ALL ${PROJECT_SOURCE_DIR}/cmake/gtest_pch.cpp)
  target_link_libraries(gpu500_gtest_pch PRIVATE GTest::gtest OpenMP::OpenMP_CXX gpu500_warnings)
  _gpu500_test_definitions(gpu500_gtest_pch)
  target_precompile_headers(gpu500_gtest_pch PRIVATE <gtest/gtest.h>)
endfunction()

# gpu500_add_test(<name> SOURCES ... [DEPS ...] [MPI_RANKS n ...] [LABELS l ...])
#   One GoogleTest executable; its tests are discovered into CTest. With MPI_RANKS it is also
#   run once per rank count under mpiexec (the executable must init MPI itself). LABELS tags
#   every test of it (`long`: left out of `make test`, run by scripts/gpu-check.sh).
function(gpu500_add_test name)
  cmake_parse_arguments(A "" "" "SOURCES;DEPS;MPI_RANKS;LABELS" ${ARGN})
  if(NOT GTest_FOUND)
    return()
  endif()
  add_executable(${name} ${A_SOURCES})
  target_link_libraries(${name} PRIVATE ${A_DEPS} GTest::gtest GTest::gtest_main gpu500_warnings)
  _gpu500_test_definitions(${name})
  # <gtest/gtest.h> precompiled once for every suite (gpu500_gtest_pch, above); CUDA sources
  # include it themselves.
  _gpu500_gtest_pch()
  target_precompile_headers(${name} REUSE_FROM gpu500_gtest_pch)
  foreach(src IN LISTS A_SOURCES)
    if(src MATCHES "\\.cu$")
      set_source_files_properties(${src} PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
    endif()
  endforeach()
  if(A_MPI_RANKS)
    foreach(n IN LISTS A_MPI_RANKS)
      add_test(NAME ${name}.mpi${n}
               COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${n} --oversubscribe --bind-to none
                       ${MPIEXEC_PREFLAGS} $<TARGET_FILE:${name}> ${MPIEXEC_POSTFLAGS})
      # COST: started before the unit tests under ctest -j (several seconds each, n slots each).
      gpu500_mpi_session_env(_session ${name}.mpi${n})
      set_tests_properties(${name}.mpi${n} PROPERTIES PROCESSORS ${n} TIMEOUT 600 COST 50
                           ENVIRONMENT "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMP_NUM_THREADS=1;OPENBLAS_NUM_THREADS=1;${_session}")
      if(A_LABELS)
        set_tests_properties(${name}.mpi${n} PROPERTIES LABELS "${A_LABELS}")
      endif()
    endforeach()
  else()
    include(GoogleTest)
    # Tests run side by side (ctest -j): two threads each for OpenMP and OpenBLAS, or a full
    # team per test would oversubscribe the host many times over. Tests that need a given
    # thread count set it themselves. The few that start MPI in the process share the suite's
    # session directory (gpu500_mpi_session_env).
    gpu500_mpi_session_env(_session ${name})
    set(_env "OMP_NUM_THREADS=2;OPENBLAS_NUM_THREADS=2;${_session}")
    if(A_LABELS)
      gtest_discover_tests(${name} DISCOVERY_TIMEOUT 120 PROPERTIES TIMEOUT 1800 LABELS "${A_LABELS}" ENVIRONMENT "${_env}")
    else()
      gtest_discover_tests(${name} DISCOVERY_TIMEOUT 120 PROPERTIES TIMEOUT 600 ENVIRONMENT "${_env}")
    endif()
  endif()
endfunction()
