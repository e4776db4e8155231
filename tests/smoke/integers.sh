#!/usr/bin/env bash
# Integers are decimal everywhere (docs/reliability.md, "Integers"): --root 010 is vertex 10 and
# 09 is 9 (not octal), SCALE 010 is 10; 0x10 is refused with the same message for every flag and
# positional (exit 2, one line, empty stdout); a graph file reads 010 as 10.
set -euo pipefail
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/smoke/lib/refused.sh
source "$(dirname "$0")/lib/refused.sh"
cd "$tmp"
printf '0 1\n1 2\n2 3\n3 4\n4 5\n5 6\n6 7\n7 8\n8 9\n9 10\n10 11\n' >k.txt
"$bin" bfs --graph k.txt --root 010 --output tree.txt >/dev/null 2>&1
grep -q '^# gpu500 bfs from root 10:' tree.txt || bad "--root 010: $(head -1 tree.txt)"
"$bin" bfs --graph k.txt --root 09 --output tree.txt >/dev/null 2>&1 || bad "--root 09 was refused"
grep -q '^# gpu500 bfs from root 9:' tree.txt || bad "--root 09: $(head -1 tree.txt)"
refused "--root: expected an integer (decimal digits), got '0x10'" "$bin" bfs --graph k.txt --root 0x10
refused "SCALE: expected an integer (decimal digits), got '0x4'" "$bin" generate 0x4 g.txt
refused "-N: expected an integer (decimal digits), got '0x40'" "$bin" hpl -N 0x40
refused "SCALE: expected an integer (decimal digits), got '0x8'" "$bin" graph500 0x8
"$bin" generate 010 g.txt >/dev/null
grep -q '^# gpu500 edge list: 1024 vertices' g.txt || bad "generate 010: $(head -1 g.txt)"
# A graph file reads "010" as vertex 10.
printf '010 1\n' >zeros.txt
"$bin" bfs --graph zeros.txt --root 1 >out.txt 2>&1 || bad "bfs on zeros.txt failed: $(cat out.txt)"
grep -q 'zeros.txt read .*: 11 vertices' out.txt || bad "a graph file's 010 is not 10: $(cat out.txt)"
exit $fail
