# Fuzz targets (fuzz/*.cpp, one LLVMFuzzerTestOneInput each) and their seed corpora
# (fuzz/corpus/<name>/). Included at the end of the top directory by cmake/sanitize.cmake.
#   gpu500_fuzz_targets()       name;source;library;extra definitions, one list per target
#   GPU500_FUZZ=ON (clang):     <build>/fuzz/fuzz_<name> libFuzzer executables (ASan+UBSan),
#                               target fuzz_all; scripts/fuzz.sh builds and runs them
#   every build with tests:     replay_<name> (the same source with fuzz/replay_main.cpp) runs the
#                               seeds and the inputs once found (tests/data/fuzz/<name>/) as the
#                               test fuzz_replay.<name>
set(GPU500_FUZZ_TARGETS
  "hpl_dat|fuzz_hpl_dat.cpp|gpu500_hpl|"
  "cli|fuzz_cli.cpp|gpu500_core|"
  "graph_auto|fuzz_graph_file.cpp|gpu500_graph|FUZZ_GRAPH_FORMAT=detect"
  "graph_snap|fuzz_graph_file.cpp|gpu500_graph|FUZZ_GRAPH_FORMAT=snap"
  "graph_mtx|fuzz_graph_file.cpp|gpu500_graph|FUZZ_GRAPH_FORMAT=mtx"
  "graph_bin|fuzz_graph_file.cpp|gpu500_graph|FUZZ_GRAPH_FORMAT=bin")

set(_fuzz_dir ${CMAKE_SOURCE_DIR}/fuzz)
if(GPU500_FUZZ)
  add_custom_target(fuzz_all)
endif()
foreach(spec IN LISTS GPU500_FUZZ_TARGETS)
  string(REPLACE "|" ";" spec "${spec}")
  list(GET spec 0 name)
  list(GET spec 1 source)
  list(GET spec 2 lib)
  list(GET spec 3 defs)
  if(GPU500_FUZZ)
    add_executable(fuzz_${name} ${_fuzz_dir}/${source})
    target_link_libraries(fuzz_${name} PRIVATE ${lib} gpu500_warnings)
    target_link_options(fuzz_${name} PRIVATE -fsanitize=fuzzer)
    set_target_properties(fuzz_${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/fuzz)
    if(defs)
      target_compile_definitions(fuzz_${name} PRIVATE ${defs})
    endif()
    add_dependencies(fuzz_all fuzz_${name})
  endif()
  if(GPU500_BUILD_TESTS)
    add_executable(replay_${name} ${_fuzz_dir}/${source} ${_fuzz_dir}/replay_main.cpp)
    target_link_libraries(replay_${name} PRIVATE ${lib} gpu500_warnings)
    if(defs)
      target_compile_definitions(replay_${name} PRIVATE ${defs})
    endif()
    set(_inputs ${_fuzz_dir}/corpus/${name})
    if(EXISTS ${CMAKE_SOURCE_DIR}/tests/data/fuzz/${name})
      list(APPEND _inputs ${CMAKE_SOURCE_DIR}/tests/data/fuzz/${name})
    endif()
    add_test(NAME fuzz_replay.${name} COMMAND replay_${name} ${_inputs})
    set_tests_properties(fuzz_replay.${name} PROPERTIES TIMEOUT 120 ENVIRONMENT "OMP_NUM_THREADS=2")
  endif()
endforeach()
