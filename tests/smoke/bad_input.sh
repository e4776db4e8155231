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
TABLE
[ "$fail" -eq 0 ] || exit 1
echo "bad input smoke: ok"
