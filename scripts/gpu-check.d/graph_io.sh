#!/usr/bin/env bash
# Graph-file read speed on the GPU host's cores: bench/graph/run.sh (SCALE GRAPH_IO_SCALE, default
# 22; skipped with GRAPH_IO_SCALE=0); rows "graph-io|what|figure" against the goal of 200 MB/s for the
# parallel edge-list parse and against the line-end count of the same file (the read limit).
#   bash scripts/gpu-check.d/graph_io.sh BUILD OUT TABLE
set -uo pipefail
BUILD=$1 OUT=$2 TABLE=$3
[ "${GRAPH_IO_SCALE:-22}" = 0 ] && exit 0
cd "$(dirname "$0")/../.."
bash bench/graph/run.sh "$BUILD" "$OUT/graph-io" || { echo "graph-io|bench|FAILED" >>"$TABLE"; exit 1; }
python3 - "$OUT/graph-io/graph_io.json" "$TABLE" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
with open(sys.argv[2], "a") as t:
    for r in j["reads"]:
        extra = ""
        if r["file"] == "g.txt" and r["threads"] == j["threads"]:
            extra = ", goal 200 MB/s: %s; line-end count %.0f MB/s" % (
                "met" if r["MB_per_s"] >= 200 else "not met", j["line_count_MB_per_s"])
        t.write("graph-io|SCALE %d %s, %d threads|%.0f MB/s, %.1f M edges/s, %s%s\n" % (
            j["scale"], r["file"], r["threads"], r["MB_per_s"], r["edges_per_s"] / 1e6,
            "correct" if r["correct"] else "WRONG", extra))
PY
