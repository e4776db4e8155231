#!/usr/bin/env bash
# `gpu500 hash static|mixed` on the CPU table (small sizes): every result validated, every option
# of the command used; bad input and options that do not apply exit 2.
set -euo pipefail
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$("$bin" hash static --backend cpu --tables cpu --keys 50000 --lf 0.8,0.95 --runs 1 --seed 7 --json "$tmp/s.json")
echo "$out"
grep -q '^validation: passed' <<<"$out"
grep -q '"table": "cpu"' "$tmp/s.json"
out=$("$bin" hash mixed --backend cpu --ops 20000 --ranges 100,100000 --runs 1 --json "$tmp/m.json")
echo "$out"
grep -q '^validation: passed' <<<"$out"
[ "$(grep -c '"checked": true' "$tmp/m.json")" -eq 4 ] || { echo "expected 4 checked mixed rows"; exit 1; }
# --check-limit below the batch size: timed, not checked (and said so)
out=$("$bin" hash mixed --backend cpu --ops 20000 --ranges 100 --mixes 20/20/60 --runs 1 --check-limit 19999 --json "$tmp/n.json")
echo "$out"
grep -q 'not checked' <<<"$out"
grep -q '"checked": false' "$tmp/n.json"
! grep -q '"checked": true' "$tmp/n.json" || { echo "a row above the check limit was checked"; exit 1; }
"$bin" hash --help | grep -c -- '--tables' >/dev/null
# On a GPU: the default static run (a short list of GLHT variants and peers, LF 0.8-0.95, no CPU
# table) and --full (every table, the CPU table too, LF 0.5-0.95), small.
if "$bin" info 2>/dev/null | grep -c '^cuda device 0:' >/dev/null; then
  out=$("$bin" hash static --keys 65536 --runs 1 --json "$tmp/d.json")
  echo "$out"
  grep -q '^validation: passed' <<<"$out"
  grep -q '^  best GLHT | best peer at LF 0.95' <<<"$out"
  ! grep -q '"table": "cpu"' "$tmp/d.json" || { echo "the default static run ran the CPU table"; exit 1; }
  out=$("$bin" hash static --keys 65536 --runs 1 --full --json "$tmp/f.json")
  echo "$out"
  grep -q '^validation: passed' <<<"$out"
  grep -q '"table": "cpu"' "$tmp/f.json"
  grep -q '"table": "chained-alloc"' "$tmp/f.json"
  out=$("$bin" hash static --keys 65536 --runs 1 --full --no-cpu --json "$tmp/g.json")
  ! grep -q '"table": "cpu"' "$tmp/g.json" || { echo "--no-cpu ran the CPU table"; exit 1; }
  for c in "--full --tables glht" "--full --lf 0.8" "--no-cpu"; do
    set +e
    # shellcheck disable=SC2086
    "$bin" hash static --keys 1024 $c >/dev/null 2>&1
    rc=$?
    set -e
    [ "$rc" -eq 2 ] || { echo "'gpu500 hash static $c' exited $rc (want 2)"; exit 1; }
  done
fi
# Exit 2: bad input, and options that cannot apply to the mode, the backend or the table list.
bad=(
  "hash sideways"
  "hash mixed --backend cpu --mixes 50/50/50"
  "hash static --backend cpu --lf 1.5"
  "hash mixed --backend cpu --check-limit -1"
  "hash static --backend cpu --runs 0"
  "hash static --backend cpu --tables glht-t1-rec-np-oc-fa"
  "hash static --backend cpu --tables cpu --no-cpu"
  "hash static --backend cpu --no-cpu"
  "hash mixed --backend cpu --scale 20"
  "hash static --backend cpu --ops 1000"
  "hash static --backend cpu --ranges 100"
  "hash static --backend cpu --mixes 20/20/60"
  "hash static --backend cpu --check-limit 10"
  "hash mixed --backend cpu --keys 1000"
  "hash mixed --backend cpu --lf 0.5"
  "hash static --backend opencl"
  "hash static --backend cpu --full"
  "hash mixed --backend cpu --full"
)
for c in "${bad[@]}"; do
  set +e
  # shellcheck disable=SC2086
  "$bin" $c >/dev/null 2>&1
  rc=$?
  set -e
  [ "$rc" -eq 2 ] || { echo "'gpu500 $c' exited $rc (want 2)"; exit 1; }
done
echo "hash smoke: ok"
