#!/usr/bin/env bash
# bench/graph/ab.sh (the A/B of two builds) on the CPU backend with one build as both sides: a row
# per graph and kernel with every run's GTEPS and new/base of the medians, exit 0; a build that
# cannot search (the CUDA backend on a host without a GPU, or a program that fails) gives ERROR
# rows and exit 1.
set -uo pipefail
bin=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "ab smoke: $*"; exit 1; }
AB_SHAPES="grid:23x17 geometric:801" AB_KERNELS="bfs sssp" AB_BACKEND=cpu AB_ROOTS=2 AB_SCALE=10 AB_REPEATS=2 \
  bash "$src/bench/graph/ab.sh" "$bin" "$bin" "$tmp/out" "$tmp/table.txt" || fail "exit $?: $(cat "$tmp/table.txt")"
[ "$(wc -l <"$tmp/table.txt")" -eq 6 ] || fail "expected 6 rows: $(cat "$tmp/table.txt")"
re='^ab\|(grid:23x17|geometric:801|graph500:10) (bfs|sssp)\|base [0-9.]+ / [0-9.]+ GTEPS, new [0-9.]+ / [0-9.]+ GTEPS, new/base [0-9]+\.[0-9]{3}$'
while read -r row; do [[ $row =~ $re ]] || fail "row: $row"; done <"$tmp/table.txt"
AB_SHAPES="grid:9x7" AB_BACKEND=cpu AB_SCALE=0 AB_REPEATS=1 bash "$src/bench/graph/ab.sh" /bin/false "$bin" "$tmp/out2" \
  "$tmp/bad.txt" && fail "a base that fails should fail the A/B"
grep -q '^ab|grid:9x7 bfs|base ERROR GTEPS, new [0-9.]* GTEPS, new/base -$' "$tmp/bad.txt" || fail "error row: $(cat "$tmp/bad.txt")"
echo "ab smoke: ok"
