#!/usr/bin/env bash
# GPU check of HPL-MxP: bench/hpl_mxp/gpu.sh at HPL_MXP_N (default 100000) and HPL_MXP_NB (2048):
# bf16 and fp16 runs beside the GEMM rate and FP64 HPL measured in the same call; table rows
# "hpl-mxp|what|figure". With two GPUs or more, bench/hpl_mxp/multigpu.sh too: 1 x 1 at
# HPL_MXP_MN1 (default 120000) as the baseline of the same call, then 1 x 2 and 2 x 1, and on four
# GPUs 2 x 2 and 1 x 4, one rank per GPU (rows "hpl-mxp-<k>gpu", with the efficiency per GPU).
#   bash scripts/gpu-check.d/hpl_mxp.sh BUILD OUT TABLE
set -uo pipefail
BUILD=$1 OUT=$2 TABLE=$3
cd "$(dirname "$0")/../.."
bash bench/hpl_mxp/gpu.sh "$BUILD" "$OUT" "${HPL_MXP_N:-100000}" "${HPL_MXP_NB:-2048}"
rc=$?
python3 - "$OUT/hpl-mxp-gpu.json" "$TABLE" <<'PY' || rc=1
import json, sys
r = json.load(open(sys.argv[1]))
with open(sys.argv[2], "a") as t:
    h = r["hpl_fp64"]
    for p, m in r["mxp"].items():
        t.write(f"hpl-mxp|{p} N={r['n']} NB={r['nb']} {r['device']}|{m['tflops']:.1f} TFLOP/s "
                f"{'PASSED' if m['passed'] else 'FAILED'} ({m['iterations']} GMRES iterations), "
                f"x{m['over_hpl_fp64']:.2f} FP64 HPL ({h['tflops']:.2f} TFLOP/s at N={h['n']}), "
                f"{100 * m['fraction_of_gemm']:.0f}% of the {p} GEMM rate ({m['gemm_tflops']:.0f} TFLOP/s); "
                f"LU {m['time_lu']:.2f} s, GMRES {m['time_refine']:.2f} s\n")
PY
if [ "$(nvidia-smi -L 2>/dev/null | wc -l)" -ge 2 ]; then
  bash bench/hpl_mxp/multigpu.sh "$BUILD" "$OUT/hpl-mxp-multigpu" "${HPL_MXP_MN1:-120000}" "${HPL_MXP_NB:-2048}" || rc=1
  cat "$OUT/hpl-mxp-multigpu/table.txt" >>"$TABLE" 2>/dev/null || rc=1
fi
exit $rc
