#!/usr/bin/env bash
# Eight MPI ranks on the CPU backend, the size of the 8-GPU machines' runs: Graph500 (every
# search validated, num_mpi_processes 8, nedge and NBFS identical to one process), HPL on the
# 2 x 4, 4 x 2 and 1 x 8 grids (residual PASSED, odd N) and HPL-MxP on 2 x 4 (PASSED); with a
# GPU, HPL 2 x 4 and Graph500 on the CUDA backend with the eight ranks sharing it. Ranks are
# oversubscribed on small hosts, so the sizes are small; what is checked is that every piece of
# the distributed code runs and agrees at this rank count.
set -uo pipefail
bin=$1
# shellcheck source=tests/smoke/lib/mpi.sh
source "$(dirname "$0")/lib/mpi.sh"
mpi8() { OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 timeout 300 mpiexec --oversubscribe -n 8 "$bin" "$@"; }
fail() { echo "eight ranks: $*"; exit 1; }

# Graph500, SCALE 10, 4 keys: the one-process block's nedge/NBFS, every search valid.
"$bin" graph500 10 --backend cpu --roots 4 --quiet >"$tmp/one.txt" || fail "graph500 on one process"
mpi8 graph500 10 --backend cpu --roots 4 --quiet --json "$tmp/g.json" >"$tmp/g.txt" 2>"$tmp/g.err" ||
  { rc=$?; why "$tmp/g.err"; fail "graph500 exited $rc"; }
grep -q "^num_mpi_processes: *8$" "$tmp/g.txt" || fail "graph500: num_mpi_processes is not 8"
diff <(key "$tmp/one.txt") <(key "$tmp/g.txt") || fail "graph500: nedge/NBFS differ from one process"
python3 -c "import json,sys; j=json.load(open(sys.argv[1])); sys.exit(0 if j['valid'] and j['validated'] else 1)" \
  "$tmp/g.json" || fail "graph500: not every search validated"

# HPL on the three grids of eight.
for grid in "2 4" "4 2" "1 8"; do
  # shellcheck disable=SC2086
  set -- $grid
  mpi8 hpl -N 301 -NB 16 -P "$1" -Q "$2" --backend cpu >"$tmp/h.txt" 2>"$tmp/h.err" ||
    { rc=$?; why "$tmp/h.err"; fail "hpl $1 x $2 exited $rc"; }
  [ "$(grep -c 'PASSED$' "$tmp/h.txt")" -eq 1 ] || { cat "$tmp/h.txt"; fail "hpl $1 x $2: no PASSED residual"; }
done

# HPL-MxP on 2 x 4.
mpi8 hpl-mxp -N 301 -NB 16 -P 2 -Q 4 --backend cpu >"$tmp/m.txt" 2>"$tmp/m.err" ||
  { rc=$?; why "$tmp/m.err"; fail "hpl-mxp 2 x 4 exited $rc"; }
grep -q "PASSED" "$tmp/m.txt" || { cat "$tmp/m.txt"; fail "hpl-mxp 2 x 4: not PASSED"; }
# With a GPU: the CUDA backend's 2 x 4 HPL grid and Graph500 over eight ranks sharing it.
if "$bin" info 2>/dev/null | grep -q '^cuda device 0'; then
  mpi8 hpl -N 301 -NB 16 -P 2 -Q 4 --backend cuda --share-gpus >"$tmp/hc.txt" 2>"$tmp/hc.err" ||
    { rc=$?; why "$tmp/hc.err"; fail "hpl 2 x 4 on the GPU exited $rc"; }
  [ "$(grep -c 'PASSED$' "$tmp/hc.txt")" -eq 1 ] || { cat "$tmp/hc.txt"; fail "hpl 2 x 4 on the GPU: no PASSED"; }
  mpi8 graph500 10 --backend cuda --share-gpus --roots 4 --quiet --json "$tmp/gc.json" >"$tmp/gc.txt" 2>"$tmp/gc.err" ||
    { rc=$?; why "$tmp/gc.err"; fail "graph500 on the GPU exited $rc"; }
  diff <(key "$tmp/one.txt") <(key "$tmp/gc.txt") || fail "graph500 on the GPU: nedge/NBFS differ from one process"
  python3 -c "import json,sys; j=json.load(open(sys.argv[1])); sys.exit(0 if j['valid'] and j['validated'] else 1)" \
    "$tmp/gc.json" || fail "graph500 on the GPU: not every search validated"
fi
echo "eight ranks: ok"
