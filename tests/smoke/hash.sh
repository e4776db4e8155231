#!/usr/bin/env bash
# `gpu500 hash static|mixed` on the CPU table (small sizes): every result validated; bad input exits 2.
set -euo pipefail
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$("$bin" hash static --backend cpu --keys 50000 --lf 0.8,0.95 --runs 1 --json "$tmp/s.json")
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
set +e
"$bin" hash sideways 2>/dev/null; rc1=$?
"$bin" hash mixed --backend cpu --mixes 50/50/50 2>/dev/null; rc2=$?
"$bin" hash static --backend cpu --lf 1.5 2>/dev/null; rc3=$?
"$bin" hash mixed --backend cpu --check-limit -1 2>/dev/null; rc4=$?
set -e
[ "$rc1" -eq 2 ] && [ "$rc2" -eq 2 ] && [ "$rc3" -eq 2 ] && [ "$rc4" -eq 2 ] ||
  { echo "bad input exit codes: $rc1 $rc2 $rc3 $rc4 (want 2)"; exit 1; }
echo "hash smoke: ok"
