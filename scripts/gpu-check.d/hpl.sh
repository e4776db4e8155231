#!/usr/bin/env bash
# HPL on the GPU machine: a short run of bench/hpl-gpu.sh (HPL_N, default 40000) with its DGEMM
# and cuSOLVER baselines; table rows "hpl|what|figure".
set -uo pipefail
BUILD=$1 OUT=$2 TABLE=$3
N=${HPL_N:-40000}
NB=${HPL_NB:-384}
cd "$(dirname "$0")/../.."
bash bench/hpl-gpu.sh "$BUILD" "$OUT" "$N" "$NB"
rc=$?
python3 - "$OUT/hpl-gpu.json" "$TABLE" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
with open(sys.argv[2], "a") as t:
    t.write(f"hpl|N={r['n']} NB={r['nb']} {r['device']}|{r['hpl_gflops']/1000:.2f} TFLOP/s {r['residual']}\n")
    t.write(f"hpl|vs DGEMM {r['dgemm_gflops']/1000:.2f} TFLOP/s|{100*r['hpl_over_dgemm']:.1f}%\n")
    t.write(f"hpl|vs cuSOLVER {r['cusolver_gflops']/1000:.2f} TFLOP/s|x{r['hpl_over_cusolver']:.2f}\n")
PY
exit $rc
