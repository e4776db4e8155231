#!/usr/bin/env bash
# Under `mpiexec -n 2`: an error every rank sees (a bad flag, a problem too large) is printed once;
# a command that runs on one process (bfs, sssp, convert, generate, hash, bellman-ford) refuses
# to start on two with exit 2 and one line; hpl-mxp's CUDA-only flags are refused on the CPU
# backend (on one process and on two).
set -uo pipefail
bin=$1
source "$(dirname "$0")/lib/mpi.sh"
cd "$tmp" || exit 1
fail=0
printf '0 1\n1 2\n' >k.txt
"$bin" generate 4 g.txt >/dev/null
mpi() { mpiexec --oversubscribe --bind-to none -n 2 "$@"; }
once() {  # once EXIT PATTERN ARGS...: exit code EXIT, exactly one gpu500 line, containing PATTERN
  local want=$1 pattern=$2 rc=0
  shift 2
  mpi "$bin" "$@" >out.txt 2>err.txt || rc=$?
  [ "$rc" -eq "$want" ] || { echo "FAIL: mpiexec -n 2 gpu500 $*: exit $rc, want $want ($(head -c 400 err.txt))"; fail=1; }
  [ "$(grep -c '^gpu500: error' err.txt)" -eq 1 ] || { echo "FAIL: mpiexec -n 2 gpu500 $*: want one error line, got: $(cat err.txt)"; fail=1; }
  grep -q -F -e "$pattern" err.txt || { echo "FAIL: mpiexec -n 2 gpu500 $*: '$(cat err.txt)' lacks '$pattern'"; fail=1; }
  [ ! -s out.txt ] || { echo "FAIL: mpiexec -n 2 gpu500 $*: stdout not empty: $(head -c 300 out.txt)"; fail=1; }
}
# Errors every rank sees, before and after MPI starts.
once 2 "unknown option '--bogus'" graph500 8 --bogus
once 2 "hpl: -N must be >= 0" hpl -N -5
once 2 "process grid 2 x 2 needs 4 processes, 2 running" hpl -N 100 -P 2 -Q 2 --backend cpu --quiet
once 3 "needs at least" hpl -N 9223372036854775807 -P 1 -Q 2 --backend cpu --quiet
# Commands of one process.
once 2 "gpu500 bfs runs on one process" bfs --graph k.txt
once 2 "gpu500 sssp runs on one process" sssp --graph g.txt
once 2 "gpu500 convert runs on one process" convert k.txt k2.txt
once 2 "gpu500 generate runs on one process" generate 4 g2.txt
once 2 "gpu500 hash runs on one process" hash static --keys 100
once 2 "gpu500 bellman-ford runs on one process" bellman-ford --n 64
[ ! -e k2.txt ] && [ ! -e g2.txt ] || { echo "FAIL: a refused command wrote its output"; fail=1; }
mpi "$bin" info >out.txt 2>&1 || { echo "FAIL: gpu500 info under mpiexec -n 2: $(cat out.txt)"; fail=1; }
# hpl-mxp: --share-gpus and --no-nccl apply to CUDA only.
for f in --share-gpus --no-nccl; do
  once 2 "hpl-mxp: $f applies to the CUDA backend only" hpl-mxp -N 256 -P 1 -Q 2 --backend cpu "$f"
  rc=0
  "$bin" hpl-mxp -N 256 --backend cpu "$f" >out.txt 2>err.txt || rc=$?
  [ "$rc" -eq 2 ] && [ "$(wc -l <err.txt)" -eq 1 ] || { echo "FAIL: hpl-mxp --backend cpu $f: exit $rc: $(cat err.txt)"; fail=1; }
done
exit $fail
