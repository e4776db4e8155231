#!/usr/bin/env bash
# scripts/results_md.py makes docs/results.md from GPU checks' folders (table.txt rows, meta.txt).
# Checked here: one table per component, each row naming its card, date and run, the runs listed
# once with their command; a later folder's part replaces the earlier's; --base PAGE with a new
# folder replaces only the rows of the parts it holds and keeps the others; OUT@PART=NEW files a
# part under another name and OUT@PART= leaves it out; --drop PART removes a part's rows; the
# headline filter keeps a page short but never hides a failure; A/B parts go only to --all; a page
# regenerated with nothing new comes back unchanged; and the committed docs/results.md is such a
# page (regenerating it changes nothing) and stays under 250 lines.
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
  printf 'gpu: 1 x NVIDIA Test GPU, 80 GiB\nhost: 2 cores, Test CPU\ndate: 2026-01-0%s\ncommit: %s\ncommand: check %s\n' \
    "${#c}" "$c" "$c" >"$d/meta.txt"
  printf '%s\n' "$@" >"$d/table.txt"
}
run a aaa "gpu-check|build|ok" "hash|static|best GLHT 1.0 G/s" "hash|static glht LF 0.80|insert 1.0 G/s" \
  "hash|static glht LF 0.90|FAILED (no room)" "graph500|cuda SCALE 22|BFS 100 GTEPS" "cpu_ab|SCALE 22|BFS 1 -> 2 GTEPS"
run b bbbb "hpl|1 x 1|40 TFLOP/s"
python3 "$md" --all "$tmp/all.md" "$tmp/a" "$tmp/b" >"$tmp/page.md" 2>"$tmp/err" || fail "two folders"
grep -q '^| cuda SCALE 22 | BFS 100 GTEPS | 1 x Test GPU; 2 cores | 2026-01-03 | \[r[0-9]*\](#runs) |$' "$tmp/page.md" ||
  fail "a row names its card, host, date and run: $(grep 'SCALE 22' "$tmp/page.md")"
grep -q '^- \*\*r[0-9]*\*\* `hpl`: 1 x NVIDIA Test GPU, 80 GiB; host 2 cores, Test CPU; 2026-01-04; commit bbbb; command `check bbbb`$' \
  "$tmp/page.md" || fail "the later folder's part names its own run"
[ "$(grep -c '^## GLHT hash table$' "$tmp/page.md")" = 1 ] || fail "one table per component"
grep -q '^Compared with: ' "$tmp/page.md" || fail "a component says what it is compared with"
grep -q 'FAILED (no room)' "$tmp/page.md" || fail "the headline filter hid a failure"
grep -q 'static glht LF 0.80' "$tmp/page.md" && fail "a row that is not a headline is on the page"
grep -q 'static glht LF 0.80' "$tmp/all.md" || fail "--all lost a row"
grep -q 'BFS 1 -> 2' "$tmp/page.md" && fail "an A/B part is on the page"
grep -q 'BFS 1 -> 2' "$tmp/all.md" || fail "--all lost the A/B part"
grep -q 'cpu_ab is an A/B comparison' "$tmp/err" || fail "the A/B part left the page without a word"

python3 "$md" --base "$tmp/page.md" "$tmp/b@hpl=" >"$tmp/same.md" || fail "--base with nothing new"
cmp -s "$tmp/page.md" "$tmp/same.md" || fail "a base page with nothing new changed: $(diff "$tmp/page.md" "$tmp/same.md")"

run c cc "gpu-check|build|ok" "hash|static|best GLHT 2.0 G/s" "graph500|cpu SCALE 22 (16 ranks)|BFS 2 GTEPS"
python3 "$md" --base "$tmp/page.md" "$tmp/c@gpu-check=,graph500=graph500-cpu-ranks" >"$tmp/new.md" ||
  fail "--base with a new folder"
grep -q 'best GLHT 2.0 G/s' "$tmp/new.md" && ! grep -q 'best GLHT 1.0 G/s' "$tmp/new.md" || fail "the hash rows were not replaced"
grep -q '| cuda SCALE 22 | BFS 100 GTEPS |' "$tmp/new.md" || fail "the Graph500 rows were not kept"
grep -q '^| build | ok | .* | 2026-01-03 |' "$tmp/new.md" || fail "a part left out with PART= replaced the base's"
grep -q '^## Graph500 over MPI ranks$' "$tmp/new.md" && grep -q 'BFS 2 GTEPS' "$tmp/new.md" ||
  fail "the renamed part is missing"
order=$(grep '^## ' "$tmp/new.md" | tr '\n' ';')
[ "$order" = "## Build and tests;## Graph500 on one process;## Graph500 over MPI ranks;## HPL;## GLHT hash table;## Runs;" ] ||
  fail "components out of place: $order"
python3 "$md" --base "$tmp/page.md" "$tmp/c@oops" >/dev/null 2>&1 && fail "a rename without = was accepted"
python3 "$md" --base "$tmp/new.md" --drop graph500-cpu-ranks --drop hpl "$tmp/b@hpl=" >"$tmp/dropped.md" ||
  fail "--drop"
order=$(grep '^## ' "$tmp/dropped.md" | tr '\n' ';')
[ "$order" = "## Build and tests;## Graph500 on one process;## GLHT hash table;## Runs;" ] || fail "--drop left: $order"
grep -q '`hpl`' "$tmp/dropped.md" && fail "a dropped part's run is still listed"
python3 "$md" --base "$tmp/new.md" --drop >/dev/null 2>&1 && fail "--drop without a part was accepted"

# The committed page: what the script makes from it, and short.
python3 "$md" --base "$src/docs/results.md" "$tmp/b@hpl=" >"$tmp/docs.md" || fail "docs/results.md does not parse"
cmp -s "$src/docs/results.md" "$tmp/docs.md" ||
  fail "docs/results.md is not what scripts/results_md.py makes of it: $(diff "$src/docs/results.md" "$tmp/docs.md" | head)"
lines=$(wc -l <"$src/docs/results.md")
[ "$lines" -lt 250 ] || fail "docs/results.md has $lines lines (at most 249: move rows to docs/log/)"
echo "results_md: ok"
