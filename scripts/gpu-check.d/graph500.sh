#!/usr/bin/env bash
# The whole Graph500 benchmark through the real program on the GPU: `gpu500 graph500 SCALE
# --backend cuda` (generator, kernel 1, 64 BFS + 64 SSSP, every search validated on the GPU), at
# G500_SCALES (default "22 26"), timed end to end; then the CPU backend at G500_CPU_SCALE (default
# 20) on the host's cores, and the Graph500 reference on 16 ranks when GRAPH500_REFERENCE names its
# binary. Rows: "graph500|what|figure".
#   bash scripts/gpu-check.d/graph500.sh BUILD OUT TABLE
set -uo pipefail
build=$1 out=$2 table=$3
bin=$build/bin/gpu500
rc=0
row() { echo "graph500|$1|$2" >>"$table"; }
summary() {  # file -> "BFS x GTEPS, SSSP y GTEPS, k1 z s"
  python3 - "$1" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
if not j["valid"]:
    print("INVALID: " + j.get("failure", "?")); sys.exit(0)
parts = []
for k in ("bfs", "sssp"):
    if k in j:
        parts.append("%s %.2f GTEPS" % (k.upper(), j[k]["harmonic_mean_TEPS"] / 1e9))
parts.append("gen %.2f s, kernel 1 %.2f s" % (j["graph_generation"], j["construction_time"]))
print(", ".join(parts))
PY
}
for s in ${G500_SCALES:-22 26}; do
  start=$(date +%s.%N)
  if "$bin" graph500 "$s" --backend cuda --quiet --json "$out/g500-cuda-s$s.json" >"$out/g500-cuda-s$s.txt" 2>"$out/g500-cuda-s$s.err"; then
    wall=$(python3 -c "import time; print('%.0f' % (time.time() - $start))")
    row "cuda SCALE $s (${wall} s end to end)" "$(summary "$out/g500-cuda-s$s.json")"
  else
    rc=1
    row "cuda SCALE $s" "FAILED: $(tail -1 "$out/g500-cuda-s$s.err")"
  fi
done
cs=${G500_CPU_SCALE:-20}
if "$bin" graph500 "$cs" --backend cpu --quiet --json "$out/g500-cpu-s$cs.json" >"$out/g500-cpu-s$cs.txt" 2>&1; then
  row "cpu SCALE $cs ($(nproc) cores)" "$(summary "$out/g500-cpu-s$cs.json")"
else
  rc=1
  row "cpu SCALE $cs" "FAILED"
fi
if [ -n "${GRAPH500_REFERENCE:-}" ]; then
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
    mpirun --oversubscribe -np "${REFERENCE_RANKS:-16}" "$GRAPH500_REFERENCE" "$cs" >"$out/g500-ref-s$cs.txt" 2>/dev/null
  row "reference SCALE $cs (${REFERENCE_RANKS:-16} ranks)" \
    "$(awk '/harmonic_mean_TEPS/ {printf "%s %.3f GTEPS, ", toupper($1), $NF/1e9}
            /^graph_generation:/ {g=$NF} /^construction_time:/ {c=$NF}
            END {printf "gen %.2f s, kernel 1 %.2f s", g, c}' "$out/g500-ref-s$cs.txt")"
fi
exit $rc
