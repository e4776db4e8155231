#!/usr/bin/env bash
# `gpu500 bellman-ford` runs every engine present (serial, OpenMP, OpenCL on PoCL in CI, CUDA on
# the GPU machine) on small random graphs, verifies every result and writes JSON, which
# scripts/bellman_ford_table.py grades into table rows; options that are bad, or that cannot apply
# to the chosen backends, variants or schedules, exit 2. Every option of the command runs here.
set -euo pipefail
bin=$1
src=${2:-$(cd "$(dirname "$0")/../.." && pwd)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
info=$("$bin" info)
out=$("$bin" bellman-ford --n 1,77,200 --group 64 --sweep 32,128 --sweep-n 77,200 --json "$tmp/bellman-ford.json")
echo "$out"
grep -q '^verification: all results equal the oracle' <<<"$out"
grep -q '^engine serial' <<<"$out"
grep -q '^engine openmp' <<<"$out"
if grep -q 'backends: .*opencl' <<<"$info"; then
  grep -q '^engine opencl' <<<"$out" || { echo "OpenCL is built in but did not run"; exit 1; }
  grep -Eq '^ +200 opencl +coarse' <<<"$out"
  grep -q 'sweep of M at N=77' <<<"$out"
  out=$("$bin" bellman-ford --n 64 --backend opencl --cl-platform 0 --cl-device 0 --variant reduce --group 32)
  grep -Eq '^ +64 opencl +reduce +32 ' <<<"$out"
  grep -q '^verification: all results equal the oracle' <<<"$out"
fi
grep -q '"verified": true' "$tmp/bellman-ford.json"
# The check's grading of that JSON (the other runs' files are missing here: rows say so).
if command -v python3 >/dev/null; then
  python3 "$src/scripts/bellman_ford_table.py" "$tmp" "$tmp/table.txt"
  cat "$tmp/table.txt"
  grep -q '^bellman_ford|verified|all results equal the oracle$' "$tmp/table.txt"
  grep -q '^bellman_ford|N=200 openmp (the baseline)|round ' "$tmp/table.txt"
  grep -q '^bellman_ford|bellman-ford-full.json|missing' "$tmp/table.txt"
fi
# Negative edges (potentials), the paper's full N-1 rounds, and the graph's and CPU's options.
out=$("$bin" bellman-ford --n 50 --negative --full-rounds --backend cpu --cpu-isa baseline --density 0.3 --wmin 2 \
  --wmax 20 --seed 7 --source 3 --repeat 2)
grep -Eq '^ +50 serial +cpu +1 +50 ' <<<"$out" || { echo "full rounds: expected 50 rounds"; exit 1; }
grep -q '^verification: all results equal the oracle' <<<"$out"
# CUDA: the resident schedule's launch choices and pageable uploads.
if grep -q '^cuda device 0' <<<"$info"; then
  for resident in "--resident-cluster 8 --resident-exchange async" "--resident-cluster 0" "--resident-exchange pull"; do
    # shellcheck disable=SC2086
    out=$("$bin" bellman-ford --n 200 --backend cuda --variant coarse --schedules launch,resident $resident --no-page-lock)
    grep -Eq '^ +200 cuda +coarse/resident ' <<<"$out" || { echo "$resident: no resident row"; exit 1; }
    grep -q '^cuda uploads from pageable host memory' <<<"$out"
    grep -q '^verification: all results equal the oracle' <<<"$out"
  done
fi
# Bad values, and options that cannot apply to the configuration chosen.
for bad in "--group 48 --backend opencl" "--variant fast" "--n 0" "--backend gpu" "--density 2" \
  "--schedules fast" "--resident-exchange fast" "--cpu-isa fast" \
  "--backend cpu --group 64" "--variant naive --group 64" "--variant reduce --schedules skip" \
  "--backend cpu --resident-cluster 8" "--schedules launch --resident-exchange pull" "--backend cpu --cpu-isa avx2 --no-page-lock" \
  "--backend cuda --cpu-isa avx2" "--backend cpu --cl-platform 0" "--backend cpu --cl-device 0" "--backend cpu --sweep 32" \
  "--sweep-n 40" "--sweep 32 --sweep-n 41"; do
  if [ "$bad" = "--group 48 --backend opencl" ] && ! grep -q 'opencl' <<<"$info"; then continue; fi
  set +e
  # shellcheck disable=SC2086
  "$bin" bellman-ford --n 40 $bad >/dev/null 2>&1
  rc=$?
  set -e
  [ "$rc" -eq 2 ] || { echo "bellman-ford $bad exited $rc, expected 2"; exit 1; }
done
echo "bellman-ford smoke: ok"
