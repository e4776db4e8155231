#!/usr/bin/env bash
# Build the Graph500 3.0.1 reference (graph500_reference_bfs_sssp), the peer of bench/graph500/cpu.sh,
# from a source checkout that is not part of this repository (github.com/graph500/graph500, tag
# 3.0.1; third_party/graph500 by default, ignored by git), into BUILD_DIR, with the flags its
# src/Makefile needs on today's compilers: -fcommon (GCC >= 10 rejects its tentative definitions
# otherwise) and `restrict` spelled for the C compiler. Prints the binary's path.
#   bench/graph500/reference.sh [SOURCE_DIR] [BUILD_DIR]
#   GRAPH500_REFERENCE=$(bench/graph500/reference.sh) SCALES="22" GPU500_RANKS=16 bash bench/graph500/cpu.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
src=${1:-third_party/graph500}
out=${2:-build-graph500-reference}
[ -f "$src/src/Makefile" ] && [ -f "$src/src/main.c" ] || { echo "reference.sh: $src is not a Graph500 checkout" >&2; exit 2; }
command -v mpicc >/dev/null || { echo "reference.sh: mpicc not found" >&2; exit 2; }
rm -rf "$out"
mkdir -p "$out"
cp -r "$src"/. "$out"/
make -C "$out/src" -j"$(nproc)" graph500_reference_bfs_sssp \
  CFLAGS="-Drestrict=__restrict__ -O3 -DGRAPH_GENERATOR_MPI -DREUSE_CSR_FOR_VALIDATION -I../aml -fcommon" >"$out/make.log" 2>&1 ||
  { tail -20 "$out/make.log" >&2; exit 1; }
echo "$(cd "$out/src" && pwd)/graph500_reference_bfs_sssp"
