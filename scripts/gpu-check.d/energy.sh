#!/usr/bin/env bash
# The whole Graph500 run on one GPU with GreenGraph500's energy measurement: `gpu500 graph500
# ENERGY_SCALE --backend cuda --energy` (default SCALE 26, every search validated; each kernel's
# keys repeated for a window of >= 1 s read by NVML). Rows "energy|what|figure": BFS and SSSP
# GTEPS (the one-GPU figures), joules, average board watts and GTEPS per watt against the goal of
# 1 GTEPS/W for BFS. Then, in the same call, the BFS again with its grids sized for each share of
# the SMs in ENERGY_SM_SHARES (default "0.75"; "" for none: `--bfs-sm-share`), each row with its
# ratio to the first run's BFS GTEPS and GTEPS/W.
#   bash scripts/gpu-check.d/energy.sh BUILD OUT TABLE
set -uo pipefail
BUILD=$1 OUT=$2 TABLE=$3
s=${ENERGY_SCALE:-26}
run() {  # name flags...
  local name=$1
  shift
  if ! "$BUILD/bin/gpu500" graph500 "$s" --backend cuda --energy --quiet --json "$OUT/$name.json" "$@" \
      >"$OUT/$name.txt" 2>"$OUT/$name.err"; then
    echo "energy|SCALE $s $*|FAILED: $(tail -1 "$OUT/$name.err")" >>"$TABLE"
    return 1
  fi
}
run "g500-energy-s$s" || exit 1
jsons=("$OUT/g500-energy-s$s.json")
status=0
for share in ${ENERGY_SM_SHARES-0.75}; do
  if run "g500-energy-s$s-sms$share" --kernels bfs --bfs-sm-share "$share"; then
    jsons+=("$OUT/g500-energy-s$s-sms$share.json")
  else
    status=1
  fi
done
python3 - "$TABLE" "$s" "${jsons[@]}" <<'PY'
import json, re, sys
table, scale, paths = sys.argv[1], sys.argv[2], sys.argv[3:]
base = None
with open(table, "a") as t:
    for n, path in enumerate(paths):
        j = json.load(open(path))
        meter = j.get("energy_meter") or ("unavailable: " + j.get("energy_unavailable", "?"))
        m = re.search(r"\+sms([0-9.e-]+)", j.get("backend", ""))  # the engine's description
        share = m.group(1) if m else "1"
        for k in ("bfs", "sssp"):
            if k not in j:
                continue
            r = j[k]
            gteps = r["harmonic_mean_TEPS"] / 1e9
            row = "%.2f GTEPS (harmonic mean, %s)" % (gteps, "valid" if j["valid"] else "INVALID")
            e = r.get("energy")
            tpw = e["TEPS_per_watt"] if e else None
            if e:
                row += "; %.1f J over %.2f s (%d searches), %.0f W, %s GTEPS/W" % (
                    e["joules"], e["window_time"], e["searches"], e["average_power_watts"],
                    "%.3f" % (tpw / 1e9) if tpw else "n/a")
            if k == "bfs" and n == 0:
                base = (gteps, tpw)
            if k == "bfs" and n > 0 and base and base[1] and tpw:
                row += "; x%.3f the speed and x%.3f the GTEPS/W of the first row (same call)" % (
                    gteps / base[0], tpw / base[1])
            if k == "bfs" and tpw:
                row += ", goal 1: %s" % ("met" if tpw >= 1e9 else "not met")
            what = "%s SCALE %s, %s" % (k.upper(), scale, meter)
            if n > 0:
                what += ", --bfs-sm-share %s" % share
            t.write("energy|%s|%s\n" % (what, row))
PY
exit $status
