#!/usr/bin/env bash
# A/B of the CUDA backend's variants at one N on one GPU, with the baselines measured in the same
# run: cuBLAS DGEMM in the update shape (N/2 x N/2 x NB) and cuSOLVER getrf + getrs at N first,
# then every variant (the library's HPL through bench_hpl_baselines: only gpu500_hpl needs to be built;
# each under HPL_AB_TIMEOUT seconds, default 120).
# Variants: HPL_AB="label:key=value,key=value label2:..." (keys of `bench_hpl_baselines hpl`; default:
# tail-getrf off and at three thresholds). Writes OUT/hpl-ab.json, OUT/hpl-ab.txt and per-variant
# timing JSON (OUT/ab-<label>.timing.json), and the balance table of each (OUT/ab-<label>.balance.txt).
# usage: [HPL_AB=...] [HPL_COMMIT=id] bench/hpl/ab.sh BUILD OUT [N] [NB]
set -uo pipefail
BUILD=${1:?build dir}
OUT=${2:?out dir}
N=${3:-95000}
NB=${4:-384}
mkdir -p "$OUT"
bin=$BUILD/bin
here=$(dirname "$0")
dev=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
AB=${HPL_AB:-"base:tail=0 tail16k:tail=16384 tail24k:tail=24576 tail32k:tail=32768"}
lines="$OUT/hpl-ab.lines"
: >"$lines"
echo "device: ${dev:-unknown}  N=$N NB=$NB  commit ${HPL_COMMIT:-unknown}" | tee "$OUT/hpl-ab.txt"
M=$(( N / 2 ))
timeout 60 "$bin/bench_hpl_baselines" dgemm "$M" "$M" "$NB" 3 | tee -a "$lines"
timeout 90 "$bin/bench_hpl_baselines" getrf "$N" | tee -a "$lines"
for v in $AB; do
  label=${v%%:*}
  args=$(tr ',' ' ' <<<"${v#*:}")
  # shellcheck disable=SC2086
  timeout "${HPL_AB_TIMEOUT:-120}" "$bin/bench_hpl_baselines" hpl "$N" "$NB" label="$label" timing="$OUT/ab-$label.timing.json" $args |
    tee -a "$lines"
  python3 "$here/balance.py" "$OUT/ab-$label.timing.json" >"$OUT/ab-$label.balance.txt" 2>&1 &&
    grep -E "^time|^balance" "$OUT/ab-$label.balance.txt"
done
python3 - "$lines" "$N" "$NB" "${dev:-unknown}" "$OUT/hpl-ab.json" <<'PY' | tee -a "$OUT/hpl-ab.txt"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
n, nb, dev, path = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
dg = next((r["gflops"] for r in rows if r["bench"] == "dgemm"), float("nan"))
sv = next((r["gflops"] for r in rows if r["bench"] == "cusolver_getrf_getrs"), float("nan"))
runs = [r for r in rows if r["bench"] == "hpl"]
for r in runs:
    r["over_dgemm"], r["over_cusolver"] = r["gflops"] / dg, r["gflops"] / sv
    print(f"{r['label']:>12}: {r['gflops']/1000:6.2f} TFLOP/s {r['seconds']:7.3f} s resid {r['resid']:.3e} "
          f"{'PASSED' if r['passed'] else 'FAILED'} | {100*r['over_dgemm']:.1f}% of DGEMM | x{r['over_cusolver']:.2f} cuSOLVER")
print(f"DGEMM {n//2}^2 x {nb}: {dg/1000:.2f} TFLOP/s; cuSOLVER getrf+getrs N={n}: {sv/1000:.2f} TFLOP/s")
json.dump({"device": dev, "n": n, "nb": nb, "dgemm_gflops": dg, "cusolver_gflops": sv, "runs": runs},
          open(path, "w"), indent=2)
PY
