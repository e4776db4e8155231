#!/usr/bin/env bash
# Real graphs in every file format: `gpu500 bfs` and `gpu500 sssp` from root 0 on each file of
# tests/data/graphs/ (edge list, Matrix Market, its gzip, binary CSR, and what `gpu500 convert`
# makes of them), each search validated, and the --output files' levels and distances equal to
# the ones networkx computed (NAME.expected) — hence equal across formats. On a host with a CUDA
# device the searches run on the cuda backend too. `gpu500 generate` against the Graph500
# reference's SCALE 10 edges. Edge lists as other tools write them: labelled vertices (--labels),
# commas and a header line (--header), NetworkX's write_edgelist data, --unit-weights. Then the
# format flags' errors.
set -uo pipefail
bin=$1
src=$2
data=$src/tests/data/graphs
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
backends=(cpu)
"$bin" info 2>/dev/null | grep -q '^cuda device 0:' && backends+=(cuda)

# check KERNEL FILE BACKEND EXPECTED [flags...]: a validated search whose --output column 3 equals
# EXPECTED's column 2 (bfs: level) or 3 (sssp: distance).
check() {
  local kernel=$1 file=$2 backend=$3 expected=$4
  shift 4
  local out col
  out=$("$bin" "$kernel" --graph "$file" --root 0 --backend "$backend" --output "$tmp/result.txt" "$@" 2>&1) || {
    echo "$kernel $file ($backend): exit $?: $out"; fail=1; return; }
  grep -q 'all valid' <<<"$out" || { echo "$kernel $file ($backend): not validated: $out"; fail=1; return; }
  col=$([ "$kernel" = bfs ] && echo 2 || echo 3)
  if ! awk -v col="$col" '
      FNR == 1 && /^#/ { next }
      NR == FNR { want[$1] = $col; n++; next }
      { got++; d = $3 - want[$1]; if (d < 0) d = -d; if (!($1 in want) || d > 1e-5 * (1 + want[$1])) { print "vertex " $1 ": " $3 " != " want[$1]; bad = 1 } }
      END { if (got != n) { print got " lines for " n " vertices"; bad = 1 } exit bad }' "$expected" "$tmp/result.txt"; then
    echo "$kernel $file ($backend): --output differs from $expected"; fail=1
  fi
}

for name in karate lesmis florentine; do
  want=$data/$name.expected
  # What convert makes of the edge list and of the binary file, plain and gzip.
  "$bin" convert "$data/$name.txt" "$tmp/$name.bin.gz" >/dev/null || { echo "convert $name.txt failed"; fail=1; }
  "$bin" convert "$data/$name.bin" "$tmp/$name.el" --to snap --format bin >/dev/null || { echo "convert $name.bin failed"; fail=1; }
  out=$("$bin" convert "$data/$name.mtx.gz" "$tmp/$name.mtx") || { echo "convert $name.mtx.gz failed"; fail=1; }
  grep -q "^$data/$name.mtx.gz (mtx, gzip, symmetric, .* vertices, .* edges, weighted) -> $tmp/$name.mtx (mtx)$" <<<"$out" ||
    { echo "convert: unexpected summary: $out"; fail=1; }
  for file in "$data/$name".{txt,mtx,mtx.gz,bin} "$tmp/$name".{bin.gz,el,mtx}; do
    check bfs "$file" cpu "$want"
    check sssp "$file" cpu "$want"
  done
  # The formats are read before the backend is chosen: on a GPU, two of them suffice.
  for file in "$data/$name".{mtx.gz,bin}; do
    for backend in "${backends[@]:1}"; do
      check bfs "$file" "$backend" "$want"
      check sssp "$file" "$backend" "$want"
    done
  done
  check bfs "$data/$name.mtx" cpu "$want" --format mtx
  check sssp "$tmp/$name.el" cpu "$want" --format snap
