#!/usr/bin/env bash
# The Python package on this machine: bench/python/overhead.py (g.bfs against `gpu500 bfs` on the
# same Kronecker file, roots and backend; the NetworkX backend against NetworkX's own BFS), with
# the module of this build (BUILD/python). Rows "python|what|figure".
#   bash scripts/gpu-check.d/python.sh BUILD OUT TABLE
set -uo pipefail
build=$1 out=$2 table=$3
root=$(cd "$(dirname "$0")/../.." && pwd)
py=$(grep -m1 -E '^_?Python_EXECUTABLE' "$build/CMakeCache.txt" | cut -d= -f2)
if [ ! -d "$build/python/gpu500" ] || [ -z "$py" ]; then
  echo "python|bench|not built (no Python module in $build)" >>"$table"
  exit 0
fi
if ! PYTHONPATH="$build/python" timeout 600 "$py" "$root/bench/python/overhead.py" "$build/bin/gpu500" "$out/python" "$table" \
     >"$out/python-bench.txt" 2>&1; then
  echo "python|bench|FAILED: $(tail -1 "$out/python-bench.txt")" >>"$table"
  exit 1
fi
