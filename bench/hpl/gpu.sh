#!/usr/bin/env bash
# HPL on one GPU against its baselines, all measured in this run on this machine:
#   1. cuBLAS DGEMM in HPL's update shape (C(MxM) -= A(MxNB) B(NBxM), one column-major array);
#   2. gpu500 hpl --backend cuda at order N (HPL.out, --json, --timing);
#   3. cuSOLVER dgetrf + dgetrs at the same N on the same matrix.
# Prints a table and writes hpl-gpu.json, the HPL output and the per-iteration timing to OUT;
# bench/hpl/balance.py turns the timing into the balance-point table/plot.
# usage: bench/hpl/gpu.sh BUILD OUT [N] [NB] [extra gpu500 hpl flags...]
set -uo pipefail
BUILD=${1:?build dir}
OUT=${2:?out dir}
N=${3:-90000}
NB=${4:-384}
shift $(( $# < 4 ? $# : 4 ))
mkdir -p "$OUT"
bin=$BUILD/bin
dev=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
echo "device: ${dev:-unknown}  N=$N NB=$NB"
M=$(( N / 2 ))
dg=$("$bin/bench_hpl_baselines" dgemm "$M" "$M" "$NB" 3)
echo "$dg"
dg_gflops=$(sed -E 's/.*"gflops":([0-9.]+).*/\1/' <<<"$dg")
"$bin/gpu500" hpl -N "$N" -NB "$NB" --backend cuda --json "$OUT/hpl-gpu-N$N.json" \
  --timing "$OUT/hpl-gpu-timing-N$N.json" "$@" >"$OUT/hpl-gpu-N$N.out" 2>&1
rc=$?
cat "$OUT/hpl-gpu-N$N.out" | sed -n '/^T\/V/,/^====/p'
row=$(grep -E '^W[RC]' "$OUT/hpl-gpu-N$N.out" | head -1)
hpl_gflops=$(awk '{print $7}' <<<"$row")
verdict=$(grep -oE 'PASSED|FAILED' "$OUT/hpl-gpu-N$N.out" | head -1)
sv=$("$bin/bench_hpl_baselines" getrf "$N")
echo "$sv"
sv_gflops=$(sed -E 's/.*"gflops":([0-9.]+).*/\1/' <<<"$sv")
python3 - "$hpl_gflops" "$dg_gflops" "$sv_gflops" "$N" "$NB" "${dev:-unknown}" "$verdict" "$OUT/hpl-gpu.json" <<'PY'
import json, sys
h, d, s = (float(x) if x not in ("", None) else float("nan") for x in sys.argv[1:4])
n, nb, dev, verdict, path = int(sys.argv[4]), int(sys.argv[5]), sys.argv[6], sys.argv[7], sys.argv[8]
res = {"device": dev, "n": n, "nb": nb, "hpl_gflops": h, "residual": verdict, "dgemm_gflops": d,
       "cusolver_gflops": s, "hpl_over_dgemm": h / d, "hpl_over_cusolver": h / s}
json.dump(res, open(path, "w"), indent=2)
print(f"HPL {h/1000:.2f} TFLOP/s ({verdict}) | DGEMM {d/1000:.2f} TFLOP/s -> {100*h/d:.1f}% | "
      f"cuSOLVER {s/1000:.2f} TFLOP/s -> x{h/s:.2f}")
PY
[ -f "$OUT/hpl-gpu-timing-N$N.json" ] && python3 "$(dirname "$0")/balance.py" "$OUT/hpl-gpu-timing-N$N.json" \
  >"$OUT/hpl-balance-N$N.txt" 2>&1 && tail -12 "$OUT/hpl-balance-N$N.txt"
exit $rc
