#!/usr/bin/env bash
# `mpiexec -n R gpu500 graph500 SCALE` runs one Graph500 run over R ranks (any R, odd included):
# every search validated (distributed validator), num_mpi_processes = R, and the nedge figures and
# NBFS identical to the one-process run (the same graph and the same search keys). A SCALE small
# enough that some ranks own no edge runs too. Flags the distributed pipelines do not implement,
# and the distributed-only flags on one rank or on the CPU backend, are refused with exit 2 on
# every rank. Where a GPU is present, 2 and 3 ranks share it (--share-gpus), with and without
# CUDA-aware MPI (--no-cuda-aware-mpi) and with every heavy arc pushed (--sssp-no-pull), and one
# rank per GPU is required otherwise. Ranks that share cores get their share of OpenMP threads, and
# an explicit OMP_NUM_THREADS that oversubscribes them is named in one warning.
set -uo pipefail
bin=$1
# shellcheck source=tests/smoke/lib/mpi.sh
source "$(dirname "$0")/lib/mpi.sh"
# The program's own thread rule (the host's cores over its ranks) rather than the tests' fixed two
# per process: R ranks of two spinning threads on fewer cores crawl.
mpi() { local n=$1; shift; env -u OMP_NUM_THREADS timeout 300 mpiexec --oversubscribe -n "$n" "$bin" "$@"; }

# SCALE ROOTS RANKS...: each rank count against the one-process block (ROOTS "-": the default).
check_scale() {
  local scale=$1 roots=()
  [ "$2" != - ] && roots=(--roots "$2")
  shift 2
  "$bin" graph500 "$scale" --backend cpu "${roots[@]}" --quiet >"$tmp/one.txt" || { echo "one process, SCALE $scale failed"; exit 1; }
  for r in "$@"; do
    mpi "$r" graph500 "$scale" --backend cpu "${roots[@]}" --quiet --json "$tmp/r$r.json" >"$tmp/r$r.txt" 2>"$tmp/r$r.err" ||
      { echo "$r ranks, SCALE $scale: exit $?"; why "$tmp/r$r.err"; exit 1; }
    grep -q "^num_mpi_processes: *$r$" "$tmp/r$r.txt" || { echo "$r ranks: num_mpi_processes"; cat "$tmp/r$r.txt"; exit 1; }
    [ "$(wc -l <"$tmp/r$r.txt")" -eq 55 ] || { echo "$r ranks: the output block is not 55 lines (printed once)"; exit 1; }
    diff <(key "$tmp/one.txt") <(key "$tmp/r$r.txt") >/dev/null ||
      { echo "$r ranks, SCALE $scale: nedge/NBFS differ from one process"; diff <(key "$tmp/one.txt") <(key "$tmp/r$r.txt"); exit 1; }
    python3 - "$tmp/r$r.json" "$r" <<'PY' || exit 1
import json, sys
j = json.load(open(sys.argv[1]))
assert j["valid"], "invalid run"
t = j["trace"]
assert t["bfs"] and t["sssp"], "empty trace"
ranks = int(sys.argv[2])
for e in t["bfs"] + t["sssp"]:
    for k in ("level", "direction", "frontier", "bytes", "compute_seconds", "comm_seconds"):
        assert k in e, k
    # Every rank's seconds, rank 0's first.
    for k in ("compute_seconds", "comm_seconds"):
        by_rank = e[k + "_by_rank"]
        assert len(by_rank) == ranks, (k, by_rank)
        assert by_rank[0] == e[k] and min(by_rank) >= 0, (k, e)
PY
  done
}
check_scale 11 16 2 3 4
check_scale 3 - 4  # 8 vertices over 4 ranks: some own no edge
# The engine flags the distributed pipelines implement, over 3 ranks.
mpi 3 graph500 9 --backend cpu --quiet --no-direction-optimizing --bfs-alpha 10 --bfs-beta 20 --bfs-threads 1 --vertex-bits 64 --sssp-delta 0.2 \
  --sssp-no-light-heavy >"$tmp/flags.txt" || { echo "3 ranks with engine flags failed"; exit 1; }
grep -q "^num_mpi_processes: *3$" "$tmp/flags.txt" || { echo "engine flags run: no block"; exit 1; }
mpi 3 graph500 8 --backend cpu --quiet --sssp-no-relabel >"$tmp/flags.txt" || { echo "3 ranks, --sssp-no-relabel failed"; exit 1; }

