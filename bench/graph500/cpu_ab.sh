#!/usr/bin/env bash
# A/B of two builds' CPU backend on the same cores: `gpu500 graph500 SCALE --backend cpu` of the
# binary A (the baseline) and of B, alternated REPEATS times (the host drifts from run to run),
# one process and, with CPU_AB_RANKS=R, also over R MPI ranks (cores / R threads each). Every
# search validated unless CPU_AB_NO_VALIDATE=1 (the reference's SKIP_VALIDATION too). With
# CPU_AB_REFERENCE naming a graph500_reference_bfs_sssp (bench/graph500/reference.sh), the
# Graph500 3.0.1 reference runs alternated with them on the same R ranks (R = CPU_AB_RANKS, or the
# core count) and B / reference is printed too. Prints one row a configuration: the medians of
# A and B (BFS and SSSP harmonic-mean GTEPS, kernel 1 seconds) and B / A; writes every run's JSON
# (and the reference's output) to OUT.
#   bash bench/graph500/cpu_ab.sh A_GPU500 B_GPU500 OUT [SCALE] [REPEATS]
set -uo pipefail
a=${1:?baseline gpu500} b=${2:?gpu500 to compare} out=${3:?out dir}
scale=${4:-22} reps=${5:-3}
mkdir -p "$out"
cores=$(nproc)
no_validate=()
[ "${CPU_AB_NO_VALIDATE:-0}" = 1 ] && no_validate=(--no-validate)
run() {  # BIN RANKS JSON
  local bin=$1 r=$2 json=$3
  if [ "$r" -gt 1 ]; then
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun --oversubscribe --bind-to none -np "$r" \
      -x OMP_NUM_THREADS=$((cores / r > 0 ? cores / r : 1)) \
      "$bin" graph500 "$scale" --backend cpu --quiet "${no_validate[@]}" --json "$json" >/dev/null 2>"$json.err"
  else
    OMP_NUM_THREADS=$cores "$bin" graph500 "$scale" --backend cpu --quiet "${no_validate[@]}" --json "$json" \
      >/dev/null 2>"$json.err"
  fi
}
ref_ranks=${CPU_AB_RANKS:-$cores}
reference() {  # OUTFILE: the reference on ref_ranks ranks, one thread each
  local skip=()
  [ "${CPU_AB_NO_VALIDATE:-0}" = 1 ] && skip=(-x SKIP_VALIDATION=1)
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun --oversubscribe --bind-to none -np "$ref_ranks" \
    -x OMP_NUM_THREADS=1 "${skip[@]}" "$CPU_AB_REFERENCE" "$scale" >"$1" 2>&1
}
for r in 1 ${CPU_AB_RANKS:-}; do
  for k in $(seq 1 "$reps"); do
    for side in a b; do
      bin=$a
      [ "$side" = b ] && bin=$b
      run "$bin" "$r" "$out/ab-r$r-$side-$k.json" || echo "cpu_ab: $side, $r ranks, run $k failed: $(tail -1 "$out/ab-r$r-$side-$k.json.err")"
    done
    if [ -n "${CPU_AB_REFERENCE:-}" ] && [ "$r" = "$ref_ranks" ]; then
      reference "$out/ab-r$r-ref-$k.txt" || echo "cpu_ab: the reference, run $k, failed: $(tail -1 "$out/ab-r$r-ref-$k.txt")"
    fi
  done
  python3 - "$out" "$r" "$reps" "$scale" "$cores" <<'PY'
import json, os, re, statistics, sys
out, r, reps, scale, cores = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
def figures(side):
    rows = []
    for k in range(1, reps + 1):
        p = os.path.join(out, "ab-r%s-%s-%d.json" % (r, side, k))
        if not os.path.exists(p):
            continue
        j = json.load(open(p))
        if not j.get("valid", False):
            continue
        rows.append((j["bfs"]["harmonic_mean_TEPS"] / 1e9, j["sssp"]["harmonic_mean_TEPS"] / 1e9, j["construction_time"]))
    return [statistics.median(x) for x in zip(*rows)] if rows else None
A, B = figures("a"), figures("b")
if A is None or B is None:
    print("cpu_ab|SCALE %s, %s rank(s)|a run failed or was invalid" % (scale, r))
    sys.exit(1)
print("cpu_ab|SCALE %s, %s rank(s), %s cores, median of %d|BFS %.3f -> %.3f GTEPS (x%.2f), SSSP %.3f -> %.3f GTEPS (x%.2f), "
      "kernel 1 %.2f -> %.2f s" % (scale, r, cores, reps, A[0], B[0], B[0] / A[0], A[1], B[1], B[1] / A[1], A[2], B[2]))
# The reference's block: "bfs  harmonic_mean_TEPS: ..." and "sssp harmonic_mean_TEPS: ...".
ref = {"bfs": [], "sssp": []}
for k in range(1, reps + 1):
    p = os.path.join(out, "ab-r%s-ref-%d.txt" % (r, k))
    if not os.path.exists(p):
        continue
    text = open(p).read()
    for kern in ref:
        m = re.search(r"^%s\s+harmonic_mean_TEPS:\s+!?\s*([0-9.e+-]+)" % kern, text, re.M)
        if m:
            ref[kern].append(float(m.group(1)) / 1e9)
if ref["bfs"] and ref["sssp"]:
    rb, rs = statistics.median(ref["bfs"]), statistics.median(ref["sssp"])
    print("cpu_ab|SCALE %s, %s rank(s): B against the Graph500 3.0.1 reference, median of %d|BFS %.3f / %.3f GTEPS "
          "(x%.2f), SSSP %.3f / %.3f GTEPS (x%.2f)" % (scale, r, len(ref["bfs"]), B[0], rb, B[0] / rb, B[1], rs, B[1] / rs))
PY
done
