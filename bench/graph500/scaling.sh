#!/usr/bin/env bash
# Multi-GPU scaling of the whole Graph500 run (`gpu500 graph500 --backend cuda`, every search
# validated), one MPI rank per GPU, all runs in one call on one host:
#   weak:   SCALE S on 1 GPU, S+1 on 2, S+2 on 4 (as many as the host has);
#   strong: SCALE S on 1, 2 and 4 GPUs;
#   ranks-1: SCALE S on 1 GPU through the pipeline over ranks (--one-rank-partition): its engines
#            against the one-process engines of weak-1 on the same graph and keys, no exchange.
# The 1-GPU run is the one-process engine (the baseline); 2 and 4 GPUs are the distributed
# pipeline. Each run's JSON (with the per-level trace of its last BFS and SSSP) is kept in OUT;
# bench/graph500/scaling_table.py prints the table (GTEPS, weak-scaling efficiency, the trace's
# compute / communication split).
#   bash bench/graph500/scaling.sh GPU500 OUT [S] [ROOTS]
# Environment: SCALING_TIMEOUT (seconds per run, default 300), SCALING_GPUS ("1 2 4": the counts
# to run, capped by the GPUs present), SCALING_KINDS ("weak ranks strong": which of the runs
# above), SCALING_FLAGS (extra gpu500 graph500 flags).
set -uo pipefail
bin=$1 out=$2 s=${3:-24} roots=${4:-16}
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
gpus=$(nvidia-smi -L 2>/dev/null | wc -l)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
status=0
run() {  # name ranks scale [flags...]
  local name=$1 r=$2 scale=$3 start rc
  shift 3
  start=$(date +%s.%N)
  # shellcheck disable=SC2086
  if [ "$r" = 1 ]; then
    timeout "${SCALING_TIMEOUT:-300}" "$bin" graph500 "$scale" --backend cuda --roots "$roots" --quiet \
      --json "$out/$name.json" ${SCALING_FLAGS:-} "$@" >"$out/$name.txt" 2>&1
  else
    # Each rank gets its share of the cores (OpenMP's default, every core in every rank,
    # oversubscribes the host r times).
    timeout "${SCALING_TIMEOUT:-300}" mpirun --bind-to none -np "$r" -x OMP_NUM_THREADS=$(($(nproc) / r)) \
      "$bin" graph500 "$scale" --backend cuda \
      --roots "$roots" --quiet --json "$out/$name.json" ${SCALING_FLAGS:-} "$@" >"$out/$name.txt" 2>&1
  fi
  rc=$?
  echo "$name ranks=$r scale=$scale rc=$rc wall=$(python3 -c "import time; print('%.0f' % (time.time() - $start))")s" |
    tee -a "$out/runs.txt"
  [ $rc -eq 0 ] || status=1
}
: >"$out/runs.txt"
for r in ${SCALING_GPUS:-1 2 4}; do
  [ "$r" -le "$gpus" ] || continue
  case $r in 1) w=$s ;; 2) w=$((s + 1)) ;; 4) w=$((s + 2)) ;; *) w=$s ;; esac
  kinds=${SCALING_KINDS:-weak ranks strong}
  grep -qw weak <<<"$kinds" && run "weak-$r" "$r" "$w"
  [ "$r" = 1 ] && grep -qw ranks <<<"$kinds" && run "ranks-1" 1 "$s" --one-rank-partition
  [ "$r" = 1 ] || ! grep -qw strong <<<"$kinds" || run "strong-$r" "$r" "$s"
done
python3 "$here/scaling_table.py" "$out"
exit $status