refused() {  # RANKS PATTERN ARGS...: exit 2 and the message
  local r=$1 pattern=$2; shift 2
  local err rc
  if [ "$r" -eq 1 ]; then err=$("$bin" "$@" 2>&1 >/dev/null); rc=$?; else err=$(mpi "$r" "$@" 2>&1 >/dev/null); rc=$?; fi
  [ "$rc" -eq 2 ] || { echo "$r ranks, $*: exit $rc, expected 2 ($err)"; exit 1; }
  grep -q -e "$pattern" <<<"$err" || { echo "$r ranks, $*: message lacks '$pattern': $err"; exit 1; }
}
# --vertex-bits over ranks, as on one process: the rows' ids of that width, the same searches.
for bits in 32 64; do
  mpi 3 graph500 9 --backend cpu --quiet --vertex-bits $bits --json "$tmp/bits$bits.json" >"$tmp/bits$bits.txt" ||
    { echo "3 ranks, --vertex-bits $bits failed"; exit 1; }
  grep -q "$bits-bit vertex ids" "$tmp/bits$bits.json" || { echo "3 ranks, --vertex-bits $bits: not in the backend's description"; exit 1; }
done
diff <(key "$tmp/bits32.txt") <(key "$tmp/bits64.txt") >/dev/null || { echo "--vertex-bits 32 and 64 differ over 3 ranks"; exit 1; }
# The trace's table (bench/graph500/levels.py): a row per BFS level and a sum, the SSSP by phase.
# (Each table is read whole before grep looks: `| grep -q` could close the pipe on an early match,
# and levels.py's next line would then fail with a broken pipe under pipefail.)
levels=$(dirname "$0")/../../bench/graph500/levels.py
grep -q "^  sum" <<<"$(python3 "$levels" "$tmp/bits32.json")" || { echo "levels.py: no BFS table"; exit 1; }
grep -q "^light" <<<"$(python3 "$levels" "$tmp/bits32.json" sssp)" || { echo "levels.py: no SSSP table"; exit 1; }
refused 2 "needs 64-bit vertex ids" graph500 33 --backend cpu --quiet --vertex-bits 32
# One process through the pipeline over ranks (--one-rank-partition): a one-rank run, the same
# searches as the one-process pipeline; the flags of several ranks still refused on one.
"$bin" graph500 9 --backend cpu --quiet >"$tmp/plain.txt" || { echo "graph500 9 failed"; exit 1; }
"$bin" graph500 9 --backend cpu --quiet --one-rank-partition --json "$tmp/orp.json" >"$tmp/orp.txt" ||
  { echo "--one-rank-partition failed"; exit 1; }
grep -q "^num_mpi_processes: *1$" "$tmp/orp.txt" || { echo "--one-rank-partition: no output block of one rank"; exit 1; }
grep -q '"backend": *"mpi cpu, 1 ranks' "$tmp/orp.json" || { echo "--one-rank-partition: not the pipeline over ranks"; exit 1; }
diff <(key "$tmp/plain.txt") <(key "$tmp/orp.txt") >/dev/null ||
  { echo "--one-rank-partition: nedge/NBFS differ from one process"; exit 1; }
refused 1 "several MPI ranks" graph500 8 --backend cpu --quiet --one-rank-partition --no-nccl
refused 2 "CUDA backend only" graph500 8 --backend cpu --quiet --share-gpus
refused 2 "CUDA backend only" graph500 8 --backend cpu --quiet --no-cuda-aware-mpi
refused 1 "several MPI ranks" graph500 8 --backend cpu --quiet --share-gpus
refused 1 "several MPI ranks" graph500 8 --backend cpu --quiet --no-cuda-aware-mpi
refused 2 "CUDA backend only" graph500 8 --backend cpu --quiet --no-nccl
refused 1 "several MPI ranks" graph500 8 --backend cpu --quiet --no-nccl
# A build without CUDA does not know --sssp-no-pull at all (an unknown flag, also exit 2).
if grep -q -e --sssp-no-pull <<<"$("$bin" graph500 --help 2>&1)"; then
  refused 2 "CUDA backend only" graph500 8 --backend cpu --quiet --sssp-no-pull
else
  refused 2 "unknown option '--sssp-no-pull'" graph500 8 --backend cpu --quiet --sssp-no-pull
fi

