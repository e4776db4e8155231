#!/usr/bin/env bash
# GPU checks of the hash part (GLHT, the lock-free hopscotch table of Zhang & Sun): the GPU tests of a small case under
# compute-sanitizer memcheck and racecheck, then the static and mixed benchmarks.
# Called as `bash hash.sh BUILD OUT TABLE`; appends "hash|what|figure" rows to TABLE.
# Then the stress harness of the protocol (glht_stress, every variant) and, when a cuCollections
# checkout is there (HASH_CUCO_DIR, default third_party/cuCollections), its static_map beside GLHT.
# Environment: HASH_STATIC_KEYS (default 67108864 = 2^26), HASH_LF (the command's default: 0.8,0.9,0.95),
#              HASH_STRESS_ITERATIONS (10000 per variant; 0: none), HASH_SCALE (24,25,26),
#              HASH_CHECK_SCALE (24: one more mixed run of 2^24 operations whose result is model-checked,
#              for HASH_CHECK_TABLES, default glht-t1-rec-np-oc,glht-t1-rec-hc-ps-oc,linear-aos and, on
#              compute capability 9.0 or later, glht-t1-rec-pcas; 0: none),
#              HASH_SANITIZE (1), HASH_RUNS_STATIC (3), HASH_RUNS_MIXED (5), HASH_TABLES (comma list
#              for --tables, e.g. glht-t1-aos,glht-t1-rec-np,cpu; default: the benchmark's list),
#              HASH_PCAS_TABLES (a second static run with the same keys and load factors, its rows
#              beside the first's, so that the best GLHT against cuCollections covers the pair-CAS
#              insert; default glht-t1-aos-pcas,glht-t1-rec-pcas,glht-t1-aos,linear-aos-cas16 on a
#              device of compute capability 9.0 or later; empty: none).
set -uo pipefail
BUILD=$1
OUT=$2
TABLE=$3
bin=$BUILD/bin/gpu500
tests=$BUILD/tests/unit/hash/test_hash_gpu
status=0
row() { echo "hash|$1|$2" >>"$TABLE"; }
# The pair-CAS tables (a 16-byte CAS) need compute capability 9.0: sm_90 -> 9.
sm=$("$bin" info 2>/dev/null | grep -Eo 'sm_[0-9]+' | head -1)
sm=${sm#sm_}
cas16=0
[ -n "$sm" ] && [ "$((sm / 10))" -ge 9 ] && cas16=1

if [ "${HASH_SANITIZE:-1}" = 1 ] && command -v compute-sanitizer >/dev/null; then
  small='Variants/Glht.BulkOperationsMatchTheModel/t32_window:Variants/Glht.BulkOperationsMatchTheModel/t1_bitmap:Variants/Glht.BulkOperationsMatchTheModel/t1_bitmap_aos:Variants/Glht.BulkOperationsMatchTheModel/t1_bitmap_noprecheck_rec:Variants/Glht.BulkOperationsMatchTheModel/t1_bitmap_noprecheck_rec_h1:Variants/Glht.BulkOperationsMatchTheModel/t1_bitmap_noprecheck_rec_hc_ps:Variants/Glht.BulkOperationsMatchTheModel/t1_bitmap_noprecheck_rec_hc_ps_oc:Variants/Glht.BulkOperationsMatchTheModel/t1_bitmap_aos_pcas:GlhtDeviceApi.UserKernelsOccupancyBits:GlhtDeviceApi.UserKernels*:GlhtAsync.*:Variants/Glht.HoldsEveryKeyUpToLoadFactor095WithoutGrowing/t1_bitmap_noprecheck_rec_oc:Variants/Glht.HoldsEveryKeyUpToLoadFactor095WithoutGrowing/t32_window:Variants/Glht.HoldsEveryKeyUpToLoadFactor095WithoutGrowing/t1_bitmap_noprecheck_rec_pcas'
  for tool in memcheck racecheck; do
    filter=$small
    [ "$tool" = racecheck ] && filter='Variants/Glht.BulkOperationsMatchTheModel/t32_window:Variants/Glht.BulkOperationsMatchTheModel/t1_bitmap_aos_pcas:GlhtDeviceApi.UserKernelsWarpPerOp'
    if compute-sanitizer --tool "$tool" --error-exitcode 9 "$tests" --gtest_filter="$filter" \
        >"$OUT/hash-$tool.log" 2>&1; then
      row "$tool (small case)" "clean: $(grep -Eo 'ERROR SUMMARY: [0-9]+ errors?|RACECHECK SUMMARY: [0-9]+ hazards?[^\n]*' "$OUT/hash-$tool.log" | tail -1)"
    else
      status=1
      row "$tool (small case)" "FAILED: $(grep -E 'SUMMARY|FAILED' "$OUT/hash-$tool.log" | head -3 | tr '\n' ' ')"
      tail -30 "$OUT/hash-$tool.log"
    fi
  done
fi

if [ "${HASH_STRESS_ITERATIONS:-10000}" != 0 ] && [ -x "$BUILD/bin/glht_stress" ]; then
  # Every GLHT variant, HASH_STRESS_ITERATIONS tiny tables each, scheduling jitter compiled in.
  echo "== glht_stress"
  if "$BUILD/bin/glht_stress" --iterations "${HASH_STRESS_ITERATIONS:-10000}" >"$OUT/hash-stress.txt" 2>&1; then :; else status=1; fi
  cat "$OUT/hash-stress.txt"
  awk '$2 == "iterations" { printf "hash|stress %s|%s iterations, %s ops, wrong %s, lost %s, duplicate %s, broken %s, locked finds %s, keys left in the stash %s: %s\n", $1, $3, $5, $7, $9, $11, $13, $18, $21, $22 }' \
    "$OUT/hash-stress.txt" >>"$TABLE"
fi

keys=${HASH_STATIC_KEYS:-67108864}
tables=()
[ -n "${HASH_TABLES:-}" ] && tables=(--tables "$HASH_TABLES")
lf=()
[ -n "${HASH_LF:-}" ] && lf=(--lf "$HASH_LF")
echo "== hash static ($keys keys)"
t0=$(date +%s.%N)
if "$bin" hash static --keys "$keys" "${lf[@]}" --runs "${HASH_RUNS_STATIC:-3}" "${tables[@]}" \
    --json "$OUT/hash-static.json" >"$OUT/hash-static.txt" 2>"$OUT/hash-static.err"; then :; else status=1; fi
t1=$(date +%s.%N)
cat "$OUT/hash-static.txt" "$OUT/hash-static.err"
if [ "$keys" = 67108864 ] && [ -z "${HASH_LF:-}${HASH_TABLES:-}" ] && [ "${HASH_RUNS_STATIC:-3}" = 3 ]; then
  # These are the default command's options: its wall time against the goal of 20 s.
  row "static: wall time of the default \`gpu500 hash static\`" \
    "$(awk -v a="$t0" -v b="$t1" 'BEGIN { s = b - a; printf "%.1f s, goal 20 s: %s", s, s < 20 ? "met" : "not met" }')"
fi
pcas_default=
[ "$cas16" = 1 ] && pcas_default=glht-t1-aos-pcas,glht-t1-rec-pcas,glht-t1-aos,linear-aos-cas16
pcas_tables=${HASH_PCAS_TABLES-$pcas_default}
if [ -n "$pcas_tables" ]; then
  # The pair-CAS insert beside the locked insert on the same slots and the pair-CAS linear probe:
  # a second run with the same keys and load factors; its table rows join the first run's.
  echo "== hash static, the pair-CAS insert ($pcas_tables)"
  if "$bin" hash static --keys "$keys" "${lf[@]}" --runs "${HASH_RUNS_STATIC:-3}" --tables "$pcas_tables" \
      --json "$OUT/hash-static-pcas.json" >"$OUT/hash-static-pcas.txt" 2>"$OUT/hash-static-pcas.err"; then :; else status=1; fi
  cat "$OUT/hash-static-pcas.txt" "$OUT/hash-static-pcas.err"
  grep -q '^validation: passed' "$OUT/hash-static-pcas.txt" || status=1
  grep -E '^[a-z0-9-]+ +0\.' "$OUT/hash-static-pcas.txt" >>"$OUT/hash-static.txt"
fi
cuco=${HASH_CUCO_DIR:-third_party/cuCollections}
if [ -f "$cuco/include/cuco/static_map.cuh" ]; then
  # cuCollections' static_map with the same keys, its rows in the same columns (the awk below).
  echo "== cuCollections static_map ($keys keys)"
  if bash bench/hash/cuco.sh "$cuco" "$BUILD" --keys "$keys" --lf "${HASH_LF:-0.8,0.9,0.95}" \
      --runs "${HASH_RUNS_STATIC:-3}" >"$OUT/hash-cuco.txt" 2>&1; then
    grep -E '^cuco' "$OUT/hash-cuco.txt" >>"$OUT/hash-static.txt"
  else
    status=1
  fi
  cat "$OUT/hash-cuco.txt"
fi
awk '$1 ~ /^(glht[a-z0-9-]*|linear|linear-aos|linear-aos-cas16|quadratic|cuckoo|chained|cpu|cuco|cuco-cg1)$/ && $2 ~ /^0\./ {
       printf "hash|static %s LF %s|insert %s, hit %s, miss %s, again %s G/s (no room %s, %s)\n", $1, $2, $3, $4, $5, $6, $10, $11 }' \
  "$OUT/hash-static.txt" >>"$TABLE"
