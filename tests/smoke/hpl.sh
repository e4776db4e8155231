#!/usr/bin/env bash
# `gpu500 hpl` end to end: an HPL.dat with several values runs every combination and each one
# passes its residual check; the short form and every one of its options work; bad input and
# options that cannot apply (short-form options with HPL.dat, CUDA options on the CPU backend,
# 1 x 1 techniques on a larger grid) exit 2 with one line; under mpirun (when present) a 1x2 grid
# passes; with a GPU the CUDA techniques run and pass. Also: the progress line (and --quiet),
# --tune writing an HPL.dat that runs, bench/hpl/balance.py on a timing file, placement under mpirun.
set -euo pipefail
bin=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
cat >HPL.dat <<'DAT'
HPLinpack benchmark input file
Innovative Computing Laboratory, University of Tennessee
HPL.out      output file name (if any)
6            device out (6=stdout,7=stderr,file)
2            # of problems sizes (N)
97 200       Ns
2            # of NBs
16 32        NBs
0            PMAP process mapping (0=Row-,1=Column-major)
1            # of process grids (P x Q)
1            Ps
1            Qs
16.0         threshold
2            # of panel fact
0 2          PFACTs (0=left, 1=Crout, 2=Right)
1            # of recursive stopping criterium
4            NBMINs (>= 1)
1            # of panels in recursion
2            NDIVs
1            # of recursive panel fact.
1            RFACTs (0=left, 1=Crout, 2=Right)
1            # of broadcast
1            BCASTs (0=1rg,1=1rM,2=2rg,3=2rM,4=Lng,5=LnM)
2            # of lookahead depth
0 1          DEPTHs (>=0)
2            SWAP (0=bin-exch,1=long,2=mix)
64           swapping threshold
0            L1 in (0=transposed,1=no-transposed) form
0            U  in (0=transposed,1=no-transposed) form
1            Equilibration (0=no,1=yes)
8            memory alignment in double (> 0)
DAT
out=$("$bin" hpl --backend cpu 2>read.txt)
grep -q '^hpl: reading ./HPL.dat, found in this directory' read.txt  # read without being named: said
[ "$(grep -c 'PASSED$' <<<"$out")" -eq 16 ] || { echo "$out"; echo "expected 16 PASSED"; exit 1; }
grep -q 'Finished     16 tests with the following results:' <<<"$out"
grep -q '^WR01C2L4' <<<"$out"
# Output to a file (device out = 8).
sed -i 's/^6            device out/8            device out/' HPL.dat
"$bin" hpl -i HPL.dat --backend cpu >/dev/null
grep -q 'End of Tests.' HPL.out
# Short form with JSON.
out=$("$bin" hpl -N 150 -NB 24 --pfact crout --rfact left --bcast 2ring --swap long --depth 0 --backend cpu \
  --json r.json --timing t.json)
