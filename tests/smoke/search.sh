#!/usr/bin/env bash
# `gpu500 bfs|sssp --graph FILE` on small files: validated searches, and one-line errors (exit 2)
# for bad files and arguments.
set -uo pipefail
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Two components: a weighted cycle 0-1-2-3-0 with a chord, and an edge 5-6; vertex 4 isolated.
printf '0 1 0.5\n1 2 0.25\n2 3 1\n3 0 0.125\n0 2 0.875\n5 6 0.5\n2 2 0.1\n' >"$tmp/g.txt"
out=$("$bin" bfs --graph "$tmp/g.txt" --root 0 --backend cpu 2>/dev/null) || { echo "bfs failed: $out"; exit 1; }
grep -q '^root 0: .* 5 edges, .* valid$' <<<"$out" || { echo "bfs: unexpected output: $out"; exit 1; }
out=$("$bin" sssp --graph "$tmp/g.txt" --roots 4 --backend cpu --json "$tmp/s.json" 2>/dev/null) || { echo "sssp failed: $out"; exit 1; }
grep -q 'all valid' <<<"$out" || { echo "sssp: unexpected output: $out"; exit 1; }
grep -q '"valid": true' "$tmp/s.json" || { echo "sssp: JSON lacks valid"; exit 1; }
expect2() {
  local err rc
  err=$("$bin" "$@" 2>&1 >/dev/null)
  rc=$?
  [ "$rc" -eq 2 ] && [ "$(wc -l <<<"$err")" -eq 1 ] || { echo "gpu500 $*: exit $rc, '$err'"; exit 1; }
}
printf '0 1\n1 x\n' >"$tmp/bad.txt"
expect2 bfs --graph "$tmp/bad.txt"
expect2 bfs --graph "$tmp/missing.txt"
expect2 bfs
printf '0 1\n' >"$tmp/unweighted.txt"
expect2 sssp --graph "$tmp/unweighted.txt"
expect2 bfs --graph "$tmp/g.txt" --root 99
echo "search smoke: ok"
