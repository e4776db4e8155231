#!/usr/bin/env bash
# GPU check of the sparse SSSP (Graph500 kernel 3): bench_sssp_gpu per SCALE, each under a time limit,
# with host validation of every search of the first variant. Called as `bash sssp.sh BUILD OUT TABLE`.
# Environment: SSSP_SCALES ("20 22 24"), SSSP_ROOTS (16), SSSP_VARIANTS (the bench's default list),
# SSSP_CPU_ROOTS (2), SSSP_RELABEL (1: also the degree-relabelled graph), SSSP_TIMEOUT (seconds per SCALE),
# SSSP_VALIDATE_FIRST (validate at most this many searches of the first variant; default all).
set -uo pipefail
BUILD=$1 OUT=$2 TABLE=$3
bench="$BUILD/bench/sssp/bench_sssp_gpu"
[ -x "$bench" ] || bench="$BUILD/bin/bench_sssp_gpu"
[ -x "$bench" ] || { echo "sssp-gpu|bench|not built ($bench)" >>"$TABLE"; exit 1; }
status=0
extra=()
[ -n "${SSSP_VARIANTS:-}" ] && extra+=(--variants "$SSSP_VARIANTS")
[ "${SSSP_RELABEL:-1}" = 1 ] && extra+=(--relabel)
[ -n "${SSSP_VALIDATE_FIRST:-}" ] && extra+=(--validate-first "$SSSP_VALIDATE_FIRST")
for s in ${SSSP_SCALES:-20 22 24}; do
  log="$OUT/sssp-gpu-$s.log"
  timeout "${SSSP_TIMEOUT:-240}" "$bench" --scales "$s" --roots "${SSSP_ROOTS:-16}" --cpu-roots "${SSSP_CPU_ROOTS:-2}" \
    --json "$OUT/sssp-gpu-$s.json" "${extra[@]}" >"$log" 2>&1
  rc=$?
  cat "$log"
  [ $rc -eq 0 ] || status=1
  # Rows: SCALE graph variant hmean_GTEPS ... valid
  awk -v rc=$rc '$1 ~ /^[0-9]+$/ && $3 != "cpu" && NF >= 12 { printf "sssp-gpu|SCALE %s %s %s|%s GTEPS, median %s ms, valid %s\n", $1, $2, $3, $4, $6, $12 }
                 $1 ~ /^[0-9]+$/ && $3 == "cpu" { printf "sssp-gpu|SCALE %s cpu engine|%s GTEPS\n", $1, $4 }' "$log" >>"$TABLE"
  [ $rc -eq 0 ] || echo "sssp-gpu|SCALE $s|exit $rc (124: timeout)" >>"$TABLE"
done
exit $status
