#!/usr/bin/env bash
# Builds gpu500 with ONLY the core and bellman_ford components, from a private copy of the tree,
# so that the Bellman-Ford benchmark and tests do not depend on the state of other components
# (the working tree is shared by several engineers). Prints the build directory on stdout.
#   bash bench/bellman_ford/isolated-build.sh [BUILD_DIR] [extra cmake args...]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build-bf-isolated}
shift || true
src=${build}-src
rm -rf "$src"
mkdir -p "$src/apps/gpu500" "$src/tests/unit" "$src/tests/smoke" "$src/include/gpu500" "$src/src" "$src/bench" "$src/scripts"
cp -a "$root/CMakeLists.txt" "$root/cmake" "$src/"
cp -a "$root/include/gpu500/core" "$root/include/gpu500/bellman_ford" "$src/include/gpu500/"
cp -a "$root/src/core" "$root/src/bellman_ford" "$src/src/"
cp -a "$root"/apps/gpu500/{CMakeLists.txt,main.cpp,command.hpp,cmd_info.cpp,cmd_bellman_ford.cpp} "$src/apps/gpu500/"
cp -a "$root/tests/unit/core" "$root/tests/unit/bellman_ford" "$src/tests/unit/"
cp -a "$root"/tests/smoke/{CMakeLists.txt,info.sh,bellman_ford.sh} "$src/tests/smoke/"
cp -a "$root/bench/CMakeLists.txt" "$root/bench/bellman_ford" "$src/bench/"
cp -a "$root/scripts/bellman_ford_table.py" "$src/scripts/"
cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release "$@" >"$build.configure.log" 2>&1 ||
  { cat "$build.configure.log" >&2; exit 1; }
grep 'gpu500:' "$build.configure.log" >&2 || true
cmake --build "$build" -j "$(nproc)" --target gpu500 test_bellman_ford test_core >"$build.build.log" 2>&1 ||
  { grep -E "error|Error" "$build.build.log" | head -40 >&2; exit 1; }
echo "$build"
