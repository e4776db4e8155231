# `cmake --install BUILD --prefix P`: the gpu500 program, the public headers (include/gpu500 and
# the generated config.hpp), every component library and a CMake package, so that another project
# writes `find_package(gpu500 REQUIRED COMPONENTS bfs hash)` and links gpu500::bfs, gpu500::hash,
# ... (one imported target per library, named after its component: gpu500_bfs_cuda becomes
# gpu500::bfs_cuda). The package config finds the libraries' dependencies again (OpenMP, zlib,
# BLAS/LAPACK; CUDA::cudart with CUDA, whose cuBLAS, cuBLASLt and cuSOLVER the libraries load at
# run time, gpu500/core/cuda/dynload.hpp; MPI; OpenCL). examples/ is a project that uses it;
# scripts/ci-install-check.sh installs and builds it.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

get_property(_gpu500_libs GLOBAL PROPERTY GPU500_LIBRARIES)
foreach(lib IN LISTS _gpu500_libs ITEMS gpu500_warnings)
  # Headers from the source tree while building, from PREFIX/include once installed.
  get_target_property(_dirs ${lib} INTERFACE_INCLUDE_DIRECTORIES)
  set(_mapped "")
  foreach(d IN LISTS _dirs)
    if(d STREQUAL "${PROJECT_SOURCE_DIR}/include" OR d STREQUAL "${PROJECT_BINARY_DIR}/generated")
      list(APPEND _mapped "$<BUILD_INTERFACE:${d}>")
    elseif(d)
      list(APPEND _mapped "${d}")
    endif()
  endforeach()
  if(_dirs)
    list(APPEND _mapped "$<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>")
    set_property(TARGET ${lib} PROPERTY INTERFACE_INCLUDE_DIRECTORIES "${_mapped}")
  endif()
  string(REGEX REPLACE "^gpu500_" "" _name ${lib})
  set_property(TARGET ${lib} PROPERTY EXPORT_NAME ${_name})
endforeach()

install(TARGETS ${_gpu500_libs} gpu500_warnings EXPORT gpu500Targets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
# The program finds the toolkit's shared libraries (cudart, NCCL; cuBLAS and cuSOLVER when it loads
# them) where it was linked against them.
set_property(TARGET gpu500 PROPERTY INSTALL_RPATH_USE_LINK_PATH TRUE)
install(TARGETS gpu500 RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/gpu500 DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${PROJECT_BINARY_DIR}/generated/gpu500/config.hpp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/gpu500)

set(_gpu500_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/gpu500)
install(EXPORT gpu500Targets NAMESPACE gpu500:: DESTINATION ${_gpu500_cmake_dir})
# What the config needs to know of this build (@...@ in gpu500Config.cmake.in).
string(REGEX REPLACE "^gpu500_" "" GPU500_EXPORTED_COMPONENTS "${_gpu500_libs}")
string(REPLACE ";gpu500_" ";" GPU500_EXPORTED_COMPONENTS "${GPU500_EXPORTED_COMPONENTS}")
set(GPU500_BLA_VENDOR "${BLA_VENDOR}")
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/gpu500Config.cmake.in
                              ${PROJECT_BINARY_DIR}/gpu500Config.cmake INSTALL_DESTINATION ${_gpu500_cmake_dir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/gpu500ConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/gpu500Config.cmake ${PROJECT_BINARY_DIR}/gpu500ConfigVersion.cmake
        DESTINATION ${_gpu500_cmake_dir})
