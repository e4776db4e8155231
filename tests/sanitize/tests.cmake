# std::thread drivers (plain tests in every build; the ThreadSanitizer suite under
# GPU500_SANITIZE=thread, run with `ctest -L tsan`). Included at the end of the top directory by
# cmake/sanitize.cmake, after every component.
if(GPU500_BUILD_TESTS)
  gpu500_add_test(test_threads SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_threads.cpp DEPS gpu500_hash LABELS tsan)
endif()
