#!/usr/bin/env bash
# Bad input is refused before any work: each case of the table below must end with exit code 2
# (bad input) or 3 (does not fit), exactly one line on stderr and nothing on stdout.
# Table rows: EXIT | a pattern the stderr line must contain | the gpu500 arguments ($tmp: a
# scratch directory holding the bad files made below).
set -uo pipefail
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
printf '0 1\n1 2\n' >ok.txt
printf '0 1\n\0\0 2 3\n' >nul.txt
printf '\037\213\010\000\001\377\n0 1\n' >gz.txt
printf '%%%%MatrixMarket matrix coordinate real general\n3 3 1\n1 2 0.5\n' >mm.txt
printf '0 1\n1 4611686018427387904\n' >huge_id.txt
printf '0 1\n1 1099511627775\n' >big_graph.txt
printf '0 1 1e-320\n1 2 0.5\n' >subnormal.txt

fail=0
while IFS='|' read -r want pattern args; do
  [ -z "$want" ] && continue
  want=$(echo $want)
  pattern=$(echo "$pattern" | sed 's/^ *//; s/ *$//')
  read -r -a argv <<<"$args"
  out=$("$bin" "${argv[@]}" 2>err.txt)
  rc=$?
  err=$(cat err.txt)
  if [ "$rc" -ne "$want" ]; then
    echo "gpu500 $args: exit $rc, expected $want ($err)"; fail=1; continue
  fi
  if [ -n "$out" ]; then echo "gpu500 $args: stdout not empty: $out"; fail=1; fi
  if [ "$(wc -l <err.txt)" -ne 1 ]; then echo "gpu500 $args: expected one stderr line, got: $err"; fail=1; fi
  if ! grep -q -F -e "$pattern" <<<"$err"; then echo "gpu500 $args: message '$err' lacks '$pattern'"; fail=1; fi
done <<'TABLE'
2 | --roots 100000 exceeds the 2^SCALE = 256 vertices | graph500 8 --roots 100000
2 | vertices with an edge                            | graph500 8 --roots 256 --quiet --backend cpu
2 | --root must be a vertex id >= 0                  | bfs --graph ok.txt --root -1
2 | --root must be a vertex id >= 0                  | sssp --graph subnormal.txt --root -1
2 | --vertices must be in 1..2^48                    | bfs --graph ok.txt --vertices -5
2 | --vertices must be in 1..2^48                    | sssp --graph subnormal.txt --vertices 0
2 | --root 3 is not a vertex (the graph has 3)       | bfs --graph ok.txt --root 3
2 | --root 7 is not a vertex (--vertices 5)          | sssp --graph subnormal.txt --vertices 5 --root 7
2 | nul.txt:2: contains a NUL byte                   | bfs --graph nul.txt
2 | gz.txt:1: looks like a gzip-compressed file      | bfs --graph gz.txt
2 | mm.txt:1: looks like a Matrix Market file        | sssp --graph mm.txt
2 | huge_id.txt:2: vertex id out of range [0, 2^48)  | bfs --graph huge_id.txt
3 | 1099511627776 vertices need about                | bfs --graph big_graph.txt
3 | 1099511627776 vertices need about                | bfs --graph ok.txt --vertices 1099511627776
2 | hpl: -N must be >= 0, got -5                     | hpl -N -5
2 | hpl: -N must be >= 0, got -1                     | hpl -N -1
2 | hpl: -NB must be >= 1, got -3                    | hpl -N 100 -NB -3
2 | hpl: -P must be >= 1, got -1                     | hpl -N 100 -P -1
2 | hpl: -Q must be >= 1, got 0                      | hpl -Q 0
3 | hpl: N = 1000000000 on a 1 x 1 grid needs at least | hpl -N 1000000000 --quiet
2 | group size M must be a power of two              | bellman-ford --group 0
2 | --source must lie in [0, N) for every --n        | bellman-ford --n 64 --source 64
TABLE
# A subnormal weight is a weight like any other.
"$bin" sssp --graph subnormal.txt --root 0 >out.txt 2>err.txt || { echo "sssp on a subnormal weight: exit $?"; cat err.txt; fail=1; }
[ "$fail" -eq 0 ] || exit 1
echo "bad input smoke: ok"
