#!/usr/bin/env bash
# HPL on 1 GPU and on 2 and 4 GPUs (one MPI process per GPU), all measured in this run on this
# machine, N growing with the square root of the GPU count (the same memory per GPU):
#   1. gpu500 hpl --backend cuda, 1 x 1 grid, order N1 (default 90000: ~60 GiB of [A|b]);
#   2. two GPUs: grids 1 x 2 and 2 x 1, order N2 (default 127000);
#   3. four GPUs (when the machine has them): grids 1 x 4 and 2 x 2, order N4 (default 2 x N1).
# Prints, per run, TFLOP/s, the residual, how the GPUs exchanged and the efficiency per GPU =
# TFLOP/s / (GPUs x the single-GPU TFLOP/s of step 1); writes the HPL outputs, every run's
# --timing JSON (the balance point: bench/hpl/balance.py) and hpl-multigpu.json to OUT.
# NB "auto" (the default) takes the defaults table's NB and panel options for each grid: the
# runs are what `gpu500 hpl` does with no tuning flags.
# Extra runs (HPL_EXTRA, a list of names; HPL_ABLATE=1 means all of them):
#   gpu-panels  1 x 1 with every panel on the GPU (--gpu-panel N1), a second single-GPU baseline
#   cpu-panels  the largest 1 x Q with CPU panels (--gpu-panel 0 --no-gpu-panel-first)
#   mpi         the largest 1 x Q and 2 x 2 with MPI instead of NCCL (--no-nccl)
#   nb384 / nb1024  the largest 1 x Q and 2 x 2 with that NB
#   PxQ-nbNB    grid P x Q (at most the GPUs there are) at the N of its GPU count with that NB,
#               e.g. 2x1-nb768; PxQ-gpu-panels: that grid with every panel on the GPU
# The efficiency per GPU is given against the default single-GPU run and against the best one.
# Each rank gets cores / ranks OpenMP threads (the CPU panel), unbound.
# usage: bench/hpl/multigpu.sh BUILD OUT [N1] [N2] [NB|auto] [extra gpu500 hpl flags...]
set -uo pipefail
BUILD=${1:?build dir}
OUT=${2:?out dir}
N1=${3:-90000}
N2=${4:-127000}
NB=${5:-auto}
shift $(($# < 5 ? $# : 5))
N4=${HPL_N4:-$((2 * N1))}
mkdir -p "$OUT"
bin=$BUILD/bin/gpu500
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
ngpu=${HPL_NGPU:-$(nvidia-smi -L 2>/dev/null | wc -l)}
dev=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
cores=$(nproc)
echo "device: ${ngpu} x ${dev:-unknown}, $cores cores  N1=$N1 N2=$N2 N4=$N4 NB=$NB  $(date -u +%FT%TZ)"
nbflag=()
[ "$NB" = auto ] || nbflag=(-NB "$NB")
rc=0
# run NAME RANKS P Q N [flags...]
run() {
  local name=$1 np=$2 p=$3 q=$4 n=$5 o="$OUT/hpl-$1.out"
  shift 5
  local args=(hpl -N "$n" "${nbflag[@]}" -P "$p" -Q "$q" --backend cuda --quiet --timing "$OUT/timing-$name.json" "$@")
  if [ "$np" -eq 1 ]; then
    OMP_NUM_THREADS=$cores "$bin" "${args[@]}" >"$o" 2>&1 || rc=1
  else
    mpirun -np "$np" --bind-to none -x OMP_NUM_THREADS=$((cores / np)) -x OMPI_ALLOW_RUN_AS_ROOT \
      -x OMPI_ALLOW_RUN_AS_ROOT_CONFIRM "$bin" "${args[@]}" >"$o" 2>&1 || rc=1
  fi
  local row res xch nb
  row=$(grep -E '^W[RC]' "$o" | head -1)
  nb=$(awk '{print $3}' <<<"$row")
  res=$(grep -E '^\|\|Ax-b' "$o" | head -1 | awk '{print $2, $4}')
  xch=$(grep -o 'exchanges between the GPUs: [A-Za-z-]*' "$o" | head -1 | awk '{print $NF}')
  case $xch in NCCL) xch=nccl ;; CUDA-aware) xch=cuda-aware-mpi ;; through) xch=host ;; esac
  echo "$name|$np|$p|$q|$n|${nb:-?}|${xch:--}|$(awk '{print $6, $7}' <<<"$row")|${res:-no residual}|$*" >>"$OUT/hpl-multigpu.rows"
  [ -n "$row" ] || { echo "$name: no result"; tail -5 "$o"; }
}
: >"$OUT/hpl-multigpu.rows"
run gpu1-1x1 1 1 1 "$N1" "$@"
if [ "$ngpu" -ge 2 ]; then
  run gpu2-1x2 2 1 2 "$N2" "$@"
  run gpu2-2x1 2 2 1 "$N2" "$@"
