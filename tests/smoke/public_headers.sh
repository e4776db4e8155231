#!/usr/bin/env bash
# bench/ and examples/ use the library as a user would: through its public headers
# (include/gpu500/...), their own files, and system or third-party headers; never a header of
# src/, and no include directory into src/ in their CMake files. EXCEPTIONS names each file
# allowed a header of src/, with the reason. (tests/ may include src/: unit tests check internals.)
set -uo pipefail
src=$2
cd "$src" || exit 1

# file:include -> why it may include a header of src/.
declare -A EXCEPTIONS=(
  ["bench/hpl_mxp/gemm_rate.cu:cuda/fp8.cuh"]="the fp8 rate times the library's own cuBLASLt call (src/hpl_mxp/cuda/fp8.cuh), which no public header offers"
)
declare -A CMAKE_EXCEPTIONS=(
  ["bench/hpl_mxp/CMakeLists.txt"]="for bench/hpl_mxp/gemm_rate.cu's cuda/fp8.cuh (above)"
)

bad=0
while IFS= read -r -d '' f; do
  dir=$(dirname "$f")
  while IFS= read -r inc; do
    name=${inc:1:${#inc}-2}
    if [[ $name == gpu500/* ]]; then
      [ -e "include/$name" ] && continue
      why="gpu500/... that is not a public header (include/$name is missing)"
    elif [[ $inc == \"* ]]; then
      # A quoted header must be the directory's own (inside bench/ or examples/), or an exception.
      resolved=$(realpath -m "$dir/$name")
      case "$resolved" in "$PWD/bench/"* | "$PWD/examples/"*) [ -e "$resolved" ] && continue ;; esac
      [ -n "${EXCEPTIONS[$f:$name]:-}" ] && continue
      why="not a public header nor a file of bench/ or examples/"
    else
      [ -e "src/$name" ] || [[ $name == src/* ]] || continue  # a system or third-party header
      why="a header of src/"
    fi
    echo "FAIL: $f includes $inc: $why"
    bad=1
  done < <(sed -nE 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*([<"][^>"]+[>"]).*/\1/p' "$f")
done < <(find bench examples -type f \( -name '*.c' -o -name '*.cc' -o -name '*.cpp' -o -name '*.cu' -o -name '*.h' \
           -o -name '*.hpp' -o -name '*.cuh' \) -print0)

while IFS= read -r -d '' f; do
  if grep -nE '(PROJECT_SOURCE_DIR|CMAKE_SOURCE_DIR|\.\./)[^)]*src\b' "$f" >/dev/null && [ -z "${CMAKE_EXCEPTIONS[$f]:-}" ]; then
    echo "FAIL: $f adds an include directory or source of src/: $(grep -nE '(PROJECT_SOURCE_DIR|CMAKE_SOURCE_DIR|\.\./)[^)]*src\b' "$f" | head -1)"
    bad=1
  fi
done < <(find bench examples -name CMakeLists.txt -print0)

# Every exception still names a real include, so the list cannot outlive its reason.
for key in "${!EXCEPTIONS[@]}"; do
  grep -qE "#[[:space:]]*include[[:space:]]*\"${key#*:}\"" "${key%%:*}" 2>/dev/null ||
    { echo "FAIL: the exception $key is stale (no such include): remove it"; bad=1; }
done
[ $bad = 0 ] && echo "public_headers: bench/ and examples/ include public headers only (${#EXCEPTIONS[@]} exception(s))"
exit $bad
