#!/usr/bin/env bash
# `gpu500 hpl-mxp`: a small run on the CPU (and on every precision of the CUDA backend where a GPU
# is present) prints the HPL-MxP result block with PASSED and writes its JSON; too few GMRES
# iterations end in FAILED with exit code 1; bad input exits 2 with one line on stderr and
# nothing on stdout (fp8 on the CPU, fp8 with NB not a multiple of 16 or on a GPU without FP8);
# a matrix that cannot fit exits 3; P x Q grids run under mpiexec, on the CPU and on GPUs; an fp8
# run says it is no valid submission, on stdout and in the JSON. Every option of the command
# runs here.
set -euo pipefail
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

expect_passed() {  # output file
  grep -q '^ ||Ax-b||_oo / (EPS \* (||A||_oo \* ||x||_oo + ||b||_oo) \* N) = .* PASSED$' "$1" \
    || { echo "no PASSED line"; cat "$1"; exit 1; }
  grep -q 'GFLOPS = .* The HPL-MxP performance to report' "$1"
  grep -q '^Time spent in factorization' "$1"
  grep -q '^GMRES iterations' "$1"
}

# CPU: odd N and NB, quiet (nothing on stderr), JSON.
"$bin" hpl-mxp -N 333 -NB 37 -P 1 -Q 1 --backend cpu --precision fp32 --max-iters 30 --quiet \
  --json "$tmp/mxp.json" >"$tmp/out" 2>"$tmp/err"
cat "$tmp/out"
expect_passed "$tmp/out"
[[ ! -s "$tmp/err" ]] || { echo "--quiet wrote to stderr"; cat "$tmp/err"; exit 1; }
grep -q '"passed": true' "$tmp/mxp.json"
grep -q '"benchmark": "hpl-mxp"' "$tmp/mxp.json"
grep -q '"n": 333' "$tmp/mxp.json"
grep -q '"valid_submission": true' "$tmp/mxp.json"
! grep -q 'not a valid HPL-MxP submission' "$tmp/out" || { echo "fp32 run called invalid"; exit 1; }
grep -Eq '"iterations": [1-9]' "$tmp/mxp.json"
for key in device time_generate time_lu time_refine time_total gflops backward_error norm_a norm_x; do
  grep -q "\"$key\":" "$tmp/mxp.json" || { echo "JSON lacks $key"; exit 1; }
done
# Without --quiet: the stage lines on stderr; default NB and precision on the CPU.
"$bin" hpl-mxp -N 200 --backend cpu >"$tmp/out" 2>"$tmp/err"
expect_passed "$tmp/out"
grep -q '^hpl-mxp: GMRES refinement' "$tmp/err"
grep -q '^NB        : 256$' "$tmp/out"
# One GMRES iteration is the FP32 LU solution alone: FAILED, exit code 1 (not a hang).
rc=0
"$bin" hpl-mxp -N 300 --backend cpu --max-iters 1 --quiet >"$tmp/out" 2>&1 || rc=$?
[[ $rc -eq 1 ]] || { echo "--max-iters 1: expected exit 1, got $rc"; cat "$tmp/out"; exit 1; }
grep -q '\.\.\.\.\.\. FAILED$' "$tmp/out"

# Bad input: exit 2, one line on stderr, nothing on stdout.
bad() {
  local rc=0
  "$bin" hpl-mxp "$@" >"$tmp/bout" 2>"$tmp/berr" || rc=$?
  [[ $rc -eq 2 ]] || { echo "hpl-mxp $*: expected exit 2, got $rc"; cat "$tmp/bout" "$tmp/berr"; exit 1; }
  [[ ! -s "$tmp/bout" ]] || { echo "hpl-mxp $*: wrote to stdout"; exit 1; }
  [[ $(wc -l <"$tmp/berr") -eq 1 ]] || { echo "hpl-mxp $*: not one line"; cat "$tmp/berr"; exit 1; }
}
bad -N -5 --backend cpu
bad -N 100 -NB 0 --backend cpu
bad -N 100 --backend cpu --precision fp8
grep -q 'fp8 needs the cuda backend' "$tmp/berr" || { echo "fp8 on the cpu: wrong reason"; cat "$tmp/berr"; exit 1; }
bad -N 100 --backend cpu --precision fp4
bad -N 100 --backend cpu --precision bf16
bad -N 100 --backend cpu --precision fp16
bad -N 100 --backend cpu -P 2   # a 2 x 1 grid needs two processes
bad -N 100 --backend cpu -Q 0
bad -N 100 --backend cpu --max-iters 0
bad -N 100 --backend cpu --json /nonexistent-dir/x.json
bad -N 100 --backend opencl
bad -N 100 --no-such-flag
# Does not fit: exit 3 before any output.
rc=0
"$bin" hpl-mxp -N 2000000000 --backend cpu >"$tmp/out" 2>"$tmp/err" || rc=$?
[[ $rc -eq 3 ]] || { echo "huge N: expected exit 3, got $rc"; cat "$tmp/err"; exit 1; }
[[ ! -s "$tmp/out" ]]
"$bin" hpl-mxp --help | grep -q -- '--precision'
"$bin" hpl-mxp -h | grep -q -- '--max-iters'

