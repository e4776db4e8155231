#!/usr/bin/env bash
# HPL-MxP on one GPU beside what bounds it and what it is compared with, all measured in this run:
#   1. cublasGemmEx BF16 and FP16 (FP32 accumulation) and cuBLASLt's FP8 GEMM (E4M3, TN) in the
#      update's shape, M = N/2, K = NB (bench_hpl_mxp_gemm);
#   2. gpu500 hpl-mxp at order N with --precision bf16, fp16 and fp8 (result block, --json; fp8
#      is no valid submission under the rules, below 16 bits: its row says so);
#   3. gpu500 hpl (FP64) at the same N, or, when the FP64 matrix does not fit (exit 3: 8 N^2 bytes
#      against 4 N^2 for HPL-MxP), at the largest N that fits (its own sizing).
# Prints HPL-MxP TFLOP/s, LU TFLOP/s, the time split, iterations and backward error per precision,
# the ratio to FP64 HPL and the fraction of the GEMM rate; writes hpl-mxp-gpu.json and the outputs
# to OUT.
# usage: bench/hpl_mxp/gpu.sh BUILD OUT [N] [NB] [extra gpu500 hpl-mxp flags...]
set -uo pipefail
BUILD=${1:?build dir}
OUT=${2:?out dir}
N=${3:-100000}
NB=${4:-2048}
shift $(( $# < 4 ? $# : 4 ))
mkdir -p "$OUT"
bin=$BUILD/bin
dev=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
echo "device: ${dev:-unknown}  N=$N NB=$NB"
rc=0
for p in bf16 fp16 fp8; do
  "$bin/bench_hpl_mxp_gemm" $p $(( N / 2 )) "$NB" 3 >"$OUT/gemm-$p.json" || rc=1
  cat "$OUT/gemm-$p.json"
  "$bin/gpu500" hpl-mxp -N "$N" -NB "$NB" --backend cuda --precision $p --json "$OUT/hpl-mxp-$p-N$N.json" "$@" \
    >"$OUT/hpl-mxp-$p-N$N.out" 2>&1 || rc=1
  sed -n '/^Time spent in factorization/,/^GMRES iterations/p;/PASSED\|FAILED/p' "$OUT/hpl-mxp-$p-N$N.out"
done
hrc=0
"$bin/gpu500" hpl -N "$N" --backend cuda --quiet --json "$OUT/hpl-fp64.json" >"$OUT/hpl-fp64.out" 2>&1 || hrc=$?
if [ "$hrc" -eq 3 ]; then
  echo "FP64 HPL at N=$N does not fit; running it at the largest N that fits"
  "$bin/gpu500" hpl --backend cuda --quiet --json "$OUT/hpl-fp64.json" >"$OUT/hpl-fp64.out" 2>&1 || rc=1
elif [ "$hrc" -ne 0 ]; then
  rc=1
fi
python3 - "$OUT" "$N" "$NB" "${dev:-unknown}" <<'PY'
import json, os, sys
out, n, nb, dev = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None
hpl = load(os.path.join(out, "hpl-fp64.json"))
hpl_test = hpl["tests"][0] if hpl and hpl.get("tests") else None
hpl_tf = hpl_test["gflops"] / 1000 if hpl_test else float("nan")
res = {"device": dev, "n": n, "nb": nb, "hpl_fp64": {"n": hpl_test["n"] if hpl_test else None, "tflops": hpl_tf,
       "passed": hpl_test["passed"] if hpl_test else None}, "mxp": {}}
print(f"{'prec':5} {'TFLOP/s':>8} {'LU TF/s':>8} {'LU s':>8} {'GMRES s':>8} {'gen s':>7} {'iters':>5} "
      f"{'berr':>10} {'verdict':7} {'x FP64':>7} {'GEMM TF/s':>9} {'of GEMM':>7}")
for p in ("bf16", "fp16", "fp8"):
    r = load(os.path.join(out, f"hpl-mxp-{p}-N{n}.json"))
    g = load(os.path.join(out, f"gemm-{p}.json"))
    gemm_tf = g["tflops"] if g else float("nan")
    if not r:
        print(f"{p:5} (no result)")
        continue
    tf, lutf = r["gflops"] / 1000, r["lu_gflops"] / 1000
    verdict = "PASSED" if r["passed"] else "FAILED"
    if not r.get("valid_submission", True):
        verdict += "*"
    print(f"{p:5} {tf:8.1f} {lutf:8.1f} {r['time_lu']:8.3f} {r['time_refine']:8.3f} {r['time_generate']:7.3f} "
          f"{r['iterations']:5d} {r['backward_error']:10.3e} {verdict:7} {tf / hpl_tf:7.2f} {gemm_tf:9.1f} "
          f"{100 * tf / gemm_tf:6.1f}%")
    res["mxp"][p] = {"tflops": tf, "lu_tflops": lutf, "time_lu": r["time_lu"], "time_refine": r["time_refine"],
                     "time_generate": r["time_generate"], "iterations": r["iterations"],
                     "backward_error": r["backward_error"], "passed": r["passed"], "over_hpl_fp64": tf / hpl_tf,
                     "gemm_tflops": gemm_tf, "fraction_of_gemm": tf / gemm_tf,
                     "valid_submission": r.get("valid_submission")}
if "fp8" in res["mxp"]:
    print("* fp8: not a valid HPL-MxP submission (the rules ask for at least 16 bits)")
print(f"FP64 HPL: {hpl_tf:.2f} TFLOP/s at N={res['hpl_fp64']['n']} ({'PASSED' if res['hpl_fp64']['passed'] else 'FAILED'})")
with open(os.path.join(out, "hpl-mxp-gpu.json"), "w") as f:
    json.dump(res, f, indent=2)
PY
exit $rc
