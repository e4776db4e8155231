#!/usr/bin/env bash
# Every engine flag means the same at every rank count on the CPU backend: for each flag of
# `gpu500 graph500 --help` that tunes an engine (every flag but the run's own, listed below), the
# one-process run `graph500 12 --backend cpu FLAG` is tried; where it is accepted and validates
# (a search that fails validation ends the run with exit 1),
# `mpiexec -n 2` of the same command must too, with the same edge counts; where it is refused
# (exit 2), two ranks must refuse it with exit 2 as well. A flag new to the help and absent from
# the value table below fails the test, so that it is added here.
set -uo pipefail
bin=$1
# shellcheck source=tests/smoke/lib/mpi.sh
source "$(dirname "$0")/lib/mpi.sh"
mpi() { local n=$1; shift; env -u OMP_NUM_THREADS timeout 300 mpiexec --oversubscribe -n "$n" "$bin" "$@"; }

# The run's own flags (not an engine's), and the flags of runs over several ranks.
run_flags=" --kernels --roots --seed --initiator --no-validate --skip-bfs --quiet --progress --energy --json --backend \
 --share-gpus --no-nccl --no-cuda-aware-mpi --one-rank-partition --help "
# A valid value for every value-taking engine flag ("" for a switch).
declare -A value=(
  [--vertex-bits]=32 [--bfs-alpha]=10 [--bfs-beta]=20 [--bfs-threads]=1 [--no-direction-optimizing]=""
  [--sssp]=delta [--sssp-delta]=0.05 [--sssp-threads]=1 [--sssp-no-light-heavy]="" [--sssp-no-relabel]=""
  # CUDA builds: the CUDA engines' flags (refused on the CPU backend at every rank count).
  [--bfs]=enterprise [--no-ts]="" [--no-wb]="" [--no-hc]="" [--no-hub-cache]="" [--no-device-loop]=""
  [--no-bitmap]="" [--no-sort]="" [--hub-threshold]=100 [--priority-degree]=100 [--gamma]=0.3 [--bfs-sm-share]=1
  [--device]=0 [--sssp-no-sorted-rows]="" [--sssp-no-persistent]="" [--sssp-no-pull]="" [--sssp-no-device-loop]=""
)
flags=$("$bin" graph500 --help | grep -oE '^ +--[a-z0-9-]+' | tr -d ' ')
[ -n "$flags" ] || { echo "no flags in graph500 --help"; exit 1; }
checked=0
for f in $flags; do
  [[ "$run_flags" == *" $f "* ]] && continue
  [[ -v "value[$f]" ]] || { echo "$f: an engine flag this test has no value for; add it to the table"; exit 1; }
  args=(graph500 12 --backend cpu --roots 2 --quiet "$f")
  [ -n "${value[$f]}" ] && args+=("${value[$f]}")
  "$bin" "${args[@]}" >"$tmp/one.txt" 2>"$tmp/one.err"
  one=$?
  mpi 2 "${args[@]}" >"$tmp/two.txt" 2>"$tmp/two.err"
  two=$?
  if [ "$one" -eq 2 ]; then
    [ "$two" -eq 2 ] || { echo "$f: refused by one process, exit $two over 2 ranks"; cat "$tmp/two.err"; exit 1; }
  elif [ "$one" -ne 0 ]; then
    echo "$f: one process exit $one"; cat "$tmp/one.err"; exit 1
  else
    [ "$two" -eq 0 ] || { echo "$f: accepted by one process, exit $two over 2 ranks"; head -5 "$tmp/two.err"; exit 1; }
    grep -q "^num_mpi_processes: *2$" "$tmp/two.txt" || { echo "$f: no output block over 2 ranks"; exit 1; }
    diff <(key "$tmp/one.txt") <(key "$tmp/two.txt") >/dev/null ||
      { echo "$f: nedge/NBFS differ between one process and 2 ranks"; exit 1; }
  fi
  checked=$((checked + 1))
done
[ "$checked" -ge 10 ] || { echo "only $checked engine flags found"; exit 1; }
# Where a CUDA device is present: the CUDA BFS and SSSP are one engine each at every rank count,
# so their flags run over 2 ranks (sharing the GPU) and validate, but --no-bitmap, --device and
# --no-sort, which the pipeline over ranks cannot honour, are refused with the reason.
if "$bin" info | grep -c '^cuda device 0:' >/dev/null; then
  mpi 2 graph500 12 --backend cuda --share-gpus --roots 2 --quiet --gamma 0.2 --no-wb --no-hub-cache \
    >/dev/null 2>"$tmp/cuda.err" || { echo "CUDA BFS flags over 2 ranks"; cat "$tmp/cuda.err"; exit 1; }
  for f in "--sssp bellman-ford" "--sssp-no-sorted-rows --sssp-no-pull" "--sssp-no-persistent --sssp-no-device-loop"; do
    # shellcheck disable=SC2086  # the flags split on purpose
    mpi 2 graph500 12 --backend cuda --share-gpus --roots 2 --quiet --kernels sssp $f >/dev/null 2>"$tmp/cuda.err" ||
      { echo "CUDA SSSP flags $f over 2 ranks"; cat "$tmp/cuda.err"; exit 1; }
  done
  refused() {  # WHY FLAG [VALUE]: 2 ranks refuse FLAG with exit 2, the reason naming WHY
    local why=$1
    shift
    mpi 2 graph500 12 --backend cuda --share-gpus --roots 2 --quiet "$@" >/dev/null 2>"$tmp/refused.err"
    local rc=$?
    [ "$rc" -eq 2 ] && grep -q -- "$1 does not apply.*$why" "$tmp/refused.err" ||
      { echo "$* over 2 ranks: exit $rc"; cat "$tmp/refused.err"; exit 1; }
  }
  refused visited --no-bitmap
  refused "GPU k" --device 0        # the one-process pipeline's GPU; over ranks, the rank's own
  refused "degree order" --no-sort  # the BFS over ranks always orders its rows
else
  echo "no CUDA device: the CUDA engines' flags over ranks are not run"
fi
echo "$checked engine flags: the same verdict on 1 and 2 ranks"
