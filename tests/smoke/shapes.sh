#!/usr/bin/env bash
# `gpu500 generate --shape`: the grid and geometric graphs written in each format and searched,
# validated, from a corner (a grid's BFS from vertex 0 reaches every vertex, its SSSP too); the
# same file for the same seed and another for another seed; every shape at odd sizes searched on
# every backend present; one-line errors (exit 2) for bad specs and for flags of the Kronecker graph.
set -uo pipefail
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "shapes smoke: $*"; exit 1; }
out=$("$bin" generate --shape grid:30x20 "$tmp/g.bin") || fail "generate grid: $out"
grep -q '^grid:30x20: 600 vertices, 1150 edges' <<<"$out" || fail "unexpected: $out"
out=$("$bin" bfs --graph "$tmp/g.bin" --root 0 --backend cpu --json "$tmp/b.json" 2>/dev/null) || fail "bfs: $out"
grep -q '^root 0: .* 1150 edges, .* valid$' <<<"$out" || fail "bfs on the grid: $out"
out=$("$bin" sssp --graph "$tmp/g.bin" --root 0 --backend cpu 2>/dev/null) || fail "sssp: $out"
grep -q 'valid' <<<"$out" || fail "sssp on the grid: $out"
"$bin" generate --shape grid:6x5x4 "$tmp/g3.txt" >/dev/null || fail "generate 3-D grid"
[ "$(grep -vc '^#' "$tmp/g3.txt")" -eq $((5 * 5 * 4 + 6 * 4 * 4 + 6 * 5 * 3)) ] || fail "3-D grid edge count"
"$bin" generate --shape geometric:2000:8 --seed 4 "$tmp/r1.mtx" >/dev/null || fail "generate geometric"
"$bin" generate --shape geometric:2000:8 --seed 4 "$tmp/r2.mtx" >/dev/null || fail "generate geometric again"
"$bin" generate --shape geometric:2000:8 --seed 5 "$tmp/r3.mtx" >/dev/null || fail "generate geometric, seed 5"
cmp -s "$tmp/r1.mtx" "$tmp/r2.mtx" || fail "the same seed wrote different files"
cmp -s "$tmp/r1.mtx" "$tmp/r3.mtx" && fail "another seed wrote the same file"
out=$("$bin" bfs --graph "$tmp/r1.mtx" --roots 4 --backend cpu 2>/dev/null) || fail "bfs on the geometric graph: $out"
grep -q 'all valid\|valid$' <<<"$out" || fail "bfs on the geometric graph: $out"
# Every shape, odd sizes, on every backend present (the CUDA one where a GPU is): BFS and SSSP from
# two roots, each validated.
backends=cpu
"$bin" info 2>/dev/null | grep -q "^cuda device [0-9]" && backends="cpu cuda"
for spec in grid:31x17 grid:7x5x3 geometric:2001:7 grid:1001; do
  f="$tmp/${spec//[:x]/_}.bin"
  "$bin" generate --shape "$spec" "$f" >/dev/null || fail "generate $spec"
  for b in $backends; do
    for kernel in bfs sssp; do
      out=$("$bin" "$kernel" --graph "$f" --roots 2 --backend "$b" 2>/dev/null) || fail "$kernel on $spec, $b: $out"
      grep -q 'all valid\|valid$' <<<"$out" || fail "$kernel on $spec, $b: $out"
    done
  done
done
expect2() {
  local err rc
  err=$("$bin" "$@" 2>&1 >/dev/null)
  rc=$?
  [ "$rc" -eq 2 ] && [ "$(wc -l <<<"$err")" -eq 1 ] || fail "gpu500 $*: exit $rc, '$err'"
}
expect2 generate --shape grid:0x4 "$tmp/x.txt"
expect2 generate --shape torus:9 "$tmp/x.txt"
expect2 generate --shape geometric:1 "$tmp/x.txt"
expect2 generate --shape grid:4x4 --seed 1,2 "$tmp/x.txt"
expect2 generate --shape grid:4x4 --initiator 0.45,0.15,0.15 "$tmp/x.txt"
expect2 generate 10 --shape grid:4x4 "$tmp/x.txt"
expect2 generate --shape grid:4x4
[ -e "$tmp/x.txt" ] && fail "a refused run wrote its output"
echo "shapes smoke: ok"
