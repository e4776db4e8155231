#!/usr/bin/env bash
# `gpu500 bfs|sssp --directed` follows a file's arcs (on the cuda backend too where a device is
# present): levels and distances of a labelled CSV with a header, searched directed and undirected,
# per-root lines, --json and --output naming vertices by their labels; a root with no arc out of
# it; a symmetric Matrix Market file stays undirected; flags of steps a directed search never runs
# refused in one line; `gpu500 convert --labels` keeps the names in an edge list (read back, the
# same search) and refuses Matrix Market and binary targets in one line.
set -uo pipefail
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "directed smoke: $*"; exit 1; }
backends=(cpu)
"$bin" info 2>/dev/null | grep -q '^cuda device 0:' && backends+=(cuda)
# a -> b -> c -> a, c -> d, x -> a ("new york" -> x -> a); d has no arc out
printf 'from,to,km\na,b,1\nb,c,2\nc,a,4\nc,d,1\nx,a,1\n"new york",x,3\n' >"$tmp/g.csv"
for be in "${backends[@]}"; do
  out=$("$bin" bfs --graph "$tmp/g.csv" --labels --header --directed --root a --backend "$be" \
    --output "$tmp/bfs.txt" --json "$tmp/bfs.json" 2>"$tmp/err") || fail "$be bfs: $(cat "$tmp/err")"
  # arcs out of the reached a, b, c, d: a->b, b->c, c->a, c->d
  grep -q '^root a: .* 4 edges, .* valid$' <<<"$out" || fail "$be bfs: $out"
  grep -q 'arcs, searched directed' "$tmp/err" || fail "$be bfs: no directed note: $(cat "$tmp/err")"
  grep -q '^d c 3$' "$tmp/bfs.txt" || fail "$be bfs: d not at level 3: $(cat "$tmp/bfs.txt")"
  grep -q '^x -1 -1$' "$tmp/bfs.txt" || fail "$be bfs: x reached against its arc"
  grep -q '^"new york" -1 -1$' "$tmp/bfs.txt" || fail "$be bfs: new york reached"
  python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); s=j["searches"][0]
assert j["directed"] is True and s["root_label"] == "a" and s["root"] == 0 and s["nedge"] == 4, j' "$tmp/bfs.json" ||
    fail "$be bfs: JSON"
  # undirected, the same file: x and "new york" are reached (levels 1 and 2)
  out=$("$bin" bfs --graph "$tmp/g.csv" --labels --header --root a --backend "$be" --output "$tmp/u.txt" 2>/dev/null) ||
    fail "$be undirected bfs: $out"
  grep -q '^"new york" x 2$' "$tmp/u.txt" || fail "$be undirected bfs: $(cat "$tmp/u.txt")"
  # SSSP from "new york": x 3, a 4, b 5, c 7, d 8
  out=$("$bin" sssp --graph "$tmp/g.csv" --labels --header --directed --root "new york" --backend "$be" \
    --output "$tmp/sssp.txt" 2>/dev/null) || fail "$be sssp: $out"
  grep -q '^root "new york": .* 6 edges, .* valid$' <<<"$out" || fail "$be sssp: $out"
  for line in '"new york" "new york" 0' 'x "new york" 3' 'a x 4' 'b a 5' 'c b 7' 'd c 8'; do
    grep -qx "$line" "$tmp/sssp.txt" || fail "$be sssp: no line '$line' in $(cat "$tmp/sssp.txt")"
  done
  # random roots are named by their labels
  out=$("$bin" bfs --graph "$tmp/g.csv" --labels --header --directed --roots 3 --backend "$be" 2>/dev/null) ||
    fail "$be roots: $out"
  [ "$(grep -c '^root [a-z"][a-z ]*"*: .* valid$' <<<"$out")" -eq 3 ] || fail "$be roots: $out"
  # numbered vertices: 0 -> 1 -> 2; from 2 nothing is reached, and stderr says why
  printf '0 1 1\n1 2 1\n' >"$tmp/p.txt"
  out=$("$bin" sssp --graph "$tmp/p.txt" --directed --root 2 --backend "$be" 2>"$tmp/err") || fail "$be path: $out"
  grep -q '^root 2: .* 0 edges, .* valid$' <<<"$out" || fail "$be path: $out"
  grep -q 'root 2 has no arc out of it' "$tmp/err" || fail "$be path: $(cat "$tmp/err")"
done
# a symmetric Matrix Market file states undirected edges: searched undirected, and said so
printf '%%%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 2\n' >"$tmp/s.mtx"
out=$("$bin" bfs --graph "$tmp/s.mtx" --directed --root 2 --backend cpu 2>"$tmp/err") || fail "symmetric: $out"
grep -q '^root 2: .* 2 edges, .* valid$' <<<"$out" || fail "symmetric: $out"
grep -q 'searched undirected' "$tmp/err" || fail "symmetric: $(cat "$tmp/err")"
expect2() {
  local err rc
  err=$("$bin" "$@" 2>&1 >/dev/null)
  rc=$?
  [ "$rc" -eq 2 ] && [ "$(wc -l <<<"$err")" -eq 1 ] || fail "gpu500 $*: exit $rc, '$err'"
  echo "$err"
}
expect2 bfs --graph "$tmp/p.txt" --directed --bfs-alpha 3 --backend cpu | grep -q 'directed search' || fail "--bfs-alpha"
expect2 bfs --graph "$tmp/p.txt" --directed --no-direction-optimizing --backend cpu >/dev/null
# convert --labels: an edge list of the same names, the same search when read back
"$bin" convert "$tmp/g.csv" "$tmp/c.txt" --labels --header >/dev/null || fail "convert --labels"
grep -q '^"new york" x 3$' "$tmp/c.txt" || fail "convert: $(cat "$tmp/c.txt")"
"$bin" bfs --graph "$tmp/c.txt" --labels --directed --root a --backend cpu --output "$tmp/c_bfs.txt" >/dev/null 2>&1 ||
  fail "bfs of the converted file"
cmp -s <(grep -v '^#' "$tmp/bfs.txt") <(grep -v '^#' "$tmp/c_bfs.txt") || fail "converted file searched differently"
expect2 convert "$tmp/g.csv" "$tmp/c.mtx" --labels --header | grep -q 'cannot hold vertex names' || fail "convert to mtx"
expect2 convert "$tmp/g.csv" "$tmp/c.bin" --labels --header | grep -q 'cannot hold vertex names' || fail "convert to bin"
[ ! -e "$tmp/c.mtx" ] && [ ! -e "$tmp/c.bin" ] || fail "a refused convert wrote its file"
echo "directed smoke: ok"