done
# A pipe is read whole (process substitution), gzip and all.
check bfs <(cat "$data/karate.mtx.gz") cpu "$data/karate.expected"
check sssp <(cat "$data/lesmis.txt") cpu "$data/lesmis.expected"
# The converted files say the same as the originals, byte for byte where the format is the same.
"$bin" convert "$data/karate.mtx" "$tmp/k.bin" >/dev/null && cmp -s "$tmp/k.bin" "$data/karate.bin" ||
  { echo "convert karate.mtx -> bin differs from karate.bin"; fail=1; }
"$bin" convert "$data/karate.bin" "$tmp/k2.mtx" --to mtx >/dev/null && cmp -s "$tmp/k2.mtx" "$tmp/karate.mtx" ||
  { echo "convert karate.bin -> mtx differs from karate.mtx.gz -> mtx"; fail=1; }
# An edge list with --vertices: trailing isolated vertices kept.
"$bin" convert "$data/florentine.txt" "$tmp/f.bin" --vertices 20 >/dev/null || { echo "convert --vertices failed"; fail=1; }
out=$("$bin" convert "$tmp/f.bin" "$tmp/f.txt") && grep -q ' 20 vertices' <<<"$out" || { echo "convert --vertices: $out"; fail=1; }

# gpu500 generate: the reference's SCALE 10 edges and weights, in generation order; other formats,
# seeds and initiators give searchable graphs.
"$bin" generate 10 "$tmp/s10.txt" >/dev/null || { echo "generate 10 failed"; fail=1; }
awk 'FNR == 1 { f++ } /^#/ { next } f == 1 { want[++n] = $0; next }
     { split(want[++m], w, " "); d = $3 - w[3]; if (d < 0) d = -d
       if ($1 != w[1] || $2 != w[2] || d > 1e-7) { print "edge " m ": " $0 " != " want[m]; exit 1 } }
     END { if (m != n || n != 16384) { print m " edges for " n; exit 1 } }' \
  "$src/tests/data/graph500/s10_edges.txt" "$tmp/s10.txt" || { echo "generate 10 differs from the reference's edges"; fail=1; }
"$bin" generate 9 8 "$tmp/s9.mtx.gz" >/dev/null || { echo "generate 9 8 failed"; fail=1; }
"$bin" bfs --graph "$tmp/s9.mtx.gz" --roots 4 --backend cpu 2>/dev/null | grep -q 'all valid' || { echo "bfs on generate 9 8"; fail=1; }
"$bin" generate 8 "$tmp/r.g" --to bin --seed 4,5 --initiator 0.45,0.15,0.15 >/dev/null || { echo "generate --to bin failed"; fail=1; }
"$bin" generate 8 "$tmp/d.bin" >/dev/null && ! cmp -s "$tmp/r.g" "$tmp/d.bin" || { echo "generate: --seed/--initiator ignored"; fail=1; }
"$bin" sssp --graph "$tmp/r.g" --roots 4 --backend cpu 2>/dev/null | grep -q 'all valid' || { echo "sssp on generate --to bin"; fail=1; }

# Labelled edge lists: karate's vertices named "v<id>", written as CSV with a header, and as
# NetworkX's write_edgelist writes them ("u v {'weight': w}"); --output names the vertices, and
# its levels and distances (names turned back to ids) equal networkx's.
awk 'BEGIN { print "source,target,weight" } /^#/ { next } { print "v" $1 ",v" $2 "," $3 }' "$data/karate.txt" >"$tmp/k.csv"
awk '/^#/ { next } { print "v" $1 " v" $2 " {'"'"'weight'"'"': " $3 "}" }' "$data/karate.txt" >"$tmp/k.nx"
for kernel in bfs sssp; do
  for file in "$tmp/k.csv" "$tmp/k.nx"; do
    flags=(--labels)
    [ "$file" = "$tmp/k.csv" ] && flags+=(--header)
    if ! "$bin" "$kernel" --graph "$file" "${flags[@]}" --root v0 --backend cpu --output "$tmp/named.txt" 2>/dev/null |
        grep -q 'all valid'; then
      echo "$kernel $file --labels: not validated"; fail=1; continue
    fi
    head -1 "$tmp/named.txt" | grep -q "from root v0:" || { echo "$kernel $file: --output header: $(head -1 "$tmp/named.txt")"; fail=1; }
    sed -e '1d' -e 's/^v//' -e 's/ v/ /' "$tmp/named.txt" >"$tmp/ids.txt"
    col=$([ "$kernel" = bfs ] && echo 2 || echo 3)
    awk -v col="$col" 'FNR == 1 && /^#/ { next } NR == FNR { want[$1] = $col; n++; next }
        { got++; d = $3 - want[$1]; if (d < 0) d = -d; if (d > 1e-5 * (1 + want[$1])) bad = 1 }
        END { exit bad || got != n }' "$data/karate.expected" "$tmp/ids.txt" ||
      { echo "$kernel $file --labels: --output differs from karate.expected"; fail=1; }
  done
