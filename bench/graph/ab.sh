#!/usr/bin/env bash
# A/B of two gpu500 builds on the same graphs in one call: the searches of a change against the
# build before it, alternated (base, new, base, new, ...) so that clocks and the machine's state
# weigh on both alike. For each graph and kernel it prints every run's harmonic-mean GTEPS (every
# search validated: an invalid run fails the script) and new / base of the medians.
#   - graph files: AB_SHAPES (default "grid:1024x1024 grid:100x100x100 geometric:1000000
#     grid:100000"), made once by the new build's `gpu500 generate --shape`, searched with
#     `gpu500 KERNEL --graph FILE --backend AB_BACKEND --roots AB_ROOTS --seed 7`;
#   - the Graph500 benchmark: `gpu500 graph500 AB_SCALE --backend AB_BACKEND --kernels KERNEL`
#     (64 validated roots; AB_SCALE=0 leaves it out).
# AB_KERNELS (default "bfs"; "bfs sssp" for both), AB_REPEATS (default 2 runs of each build),
# AB_BACKEND (default cuda), AB_ROOTS (default 8), AB_SCALE (default 26).
# Rows "ab|GRAPH KERNEL|base X / Y GTEPS, new X / Y GTEPS, new/base R" go to TABLE (default:
# stdout); an A/B is a step's history, not a current figure: results_md.py keeps it off the page.
#   bash bench/graph/ab.sh BASE_GPU500 NEW_GPU500 OUT [TABLE]
set -uo pipefail
base=${1:?base gpu500} new=${2:?new gpu500} out=${3:?out dir} table=${4:-/dev/stdout}
mkdir -p "$out"
shapes=${AB_SHAPES-"grid:1024x1024 grid:100x100x100 geometric:1000000 grid:100000"}
kernels=${AB_KERNELS:-bfs}
repeats=${AB_REPEATS:-2}
backend=${AB_BACKEND:-cuda}
roots=${AB_ROOTS:-8}
scale=${AB_SCALE:-26}
rc=0

gteps() {  # JSON of a search command or of graph500 -> GTEPS, or INVALID
  python3 - "$1" "$2" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
if not j.get("valid", False):
    print("INVALID"); sys.exit(0)
r = j[sys.argv[2]] if sys.argv[2] in j else j
print("%.4f" % (r["harmonic_mean_TEPS"] / 1e9))
PY
}
# ab NAME KERNEL ARGS...: both builds AB_REPEATS times, alternated; one row.
ab() {
  local name=$1 kernel=$2
  shift 2
  local -A runs=([base]="" [new]="")
  for ((i = 1; i <= repeats; ++i)); do
    for v in base new; do
      local bin=$base j="$out/${name//[:x]/_}-$kernel-$v-$i.json"
      [ "$v" = new ] && bin=$new
      local g=ERROR
      if "$bin" "$@" --json "$j" >"${j%.json}.txt" 2>&1; then g=$(gteps "$j" "$kernel" 2>/dev/null || echo ERROR); fi
      case $g in INVALID | ERROR) rc=1 ;; esac
      runs[$v]+="$g "
    done
  done
  local ratio
  ratio=$(python3 -c '
import statistics, sys
b, n = ([float(x) for x in s.split()] for s in sys.argv[1:3])
print("%.3f" % (statistics.median(n) / statistics.median(b)))' "${runs[base]}" "${runs[new]}" 2>/dev/null || echo "-")
  local b=${runs[base]% } n=${runs[new]% }
  echo "ab|$name $kernel|base ${b// / \/ } GTEPS, new ${n// / \/ } GTEPS, new/base $ratio" >>"$table"
}

for s in $shapes; do
  f="$out/${s//[:x]/_}.bin"
  [ -s "$f" ] || "$new" generate --shape "$s" "$f" >/dev/null || { echo "ab: cannot generate $s" >&2; exit 1; }
  for k in $kernels; do ab "$s" "$k" "$k" --graph "$f" --backend "$backend" --roots "$roots" --seed 7; done
done
if [ "$scale" -gt 0 ]; then
  for k in $kernels; do ab "graph500:$scale" "$k" graph500 "$scale" --backend "$backend" --kernels "$k" --quiet; done
fi
exit $rc
