# Run at every build (src/core/CMakeLists.txt): writes OUT, a header defining GPU500_GIT_COMMIT as
# `git describe --always --dirty` of SOURCE_DIR ("unknown" outside a git checkout, e.g. a release
# tarball), and rewrites it only when the commit changed, so that an unchanged tree rebuilds
# nothing and a commit made since the last build is in the next build's records.
set(commit "unknown")
find_package(Git QUIET)
if(GIT_FOUND)
  execute_process(COMMAND ${GIT_EXECUTABLE} describe --always --dirty --abbrev=12 --match "v[0-9]*"
                  WORKING_DIRECTORY ${SOURCE_DIR} OUTPUT_VARIABLE out ERROR_QUIET RESULT_VARIABLE rc
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(rc EQUAL 0 AND out)
    set(commit "${out}")
  endif()
endif()
file(WRITE "${OUT}.tmp" "// Generated at build time by cmake/git_commit.cmake.\n#define GPU500_GIT_COMMIT \"${commit}\"\n")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUT}.tmp")