done
# --unit-weights: SSSP on an unweighted edge list (commas, a header) gives the BFS levels.
awk 'BEGIN { print "u,v" } /^#/ { next } { print $1 "," $2 }' "$data/karate.txt" >"$tmp/k2.csv"
"$bin" sssp --graph "$tmp/k2.csv" --header --unit-weights --root 0 --backend cpu --output "$tmp/unit.txt" >/dev/null 2>&1 &&
  awk 'FNR == 1 && /^#/ { next } NR == FNR { want[$1] = $2; next } $3 != want[$1] { bad = 1 } END { exit bad }' \
    "$data/karate.expected" "$tmp/unit.txt" || { echo "sssp --unit-weights: distances are not the BFS levels"; fail=1; }

expect2() {  # expect2 PATTERN ARGS...: exit 2, one stderr line containing PATTERN, nothing on stdout
  local pattern=$1 err out rc
  shift
  out=$("$bin" "$@" 2>"$tmp/err")
  rc=$?
  err=$(cat "$tmp/err")
  [ "$rc" -eq 2 ] && [ -z "$out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q -F -e "$pattern" <<<"$err" ||
    { echo "gpu500 $*: exit $rc, stdout '$out', stderr '$err' (wanted '$pattern')"; fail=1; }
}
expect2 "not a gpu500 binary graph" bfs --graph "$data/karate.txt" --format bin
expect2 "--format: 'csv' is not one of auto, snap, mtx, bin" sssp --graph "$data/karate.txt" --format csv
expect2 "a vertex count was given, but a mtx file states its own" bfs --graph "$data/karate.mtx" --vertices 40
expect2 "--output: directory" bfs --graph "$data/karate.txt" --output "$tmp/no/such/dir/out.txt"
expect2 "--to: name a format" convert "$data/karate.txt" "$tmp/x.txt" --to auto
expect2 "OUT: directory" convert "$data/karate.txt" "$tmp/no/x.txt"
expect2 "missing.txt" convert "$tmp/missing.txt" "$tmp/x.txt"
expect2 "is a directory" bfs --graph "$data"
printf '%%%%MatrixMarket matrix coordinate pattern symmetric\n3 3 1\n' >"$tmp/pat.mtx"
printf '2 1\n' >>"$tmp/pat.mtx"
expect2 "SSSP needs weights" sssp --graph "$tmp/pat.mtx"
expect2 "or --unit-weights" sssp --graph "$tmp/k2.csv" --header
expect2 "--labels" bfs --graph "$tmp/k.nx" --root 0
expect2 "--root 'v99' is not a vertex name" bfs --graph "$tmp/k.nx" --labels --root v99
expect2 "(a first line naming the columns: --header)" bfs --graph "$tmp/k.csv" --labels --root v0
expect2 "labels and a header line apply to edge lists" bfs --graph "$data/karate.mtx" --labels
expect2 "OUT is required" generate 10
expect2 "SCALE must be in 1..42" generate 50 "$tmp/x.txt"
[ -e "$tmp/x.txt" ] && { echo "a refused convert left its output"; fail=1; }
[ "$fail" -eq 0 ] || exit 1
echo "graph files smoke: ok (${backends[*]})"