grep -q '^WR02L2C4 ' <<<"$out"
grep -q '"passed": true' r.json
grep -q '"iterations"' t.json
# The balance point from the timing file (text only: no matplotlib needed).
bal=$(python3 "$src/bench/hpl/balance.py" t.json --no-plot)
grep -q '^crossing point: ' <<<"$bal" || { echo "$bal"; exit 1; }
# Progress on stderr (not a terminal: about one line per 10 % of the flops, ending at 100 %).
"$bin" hpl -N 400 -NB 16 --backend cpu >/dev/null 2>prog.txt
n=$(grep -c '^hpl: N=400 NB=16 .*% of the flops, .* TFLOP/s, .* left$' prog.txt)
[ "$n" -ge 5 ] && [ "$n" -le 11 ] || { cat prog.txt; echo "expected 5..11 progress lines"; exit 1; }
grep -q '100.0% of the flops' prog.txt
"$bin" hpl -N 400 -NB 16 --backend cpu --quiet >/dev/null 2>prog.txt
[ ! -s prog.txt ] || { cat prog.txt; echo "--quiet printed"; exit 1; }
# --tune: one line per NB around -NB, the winner as an HPL.dat that runs and passes.
out=$("$bin" hpl -N 200 -NB 64 --backend cpu --tune --tune-output tuned.dat)
[ "$(grep -c '^hpl --tune: NB .* PASSED$' <<<"$out")" -eq 3 ] || { echo "$out"; exit 1; }
grep -q 'best NB' tuned.dat
"$bin" hpl -i tuned.dat --backend cpu --quiet | grep -c 'PASSED$' >/dev/null
"$bin" hpl -N 100 --backend cpu --tune --quiet >/dev/null && [ -f HPL.dat.tuned ]
# Bad input: exit 2 and one line.
set +e
printf 'x\ny\nHPL.out\n6\n0 # of Ns\n' >bad.dat
"$bin" hpl -i bad.dat 2>err.txt; rc=$?
set -e
[ "$rc" -eq 2 ] || { echo "bad HPL.dat exited $rc"; exit 1; }
[ "$(wc -l <err.txt)" -eq 1 ] && grep -q 'line 5' err.txt
set +e
"$bin" hpl -i missing.dat 2>/dev/null; rc=$?
set -e
[ "$rc" -eq 2 ]
set +e
"$bin" hpl -N 10 -P 2 -Q 2 --backend cpu >/dev/null 2>&1; rc=$?  # grid larger than the world
set -e
[ "$rc" -eq 2 ] || { echo "too large a grid exited $rc"; exit 1; }
# Every short-form option (the rest above).
out=$("$bin" hpl -N 120 -NB 16 -P 1 -Q 1 --pmap col --nbmin 2 --ndiv 3 --swap-threshold 8 --threshold 20 \
  --backend cpu)
grep -q '^WC11C3R2 ' <<<"$out" && grep -q 'PASSED$' <<<"$out"
# usage_error: exit 2 and exactly one line on stderr.
expect_usage() {
  set +e
  "$bin" hpl "$@" >/dev/null 2>err.txt
  local rc=$?
  set -e
  [ "$rc" -eq 2 ] && [ "$(wc -l <err.txt)" -eq 1 ] || { echo "hpl $* exited $rc:"; cat err.txt; exit 1; }
}
expect_usage -N 10 --panel-gemm-gpu -1 --backend cpu
expect_usage -N 10 --pfact sideways --backend cpu
expect_usage -i HPL.dat -NB 32 --backend cpu  # a short-form option with HPL.dat
expect_usage -N 50 --tune-output x.dat --backend cpu  # without --tune
expect_usage -N 50 --tune --tune-output no/such/dir/x.dat --backend cpu
expect_usage -i HPL.dat --tune --backend cpu  # --tune takes the short form
expect_usage --tune --backend cpu  # ... and would read the ./HPL.dat found here: said
grep -q 'HPL.dat is in this directory' err.txt
expect_usage -N 50 --gpu-panel-first --no-gpu-panel-first --backend cuda
# The CUDA options on the CPU backend.
for opt in --no-swap-stream "--tail-getrf 100" "--gpu-panel 100" --gpu-panel-first --no-gpu-panel-first \
  "--panel-gemm-gpu 8" --no-cuda-aware-mpi --no-nccl --share-gpus; do
  # shellcheck disable=SC2086
  expect_usage -N 50 -NB 8 $opt --backend cpu
  grep -q -- "${opt%% *} applies to the CUDA backend only" err.txt
done
info=$("$bin" info)
if grep -q '^cuda device 0' <<<"$info"; then
  # The 1 x 1 techniques on a P x Q grid, the swap pipeline's on P > 1, --no-cuda-aware-mpi
  # without Q > 1, --no-nccl on 1 x 1.
  for opt in "--tail-getrf 100" "--panel-gemm-gpu 8"; do
    # shellcheck disable=SC2086
    expect_usage -N 50 -NB 8 -P 1 -Q 2 $opt --backend cuda
    grep -q -- "${opt%% *} applies to a 1 x 1 grid only (grid 1 x 2)" err.txt
  done
  expect_usage -N 50 -NB 8 -P 2 -Q 1 --no-swap-stream --backend cuda
  grep -q -- "--no-swap-stream applies to grids with P = 1 only" err.txt
  expect_usage -N 50 -NB 8 --no-cuda-aware-mpi --backend cuda
  expect_usage -N 50 -NB 8 --no-nccl --backend cuda
  # The CUDA techniques run and pass.
  "$bin" hpl -N 400 -NB 64 --backend cuda | grep -c 'PASSED$' >/dev/null
  "$bin" hpl -N 400 -NB 64 --tail-getrf 100 --gpu-panel 200 --panel-gemm-gpu 8 --backend cuda | grep -c 'PASSED$' >/dev/null
  "$bin" hpl -N 400 -NB 64 --tail-getrf 0 --gpu-panel-first --no-swap-stream --backend cuda | grep -c 'PASSED$' >/dev/null
  # The device's defaults (no -NB: the table's NB), with one of them switched off, and --tune.
  "$bin" hpl -N 3000 --no-gpu-panel-first --backend cuda 2>err.txt | grep -c 'PASSED$' >/dev/null
  grep -q '^hpl: defaults for ' err.txt
  "$bin" hpl -N 3000 --backend cuda --tune --tune-output gpu.dat | grep -c 'best NB' >/dev/null