# P x Q grids over MPI (CPU backend): 2 x 2 and 1 x 3, PASSED and the grid in the result; a grid
# that does not match the processes started is refused (exit 2).
if "$bin" info | grep -q '^mpi: yes' && command -v mpiexec >/dev/null; then
  mpi() { local n=$1; shift; timeout 300 mpiexec --oversubscribe --bind-to none -n "$n" "$bin" "$@"; }
  mpi 4 hpl-mxp -N 301 -NB 16 -P 2 -Q 2 --backend cpu --quiet --json "$tmp/grid.json" >"$tmp/out" 2>&1
  expect_passed "$tmp/out"
  grep -q 'NPROW = 2, NPCOL = 2' "$tmp/out"
  grep -q '"p": 2' "$tmp/grid.json"
  mpi 3 hpl-mxp -N 200 -NB 37 -P 1 -Q 3 --backend cpu --quiet >"$tmp/out" 2>&1
  expect_passed "$tmp/out"
  rc=0
  mpi 2 hpl-mxp -N 100 --backend cpu >"$tmp/out" 2>&1 || rc=$?
  [[ $rc -eq 2 ]] || { echo "2 processes, 1 x 1 grid: expected exit 2, got $rc"; cat "$tmp/out"; exit 1; }
  grep -q 'needs 1 processes, 2 were started' "$tmp/out"
fi

# CUDA: every precision, odd N, several panels, against the same verdict.
if "$bin" info | grep -q '^cuda device 0'; then
  sm=$("$bin" info | sed -n 's/^cuda device 0: .*, sm_\([0-9]*\),.*/\1/p')
  precisions="bf16 fp16 fp32"
  if [[ ${sm:-0} -ge 89 ]]; then precisions="$precisions fp8"; fi
  for p in $precisions; do
    "$bin" hpl-mxp -N 3001 -NB 512 --backend cuda --precision $p --quiet --json "$tmp/cuda-$p.json" >"$tmp/out"
    cat "$tmp/out"
    expect_passed "$tmp/out"
    grep -q "\"precision\": \"$p\"" "$tmp/cuda-$p.json"
    grep -Eq '"iterations": [1-9]' "$tmp/cuda-$p.json"
    if [[ $p == fp8 ]]; then
      # Below the rules' 16 bits: PASSED by the backward error, but said to be no valid submission.
      grep -q '^   fp8: not a valid HPL-MxP submission (the rules ask for at least 16 bits)$' "$tmp/out" \
        || { echo "fp8 run not marked invalid"; exit 1; }
      grep -q '"valid_submission": false' "$tmp/cuda-$p.json"
      grep -q 'PRECISION = fp8' "$tmp/out"
    else
      grep -q '"valid_submission": true' "$tmp/cuda-$p.json"
      ! grep -q 'not a valid HPL-MxP submission' "$tmp/out" || { echo "$p run called invalid"; exit 1; }
    fi
  done
  # fp8: NB a multiple of 16 (cuBLASLt's FP8 GEMM); a GPU below compute capability 8.9 refuses it.
  bad -N 1000 -NB 100 --backend cuda --precision fp8
  grep -q 'multiple of 16' "$tmp/berr" || { echo "fp8 NB 100: wrong reason"; cat "$tmp/berr"; exit 1; }
  if [[ ${sm:-0} -lt 89 ]]; then
    bad -N 1000 -NB 128 --backend cuda --precision fp8
    grep -q 'compute capability 8.9' "$tmp/berr"
  fi
  "$bin" hpl-mxp -N 2048 --backend cuda --quiet >"$tmp/out"  # default NB and precision (bf16)
  expect_passed "$tmp/out"
  grep -q 'PRECISION = bf16' "$tmp/out"
  # P x Q grids of GPUs: ranks sharing the node's GPUs (--share-gpus), NCCL where each has its
  # own, MPI with --no-nccl; more ranks than GPUs without --share-gpus is refused (exit 2).
  if "$bin" info | grep -q '^mpi: yes' && command -v mpiexec >/dev/null; then
    gpus=$("$bin" info | grep -c '^cuda device ')
    mpi 2 hpl-mxp -N 3001 -NB 256 -P 1 -Q 2 --backend cuda --share-gpus --quiet --json "$tmp/cgrid.json" >"$tmp/out" 2>&1
    expect_passed "$tmp/out"
    grep -q 'NPROW = 1, NPCOL = 2' "$tmp/out"
    grep -q '"q": 2' "$tmp/cgrid.json"
    mpi 3 hpl-mxp -N 2000 -NB 192 -P 3 -Q 1 --backend cuda --share-gpus --no-nccl --precision fp16 --quiet >"$tmp/out" 2>&1
    expect_passed "$tmp/out"
    if [[ ${sm:-0} -ge 89 ]]; then
      mpi 2 hpl-mxp -N 3001 -NB 256 -P 2 -Q 1 --backend cuda --share-gpus --precision fp8 --quiet >"$tmp/out" 2>&1
      expect_passed "$tmp/out"
      grep -q 'fp8: not a valid HPL-MxP submission' "$tmp/out"
    fi
    if [[ $gpus -lt 4 ]]; then
      rc=0
      mpi 4 hpl-mxp -N 1000 -P 2 -Q 2 --backend cuda --quiet >"$tmp/out" 2>&1 || rc=$?
      [[ $rc -eq 2 ]] || { echo "4 ranks on $gpus GPU(s) without --share-gpus: expected exit 2, got $rc"; cat "$tmp/out"; exit 1; }
      grep -q 'one process per GPU' "$tmp/out"
    fi
  fi
fi
echo "hpl-mxp smoke: ok"
