#!/usr/bin/env bash
# The whole Graph500 benchmark through the real program on the GPU: `gpu500 graph500 SCALE
# --backend cuda` (generator, kernel 1, 64 BFS + 64 SSSP, every search validated on the GPU), at
# G500_SCALES (default "22 26"), timed end to end; then the CPU backend at G500_CPU_SCALE (default
# 20) on the host's cores, and the Graph500 reference on REFERENCE_RANKS (16) ranks when
# GRAPH500_REFERENCE names its binary (both G500_CPU_REPEATS times, alternated, and their ratio).
# G500_CPU_RANKS=R runs the CPU backend over R MPI ranks (cores / R threads each) instead of one
# process: with R = REFERENCE_RANKS that is the comparison with the same ranks. Without
# GRAPH500_REFERENCE, a Graph500 3.0.1 checkout in third_party/graph500 is built with
# bench/graph500/reference.sh (when mpicc is there). G500_CPU_NO_VALIDATE=1 skips the validation
# of that comparison on both sides (`--no-validate`, the reference's SKIP_VALIDATION): the same
# timed searches in a fraction of the time. Rows: "graph500|what|figure".
# With two or more GPUs, last: the multi-GPU scaling (bench/graph500/scaling.sh at G500_MPI_SCALE,
# default 24, with G500_MPI_ROOTS roots, default 8; one MPI rank per GPU), rows "graph500-mpi|...";
# G500_MPI=0 leaves it out.
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
if not j.get("validated", True):
    parts.append("not validated")
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
if [ -z "${GRAPH500_REFERENCE:-}" ] && [ -f third_party/graph500/src/main.c ] && command -v mpicc >/dev/null; then
  if GRAPH500_REFERENCE=$(bash bench/graph500/reference.sh third_party/graph500 "$out/graph500-reference" 2>"$out/g500-ref-build.err"); then
    export GRAPH500_REFERENCE
  else
    rc=1
    row "reference build" "FAILED: $(tail -1 "$out/g500-ref-build.err")"
  fi
fi
ranks=${G500_CPU_RANKS:-1}
no_validate=() ref_no_validate=()
[ "${G500_CPU_NO_VALIDATE:-0}" = 1 ] && no_validate=(--no-validate) ref_no_validate=(-x SKIP_VALIDATION=1)
cpu_run() {  # JSON TEXT: the CPU backend at SCALE cs, one process or G500_CPU_RANKS ranks
  if [ "$ranks" -gt 1 ]; then
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun --oversubscribe --bind-to none -np "$ranks" \
      -x OMP_NUM_THREADS=$(($(nproc) / ranks > 0 ? $(nproc) / ranks : 1)) \
      "$bin" graph500 "$cs" --backend cpu --quiet "${no_validate[@]}" --json "$1" >"$2" 2>&1
  else
    "$bin" graph500 "$cs" --backend cpu --quiet "${no_validate[@]}" --json "$1" >"$2" 2>&1
  fi
}
who=$([ "$ranks" -gt 1 ] && echo "$ranks ranks, $(nproc) cores" || echo "$(nproc) cores")
# The host's speed drifts from run to run (CPU SSSP at SCALE 20 on the same 16 cores: 0.39-0.52
# GTEPS within minutes), so the CPU backend and the reference run alternated G500_CPU_REPEATS times
# (default 1; 0 skips both) and the ratio row compares their medians.
reps=${G500_CPU_REPEATS:-1}
for k in $(seq 1 "$reps"); do
  sfx=$([ "$reps" -gt 1 ] && echo "-$k" || true)
  if cpu_run "$out/g500-cpu-s$cs$sfx.json" "$out/g500-cpu-s$cs$sfx.txt"; then
    row "cpu SCALE $cs ($who)${sfx:+ run $k}" "$(summary "$out/g500-cpu-s$cs$sfx.json")"
  else
    rc=1
    row "cpu SCALE $cs${sfx:+ run $k}" "FAILED"
  fi
  if [ -n "${GRAPH500_REFERENCE:-}" ]; then
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
      mpirun --oversubscribe -np "${REFERENCE_RANKS:-16}" "${ref_no_validate[@]}" "$GRAPH500_REFERENCE" "$cs" \
      >"$out/g500-ref-s$cs$sfx.txt" 2>/dev/null
    row "reference SCALE $cs (${REFERENCE_RANKS:-16} ranks)${sfx:+ run $k}" \
      "$(awk '/harmonic_mean_TEPS/ {printf "%s %.3f GTEPS, ", toupper($1), $NF/1e9}
              /^graph_generation:/ {g=$NF} /^construction_time:/ {c=$NF}
              END {printf "gen %.2f s, kernel 1 %.2f s", g, c}' "$out/g500-ref-s$cs$sfx.txt")"
  fi
