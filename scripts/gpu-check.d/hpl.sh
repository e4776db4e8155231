#!/usr/bin/env bash
# HPL on the GPU machine: a short run of bench/hpl/gpu.sh (HPL_N, default 40000; HPL_NB, HPL_FLAGS) with its DGEMM
# and cuSOLVER baselines; table rows "hpl|what|figure".
set -uo pipefail
BUILD=$1 OUT=$2 TABLE=$3
N=${HPL_N:-40000}
NB=${HPL_NB:-384}
cd "$(dirname "$0")/../.."
# Options not given take the device's defaults (docs/hpl.md, "Defaults"; on an H100/H200 the panel
# options of the best measured setting). HPL_FLAGS: extra gpu500 hpl flags, e.g. that setting in full:
# HPL_N=95000 HPL_NB=1024 HPL_FLAGS="--gpu-panel 56000 --gpu-panel-first --panel-gemm-gpu 256 --tail-getrf 32768"
# (the DGEMM baseline has the update's own K = NB)
# shellcheck disable=SC2086
bash bench/hpl/gpu.sh "$BUILD" "$OUT" "$N" "$NB" ${HPL_FLAGS:-}
rc=$?
python3 - "$OUT/hpl-gpu.json" "$TABLE" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
with open(sys.argv[2], "a") as t:
    t.write(f"hpl|N={r['n']} NB={r['nb']} {r['device']}|{r['hpl_gflops']/1000:.2f} TFLOP/s {r['residual']}\n")
    t.write(f"hpl|vs DGEMM {r['dgemm_gflops']/1000:.2f} TFLOP/s|{100*r['hpl_over_dgemm']:.1f}%\n")
    t.write(f"hpl|vs cuSOLVER {r['cusolver_gflops']/1000:.2f} TFLOP/s|x{r['hpl_over_cusolver']:.2f}\n")
PY
# With two or more GPUs: 1 GPU vs 2 and 4 GPUs (one MPI process per GPU), HPL_MN1 / HPL_MN2 (4 GPUs:
# 2 x HPL_MN1), NB and panel options from the defaults table unless HPL_MNB.
if [ "$(nvidia-smi -L 2>/dev/null | wc -l)" -ge 2 ]; then
  bash bench/hpl/multigpu.sh "$BUILD" "$OUT" "${HPL_MN1:-40000}" "${HPL_MN2:-56000}" "${HPL_MNB:-auto}" || rc=1
  python3 bench/hpl/multigpu_rows.py "$OUT/hpl-multigpu.json" >>"$TABLE"
fi
exit $rc
