#!/usr/bin/env bash
# HPL-MxP on 1 GPU and on 2 and 4 GPUs (one MPI process per GPU), all measured in this run on
# this machine, N growing with the square root of the GPU count (the same matrix memory per GPU):
#   1. gpu500 hpl-mxp --backend cuda, 1 x 1, order N1 (default 120000), the baseline;
#   2. two GPUs: grids 1 x 2 and 2 x 1 at N2 = N1 sqrt(2) (a multiple of NB);
#   3. four GPUs (when the machine has them): 2 x 2 and 1 x 4 at N4 = 2 N1.
# Every run BF16 (the default precision) with NB (default 2048). Prints, per run, TFLOP/s in
# all and per GPU, the efficiency per GPU against step 1, the time split and the verdict; writes
# the outputs, hpl-mxp-multigpu.json and its table rows (table.txt, multigpu_rows.py) to OUT. HPL_MXP_MPI=1 adds the largest grids again with
# --no-nccl (MPI on device buffers instead of NCCL).
# usage: bench/hpl_mxp/multigpu.sh BUILD OUT [N1] [NB] [extra gpu500 hpl-mxp flags...]
set -uo pipefail
BUILD=${1:?build dir}
OUT=${2:?out dir}
N1=${3:-120000}
NB=${4:-2048}
shift $(($# < 4 ? $# : 4))
mkdir -p "$OUT"
bin=$BUILD/bin/gpu500
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
ngpu=$(nvidia-smi -L 2>/dev/null | wc -l)
dev=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
N2=$(python3 -c "print(round($N1 * 2 ** 0.5 / $NB) * $NB)")
N4=$((2 * N1))
echo "device: ${ngpu} x ${dev:-unknown}, $(nproc) cores  N1=$N1 N2=$N2 N4=$N4 NB=$NB  $(date -u +%FT%TZ)"
rc=0
# run NAME P Q N [flags...]
run() {
  local name=$1 p=$2 q=$3 n=$4
  shift 4
  local ranks=$((p * q))
  [ "$ranks" -le "$ngpu" ] || return 0
  timeout 600 mpirun --bind-to none -np "$ranks" "$bin" hpl-mxp -N "$n" -NB "$NB" -P "$p" -Q "$q" --backend cuda \
    --quiet --json "$OUT/$name.json" "$@" >"$OUT/$name.out" 2>&1 || rc=1
  grep -E 'PASSED|FAILED' "$OUT/$name.out" | head -1 | sed "s/^/$name: /"
}
run 1x1 1 1 "$N1" "$@"
run 1x2 1 2 "$N2" "$@"
run 2x1 2 1 "$N2" "$@"
run 2x2 2 2 "$N4" "$@"
run 1x4 1 4 "$N4" "$@"
if [ "${HPL_MXP_MPI:-0}" = 1 ]; then
  run 1x2-mpi 1 2 "$N2" --no-nccl "$@"
  run 2x2-mpi 2 2 "$N4" --no-nccl "$@"
fi
python3 - "$OUT" "${dev:-unknown}" "$ngpu" <<'PY' || rc=1
import json, os, sys
out, dev, ngpu = sys.argv[1], sys.argv[2], int(sys.argv[3])
def load(name):
    try:
        with open(os.path.join(out, name + ".json")) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None
base = load("1x1")
base_tf = base["gflops"] / 1000 if base else float("nan")
rows = []
print(f"{'grid':8} {'GPUs':>4} {'N':>7} {'TFLOP/s':>8} {'per GPU':>8} {'eff':>5} {'LU s':>7} {'GMRES s':>7} "
      f"{'gen s':>6} {'iters':>5} verdict")
for name in ("1x1", "1x2", "2x1", "2x2", "1x4", "1x2-mpi", "2x2-mpi"):
    r = load(name)
    if not r:
        continue
    gpus = r["p"] * r["q"]
    tf = r["gflops"] / 1000
    eff = tf / gpus / base_tf if base else float("nan")
    rows.append({"grid": name, "gpus": gpus, "n": r["n"], "nb": r["nb"], "tflops": tf, "tflops_per_gpu": tf / gpus,
                 "efficiency_per_gpu": eff, "time_lu": r["time_lu"], "time_refine": r["time_refine"],
                 "time_generate": r["time_generate"], "iterations": r["iterations"], "passed": r["passed"],
                 "backward_error": r["backward_error"]})
    print(f"{name:8} {gpus:4d} {r['n']:7d} {tf:8.1f} {tf / gpus:8.1f} {eff:5.2f} {r['time_lu']:7.2f} "
          f"{r['time_refine']:7.2f} {r['time_generate']:6.2f} {r['iterations']:5d} "
          f"{'PASSED' if r['passed'] else 'FAILED'}")
json.dump({"device": dev, "gpus": ngpu, "baseline_tflops": base_tf, "runs": rows},
          open(os.path.join(out, "hpl-mxp-multigpu.json"), "w"), indent=1)
if not rows or not all(r["passed"] for r in rows):
    sys.exit(1)
PY
python3 "$(dirname "$0")/multigpu_rows.py" "$OUT/hpl-mxp-multigpu.json" "hpl-mxp-${ngpu}gpu" >>"$OUT/table.txt" || rc=1
exit $rc