fi
if command -v mpirun >/dev/null && grep -q '^mpi: yes' <<<"$info"; then
  out=$(OMP_NUM_THREADS=1 mpirun -np 2 --oversubscribe "$bin" hpl -N 300 -NB 16 -P 1 -Q 2 --backend cpu 2>err.txt)
  grep -q 'PASSED$' <<<"$out"
  grep -q '^hpl: rank 1 (node rank 1 of 2): CPU backend, cores' err.txt || { cat err.txt; exit 1; }
  [ "$(grep -c '^gpu500 .* hpl  --  High-Performance Linpack benchmark' <<<"$out")" -eq 1 ]  # printed once, by rank 0
  if grep -q '^cuda device 0' <<<"$info"; then
    # Panel broadcast through host memory: MPI without CUDA awareness (--no-nccl, or two GPUs would
    # take NCCL), ranks sharing the GPU where the host has one.
    out=$(OMP_NUM_THREADS=1 mpirun -np 2 --oversubscribe "$bin" hpl -N 300 -NB 16 -P 1 -Q 2 --backend cuda \
      --no-cuda-aware-mpi --no-nccl --share-gpus 2>err.txt)
    grep -q 'PASSED$' <<<"$out"
    grep -q 'exchanges between the GPUs: through pinned host memory' err.txt || { cat err.txt; exit 1; }
    # The GPU panel on a 1 x 2 grid, MPI between the GPUs (--no-nccl), and 2 x 1 (row swaps).
    out=$(OMP_NUM_THREADS=1 mpirun -np 2 --oversubscribe "$bin" hpl -N 300 -NB 16 -P 1 -Q 2 --backend cuda \
      --gpu-panel 200 --gpu-panel-first --no-nccl --share-gpus)
    grep -q 'PASSED$' <<<"$out"
    # 2 x 1 (row swaps): GPU panels need NCCL, so ranks sharing a GPU (a host of one GPU) factor
    # them on the CPU and say so; with a GPU each the panels stay on the GPUs, over NCCL.
    out=$(OMP_NUM_THREADS=1 mpirun -np 2 --oversubscribe "$bin" hpl -N 300 -NB 16 -P 2 -Q 1 --backend cuda \
      --gpu-panel 300 --share-gpus 2>err.txt)
    grep -q 'PASSED$' <<<"$out"
    if grep -q '^cuda device 1' <<<"$info"; then
      grep -q '2 x 1 grid of GPU processes; exchanges between the GPUs: NCCL' err.txt || { cat err.txt; exit 1; }
    else
      grep -q 'the panels are factored on the CPU' err.txt || { cat err.txt; exit 1; }
    fi
    if ! grep -q '^cuda device 1' <<<"$info"; then  # one GPU, two ranks: refused without --share-gpus
      set +e
      OMP_NUM_THREADS=1 mpirun -np 2 --oversubscribe "$bin" hpl -N 300 -NB 16 -P 1 -Q 2 --backend cuda >/dev/null 2>err.txt
      rc=$?
      set -e
      [ "$rc" -ne 0 ] && grep -q -- '--share-gpus' err.txt || { cat err.txt; exit 1; }
    fi
  fi
fi
echo "hpl smoke: ok"
