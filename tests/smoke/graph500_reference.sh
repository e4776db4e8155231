#!/usr/bin/env bash
# `gpu500 graph500 SCALE` on the CPU reproduces the Graph500 3.0.1 reference's output block:
# the same 55 keys in the same order and layout (32-character key field), the same SCALE,
# edgefactor and NBFS, and every nedge figure identical (same graph, same roots, same counting).
# Also: validation on (every tree checked), and the BFS-only block has 34 lines.
set -euo pipefail
bin=$1
src=$2
ref_dir="$src/tests/data/graph500"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

check_scale() {
  local scale=$1 ref="$ref_dir/s${1}_reference_output.txt"
  "$bin" graph500 "$scale" --backend cpu --quiet --json "$tmp/s$scale.json" >"$tmp/out$scale.txt"
  local got="$tmp/out$scale.txt"
  [ "$(wc -l <"$got")" -eq 55 ] || { echo "SCALE $scale: expected 55 lines, got $(wc -l <"$got")"; cat "$got"; exit 1; }
  paste -d'\n' <(cut -c1-32 "$ref") <(cut -c1-32 "$got") | paste - - | while IFS=$'\t' read -r a b; do
    [ "$a" = "$b" ] || { echo "SCALE $scale: key mismatch: reference '$a' vs ours '$b'"; exit 1; }
  done
  for key in SCALE: edgefactor: NBFS: min_nedge: firstquartile_nedge: median_nedge: thirdquartile_nedge: \
             max_nedge: mean_nedge: stddev_nedge:; do
    want=$(grep "^$key " "$ref")
    have=$(grep "^$key " "$got")
    [ "$want" = "$have" ] || { echo "SCALE $scale: '$have' differs from the reference's '$want'"; exit 1; }
  done
  # Validation ran: validate times are real (not -1).
  grep -q '^bfs  min_validate: *-1$' "$got" && { echo "SCALE $scale: validation did not run"; exit 1; }
  grep -q '"valid": true' "$tmp/s$scale.json" || { echo "SCALE $scale: JSON does not say valid"; exit 1; }
  echo "SCALE $scale: output block matches the reference (keys, layout, nedge)"
}

check_scale 10
check_scale 16

"$bin" graph500 10 --backend cpu --kernels bfs --quiet >"$tmp/bfs.txt"
[ "$(wc -l <"$tmp/bfs.txt")" -eq 34 ] || { echo "BFS-only block: expected 34 lines"; exit 1; }
SKIP_VALIDATION=1 "$bin" graph500 10 --backend cpu --quiet >"$tmp/skip.txt"
grep -q '^bfs  min_validate:              -1$' "$tmp/skip.txt" || { echo "SKIP_VALIDATION not honoured"; exit 1; }
echo "graph500 reference smoke: ok"