# OpenMP teams of ranks that share cores (two ranks pinned to one core): left unset, each rank
# takes its share (one thread) and nothing is said; an explicit team that oversubscribes the
# core is kept and named in one warning for the host.
if command -v taskset >/dev/null; then
  pinned() { taskset -c 0 timeout 120 mpiexec --oversubscribe --bind-to none -n 2 "$bin" graph500 4 --backend cpu --roots 1 \
               --quiet --no-validate 2>&1 >/dev/null; }
  said=$(env -u OMP_NUM_THREADS bash -c "$(declare -f pinned); bin='$bin' pinned") || { echo "pinned ranks failed: $said"; exit 1; }
  ! grep -q "warning" <<<"$said" || { echo "the thread rule oversubscribed: $said"; exit 1; }
  said=$(OMP_NUM_THREADS=2 bash -c "$(declare -f pinned); bin='$bin' pinned") || { echo "pinned ranks, 2 threads, failed: $said"; exit 1; }
  [ "$(grep -c "gpu500: warning: 2 ranks of this host run 4 OpenMP threads on 1 core: oversubscribed" <<<"$said")" -eq 1 ] ||
    { echo "no single oversubscription warning: $said"; exit 1; }
  grep -q "OMP_NUM_THREADS to at most 1" <<<"$said" || { echo "the warning lacks the team that fits: $said"; exit 1; }
fi

if "$bin" info 2>/dev/null | grep -c "^cuda device 0:" >/dev/null; then
  "$bin" graph500 10 --backend cuda --roots 8 --quiet >"$tmp/gpu1.txt" || { echo "one GPU run failed"; exit 1; }
  for r in 2 3; do
    mpi "$r" graph500 10 --backend cuda --roots 8 --quiet --share-gpus >"$tmp/g$r.txt" 2>"$tmp/g$r.err" ||
      { echo "$r ranks sharing a GPU failed"; why "$tmp/g$r.err"; exit 1; }
    diff <(key "$tmp/gpu1.txt") <(key "$tmp/g$r.txt") >/dev/null || { echo "$r ranks on the GPU: nedge differ"; exit 1; }
  done
  # Every heavy arc pushed (no bucket pulls): the same searches, validated.
  mpi 3 graph500 10 --backend cuda --roots 8 --quiet --share-gpus --sssp-no-pull >"$tmp/gp.txt" ||
    { echo "3 ranks, --sssp-no-pull, failed"; exit 1; }
  diff <(key "$tmp/gpu1.txt") <(key "$tmp/gp.txt") >/dev/null || { echo "--sssp-no-pull: nedge differ"; exit 1; }
  mpi 2 graph500 10 --backend cuda --roots 8 --quiet --share-gpus --no-cuda-aware-mpi >"$tmp/gs.txt" ||
    { echo "2 ranks, staged exchange, failed"; exit 1; }
  diff <(key "$tmp/gpu1.txt") <(key "$tmp/gs.txt") >/dev/null || { echo "staged exchange: nedge differ"; exit 1; }
  gpus=$(nvidia-smi -L 2>/dev/null | wc -l)
  # The GPUs the program sees: CUDA_VISIBLE_DEVICES narrows what nvidia-smi lists.
  # (awk, not grep -c: an empty list counts 0 and still exits 0, as errexit would want)
  if [ -n "${CUDA_VISIBLE_DEVICES+set}" ]; then
    gpus=$(awk -F, '{ n = 0; for (i = 1; i <= NF; i++) if ($i != "") n++; print n }' <<<"$CUDA_VISIBLE_DEVICES")
  fi
  # One rank per GPU where the host has several: NCCL between them (the default), then MPI.
  if [ "$gpus" -ge 2 ]; then
    for how in "" --no-nccl; do
      mpi 2 graph500 10 --backend cuda --roots 8 --quiet $how >"$tmp/gn.txt" 2>"$tmp/gn.err" ||
        { echo "2 ranks on 2 GPUs $how failed"; why "$tmp/gn.err"; exit 1; }
      diff <(key "$tmp/gpu1.txt") <(key "$tmp/gn.txt") >/dev/null || { echo "2 GPUs $how: nedge differ"; exit 1; }
    done
  fi
  if [ "$gpus" -ge 1 ]; then
    refused $((gpus + 1)) "GPU" graph500 8 --backend cuda --quiet
  fi
fi
echo "graph500 over MPI ranks: ok"