fi
if [ "$ngpu" -ge 4 ]; then
  run gpu4-1x4 4 1 4 "$N4" "$@"
  run gpu4-2x2 4 2 2 "$N4" "$@"
fi
extra=${HPL_EXTRA:-}
[ "${HPL_ABLATE:-0}" = 1 ] && extra="gpu-panels cpu-panels mpi nb384 nb1024"
want() { [[ " $extra " == *" $1 "* ]]; }
want gpu-panels && run gpu1-1x1-gpu-panels 1 1 1 "$N1" --gpu-panel "$N1" --gpu-panel-first "$@"
if [ "$ngpu" -ge 2 ]; then
  big=2 nq=2 nbig=$N2
  [ "$ngpu" -ge 4 ] && big=4 nq=4 nbig=$N4
  want cpu-panels && run "gpu$big-1x$nq-cpu-panels" "$big" 1 "$nq" "$nbig" --gpu-panel 0 --no-gpu-panel-first "$@"
  want mpi && run "gpu$big-1x$nq-mpi" "$big" 1 "$nq" "$nbig" --no-nccl "$@"
  want mpi && [ "$ngpu" -ge 4 ] && run gpu4-2x2-mpi 4 2 2 "$N4" --no-nccl "$@"
  for nbx in 384 1024; do
    want "nb$nbx" || continue
    run "gpu$big-1x$nq-nb$nbx" "$big" 1 "$nq" "$nbig" -NB "$nbx" "$@"
    [ "$ngpu" -ge 4 ] && run "gpu4-2x2-nb$nbx" 4 2 2 "$N4" -NB "$nbx" "$@"
  done
fi
for item in $extra; do  # PxQ-nbNB, PxQ-gpu-panels
  [[ $item =~ ^([0-9]+)x([0-9]+)-(nb[0-9]+|gpu-panels)$ ]] || continue
  p=${BASH_REMATCH[1]} q=${BASH_REMATCH[2]} what=${BASH_REMATCH[3]} np=$((BASH_REMATCH[1] * BASH_REMATCH[2]))
  case $np in 1) n=$N1 ;; 2) n=$N2 ;; 4) n=$N4 ;; *) echo "$item: $np GPUs, not 1, 2 or 4"; continue ;; esac
  [ "$np" -le "$ngpu" ] || { echo "$item: needs $np GPUs"; continue; }
  if [ "$what" = gpu-panels ]; then
    run "gpu$np-${p}x$q-gpu-panels" "$np" "$p" "$q" "$n" --gpu-panel "$n" --gpu-panel-first "$@"
  else
    run "gpu$np-${p}x$q-$what" "$np" "$p" "$q" "$n" -NB "${what#nb}" "$@"
  fi
done
[ "$ngpu" -ge 2 ] || echo "only $ngpu GPU(s): the multi-GPU runs are skipped"
python3 - "$OUT/hpl-multigpu.rows" "$OUT/hpl-multigpu.json" "${dev:-unknown}" <<'PY'
import json, sys
rows = [l.rstrip("\n").split("|") for l in open(sys.argv[1]) if l.strip()]
res, base, best = [], None, None
for r in rows:  # the best single-GPU run
    try:
        g = float((r[7].split() + ["nan", "nan"])[1])
    except ValueError:
        continue
    if r[1] == "1" and g == g and (best is None or g > best):
        best = g
for name, np_, p, q, n, nb, xch, tg, rv, flags in rows:
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
    eff_best = gf / (np_ * best) if best else float("nan")
    res.append({"run": name, "gpus": np_, "p": int(p), "q": int(q), "n": int(n), "nb": nb, "exchange": xch,
                "flags": flags, "time_s": t, "tflops": gf / 1000, "residual": resid, "verdict": verdict,
                "efficiency_per_gpu": eff, "efficiency_vs_best_1gpu": eff_best})
    print(f"{name:22s} GPUs={np_} {p}x{q} N={n} NB={nb} {xch:5s}: {gf/1000:7.2f} TFLOP/s  resid {resid} {verdict}"
          f"  efficiency/GPU {100*eff:.1f}% (vs the best 1 GPU {100*eff_best:.1f}%)")
json.dump({"device": sys.argv[3], "runs": res}, open(sys.argv[2], "w"), indent=2)
PY
exit $rc