grep -E '^  best GLHT' "$OUT/hash-static.txt" | sed 's/^  /hash|static|/' >>"$TABLE"
# The best GLHT against cuCollections' best (cuco, cuco-cg1) of the same run, per load factor.
python3 bench/hash/vs_cuco.py "$OUT/hash-static.txt" >>"$TABLE" || status=1

echo "== hash mixed"
if "$bin" hash mixed --scale "${HASH_SCALE:-24,25,26}" --runs "${HASH_RUNS_MIXED:-5}" "${tables[@]}" \
    --json "$OUT/hash-mixed.json" >"$OUT/hash-mixed.txt" 2>"$OUT/hash-mixed.err"; then :; else status=1; fi
cat "$OUT/hash-mixed.txt" "$OUT/hash-mixed.err"
awk '$1 ~ /^(glht[a-z0-9-]*|linear|linear-aos|linear-aos-cas16|quadratic|chained|chained-alloc|cpu)$/ && $3 >= 16777216 {
       v = $6; for (i = 7; i <= NF; i++) v = v " " $i
       printf "hash|mixed %s %s ops %s|%s G ops/s (%s)\n", $1, $2, $3, $5, v }' "$OUT/hash-mixed.txt" >>"$TABLE"
awk '$1 ~ /^(glht|glht-t1[a-z0-9-]*|chained|chained-alloc|cpu)$/ && $3 == 100000 && ($4 == 100 || $4 == 100000) {
       printf "hash|paper mixed %s %s range %s|%s G ops/s (%s)\n", $1, $2, $4, $5, $6 }' "$OUT/hash-mixed.txt" >>"$TABLE"
