#!/usr/bin/env bash
# A sweep of the CUDA backend's settings at one N (what NB, look-ahead, the swap stream and the
# panel variant buy): one line per run "label gflops time resid". The segment pipeline's
# constants are the library's; ablate them with ab.sh (HPL_AB="noseg:seg=1 seg1_4:seg=0.25").
# usage: bench/hpl/sweep.sh BUILD OUT N
set -uo pipefail
BUILD=${1:?build dir}
OUT=${2:?out dir}
N=${3:-40000}
mkdir -p "$OUT"
run() {
  local label=$1
  shift
  local f="$OUT/sweep-N$N-$label"
  if timeout 120 "$BUILD/bin/gpu500" hpl -N "$N" --backend cuda --timing "$f.timing.json" "$@" >"$f.out" 2>&1 ||
     grep -q FAILED "$f.out"; then
    awk -v l="$label" '/^W[RC]/{t=$6; g=$7} /\.\.\.\.\.\. /{r=$2; v=$4} END{printf "%-28s %10.1f Gflops %8.2f s resid %s %s\n", l, g, t, r, v}' "$f.out"
  else
    echo "$label: failed ($(tail -1 "$f.out"))"
  fi
}
run nb384-RR16 -NB 384 --pfact right --rfact right --nbmin 16
run nb384-default -NB 384
run nb256-RR16 -NB 256 --pfact right --rfact right --nbmin 16
run nb512-RR16 -NB 512 --pfact right --rfact right --nbmin 16
run nb384-RR32-ndiv4 -NB 384 --pfact right --rfact right --nbmin 32 --ndiv 4
run nb384-LC16 -NB 384 --pfact left --rfact crout --nbmin 16
run nb384-depth0 -NB 384 --depth 0
run nb384-noswapstream -NB 384 --no-swap-stream
