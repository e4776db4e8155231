#!/usr/bin/env bash
# scripts/results_md.py makes docs/results.md from GPU checks' folders (table.txt rows, meta.txt).
# Checked here: a page from two folders (the later one's part replaces the earlier's and names its
# own run); --base PAGE with a new folder replaces only the sections of the parts it holds, in
# place, and keeps the others byte for byte; OUT@PART=NEW files a part under another name and
# OUT@PART= leaves it out; --drop PART removes a base section; a base page regenerated with
# nothing new comes back unchanged.
set -uo pipefail
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
md="$src/scripts/results_md.py"

run() {  # NAME COMMIT ROWS...: a check's folder
  local d="$tmp/$1" c=$2
  shift 2
  mkdir -p "$d"
  printf 'gpu: 1 x Test GPU\nhost: 2 cores\ndate: 2026-01-0%s\ncommit: %s\ncommand: check %s\n' "${#c}" "$c" "$c" >"$d/meta.txt"
  printf '%s\n' "$@" >"$d/table.txt"
}
run a aaa "gpu-check|build|ok" "hash|static LF 0.80|insert 1.0 G/s" "graph500|cuda SCALE 22|BFS 100 GTEPS"
run b bbbb "hpl|1 x 1|40 TFLOP/s"
python3 "$md" "$tmp/a" "$tmp/b" >"$tmp/page.md" || fail "two folders"
grep -q '^- \*\*Date:\*\* 2026-01-03; \*\*commit:\*\* aaa$' "$tmp/page.md" || fail "the first folder heads the page"
grep -q '^## HPL$' "$tmp/page.md" && grep -q 'commit bbbb: `check bbbb`' "$tmp/page.md" ||
  fail "the later folder's part names its own run"

python3 "$md" --base "$tmp/page.md" "$tmp/b@hpl=" >"$tmp/same.md" || fail "--base with nothing new"
cmp -s "$tmp/page.md" "$tmp/same.md" || fail "a base page with nothing new changed: $(diff "$tmp/page.md" "$tmp/same.md")"

run c cc "gpu-check|build|ok" "hash|static LF 0.80|insert 2.0 G/s" "graph500|cpu SCALE 22 (16 ranks)|BFS 2 GTEPS"
python3 "$md" --base "$tmp/page.md" "$tmp/c@gpu-check=,graph500=graph500-cpu-ranks" >"$tmp/new.md" ||
  fail "--base with a new folder"
grep -q 'insert 2.0 G/s' "$tmp/new.md" && ! grep -q 'insert 1.0 G/s' "$tmp/new.md" || fail "the hash section was not replaced"
grep -q '^- \*\*Date:\*\* 2026-01-03; \*\*commit:\*\* aaa$' "$tmp/new.md" || fail "the base page's head changed"
grep -q '| cuda SCALE 22 | BFS 100 GTEPS |' "$tmp/new.md" || fail "the Graph500 section was not kept"
grep -q '^## Graph500 CPU backend over MPI ranks' "$tmp/new.md" && grep -q 'BFS 2 GTEPS' "$tmp/new.md" ||
  fail "the renamed part is missing"
[ "$(grep -c '^## Build and tests$' "$tmp/new.md")" = 1 ] || fail "a dropped part came back"
# In place: the hash section still sits between the build section and the Graph500 one.
order=$(grep '^## ' "$tmp/new.md" | tr '\n' ';')
[ "$order" = "## Build and tests;## GLHT hash table;## Graph500 (generator, kernel 1, BFS, SSSP, validation);## HPL;## Graph500 CPU backend over MPI ranks against the reference on the same ranks;" ] ||
  fail "sections out of place: $order"
python3 "$md" --base "$tmp/page.md" "$tmp/c@oops" >/dev/null 2>&1 && fail "a rename without = was accepted"
# --drop removes a base section whose rows a later part holds now; the others stay in place.
python3 "$md" --base "$tmp/new.md" --drop graph500-cpu-ranks --drop hpl "$tmp/b@hpl=" >"$tmp/dropped.md" ||
  fail "--drop"
order=$(grep '^## ' "$tmp/dropped.md" | tr '\n' ';')
[ "$order" = "## Build and tests;## GLHT hash table;## Graph500 (generator, kernel 1, BFS, SSSP, validation);" ] ||
  fail "--drop left: $order"
python3 "$md" --base "$tmp/new.md" --drop >/dev/null 2>&1 && fail "--drop without a part was accepted"
echo "results_md: ok"