grep -E '^  best GLHT' "$OUT/hash-mixed.txt" | tail -6 | sed 's/^  /hash|mixed (scale runs, in order)|/' >>"$TABLE"
check_scale=${HASH_CHECK_SCALE:-24}
if [ "$check_scale" != 0 ]; then
  # The scale runs above are timed, not model-checked (the checker's host time); here one run per
  # mix at 2^check_scale operations is checked in full against the sequential model.
  echo "== hash mixed, checked at 2^$check_scale"
  check_default=glht-t1-rec-np-oc,glht-t1-rec-hc-ps-oc,linear-aos
  [ "$cas16" = 1 ] && check_default=$check_default,glht-t1-rec-pcas
  if "$bin" hash mixed --ranges 100 --scale "$check_scale" --runs 1 \
      --tables "${HASH_CHECK_TABLES:-$check_default}" \
      --check-limit $((1 << check_scale)) --json "$OUT/hash-mixed-checked.json" \
      >"$OUT/hash-mixed-checked.txt" 2>"$OUT/hash-mixed-checked.err"; then :; else status=1; fi
  cat "$OUT/hash-mixed-checked.txt" "$OUT/hash-mixed-checked.err"
  awk -v ops=$((1 << check_scale)) '$1 ~ /^(glht[a-z0-9-]*|linear|linear-aos|linear-aos-cas16|quadratic|chained|chained-alloc)$/ && $3 == ops {
         v = $6; for (i = 7; i <= NF; i++) v = v " " $i
         printf "hash|mixed %s %s ops %s, model-checked (one run)|%s G ops/s (%s)\n", $1, $2, $3, $5, v }' \
    "$OUT/hash-mixed-checked.txt" >>"$TABLE"
  grep -q '^validation: passed' "$OUT/hash-mixed-checked.txt" || status=1
fi
grep -q '^validation: passed' "$OUT/hash-static.txt" && grep -q '^validation: passed' "$OUT/hash-mixed.txt" || status=1
exit $status
