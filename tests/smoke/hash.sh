#!/usr/bin/env bash
# `gpu500 hash static|mixed` on the CPU table (small sizes): every result validated, every option
# of the command used; bad input and options that do not apply exit 2. bench/hash/vs_cuco.py on a
# written table (the best GLHT against the best cuCollections row per load factor).
set -euo pipefail
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$("$bin" hash static --backend cpu --tables cpu --keys 50000 --lf 0.8,0.95 --runs 1 --seed 7 --json "$tmp/s.json")
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
"$bin" hash --help | grep -c -- '--tables' >/dev/null
# On a GPU: the default static run (a short list of GLHT variants and peers, LF 0.8-0.95, no CPU
# table) and --full (every table, the CPU table too, LF 0.5-0.95), small.
if "$bin" info 2>/dev/null | grep -c '^cuda device 0:' >/dev/null; then
  out=$("$bin" hash static --keys 65536 --runs 1 --json "$tmp/d.json")
  echo "$out"
  grep -q '^validation: passed' <<<"$out"
  grep -q '^  best GLHT | best peer at LF 0.95' <<<"$out"
  ! grep -q '"table": "cpu"' "$tmp/d.json" || { echo "the default static run ran the CPU table"; exit 1; }
  out=$("$bin" hash static --keys 65536 --runs 1 --full --json "$tmp/f.json")
  echo "$out"
  grep -q '^validation: passed' <<<"$out"
  grep -q '"table": "cpu"' "$tmp/f.json"
  grep -q '"table": "chained-alloc"' "$tmp/f.json"
  grep -q '"table": "linear-aos-cas16"' "$tmp/f.json"  # the pair-CAS insert, validated like the rest
  out=$("$bin" hash static --keys 65536 --runs 1 --full --no-cpu --json "$tmp/g.json")
  ! grep -q '"table": "cpu"' "$tmp/g.json" || { echo "--no-cpu ran the CPU table"; exit 1; }
  for c in "--full --tables glht" "--full --lf 0.8" "--no-cpu"; do
    set +e
    # shellcheck disable=SC2086
    "$bin" hash static --keys 1024 $c >/dev/null 2>&1
    rc=$?
    set -e
    [ "$rc" -eq 2 ] || { echo "'gpu500 hash static $c' exited $rc (want 2)"; exit 1; }
  done
  for t in cuckoo linear-aos-cas16; do  # static only: named in a mixed run, refused
    set +e
    "$bin" hash mixed --ops 1000 --tables "$t" >/dev/null 2>&1
    rc=$?
    set -e
    [ "$rc" -eq 2 ] || { echo "'gpu500 hash mixed --tables $t' exited $rc (want 2)"; exit 1; }
  done
fi
# Exit 2: bad input, and options that cannot apply to the mode, the backend or the table list.
bad=(
  "hash sideways"
  "hash mixed --backend cpu --mixes 50/50/50"
  "hash static --backend cpu --lf 1.5"
  "hash mixed --backend cpu --check-limit -1"
  "hash static --backend cpu --runs 0"
  "hash static --backend cpu --tables glht-t1-rec-np-oc-fa"
  "hash static --backend cpu --tables cpu --no-cpu"
  "hash static --backend cpu --no-cpu"
  "hash mixed --backend cpu --scale 20"
  "hash static --backend cpu --ops 1000"
  "hash static --backend cpu --ranges 100"
  "hash static --backend cpu --mixes 20/20/60"
  "hash static --backend cpu --check-limit 10"
  "hash mixed --backend cpu --keys 1000"
  "hash mixed --backend cpu --lf 0.5"
  "hash static --backend opencl"
  "hash static --backend cpu --full"
  "hash mixed --backend cpu --full"
)
for c in "${bad[@]}"; do
  set +e
  # shellcheck disable=SC2086
  "$bin" $c >/dev/null 2>&1
  rc=$?
  set -e
  [ "$rc" -eq 2 ] || { echo "'gpu500 $c' exited $rc (want 2)"; exit 1; }
done
# vs_cuco.py: best of each family per load factor, the goals at LF 0.8, nothing without cuco rows.
src=$(cd "$(dirname "$0")/../.." && pwd)
cat >"$tmp/t.txt" <<'T'
glht-t1-rec-np-oc  0.80       4.000      10.000      15.000       8.000    11.8%    28.0%    19.5%         0  ok
glht              0.80       1.000      14.500       2.000       2.000     2.5%     6.3%     3.4%         0  ok
linear-aos        0.80       9.000      20.000       3.000       7.000    12.4%    26.9%     5.4%         0  ok
cuco              0.80       8.000      13.000       5.000      14.000    22.8%    37.1%     7.2%         0  ok
cuco-cg1          0.80       8.500      12.000       4.000      17.000    24.1%    37.3%     7.2%         0  ok
glht-t1-rec-np-oc  0.90       3.000      10.000      12.000       7.000     8.5%    27.7%    18.5%         0  ok
cuco              0.90       6.000       9.000       1.500       9.000    17.2%    25.8%     2.2%         0  ok
T
rows=$(python3 "$src/bench/hash/vs_cuco.py" "$tmp/t.txt")
echo "$rows"
grep -qF 'LF 0.80|insert 4.00 vs 8.50 G/s (x0.47), hit 14.50 vs 13.00 (x1.12), miss 15.00 vs 5.00 (x3.00); goals: insert >= 8 not met, hit >= 14 met, miss >= 1.5x met' <<<"$rows"
grep -qF 'LF 0.90|insert 3.00 vs 6.00 G/s (x0.50), hit 10.00 vs 9.00 (x1.11), miss 12.00 vs 1.50 (x8.00)' <<<"$rows"
[ "$(grep -c . <<<"$rows")" -eq 2 ] || { echo "vs_cuco.py: expected 2 rows"; exit 1; }
grep -v '^cuco' "$tmp/t.txt" >"$tmp/u.txt"
[ -z "$(python3 "$src/bench/hash/vs_cuco.py" "$tmp/u.txt")" ] || { echo "vs_cuco.py: rows without cuco"; exit 1; }
echo "hash smoke: ok"
