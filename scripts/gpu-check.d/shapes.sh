#!/usr/bin/env bash
# GPU check of the searches on graphs that are not Kronecker: bench/graph/shapes.sh (a 2-D and a
# 3-D grid, a random geometric graph, a long path and a Kronecker graph; BFS and SSSP on every
# backend of the build, the textbook serial BFS beside them; every search validated).
# Rows "shapes|SHAPE KERNEL|GTEPS per backend and ratios".
#   bash scripts/gpu-check.d/shapes.sh BUILD OUT TABLE
set -uo pipefail
build=$1 out=$2 table=$3
root=$(cd "$(dirname "$0")/../.." && pwd)
if ! bash "$root/bench/graph/shapes.sh" "$build/bin/gpu500" "$build/bin/gpu500_serial_bfs" "$out/shapes" "$table"; then
  echo "shapes|bench|FAILED (see $out/shapes)" >>"$table"
  exit 1
fi
