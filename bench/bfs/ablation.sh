#!/usr/bin/env bash
# The Enterprise paper's Figure 13 on this GPU: BFS with each technique added in turn, validated,
# harmonic-mean GTEPS counted the Graph500 way (nedge of the component / time).
#   bash bench/bfs/ablation.sh BIN_DIR OUT_DIR
# BIN_DIR holds gpu500_bfs_bench (and gpu500, for the CPU backend baseline when present).
# Environment: SCALES ("20 22 24 26"), ROOTS (16), BL_ROOTS (8: the baseline is slow), RMAT_SCALE (22),
# GRID_SIDE (1024: a 2-D grid, 2,046 levels from a corner), CPU_SCALES ("20 22"); GRAPH500_REFERENCE
# (or GRAPH500_REFERENCE_BFS), REF_SCALES ("20"), REFERENCE_RANKS (16): the reference in the same run.
# Output: OUT_DIR/bfs-ablation.jsonl (one JSON object per run) and a table on stdout.
set -uo pipefail
bin=$1 out=$2
mkdir -p "$out"
json="$out/bfs-ablation.jsonl"
: >"$json"
SCALES=${SCALES:-"20 22 24 26"}
ROOTS=${ROOTS:-16}
RMAT_SCALE=${RMAT_SCALE:-22}
GRID_SIDE=${GRID_SIDE:-1024}
BL_ROOTS=${BL_ROOTS:-8}
CPU_SCALES=${CPU_SCALES:-"20 22"}
bench="$bin/gpu500_bfs_bench"
status=0

# Configurations, each adding one technique: the paper's BL, +TS, +WB, +HC, then VS-Graph500's +sort,
# then +loop (small frontiers in one CTA on the device) and full (adds the bitmap of the visited
# vertices that bottom-up reads).
configs=(
  "BL|--no-ts --no-hc --no-sort"
  "+TS|--no-wb --no-hc --no-sort --no-device-loop --no-bitmap"
  "+WB|--no-hc --no-sort --no-device-loop --no-bitmap"
  "+HC|--no-sort --no-device-loop --no-bitmap"
  "+sort|--no-device-loop --no-bitmap"
  "+loop|--no-bitmap"
  "full|"
)

run() {  # label graph-args...
  local label=$1 roots=$ROOTS
  shift
  [ "$label" = BL ] && roots=$BL_ROOTS
  if ! "$bench" --label "$label" --roots "$roots" --json "$json" "$@"; then
    echo "FAILED: $label $*"
    status=1
  fi
}

for s in $SCALES; do
  for c in "${configs[@]}"; do
    run "${c%%|*}" --scale "$s" ${c#*|}
  done
done
for c in "${configs[@]}"; do
  run "${c%%|*}" --scale "$RMAT_SCALE" --rmat ${c#*|}
done
for c in "BL|--no-ts --no-hc --no-sort" "+sort|--no-device-loop --no-bitmap" "full|"; do
  run "${c%%|*}" --grid "$GRID_SIDE" ${c#*|}
done

# The CPU backend on this host's cores, same graphs, for scale (needs the gpu500 program).
if [ -x "$bin/gpu500" ]; then
  for s in $CPU_SCALES; do
    line=$("$bin/gpu500" graph500 "$s" --backend cpu --kernels bfs --roots "$ROOTS" --quiet 2>/dev/null |
      grep "harmonic_mean_TEPS" | head -1)
    teps=$(awk '{print $NF}' <<<"$line")  # "bfs  harmonic_mean_TEPS:     !  1.2e+09"
    [[ "$teps" =~ ^[0-9.eE+-]+$ ]] && echo "{\"label\":\"cpu\",\"graph\":\"kronecker\",\"scale\":$s,\"hmean_gteps\":$(python3 -c "print($teps/1e9)")}" >>"$json"
  done
fi

# The Graph500 3.0.1 reference on REFERENCE_RANKS MPI ranks of this host (GRAPH500_REFERENCE names its
# binary, built outside the repository; the BFS-only build is used when GRAPH500_REFERENCE_BFS names it).
ref=${GRAPH500_REFERENCE_BFS:-${GRAPH500_REFERENCE:-}}
if [ -n "$ref" ]; then
  for s in ${REF_SCALES:-20}; do
    teps=$(OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
      mpirun --oversubscribe -np "${REFERENCE_RANKS:-16}" "$ref" "$s" 2>/dev/null |
      awk '/^bfs +harmonic_mean_TEPS/ {print $NF}')
    if [[ "$teps" =~ ^[0-9.eE+-]+$ ]]; then
      echo "{\"label\":\"ref\",\"graph\":\"kronecker\",\"scale\":$s,\"hmean_gteps\":$(python3 -c "print($teps/1e9)")}" >>"$json"
    else
      echo "FAILED: the reference at SCALE $s"
      status=1
    fi
  done
fi

python3 - "$json" <<'PY'
import json, sys
rows = []
for l in open(sys.argv[1]):
    try:
        rows.append(json.loads(l))
    except ValueError:
        print("skipping a malformed line: " + l.strip())
graphs = []
for r in rows:
    k = (r["graph"], r["scale"])
    if k not in graphs:
        graphs.append(k)
labels = ["ref", "cpu", "BL", "+TS", "+WB", "+HC", "+sort", "+loop", "full"]
print("%-16s" % "graph" + "".join("%10s" % l for l in labels) + "   full/BL")
for g in graphs:
    by = {r["label"]: r for r in rows if (r["graph"], r["scale"]) == g}
    cells = ["%10s" % ("%.2f" % by[l]["hmean_gteps"] if l in by else "-") for l in labels]
    ratio = by["full"]["hmean_gteps"] / by["BL"]["hmean_gteps"] if "full" in by and "BL" in by else float("nan")
    print("%-16s" % ("%s-%d" % g) + "".join(cells) + "   %.1fx" % ratio)
bad = [r for r in rows if "valid" in r and r["valid"] != r["roots"]]
print("validated: %d runs, %d with failures" % (len(rows), len(bad)))
PY
exit $status
