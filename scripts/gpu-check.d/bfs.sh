#!/usr/bin/env bash
# GPU check of the CUDA Graph500 BFS: the technique ablation (bench/bfs/ablation.sh) and the goals
# SCALE 26 >= 250 GTEPS, SCALE 22 >= 100 GTEPS, full >= 3x BL.
#   bash scripts/gpu-check.d/bfs.sh BUILD OUT TABLE
set -uo pipefail
build=$1 out=$2 table=$3
root=$(cd "$(dirname "$0")/../.." && pwd)
bash "$root/bench/bfs/ablation.sh" "$build/bin" "$out"
rc=$?
python3 - "$out/bfs-ablation.jsonl" "$table" <<'PY'
import json, sys
rows = []
for l in open(sys.argv[1]):
    try:
        rows.append(json.loads(l))
    except ValueError:
        pass
goals = {26: 250.0, 22: 100.0}
with open(sys.argv[2], "a") as t:
    keys = []
    for r in rows:
        if (r["graph"], r["scale"]) not in keys:
            keys.append((r["graph"], r["scale"]))
    for g, s in keys:
        by = {r["label"]: r for r in rows if (r["graph"], r["scale"]) == (g, s)}
        if "full" not in by:
            continue
        f = by["full"]
        txt = "%.3g GTEPS hmean (%d/%d valid)" % (f["hmean_gteps"], f.get("valid", 0), f.get("roots", 0))
        if "BL" in by:
            txt += ", %.1fx BL" % (f["hmean_gteps"] / by["BL"]["hmean_gteps"])
        for base, name in (("cpu", "CPU backend"), ("ref", "reference")):
            if base in by:
                txt += ", %.0fx the %s (%.3g)" % (f["hmean_gteps"] / by[base]["hmean_gteps"], name, by[base]["hmean_gteps"])
        if g == "kronecker" and s in goals:
            txt += ", goal %.0f: %s" % (goals[s], "met" if f["hmean_gteps"] >= goals[s] else "NOT met")
        t.write("bfs|%s-%d full|%s\n" % (g, s, txt))
PY
exit $rc