done
if [ -n "${GRAPH500_REFERENCE:-}" ] && [ "$reps" -gt 0 ]; then
  row "cpu ($who) / reference (${REFERENCE_RANKS:-16} ranks) SCALE $cs (medians of $reps alternated runs)" "$(python3 - "$out" "$cs" "$reps" <<'PY'
import json, statistics, sys, os
out, cs, reps = sys.argv[1], sys.argv[2], int(sys.argv[3])
sfx = lambda k: "-%d" % k if reps > 1 else ""
cpu = {"bfs": [], "sssp": [], "gk": []}
ref = {"bfs": [], "sssp": [], "gk": []}
for k in range(1, reps + 1):
    try:
        j = json.load(open(os.path.join(out, "g500-cpu-s%s%s.json" % (cs, sfx(k)))))
        if j.get("valid"):
            for x in ("bfs", "sssp"):
                if x in j: cpu[x].append(j[x]["harmonic_mean_TEPS"])
            cpu["gk"].append(j["graph_generation"] + j["construction_time"])
    except Exception:
        pass
    try:
        g = c = None
        for line in open(os.path.join(out, "g500-ref-s%s%s.txt" % (cs, sfx(k)))):
            f = line.split()
            if len(f) >= 2 and f[1] == "harmonic_mean_TEPS:" and f[0] in ("bfs", "sssp"): ref[f[0]].append(float(f[-1]))
            if f and f[0] == "graph_generation:": g = float(f[-1])
            if f and f[0] == "construction_time:": c = float(f[-1])
        if g is not None and c is not None: ref["gk"].append(g + c)
    except Exception:
        pass
parts = []
for x in ("bfs", "sssp"):
    if cpu[x] and ref[x]:
        parts.append("%s %.2fx" % (x.upper(), statistics.median(cpu[x]) / statistics.median(ref[x])))
if cpu["gk"] and ref["gk"]:
    parts.append("gen + kernel 1 %.1fx" % (statistics.median(ref["gk"]) / statistics.median(cpu["gk"])))
print(", ".join(parts) if parts else "no valid pair")
PY
)"
fi
if [ "${G500_MPI:-1}" != 0 ] && [ "$(nvidia-smi -L 2>/dev/null | wc -l)" -ge 2 ]; then
  bash bench/graph500/scaling.sh "$bin" "$out/graph500-scaling" "${G500_MPI_SCALE:-24}" "${G500_MPI_ROOTS:-8}" \
    >"$out/graph500-scaling.log" 2>&1 || rc=1
  grep '^graph500-mpi|' "$out/graph500-scaling/scaling.txt" >>"$table" 2>/dev/null
  # A run that failed or passed SCALING_TIMEOUT has no row of figures: say so.
  awk '$4 != "rc=0" { print "graph500-mpi|" $1 " (" $2 ", " $3 ")|FAILED, " $4 " (see graph500-scaling/" $1 ".txt)" }' \
    "$out/graph500-scaling/runs.txt" >>"$table" 2>/dev/null
fi
exit $rc
