#!/usr/bin/env bash
# HPL on 1 GPU and on 2 GPUs (one MPI process per GPU), all measured in this run on this machine:
#   1. gpu500 hpl --backend cuda, 1 x 1 grid, order N1 (default 90000: ~60 GiB of [A|b]);
#   2. mpirun -np 2, grids 1 x 2 and 2 x 1, order N2 (default 127000: the same memory per GPU);
#      with four or more GPUs instead: mpirun -np 4, grids 1 x 4 (HPL_N4) and 2 x 2 (HPL_N22).
# Prints, per run, TFLOP/s, the residual and the efficiency per GPU = TFLOP/s / (GPUs x the
# single-GPU TFLOP/s of step 1); writes the HPL outputs and hpl-multigpu.json to OUT.
# The panel factorisation runs OpenMP threads: each rank gets nproc / ranks of them, unbound.
# HPL_ABLATE=1 adds a 1 x 2 run with --no-cuda-aware-mpi (panel broadcast through host memory).
# usage: bench/hpl/multigpu.sh BUILD OUT [N1] [N2] [NB] [extra gpu500 hpl flags...]
set -uo pipefail
BUILD=${1:?build dir}
OUT=${2:?out dir}
N1=${3:-90000}
N2=${4:-127000}
NB=${5:-384}
shift $(( $# < 5 ? $# : 5 ))
mkdir -p "$OUT"
bin=$BUILD/bin/gpu500
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
ngpu=${HPL_NGPU:-$(nvidia-smi -L 2>/dev/null | wc -l)}
dev=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
cores=$(nproc)
echo "device: ${ngpu} x ${dev:-unknown}, $cores cores  N1=$N1 N2=$N2 NB=$NB  $(date -u +%FT%TZ)"
rc=0
# run NAME RANKS P Q N
run() {
  local name=$1 np=$2 p=$3 q=$4 n=$5 o="$OUT/hpl-$1.out"
  if [ "$np" -eq 1 ]; then
    OMP_NUM_THREADS=$cores "$bin" hpl -N "$n" -NB "$NB" --backend cuda "${@:6}" >"$o" 2>&1 || rc=1
  else
    mpirun -np "$np" --bind-to none -x OMP_NUM_THREADS=$((cores / np)) -x OMPI_ALLOW_RUN_AS_ROOT \
      -x OMPI_ALLOW_RUN_AS_ROOT_CONFIRM "$bin" hpl -N "$n" -NB "$NB" -P "$p" -Q "$q" --backend cuda \
      "${@:6}" >"$o" 2>&1 || rc=1
  fi
  local row res
  row=$(grep -E '^W[RC]' "$o" | head -1)
  res=$(grep -E '^\|\|Ax-b' "$o" | head -1 | awk '{print $2, $4}')
  echo "$name|$np|$p|$q|$n|$(awk '{print $6, $7}' <<<"$row")|${res:-no residual}" >>"$OUT/hpl-multigpu.rows"
  [ -n "$row" ] || { echo "$name: no result"; tail -5 "$o"; }
}
: >"$OUT/hpl-multigpu.rows"
run gpu1-1x1 1 1 1 "$N1" "$@"
if [ "$ngpu" -ge 4 ]; then
  # Four GPUs: 1 x 4 at HPL_N4 (default 2 x N1: the memory per GPU of step 1) and 2 x 2 at
  # HPL_N22 (default N1; P = 2 stages its row swaps through the host, see docs/hpl.md).
  run gpu4-1x4 4 1 4 "${HPL_N4:-$((2 * N1))}" "$@"
  run gpu4-2x2 4 2 2 "${HPL_N22:-$N1}" "$@"
elif [ "$ngpu" -ge 2 ]; then
  run gpu2-1x2 2 1 2 "$N2" "$@"
  run gpu2-2x1 2 2 1 "$N2" "$@"
  # Ablation (HPL_ABLATE=1): 1 x 2 with the panel broadcast staged through host memory.
  [ "${HPL_ABLATE:-0}" = 1 ] && run gpu2-1x2-hostmpi 2 1 2 "$N2" --no-cuda-aware-mpi "$@"
else
  echo "only $ngpu GPU(s): the 2-GPU runs are skipped"
fi
python3 - "$OUT/hpl-multigpu.rows" "$OUT/hpl-multigpu.json" "${dev:-unknown}" "$NB" <<'PY'
import json, sys
rows = [l.strip().split("|") for l in open(sys.argv[1]) if l.strip()]
res, base = [], None
for name, np_, p, q, n, tg, rv in rows:
    t, g = (tg.split() + ["nan", "nan"])[:2]
    try:
        gf = float(g)
    except ValueError:
        gf = float("nan")
    np_ = int(np_)
    if np_ == 1 and base is None:
        base = gf
    resid, verdict = (rv.split() + ["", ""])[:2]
    eff = gf / (np_ * base) if base else float("nan")
    res.append({"run": name, "gpus": np_, "p": int(p), "q": int(q), "n": int(n), "time_s": t,
                "tflops": gf / 1000, "residual": resid, "verdict": verdict, "efficiency_per_gpu": eff})
    print(f"{name:10s} GPUs={np_} {p}x{q} N={n}: {gf/1000:7.2f} TFLOP/s  resid {resid} {verdict}  "
          f"efficiency/GPU {100*eff:.1f}%")
json.dump({"device": sys.argv[3], "nb": int(sys.argv[4]), "runs": res}, open(sys.argv[2], "w"), indent=2)
PY
exit $rc
