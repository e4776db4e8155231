#!/usr/bin/env bash
# The runs a newcomer makes first, with no flag but the size: `gpu500 graph500 26`, `gpu500 hpl`
# and `gpu500 hpl-mxp` on the GPU (every search validated, both solves checked by their residual
# test), each row against the figure the project holds itself to on that card (H200, H100; other
# cards: no goal). Rows "graph500-defaults|...", "hpl-defaults|...", "hpl-mxp-defaults|...".
# DEFAULTS_SCALE (26) changes the Graph500 size; DEFAULTS_TIMEOUT (240 s) bounds each run;
# DEFAULTS_RUNS ("graph500 hpl hpl-mxp") names the runs made.
#   bash scripts/gpu-check.d/defaults.sh BUILD OUT TABLE
set -uo pipefail
build=$1 out=$2 table=$3
rows=$(cd "$(dirname "$0")/../.." && pwd)/scripts/table_rows.py
bin=$build/bin/gpu500
scale=${DEFAULTS_SCALE:-26}
limit=${DEFAULTS_TIMEOUT:-240}
card=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
rc=0
run() {  # name args...: bin args --json OUT/defaults-name.json, its output kept beside it
  local name=$1
  shift
  if ! timeout "$limit" "$bin" "$@" --json "$out/defaults-$name.json" >"$out/defaults-$name.txt" 2>&1; then
    rc=1
    echo "$name-defaults|gpu500 $*|FAILED: $(tail -1 "$out/defaults-$name.txt" | tr '|' '/')" >>"$table"
    return 1
  fi
}
wanted() { [[ " ${DEFAULTS_RUNS:-graph500 hpl hpl-mxp} " == *" $1 "* ]]; }
if wanted graph500; then
  run graph500 graph500 "$scale" --backend cuda --quiet &&
    python3 "$rows" defaults graph500 "$card" "$out/defaults-graph500.json" >>"$table"
fi
if wanted hpl; then
  run hpl hpl --backend cuda && python3 "$rows" defaults hpl "$card" "$out/defaults-hpl.json" >>"$table"
fi
if wanted hpl-mxp; then
  run hpl-mxp hpl-mxp --backend cuda &&
    python3 "$rows" defaults hpl-mxp "$card" "$out/defaults-hpl-mxp.json" >>"$table"
fi
exit $rc
