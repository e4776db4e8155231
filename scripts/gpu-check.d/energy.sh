#!/usr/bin/env bash
# The whole Graph500 run on one GPU with GreenGraph500's energy measurement: `gpu500 graph500
# ENERGY_SCALE --backend cuda --energy` (default SCALE 26, every search validated; each kernel's
# keys repeated for a window of >= 1 s read by NVML). Rows "energy|what|figure": BFS and SSSP
# GTEPS (the one-GPU figures), joules, average board watts and GTEPS per watt against the goal of
# 1 GTEPS/W for BFS.
#   bash scripts/gpu-check.d/energy.sh BUILD OUT TABLE
set -uo pipefail
BUILD=$1 OUT=$2 TABLE=$3
s=${ENERGY_SCALE:-26}
if ! "$BUILD/bin/gpu500" graph500 "$s" --backend cuda --energy --quiet --json "$OUT/g500-energy-s$s.json" \
    >"$OUT/g500-energy-s$s.txt" 2>"$OUT/g500-energy-s$s.err"; then
  echo "energy|SCALE $s|FAILED: $(tail -1 "$OUT/g500-energy-s$s.err")" >>"$TABLE"
  exit 1
fi
python3 - "$OUT/g500-energy-s$s.json" "$TABLE" "$s" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
with open(sys.argv[2], "a") as t:
    meter = j.get("energy_meter") or ("unavailable: " + j.get("energy_unavailable", "?"))
    for k in ("bfs", "sssp"):
        if k not in j:
            continue
        r = j[k]
        row = "%.2f GTEPS (harmonic mean, %s)" % (r["harmonic_mean_TEPS"] / 1e9, "valid" if j["valid"] else "INVALID")
        e = r.get("energy")
        if e:
            tpw = e["TEPS_per_watt"]
            row += "; %.1f J over %.2f s (%d searches), %.0f W, %s GTEPS/W" % (
                e["joules"], e["window_time"], e["searches"], e["average_power_watts"],
                "%.3f" % (tpw / 1e9) if tpw else "n/a")
            if k == "bfs" and tpw:
                row += ", goal 1: %s" % ("met" if tpw >= 1e9 else "not met")
        t.write("energy|%s SCALE %s, %s|%s\n" % (k.upper(), sys.argv[3], meter, row))
PY
