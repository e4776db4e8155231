#!/usr/bin/env bash
# `gpu500 bellman-ford` runs every engine present (serial, OpenMP, OpenCL on PoCL in CI, CUDA on
# the GPU machine) on small random graphs, verifies every result and writes JSON; bad options
# exit 2.
set -euo pipefail
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$("$bin" bellman-ford --n 1,77,200 --group 64 --sweep 32,128 --json "$tmp/bf.json")
echo "$out"
grep -q '^verification: all results equal the oracle' <<<"$out"
grep -q '^engine serial' <<<"$out"
grep -q '^engine openmp' <<<"$out"
if grep -q 'backends: .*opencl' <<<"$("$bin" info)"; then
  grep -q '^engine opencl' <<<"$out" || { echo "OpenCL is built in but did not run"; exit 1; }
  grep -Eq '^ +200 opencl +coarse' <<<"$out"
fi
grep -q '"verified": true' "$tmp/bf.json"
# Negative edges (potentials) and the paper's full N-1 rounds.
out=$("$bin" bellman-ford --n 50 --negative --full-rounds --backend cpu)
grep -Eq '^ +50 serial +cpu +1 +50 ' <<<"$out" || { echo "full rounds: expected 50 rounds"; exit 1; }
grep -q '^verification: all results equal the oracle' <<<"$out"
for bad in "--group 48 --backend opencl" "--variant fast" "--n 0" "--backend gpu" "--density 2"; do
  set +e
  # shellcheck disable=SC2086
  "$bin" bellman-ford --n 40 $bad >/dev/null 2>&1
  rc=$?
  set -e
  if [ "$bad" = "--group 48 --backend opencl" ] && ! grep -q 'opencl' <<<"$("$bin" info)"; then continue; fi
  [ "$rc" -eq 2 ] || { echo "bellman-ford $bad exited $rc, expected 2"; exit 1; }
done
echo "bellman-ford smoke: ok"
