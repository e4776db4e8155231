#!/usr/bin/env bash
# Checks the installed package: builds gpu500 (in BUILD_DIR when given, reusing it; else in a
# fresh configure), installs it to a temporary prefix, runs the installed program, configures and
# builds examples/ against the prefix with find_package(gpu500), and runs the examples (the CUDA
# ones skip themselves without a GPU).
#   usage: scripts/ci-install-check.sh [BUILD_DIR]      (JOBS=n: parallel build jobs)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
jobs=${JOBS:-$(nproc)}
build=${1:-}
if [ -z "$build" ]; then
  build=$tmp/build
  cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DGPU500_BUILD_TESTS=OFF >/dev/null
fi
[ -f "$build/CMakeCache.txt" ] || { echo "ci-install-check: $build is not a configured build directory" >&2; exit 2; }
cmake --build "$build" -j"$jobs" --target gpu500 >/dev/null
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
"$tmp/prefix/bin/gpu500" info >/dev/null
echo "installed: $(ls "$tmp/prefix/lib"/libgpu500_*.a | wc -l) libraries, $(find "$tmp/prefix/include/gpu500" -type f | wc -l) headers"

# The examples with the build's own compilers (and compiler launcher, if any).
cached() { sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt"; }
args=(-DCMAKE_PREFIX_PATH="$tmp/prefix" -DCMAKE_BUILD_TYPE=Release)
for v in CMAKE_CXX_COMPILER CMAKE_CUDA_COMPILER CMAKE_CXX_COMPILER_LAUNCHER CMAKE_CUDA_COMPILER_LAUNCHER CMAKE_CUDA_ARCHITECTURES; do
  val=$(cached "$v")
  [ -n "$val" ] && args+=("-D$v=$val")
done
cmake -S "$src/examples" -B "$tmp/examples" "${args[@]}" >"$tmp/configure.log" 2>&1 || { cat "$tmp/configure.log"; exit 1; }
cmake --build "$tmp/examples" -j"$jobs" >"$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; exit 1; }
"$tmp/examples/bfs_csr"
if [ -x "$tmp/examples/hash_device" ]; then "$tmp/examples/hash_device"; fi
echo "ci-install-check: ok"
