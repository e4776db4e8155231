#!/usr/bin/env bash
# `gpu500 hpl` and `gpu500 hpl-mxp` on the CPU without -N (or HPL.dat) size N by time as well as
# memory: the first line names N and the time expected, and the run passes in about that time. GPU500_HPL_SECONDS
# sets the time aimed at (a minute by default; a few seconds here); a bad value is refused.
set -uo pipefail
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail=0
for cmd in hpl hpl-mxp; do
  start=$SECONDS
  GPU500_HPL_SECONDS=4 "$bin" $cmd --backend cpu >out.txt 2>err.txt
  rc=$? took=$((SECONDS - start))
  [ $rc -eq 0 ] || { echo "FAIL: $cmd: exit $rc: $(tail -3 err.txt)"; fail=1; }
  grep -q 'PASSED' out.txt || { echo "FAIL: $cmd: no PASSED line"; fail=1; }
  first=$(head -1 err.txt)
  echo "$first (took $took s)"
  expect=$(sed -nE "s/^$cmd: N = [0-9]+ \(the largest multiple of NB [0-9]+ that (ends in about 4 s|fits [a-z ]*memory): .* GFLOP\/s expected from an? [DS]GEMM probe.*\); about ([0-9]+) s; -N chooses another\$/\2/p" <<<"$first")
  if [ -z "$expect" ]; then
    echo "FAIL: $cmd: the first line does not give N and the time: $first"; fail=1
  elif [ -z "${GPU500_TEST_SANITIZED:-}" ] && [ "$took" -gt $((3 * expect + 15)) ]; then
    # (A sanitized build slows the solver but not the BLAS the probe measures: no time check there.)
    echo "FAIL: $cmd: expected about $expect s, took $took s"; fail=1
  fi
done
GPU500_HPL_SECONDS=soon "$bin" hpl --backend cpu >out.txt 2>err.txt
rc=$?
[ $rc -eq 2 ] && grep -q 'GPU500_HPL_SECONDS must be a number of seconds' err.txt ||
  { echo "FAIL: GPU500_HPL_SECONDS=soon: exit $rc, $(cat err.txt)"; fail=1; }
exit $fail
