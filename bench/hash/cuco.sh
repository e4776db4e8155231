#!/usr/bin/env bash
# cuCollections' static_map, GLHT's peer, on this machine's GPU: configures BUILD_DIR with
# -DGPU500_CUCO_DIR=CUCO_DIR (a cuCollections source checkout; header-only, not part of this
# repository), builds the bench target cuco_static_map and runs it with the remaining options
# (default: 2^26 keys, LF 0.8 and 0.9, median of 3, the keys of `gpu500 hash static`). Its rows have
# the columns of `gpu500 hash static`.
# Usage: bench/hash/cuco.sh CUCO_DIR [BUILD_DIR] [--keys N] [--lf 0.8,0.9] [--runs N] [--seed N]
set -euo pipefail
cuco=${1:?usage: bench/hash/cuco.sh CUCO_DIR [BUILD_DIR] [--keys N] [--lf LIST] [--runs N] [--seed N]}
build=${2:-build}
shift $(( $# < 2 ? $# : 2 ))
src=$(cd "$(dirname "$0")/../.." && pwd)
cuco=$(cd "$cuco" && pwd)
[ -f "$cuco/include/cuco/static_map.cuh" ] || { echo "cuco.sh: $cuco is not a cuCollections checkout" >&2; exit 2; }
extra=()
[ -f "$build/CMakeCache.txt" ] || extra=(-DCMAKE_BUILD_TYPE=Release)
cmake -S "$src" -B "$build" "${extra[@]}" -DGPU500_CUCO_DIR="$cuco" >/dev/null
cmake --build "$build" -j"$(nproc)" --target cuco_static_map >/dev/null
"$build/bin/cuco_static_map" "$@"
